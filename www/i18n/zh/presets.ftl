# attnscope, Simplified Chinese: presets

preset-picker-label = 示例
preset-choose = 选择一个句子…
preset-english-group = 英文句子

preset-pair = “{ $query }”→“{ $key }”在第 { $layer } 层第 { $head } 个头最强：权重 { $weight }
preset-measure = “{ $measure }”最强：第 { $layer } 层第 { $head } 个头（{ $value }）
preset-induction = 归纳最强：第 { $layer } 层第 { $head } 个头（平均权重 { $value }）
preset-switch = 最适合用 { $model }（需下载 { $size } MB）— 切换
preset-multilingual = MiniLM 和 SmolLM2 是用英文文本训练的：这个句子最好从文件打开 Qwen2.5 或 Gemma 3 等多语言模型。

# 英文句子：引用的词保持英文。
preset-fluffy-label = 毛茸茸的蓝色生物
preset-fluffy-note = 名词会聚集它的形容词：跟着“creature”，看它关注哪些词。
preset-animal-label = “it”指谁？（动物）
preset-animal-note = “it”关注哪个词？把“tired”改成“wide”，再看一次。
preset-trophy-label = “it”指谁？（奖杯）
preset-trophy-note = 同一个问题换个角度：把“big”改成“small”，“it”会转向“suitcase”吗？
preset-capital-label = 法国的首都是…
preset-capital-note = 解码器猜下一个 token：SmolLM2 把“ Paris”排在第一。哪些头把“France”带到最后一个 token？
preset-repeat-label = 重复一遍的随机序列
preset-repeat-note = 前一 token 头点亮对角线正下方的那条线；归纳头让第二遍中的每个词去看第一遍时紧跟在它后面的词。
preset-sink-label = 第一个 token 的汇聚
preset-sink-note = 无事可做的头把权重停放在第一个 token 上，即“注意力汇聚”：找一找明亮的第一列。

preset-pt-criatura-label = 葡萄牙语：蓝色毛茸茸的生物
preset-pt-criatura-note = 葡萄牙语的形容词放在名词后面：跟着“criatura”，看它关注哪些词。译成英文后形容词移到前面：看看交叉注意力。
preset-pt-cachorro-label = 葡萄牙语：“ele”指谁？（狗）
preset-pt-cachorro-note = “ele”关注“cachorro”吗？把“ele estava muito cansado”改成“ela era estreita demais”：阴性代词现在指向“rua”。
preset-pt-gatos-label = 葡萄牙语：黑猫（翻译）
preset-pt-gatos-note = “gatos pretos”译成“black cats”：在交叉注意力中，英文词以相反的顺序看葡萄牙语词。“gatos”关注哪些词？
preset-pt-capital-label = 葡萄牙语：葡萄牙的首都是…
preset-pt-capital-note = 解码器猜下一个 token：“ Lisboa”在 SmolLM2 的候选里吗？哪些头把“Portugal”带到最后一个 token？
preset-pt-sequencia-label = 葡萄牙语：重复一遍的随机序列
preset-pt-sequencia-note = 这些词没有意义，用英文训练的模型也照样复制：前一 token 头点亮对角线下方的线；归纳头让第二遍中的每个词去看第一遍时紧跟在它后面的词。

preset-es-criatura-label = 西班牙语：蓝色毛茸茸的生物
preset-es-criatura-note = 西班牙语的形容词放在名词后面：编码器让“criatura”向后看到它们，而解码器的因果掩码会把它们挡住。“criatura”关注哪些词？
preset-es-perro-label = 西班牙语：谁累了？（狗）
preset-es-perro-note = 西班牙语省略了代词：“cansado”关注哪个词？把它改成“ancha”：阴性词尾现在指向“calle”。
preset-es-capital-label = 西班牙语：西班牙的首都是…
preset-es-capital-note = 解码器猜下一个 token：“ Madrid”在 SmolLM2 的候选里吗？哪些头把“España”带到最后一个 token？
preset-es-secuencia-label = 西班牙语：重复一遍的随机序列
preset-es-secuencia-note = 这些词没有意义，用英文训练的模型也照样复制：前一 token 头点亮对角线下方的线；归纳头让第二遍中的每个词去看第一遍时紧跟在它后面的词。
preset-es-sumidero-label = 西班牙语：第一个 token 的汇聚
preset-es-sumidero-note = 在任何语言里，无事可做的头都把权重停放在第一个 token 上，即“注意力汇聚”：找一找明亮的第一列。

