# attnscope, Spanish: files
