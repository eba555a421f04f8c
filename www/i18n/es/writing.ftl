# attnscope, Spanish: writing
