# attnscope, English: presets

# The preset picker.
preset-picker-label = Preset
preset-choose = Choose a sentence…
# In other languages than English, the group of the English presets in the picker.
preset-english-group = English sentences

# The preset's note: the heads that show it best on this run.
preset-pair = “{ $query }” → “{ $key }” is strongest in layer { $layer }, head { $head }: weight { $weight }
# $measure is the name of a column of the head catalog.
preset-measure = Strongest “{ $measure }”: layer { $layer }, head { $head } ({ $value })
preset-induction = Strongest induction: layer { $layer }, head { $head } (mean weight { $value })
# $model is a model's name; $size a number of megabytes.
preset-switch = Best with { $model } ({ $size } MB download) — switch
# Under the note of a sentence in another language than English.
preset-multilingual = MiniLM and SmolLM2 were trained on English text: for this sentence, open a multilingual model such as Qwen2.5 or Gemma 3 from files.

# English presets. The sentences stay in English: labels and notes quote their words.
preset-fluffy-label = The fluffy blue creature
preset-fluffy-note = Nouns gather their adjectives: follow “creature” and see which words it attends to.
preset-animal-label = What is “it”? (the animal)
preset-animal-note = What does “it” attend to? Change “tired” to “wide” and look again.
preset-trophy-label = What is “it”? (the trophy)
preset-trophy-note = The same question with a twist: change “big” to “small” — does “it” move to “suitcase”?
preset-capital-label = The capital of France is …
preset-capital-note = A decoder guesses the next token: SmolLM2 lists “ Paris” first. Which heads bring “France” to the last token?
preset-repeat-label = A random sequence, repeated
preset-repeat-note = Previous-token heads light the line just below the diagonal; induction heads make each word of the second copy look at the word that followed it the first time.
preset-sink-label = The first-token sink
preset-sink-note = Heads with nothing to do park their weight on the first token, the “attention sink”: look for a bright first column.

# Portuguese presets (sentences in Portuguese, quoted as they are).
preset-pt-criatura-label = Portuguese: the blue, fluffy creature
preset-pt-criatura-note = In Portuguese the adjectives follow the noun: follow “criatura” and see which words it attends to. Translated into English, they come first: look at the cross-attention.
preset-pt-cachorro-label = Portuguese: who is “ele”? (the dog)
preset-pt-cachorro-note = Does “ele” attend to “cachorro”? Change “ele estava muito cansado” to “ela era estreita demais”: the feminine pronoun now goes with “rua”.
preset-pt-gatos-label = Portuguese: black cats (translation)
preset-pt-gatos-note = “gatos pretos” becomes “black cats”: in the cross-attention, the English words look at the Portuguese ones in the other order. Which words does “gatos” attend to?
preset-pt-capital-label = Portuguese: the capital of Portugal is …
preset-pt-capital-note = A decoder guesses the next token: is “ Lisboa” among SmolLM2's guesses? Which heads bring “Portugal” to the last token?
preset-pt-sequencia-label = Portuguese: a random sequence, repeated
preset-pt-sequencia-note = Words without meaning, so a model trained on English copies them too: previous-token heads light the line below the diagonal; induction heads make each word of the second copy look at the word that followed it the first time.

# Spanish presets.
preset-es-criatura-label = Spanish: the blue, fluffy creature
preset-es-criatura-note = In Spanish the adjectives follow the noun: an encoder lets “criatura” look ahead at them, where a decoder's causal mask would hide them. Which words does “criatura” attend to?
preset-es-perro-label = Spanish: who was tired? (the dog)
preset-es-perro-note = Spanish leaves the pronoun out: what does “cansado” attend to? Change it to “ancha”: the feminine ending now goes with “calle”.
preset-es-capital-label = Spanish: the capital of Spain is …
preset-es-capital-note = A decoder guesses the next token: is “ Madrid” among SmolLM2's guesses? Which heads bring “España” to the last token?
preset-es-secuencia-label = Spanish: a random sequence, repeated
preset-es-secuencia-note = Words without meaning, so a model trained on English copies them too: previous-token heads light the line below the diagonal; induction heads make each word of the second copy look at the word that followed it the first time.
preset-es-sumidero-label = Spanish: the first-token sink
preset-es-sumidero-note = In any language, heads with nothing to do park their weight on the first token, the “attention sink”: look for a bright first column.

# French presets.
preset-fr-creature-label = French: the blue, fluffy creature
preset-fr-creature-note = In French the adjectives follow the noun: an encoder lets “créature” look ahead at them, where a decoder's causal mask would hide them. Which words does “créature” attend to?
preset-fr-jane-label = French: Jane visits Africa
preset-fr-jane-note = The course's example: the representation of “l'Afrique” is built from the words around it. Does “Afrique” attend to “visite”, to “septembre”?
preset-fr-chat-label = French: who is “il”? (the cat)
preset-fr-chat-note = Does “il” attend to “chat”? Change “qu'il était trop fatigué” to “qu'elle était trop large”: the feminine pronoun now goes with “rue”.
preset-fr-capitale-label = French: the capital of France is …
preset-fr-capitale-note = A decoder guesses the next token: is “ Paris” among SmolLM2's guesses? Which heads bring “France” to the last token?
preset-fr-sequence-label = French: a random sequence, repeated
preset-fr-sequence-note = Words without meaning, so a model trained on English copies them too: previous-token heads light the line below the diagonal; induction heads make each word of the second copy look at the word that followed it the first time.

# German presets.
preset-de-wesen-label = German: the fluffy blue creature
preset-de-wesen-note = As in English, the adjectives come before the noun, and their endings agree with it: follow “Wesen” and see which words it attends to.
preset-de-vogel-label = German: who is “er”? (the bird)
preset-de-vogel-note = “er” is masculine like “Vogel”, while “Katze” is feminine: does “er” attend to “Vogel”? Change “er zu schnell” to “sie zu langsam” and look again.
preset-de-pokal-label = German: who is “er”? (the trophy)
preset-de-pokal-note = Here gender does not help: “Pokal” and “Koffer” are both masculine. Change “groß” to “klein”: does “er” move to “Koffer”?
preset-de-hauptstadt-label = German: the capital of Germany is …
preset-de-hauptstadt-note = A decoder guesses the next token: is “ Berlin” among SmolLM2's guesses? Which heads bring “Deutschland” to the last token?
preset-de-folge-label = German: a random sequence, repeated
preset-de-folge-note = Words without meaning, so a model trained on English copies them too: previous-token heads light the line below the diagonal; induction heads make each word of the second copy look at the word that followed it the first time.

# Chinese presets.
preset-zh-shengwu-label = Chinese: the fluffy blue creature
preset-zh-shengwu-note = As in English, the adjectives come before the noun, joined by “的”: follow “生物” and see which words it attends to.
preset-zh-xiaomao-label = Chinese: who is “它”? (the kitten)
preset-zh-xiaomao-note = Does “它” attend to “小猫”? Change “太累了” to “太宽了” and look again.
preset-zh-shoudu-label = Chinese: the capital of China is …
preset-zh-shoudu-note = A decoder guesses the next token: is “北京” among its guesses? Which heads bring “中国” to the last token?
preset-zh-xulie-label = Chinese: a random sequence, repeated
preset-zh-xulie-note = Words without meaning, so a model trained on English copies them too, byte by byte: previous-token heads light the line below the diagonal; induction heads make each token of the second copy look at the token that followed it the first time.
