# attnscope, French: analyses
