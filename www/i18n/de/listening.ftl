# attnscope, German: listening
