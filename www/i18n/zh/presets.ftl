# attnscope, Simplified Chinese: presets
