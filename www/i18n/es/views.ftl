# attnscope, Spanish: views
