# attnscope, Portuguese: presets

preset-picker-label = Exemplo
preset-choose = Escolha uma frase…
preset-english-group = Frases em inglês

preset-pair = “{ $query }” → “{ $key }” é mais forte na camada { $layer }, cabeça { $head }: peso { $weight }
preset-measure = “{ $measure }” mais forte: camada { $layer }, cabeça { $head } ({ $value })
preset-induction = Indução mais forte: camada { $layer }, cabeça { $head } (peso médio { $value })
preset-switch = Melhor com { $model } (download de { $size } MB) — trocar
preset-multilingual = O MiniLM e o SmolLM2 foram treinados com textos em inglês: para esta frase, abra a partir de arquivos um modelo multilíngue, como o Qwen2.5 ou o Gemma 3.

# Frases em inglês: as palavras citadas ficam em inglês.
preset-fluffy-label = A criatura azul e fofa
preset-fluffy-note = Os substantivos reúnem seus adjetivos: siga “creature” e veja a que palavras ela presta atenção.
preset-animal-label = Quem é “it”? (o animal)
preset-animal-note = A que palavra “it” presta atenção? Troque “tired” por “wide” e olhe de novo.
preset-trophy-label = Quem é “it”? (o troféu)
preset-trophy-note = A mesma pergunta, com uma reviravolta: troque “big” por “small” — “it” passa para “suitcase”?
preset-capital-label = A capital da França é …
preset-capital-note = Um decodificador adivinha o próximo token: o SmolLM2 põe “ Paris” em primeiro lugar. Quais cabeças levam “France” até o último token?
preset-repeat-label = Uma sequência aleatória, repetida
preset-repeat-note = As cabeças do token anterior acendem a linha logo abaixo da diagonal; as cabeças de indução fazem cada palavra da segunda cópia olhar para a palavra que a seguiu da primeira vez.
preset-sink-label = O sumidouro do primeiro token
preset-sink-note = Cabeças sem nada a fazer estacionam seu peso no primeiro token, o “sumidouro de atenção”: procure uma primeira coluna brilhante.

preset-pt-criatura-label = A criatura azul e fofa
preset-pt-criatura-note = Em português, os adjetivos vêm depois do substantivo: siga “criatura” e veja a que palavras ela presta atenção. Na tradução para o inglês, eles vêm antes: observe a atenção cruzada.
preset-pt-cachorro-label = Quem é “ele”? (o cachorro)
preset-pt-cachorro-note = “ele” presta atenção a “cachorro”? Troque “ele estava muito cansado” por “ela era estreita demais”: o pronome feminino agora combina com “rua”.
preset-pt-gatos-label = Gatos pretos (tradução)
preset-pt-gatos-note = “gatos pretos” vira “black cats”: na atenção cruzada, as palavras em inglês olham para as portuguesas na ordem inversa. A que palavras “gatos” presta atenção?
preset-pt-capital-label = A capital de Portugal é …
preset-pt-capital-note = Um decodificador adivinha o próximo token: “ Lisboa” está entre os palpites do SmolLM2? Quais cabeças levam “Portugal” até o último token?
preset-pt-sequencia-label = Uma sequência aleatória, repetida
preset-pt-sequencia-note = Palavras sem sentido, que um modelo treinado em inglês também copia: as cabeças do token anterior acendem a linha abaixo da diagonal; as cabeças de indução fazem cada palavra da segunda cópia olhar para a palavra que a seguiu da primeira vez.

preset-es-criatura-label = Espanhol: a criatura azul e fofa
preset-es-criatura-note = Em espanhol, os adjetivos vêm depois do substantivo: um codificador deixa “criatura” olhar adiante para eles, enquanto a máscara causal de um decodificador os esconderia. A que palavras “criatura” presta atenção?
preset-es-perro-label = Espanhol: quem estava cansado? (o cachorro)
preset-es-perro-note = O espanhol omite o pronome: a que palavra “cansado” presta atenção? Troque-a por “ancha”: a terminação feminina agora combina com “calle”.
preset-es-capital-label = Espanhol: a capital da Espanha é …
preset-es-capital-note = Um decodificador adivinha o próximo token: “ Madrid” está entre os palpites do SmolLM2? Quais cabeças levam “España” até o último token?
preset-es-secuencia-label = Espanhol: uma sequência aleatória, repetida
preset-es-secuencia-note = Palavras sem sentido, que um modelo treinado em inglês também copia: as cabeças do token anterior acendem a linha abaixo da diagonal; as cabeças de indução fazem cada palavra da segunda cópia olhar para a palavra que a seguiu da primeira vez.
preset-es-sumidero-label = Espanhol: o sumidouro do primeiro token
preset-es-sumidero-note = Em qualquer língua, cabeças sem nada a fazer estacionam seu peso no primeiro token, o “sumidouro de atenção”: procure uma primeira coluna brilhante.

