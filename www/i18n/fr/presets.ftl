# attnscope, French: presets
