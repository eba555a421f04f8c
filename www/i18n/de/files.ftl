# attnscope, German: files
