# attnscope, English: presets
