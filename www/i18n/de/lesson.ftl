# attnscope, German: lesson
