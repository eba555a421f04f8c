# attnscope, Spanish: page
