# attnscope, English: analyses
