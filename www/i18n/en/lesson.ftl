# attnscope, English: lesson
