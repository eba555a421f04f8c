# attnscope, French: lesson
