# attnscope, Spanish: presets
