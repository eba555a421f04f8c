# attnscope, English: listening
