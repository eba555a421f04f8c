# attnscope, Portuguese: files
