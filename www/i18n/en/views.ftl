# attnscope, English: views