preset-fr-creature-label = Francês: a criatura azul e fofa
preset-fr-creature-note = Em francês, os adjetivos vêm depois do substantivo: um codificador deixa “créature” olhar adiante para eles, enquanto a máscara causal de um decodificador os esconderia. A que palavras “créature” presta atenção?
preset-fr-jane-label = Francês: Jane visita a África
preset-fr-jane-note = O exemplo do curso: a representação de “l'Afrique” é construída com as palavras ao redor. “Afrique” presta atenção a “visite”? A “septembre”?
preset-fr-chat-label = Francês: quem é “il”? (o gato)
preset-fr-chat-note = “il” presta atenção a “chat”? Troque “qu'il était trop fatigué” por “qu'elle était trop large”: o pronome feminino agora combina com “rue”.
preset-fr-capitale-label = Francês: a capital da França é …
preset-fr-capitale-note = Um decodificador adivinha o próximo token: “ Paris” está entre os palpites do SmolLM2? Quais cabeças levam “France” até o último token?
preset-fr-sequence-label = Francês: uma sequência aleatória, repetida
preset-fr-sequence-note = Palavras sem sentido, que um modelo treinado em inglês também copia: as cabeças do token anterior acendem a linha abaixo da diagonal; as cabeças de indução fazem cada palavra da segunda cópia olhar para a palavra que a seguiu da primeira vez.

preset-de-wesen-label = Alemão: a criatura azul e fofa
preset-de-wesen-note = Como em inglês, os adjetivos vêm antes do substantivo, e suas terminações concordam com ele: siga “Wesen” e veja a que palavras ele presta atenção.
preset-de-vogel-label = Alemão: quem é “er”? (o pássaro)
preset-de-vogel-note = “er” é masculino como “Vogel”, e “Katze” é feminino: “er” presta atenção a “Vogel”? Troque “er zu schnell” por “sie zu langsam” e olhe de novo.
preset-de-pokal-label = Alemão: quem é “er”? (o troféu)
preset-de-pokal-note = Aqui o gênero não ajuda: “Pokal” e “Koffer” são ambos masculinos. Troque “groß” por “klein”: “er” passa para “Koffer”?
preset-de-hauptstadt-label = Alemão: a capital da Alemanha é …
preset-de-hauptstadt-note = Um decodificador adivinha o próximo token: “ Berlin” está entre os palpites do SmolLM2? Quais cabeças levam “Deutschland” até o último token?
preset-de-folge-label = Alemão: uma sequência aleatória, repetida
preset-de-folge-note = Palavras sem sentido, que um modelo treinado em inglês também copia: as cabeças do token anterior acendem a linha abaixo da diagonal; as cabeças de indução fazem cada palavra da segunda cópia olhar para a palavra que a seguiu da primeira vez.

preset-zh-shengwu-label = Chinês: a criatura azul e fofa
preset-zh-shengwu-note = Como em inglês, os adjetivos vêm antes do substantivo, ligados por “的”: siga “生物” e veja a que palavras ele presta atenção.
preset-zh-xiaomao-label = Chinês: quem é “它”? (o gatinho)
preset-zh-xiaomao-note = “它” presta atenção a “小猫”? Troque “太累了” por “太宽了” e olhe de novo.
preset-zh-shoudu-label = Chinês: a capital da China é …
preset-zh-shoudu-note = Um decodificador adivinha o próximo token: “北京” está entre os palpites? Quais cabeças levam “中国” até o último token?
preset-zh-xulie-label = Chinês: uma sequência aleatória, repetida
preset-zh-xulie-note = Palavras sem sentido, que um modelo treinado em inglês também copia, byte a byte: as cabeças do token anterior acendem a linha abaixo da diagonal; as cabeças de indução fazem cada token da segunda cópia olhar para o token que o seguiu da primeira vez.
