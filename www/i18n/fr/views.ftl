# attnscope, French: views
