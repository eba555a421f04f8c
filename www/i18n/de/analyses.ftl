# attnscope, German: analyses