preset-fr-creature-label = 法语：蓝色毛茸茸的生物
preset-fr-creature-note = 法语的形容词放在名词后面：编码器让“créature”向后看到它们，而解码器的因果掩码会把它们挡住。“créature”关注哪些词？
preset-fr-jane-label = 法语：Jane 九月去非洲
preset-fr-jane-note = 课程里的例子：“l'Afrique”的表示由它周围的词构成。“Afrique”关注“visite”吗？还是“septembre”？
preset-fr-chat-label = 法语：“il”指谁？（猫）
preset-fr-chat-note = “il”关注“chat”吗？把“qu'il était trop fatigué”改成“qu'elle était trop large”：阴性代词现在指向“rue”。
preset-fr-capitale-label = 法语：法国的首都是…
preset-fr-capitale-note = 解码器猜下一个 token：“ Paris”在 SmolLM2 的候选里吗？哪些头把“France”带到最后一个 token？
preset-fr-sequence-label = 法语：重复一遍的随机序列
preset-fr-sequence-note = 这些词没有意义，用英文训练的模型也照样复制：前一 token 头点亮对角线下方的线；归纳头让第二遍中的每个词去看第一遍时紧跟在它后面的词。

preset-de-wesen-label = 德语：毛茸茸的蓝色生物
preset-de-wesen-note = 和英语一样，形容词放在名词前面，词尾与名词一致：跟着“Wesen”，看它关注哪些词。
preset-de-vogel-label = 德语：“er”指谁？（鸟）
preset-de-vogel-note = “er”和“Vogel”一样是阳性，而“Katze”是阴性：“er”关注“Vogel”吗？把“er zu schnell”改成“sie zu langsam”，再看一次。
preset-de-pokal-label = 德语：“er”指谁？（奖杯）
preset-de-pokal-note = 这里语法性别帮不上忙：“Pokal”和“Koffer”都是阳性。把“groß”改成“klein”，“er”会转向“Koffer”吗？
preset-de-hauptstadt-label = 德语：德国的首都是…
preset-de-hauptstadt-note = 解码器猜下一个 token：“ Berlin”在 SmolLM2 的候选里吗？哪些头把“Deutschland”带到最后一个 token？
preset-de-folge-label = 德语：重复一遍的随机序列
preset-de-folge-note = 这些词没有意义，用英文训练的模型也照样复制：前一 token 头点亮对角线下方的线；归纳头让第二遍中的每个词去看第一遍时紧跟在它后面的词。

preset-zh-shengwu-label = 毛茸茸的蓝色小生物
preset-zh-shengwu-note = 和英语一样，形容词放在名词前面，用“的”连接：跟着“生物”，看它关注哪些词。
preset-zh-xiaomao-label = “它”指谁？（小猫）
preset-zh-xiaomao-note = “它”关注“小猫”吗？把“太累了”改成“太宽了”，再看一次。
preset-zh-shoudu-label = 中国的首都是…
preset-zh-shoudu-note = 解码器猜下一个 token：“北京”在候选里吗？哪些头把“中国”带到最后一个 token？
preset-zh-xulie-label = 重复一遍的随机序列
preset-zh-xulie-note = 这些词没有意义，用英文训练的模型也照样逐字节复制：前一 token 头点亮对角线下方的线；归纳头让第二遍中的每个 token 去看第一遍时紧跟在它后面的 token。
