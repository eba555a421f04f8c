# attnscope, Simplified Chinese: analyses
