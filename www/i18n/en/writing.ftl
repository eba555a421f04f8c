# attnscope, English: writing
