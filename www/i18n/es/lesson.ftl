# attnscope, Spanish: lesson

## Títulos de los pasos

lesson-step-tokens = Tokens
lesson-step-qkv = q, k y v: tres proyecciones de x
lesson-step-scores = Puntuaciones: q · k
lesson-step-scale = Por qué dividir entre √d_k
lesson-step-softmax = Softmax: de puntuaciones a pesos
lesson-step-mask = La máscara causal y −∞
lesson-step-sum = La suma ponderada, y E + ΔE
lesson-step-heads = Muchas cabezas, y cabezas que comparten claves
lesson-step-last-row = Cómo escribe un modelo: elige la última fila
lesson-step-next = La distribución del siguiente token y su temperatura
lesson-step-sampling = El muestreo y la semilla
lesson-step-cache = La caché de claves y valores
lesson-step-cross = Atención cruzada: una palabra escucha el sonido
lesson-step-timing = Dónde se dijo cada palabra

## La tarjeta

lesson-count = Paso { $step } de { $steps }
lesson-dot = Paso { $step }: { $title }
lesson-steps = Pasos de la lección
lesson-back = ← Atrás
lesson-next = Siguiente →
lesson-try = Prueba:{" "}
lesson-computing = Calculando…
lesson-type-sentence = Escribe una frase para empezar: la lección trabaja con ella.

## Piezas comunes

lesson-quoted = «{ $word }»
lesson-percent = { $p } %
lesson-preview = {"["}{ $numbers }] ({ $count } números)

## Paso 1: tokens

lesson-says-tokens = { $model } lee tu frase como { $tokens ->
        [one] { $tokens } token
       *[other] { $tokens } tokens
    }. Cada token recibe una fila y una columna en cada imagen de la atención: aquí seguimos la consulta de «{ $query }».
lesson-label-tokens = tokens
lesson-label-query = token de la consulta
lesson-label-ids = ids de los tokens
lesson-try-tokens = Escribe una palabra tuya en el cuadro de texto: aparecen una fila y una columna para ella.

## Paso 2: q, k y v

lesson-says-qkv = «{ $query }» entra en la capa como un vector x de { $width } números. Tres matrices aprendidas lo proyectan en una consulta q, una clave k y un valor v de { $dk } números cada uno: q pregunta, k responde y v es lo que se transmite.
lesson-label-x = x de «{ $query }»
lesson-try-qkv = Elige otro token (en la lista de tokens o en una fila de cualquier imagen) para ver sus vectores.
lesson-strip-x = x «{ $token }»
lesson-vectors-label = El vector x de «{ $token }» y sus proyecciones q, k y v, como tiras de celdas de colores
lesson-vectors-caption = Una celda por número: rojo positivo, azul negativo, cada tira según su propio valor más grande. q, k y v son más cortos que x: la cabeza trabaja en d_k dimensiones.

## Paso 3: puntuaciones

lesson-says-scores = La consulta de «{ $query }» se compara con cada clave mediante un producto escalar, s_j = q · k_j: cuanto mayor es la puntuación, mejor encaja la clave con lo que busca la consulta.
lesson-try-scores = Señala una celda, o tócala, para leer su puntuación. El rojo es positivo; el azul, negativo.

## Paso 4: dividir entre √d_k

lesson-says-scale = Si las entradas de q y k tuvieran varianza 1, q · k tendría varianza d_k = { $dk }; multiplicar por 1/√d_k la devuelve a cerca de 1, y así el softmax no se satura. En esta fila, la varianza de las puntuaciones pasa de { $raw } a { $scaled }.
lesson-label-scale = escala
lesson-label-var-raw = varianza de q · k_j
lesson-label-var-scaled = tras escalar
lesson-try-scale = Pulsa Reproducir para ver cómo se encogen las puntuaciones, o quita 1/√d_k y verás que los pesos se vuelven todo o nada.

## Paso 5: softmax

lesson-says-softmax = El softmax convierte cada fila de puntuaciones en pesos, exp(s_j) / Σ exp(s_m): todos positivos y con suma 1. «{ $query }» da su mayor peso, { $weight }, a «{ $key }».
lesson-label-top = el mayor
lesson-value-top = { $weight } → «{ $key }»
lesson-try-softmax = Arrastra el control: un factor mayor que 1 agudiza el softmax; uno menor que 1 lo aplana.

## Paso 6: la máscara causal

