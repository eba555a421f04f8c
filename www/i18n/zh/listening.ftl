# attnscope, Simplified Chinese: listening
