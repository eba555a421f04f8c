# attnscope, English: files
