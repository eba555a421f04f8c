# attnscope, Portuguese: page
