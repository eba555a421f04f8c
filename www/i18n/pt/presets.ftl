# attnscope, Portuguese: presets
