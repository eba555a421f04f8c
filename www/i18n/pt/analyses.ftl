# attnscope, Portuguese: analyses
