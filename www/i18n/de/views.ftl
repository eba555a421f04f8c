# attnscope, German: views