lesson-says-mask-causal = { $model } es causal: la máscara suma −∞ a la puntuación de cada token posterior, y exp(−∞) = 0, así que ningún token mira al futuro. «{ $query }» ve { $seen } de los { $tokens } tokens.
lesson-says-mask-window = { $model } es causal con ventana deslizante: la máscara suma −∞ a la puntuación de cada token posterior y de cada token que esté más de { $back ->
        [one] { $back } posición
       *[other] { $back } posiciones
    } atrás, y exp(−∞) = 0. «{ $query }» ve { $seen } de los { $tokens } tokens.
lesson-says-mask-none = { $model } lee en ambos sentidos (sin máscara). Un decodificador suma −∞ a la puntuación de cada token posterior, y exp(−∞) = 0: la cuadrícula causal muestra adónde miraría { $model } con esa máscara.
lesson-label-mask = la máscara del modelo
lesson-mask-none = ninguna
lesson-mask-causal = causal
lesson-mask-window = ventana deslizante
lesson-label-hidden = claves que una máscara causal oculta a «{ $query }»
lesson-try-mask = Pulsa Reproducir: las cruces (−∞) se convierten en pesos exactamente iguales a 0.

## Paso 7: la suma ponderada

lesson-says-sum = La salida de la cabeza para «{ $query }» es la suma ponderada z = Σ a_j v_j. Las salidas de todas las cabezas, concatenadas y proyectadas por W_O, forman la actualización ΔE que se suma al vector del token: E + ΔE.
lesson-try-sum = Haz clic en una palabra de la izquierda para seguir otra consulta.

## Paso 8: muchas cabezas

lesson-says-heads-shared = { $model } tiene { $layers ->
        [one] { $layers } capa
       *[other] { $layers } capas
    } de { $heads ->
        [one] { $heads } cabeza
       *[other] { $heads } cabezas
    }, cada una con su propio patrón. Sus cabezas de consulta comparten { $kv ->
        [one] { $kv } cabeza de clave y valor
       *[other] { $kv } cabezas de clave y valor
    } (atención con consultas agrupadas): las cabezas bajo un mismo corchete usan las mismas k y v.
lesson-says-heads-own = { $model } tiene { $layers ->
        [one] { $layers } capa
       *[other] { $layers } capas
    } de { $heads ->
        [one] { $heads } cabeza
       *[other] { $heads } cabezas
    }, cada una con su propio patrón y sus propias claves y valores. SmolLM2 comparte cada cabeza de clave y valor entre tres cabezas de consulta (atención con consultas agrupadas).
lesson-label-heads = capas × cabezas
lesson-label-kv = cabezas de clave y valor
lesson-label-group = cabezas que usan las claves de la cabeza { $head }
lesson-sharing-none = ninguna (claves propias)
lesson-try-heads = Haz clic en un recuadro para abrir esa cabeza en todas las vistas; con SmolLM2, compara las cabezas bajo un mismo corchete.

## Capítulo: cómo escribe un modelo

lesson-says-no-writer = { $model } lee todo el texto de una vez y no tiene un siguiente token que elegir. Este capítulo necesita un modelo que escriba: un decodificador como SmolLM2.
lesson-use-smollm2 = Usar SmolLM2, que escribe
lesson-no-distribution = La distribución aparece con un modelo que escribe.
lesson-label-top-next = siguiente más probable
lesson-value-token = «{ $token }» { $p }

lesson-says-last-row = { $model } escribe un token cada vez. Bajo la máscara causal, la fila i de A solo ve los tokens 0 … i, así que cada fila podría predecir el token que le sigue; al escribir, solo cuenta la última fila. Tras la última capa, el vector de «{ $last }» se convierte en los logits del siguiente token: su mejor apuesta es «{ $top }», con { $p }.
lesson-label-last = la fila que elige
lesson-label-visible = claves que ve
lesson-try-last-row = Escribe una palabra al final: aparece una nueva última fila y cambia la lista de siguientes tokens.

lesson-says-next = Un softmax convierte los logits z en probabilidades, p_i = exp(z_i / T) / Σ exp(z_j / T). Con T = 1 se obtiene la distribución propia del modelo. Una T más baja la agudiza: el token más probable gana cada vez más a menudo y el texto empieza a repetirse. Una T más alta la aplana: salen tokens raros y el texto divaga. Con T = { $t }, «{ $top }» recibe { $p }.
lesson-label-listed = los cinco de la lista, juntos
lesson-try-next = Arrastra la temperatura: las barras se agudizan por debajo de 1 y se aplanan por encima.

