# attnscope, French: page
