# attnscope, German: presets
