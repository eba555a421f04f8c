# attnscope, Portuguese: lesson
