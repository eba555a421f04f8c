# attnscope, Simplified Chinese: page
