# attnscope, French: writing
