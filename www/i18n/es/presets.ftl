# attnscope, Spanish: presets

preset-picker-label = Ejemplo
preset-choose = Elige una frase…
preset-english-group = Frases en inglés

preset-pair = “{ $query }” → “{ $key }” es más fuerte en la capa { $layer }, cabeza { $head }: peso { $weight }
preset-measure = “{ $measure }” más fuerte: capa { $layer }, cabeza { $head } ({ $value })
preset-induction = Inducción más fuerte: capa { $layer }, cabeza { $head } (peso medio { $value })
preset-switch = Mejor con { $model } (descarga de { $size } MB) — cambiar
preset-multilingual = MiniLM y SmolLM2 se entrenaron con textos en inglés: para esta frase, abre desde archivos un modelo multilingüe como Qwen2.5 o Gemma 3.

# Frases en inglés: las palabras citadas quedan en inglés.
preset-fluffy-label = La criatura azul y esponjosa
preset-fluffy-note = Los sustantivos reúnen a sus adjetivos: sigue “creature” y mira a qué palabras presta atención.
preset-animal-label = ¿Quién es “it”? (el animal)
preset-animal-note = ¿A qué presta atención “it”? Cambia “tired” por “wide” y vuelve a mirar.
preset-trophy-label = ¿Quién es “it”? (el trofeo)
preset-trophy-note = La misma pregunta, con un giro: cambia “big” por “small”. ¿Pasa “it” a “suitcase”?
preset-capital-label = La capital de Francia es …
preset-capital-note = Un decodificador adivina el siguiente token: SmolLM2 pone “ Paris” en primer lugar. ¿Qué cabezas llevan “France” hasta el último token?
preset-repeat-label = Una secuencia aleatoria, repetida
preset-repeat-note = Las cabezas del token anterior iluminan la línea justo debajo de la diagonal; las cabezas de inducción hacen que cada palabra de la segunda copia mire la palabra que la siguió la primera vez.
preset-sink-label = El sumidero del primer token
preset-sink-note = Las cabezas sin nada que hacer aparcan su peso en el primer token, el “sumidero de atención”: busca una primera columna brillante.

preset-pt-criatura-label = Portugués: la criatura azul y esponjosa
preset-pt-criatura-note = En portugués los adjetivos van detrás del sustantivo: sigue “criatura” y mira a qué palabras presta atención. Traducidos al inglés, van delante: observa la atención cruzada.
preset-pt-cachorro-label = Portugués: ¿quién es “ele”? (el perro)
preset-pt-cachorro-note = ¿Presta atención “ele” a “cachorro”? Cambia “ele estava muito cansado” por “ela era estreita demais”: el pronombre femenino va ahora con “rua”.
preset-pt-gatos-label = Portugués: gatos negros (traducción)
preset-pt-gatos-note = “gatos pretos” se convierte en “black cats”: en la atención cruzada, las palabras inglesas miran las portuguesas en el orden inverso. ¿A qué palabras presta atención “gatos”?
preset-pt-capital-label = Portugués: la capital de Portugal es …
preset-pt-capital-note = Un decodificador adivina el siguiente token: ¿está “ Lisboa” entre las apuestas de SmolLM2? ¿Qué cabezas llevan “Portugal” hasta el último token?
preset-pt-sequencia-label = Portugués: una secuencia aleatoria, repetida
preset-pt-sequencia-note = Palabras sin sentido, que un modelo entrenado en inglés también copia: las cabezas del token anterior iluminan la línea bajo la diagonal; las cabezas de inducción hacen que cada palabra de la segunda copia mire la palabra que la siguió la primera vez.

preset-es-criatura-label = La criatura azul y esponjosa
preset-es-criatura-note = En español los adjetivos van detrás del sustantivo: un codificador deja que “criatura” mire hacia delante, mientras que la máscara causal de un decodificador se los ocultaría. ¿A qué palabras presta atención “criatura”?
preset-es-perro-label = ¿Quién estaba cansado? (el perro)
preset-es-perro-note = El español omite el pronombre: ¿a qué presta atención “cansado”? Cámbialo por “ancha”: la terminación femenina va ahora con “calle”.
preset-es-capital-label = La capital de España es …
preset-es-capital-note = Un decodificador adivina el siguiente token: ¿está “ Madrid” entre las apuestas de SmolLM2? ¿Qué cabezas llevan “España” hasta el último token?
preset-es-secuencia-label = Una secuencia aleatoria, repetida
preset-es-secuencia-note = Palabras sin sentido, que un modelo entrenado en inglés también copia: las cabezas del token anterior iluminan la línea bajo la diagonal; las cabezas de inducción hacen que cada palabra de la segunda copia mire la palabra que la siguió la primera vez.
preset-es-sumidero-label = El sumidero del primer token
preset-es-sumidero-note = En cualquier idioma, las cabezas sin nada que hacer aparcan su peso en el primer token, el “sumidero de atención”: busca una primera columna brillante.

