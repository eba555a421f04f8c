# attnscope, German: page
