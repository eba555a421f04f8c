# attnscope, Portuguese: writing
