# attnscope, French: listening
