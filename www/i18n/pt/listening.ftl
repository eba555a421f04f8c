# attnscope, Portuguese: listening