lesson-says-drawn = El paso { $step } sacó u = { $u }. Conservó { $kept ->
        [one] { $kept } token
       *[other] { $kept } tokens
    }, el { $mass } de la probabilidad, los reescaló para que sumaran 1 y tomó «{ $token }»: el token cuyo tramo del total acumulado contiene u. Su parte era { $share }. La semilla fija cada u, así que el mismo enlace escribe el mismo texto.
lesson-says-greedy = El paso { $step } tomó «{ $token }» ({ $p }) sin sorteo: la decodificación voraz siempre toma el token más probable. Elige «muestreo» en la tarjeta Escribir para sortear.
lesson-says-sampling = La decodificación voraz siempre toma el token más probable. El muestreo saca un número u entre 0 y 1 y toma el token cuyo tramo del total acumulado de probabilidades lo contiene. Top-k conserva solo los k tokens más probables; top-p, los menos posibles cuyas probabilidades suman p; y lo que queda se reescala para que sume 1. La semilla fija cada sorteo, así que el mismo enlace escribe el mismo texto.
lesson-label-chosen = elegido
lesson-draw-none = ninguno (voraz)
lesson-label-kept = conservados
lesson-value-kept = { $kept ->
        [one] { $kept } token
       *[other] { $kept } tokens
    }, { $mass }
lesson-try-sampling = En la tarjeta Escribir, elige «muestreo», fija una semilla y pulsa «Un paso»: las barras muestran el corte y el token sorteado.

lesson-says-cache = La consulta del siguiente token necesita la clave y el valor de cada token anterior en cada capa. Bajo la máscara causal no cambian nunca, así que el modelo los guarda: escribir el token { $next } calcula una nueva fila de Q, K y V en cada una de las { $layers } capas ({ $computed } números) y reutiliza las { $n } filas de K y V calculadas antes ({ $reused } números).{ $shared }
lesson-says-cache-shared = {" "}Sus { $heads } cabezas de consulta comparten { $kv } cabezas de clave y valor, así que la caché guarda { $kv } juegos de claves y valores por capa, no { $heads }.
lesson-label-cache-new = calculados para el siguiente token
lesson-label-cache-reused = reutilizados de la caché
lesson-label-cache-saved = filas de K y V sin recalcular
lesson-try-cache = Pulsa Escribir y mira cómo el mapa de calor crece una fila por token, cada fila calculada una sola vez.

## Capítulo: escuchar

lesson-no-clip = Este capítulo escucha. Reproduce uno de los ejemplos bajo la imagen (o graba una frase tuya): Whisper tiny.en escribe lo que oye, en tu navegador, y la lección sigue con sus números.
lesson-says-cross = Whisper oyó «{ $text }» y lo escribió como { $tokens ->
        [one] { $tokens } token
       *[other] { $tokens } tokens
    }. La consulta de cada token se compara con claves que vienen de otra secuencia: los 1500 fotogramas de sonido del codificador (20 ms cada uno; el audio ocupa { $frames } y el silencio, el resto). La misma fórmula, softmax(q Kᵀ/√d_k), sin máscara: cada token puede escuchar en cualquier parte. Aquí ({ $which }), la consulta de «{ $query }» pone su mayor peso, { $weight }, en { $from }–{ $to } s.
lesson-which-head = capa { $layer } del decodificador, cabeza { $head }
lesson-which-mean = la media de las cabezas de alineación
lesson-label-listen-tokens = tokens escritos
lesson-label-listen-frames = fotogramas de sonido (claves)
lesson-value-frames = { $frames } del audio, 1500 en total
lesson-label-listen-peak = mayor peso de «{ $query }»
lesson-value-peak = { $weight } en { $time } s
lesson-label-listen-clip = parte sobre el audio
lesson-try-cross = Toca el tramo de otra palabra bajo el espectrograma: su primer token pasa a ser la consulta y se reproduce ese fragmento.

lesson-says-timing = La mayoría de las cabezas no siguen el tiempo, pero algunas sí: el checkpoint señala { $count } cabezas de alineación (capa.cabeza { $heads }). Su media, fila a fila, avanza por el sonido a medida que avanzan las palabras; el alineamiento temporal dinámico (DTW) a lo largo de ella da a cada palabra su inicio y su final.{ $span }
lesson-says-timing-span = {" "}«{ $word }» se dijo de { $start } s a { $end } s.
lesson-label-listen-heads = cabezas de alineación
lesson-label-listen-words = palabras con marca de tiempo
lesson-try-timing = Elige una sola cabeza en vez de la media de las cabezas de alineación: la mayoría de las cabezas escuchan por todo el audio.
