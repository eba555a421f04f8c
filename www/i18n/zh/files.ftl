# attnscope, Simplified Chinese: files
