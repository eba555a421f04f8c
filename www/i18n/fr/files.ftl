# attnscope, French: files
