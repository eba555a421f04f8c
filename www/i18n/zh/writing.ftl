# attnscope, Simplified Chinese: writing
