# attnscope, Spanish: listening
