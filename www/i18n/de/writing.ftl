# attnscope, German: writing
