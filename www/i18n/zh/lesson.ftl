# attnscope, Simplified Chinese: lesson
