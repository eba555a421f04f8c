# attnscope, Spanish: lesson
