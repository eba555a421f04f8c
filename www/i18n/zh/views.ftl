# attnscope, Simplified Chinese: views
