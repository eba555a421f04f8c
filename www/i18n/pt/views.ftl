# attnscope, Portuguese: views
