# attnscope, Spanish: analyses