preset-fr-creature-label = Francés: la criatura azul y esponjosa
preset-fr-creature-note = En francés los adjetivos van detrás del sustantivo: un codificador deja que “créature” mire hacia delante, mientras que la máscara causal de un decodificador se los ocultaría. ¿A qué palabras presta atención “créature”?
preset-fr-jane-label = Francés: Jane visita África
preset-fr-jane-note = El ejemplo del curso: la representación de “l'Afrique” se construye con las palabras de su alrededor. ¿Presta atención “Afrique” a “visite”, a “septembre”?
preset-fr-chat-label = Francés: ¿quién es “il”? (el gato)
preset-fr-chat-note = ¿Presta atención “il” a “chat”? Cambia “qu'il était trop fatigué” por “qu'elle était trop large”: el pronombre femenino va ahora con “rue”.
preset-fr-capitale-label = Francés: la capital de Francia es …
preset-fr-capitale-note = Un decodificador adivina el siguiente token: ¿está “ Paris” entre las apuestas de SmolLM2? ¿Qué cabezas llevan “France” hasta el último token?
preset-fr-sequence-label = Francés: una secuencia aleatoria, repetida
preset-fr-sequence-note = Palabras sin sentido, que un modelo entrenado en inglés también copia: las cabezas del token anterior iluminan la línea bajo la diagonal; las cabezas de inducción hacen que cada palabra de la segunda copia mire la palabra que la siguió la primera vez.

preset-de-wesen-label = Alemán: la criatura azul y esponjosa
preset-de-wesen-note = Como en inglés, los adjetivos van delante del sustantivo y sus terminaciones concuerdan con él: sigue “Wesen” y mira a qué palabras presta atención.
preset-de-vogel-label = Alemán: ¿quién es “er”? (el pájaro)
preset-de-vogel-note = “er” es masculino como “Vogel”, y “Katze” es femenino: ¿presta atención “er” a “Vogel”? Cambia “er zu schnell” por “sie zu langsam” y vuelve a mirar.
preset-de-pokal-label = Alemán: ¿quién es “er”? (el trofeo)
preset-de-pokal-note = Aquí el género no ayuda: “Pokal” y “Koffer” son masculinos. Cambia “groß” por “klein”: ¿pasa “er” a “Koffer”?
preset-de-hauptstadt-label = Alemán: la capital de Alemania es …
preset-de-hauptstadt-note = Un decodificador adivina el siguiente token: ¿está “ Berlin” entre las apuestas de SmolLM2? ¿Qué cabezas llevan “Deutschland” hasta el último token?
preset-de-folge-label = Alemán: una secuencia aleatoria, repetida
preset-de-folge-note = Palabras sin sentido, que un modelo entrenado en inglés también copia: las cabezas del token anterior iluminan la línea bajo la diagonal; las cabezas de inducción hacen que cada palabra de la segunda copia mire la palabra que la siguió la primera vez.

preset-zh-shengwu-label = Chino: la criatura azul y esponjosa
preset-zh-shengwu-note = Como en inglés, los adjetivos van delante del sustantivo, unidos por “的”: sigue “生物” y mira a qué palabras presta atención.
preset-zh-xiaomao-label = Chino: ¿quién es “它”? (el gatito)
preset-zh-xiaomao-note = ¿Presta atención “它” a “小猫”? Cambia “太累了” por “太宽了” y vuelve a mirar.
preset-zh-shoudu-label = Chino: la capital de China es …
preset-zh-shoudu-note = Un decodificador adivina el siguiente token: ¿está “北京” entre sus apuestas? ¿Qué cabezas llevan “中国” hasta el último token?
preset-zh-xulie-label = Chino: una secuencia aleatoria, repetida
preset-zh-xulie-note = Palabras sin sentido, que un modelo entrenado en inglés también copia, byte a byte: las cabezas del token anterior iluminan la línea bajo la diagonal; las cabezas de inducción hacen que cada token de la segunda copia mire el token que lo siguió la primera vez.
