# attnscope, Spanish: writing

## Whether the model shown writes
write-not-encoder = La escritura se ofrece para decodificadores: este modelo es un codificador, que lee todo el texto en ambos sentidos y no tiene un siguiente token que elegir.
write-not-trace = Un archivo de traza guarda atención calculada en otro lugar, sin los pesos del modelo: aquí nada puede elegir el siguiente token.
write-not-translator = Un modelo de traducción escribe su traducción, que se muestra en la pestaña Traducción; aquí la escritura se ofrece para decodificadores.
write-at-most = Una generación escribe como máximo { $tokens ->
        [one] { $tokens } token
       *[other] { $tokens } tokens
    }.
write-context-full = El texto llena el contexto del modelo: no cabe ni un token más.
write-stopped = Detenido.
write-end-of-text = { $model } escribió { $token }, que termina un texto: la escritura se detiene aquí.

## The card
write-heading = Escribir
write-go = Escribir
write-step = Un paso
write-pause = Pausa
write-resume = Reanudar
write-stop = Detener
write-settings = Ajustes
write-count = Tokens
write-choose = Elección
write-greedy = voraz
write-sample = muestreo
write-top-k = top-k
write-top-p = top-p
write-seed = semilla
write-hint-sample = Sortea según las barras de abajo, a la temperatura indicada arriba (0 desactiva top-k; 1 desactiva top-p); la misma semilla repite los mismos sorteos.
write-hint-greedy = Voraz: siempre el token más probable.

## The step's distribution
write-cut-line = corte: el resto queda fuera
write-chosen-mark = ◀ elegido
write-kept = { $tokens ->
        [one] { $tokens } token conservado
       *[other] { $tokens } tokens conservados
    }, con { $share } de la probabilidad, renormalizada
write-chosen = Paso { $step }: eligió { $token }, { $p } tras la temperatura, { $kept } tras renormalizar
write-chosen-drawn = Paso { $step }: eligió { $token }, { $p } tras la temperatura, { $kept } tras renormalizar (sorteo { $draw })
write-chosen-drawn-unseen = Paso { $step }: eligió { $token }, { $p } tras la temperatura, { $kept } tras renormalizar (sorteo { $draw }; no está entre los diez mostrados)
write-cache-title = Caché de claves y valores
write-cache-computed = El token { $token } calculó una fila nueva de Q { $query ->
        [one] en la única cabeza de consulta
       *[other] en cada una de las { $query } cabezas de consulta
    } y una fila nueva de K y de V { $kv ->
        [one] en la única cabeza de clave/valor
       *[other] en cada una de las { $kv } cabezas de clave/valor
    }, { $layers ->
        [one] en la única capa
       *[other] en cada una de las { $layers } capas
    }. Reutilizado: { $earlier ->
        [one] la fila anterior de K y V
       *[other] las { $earlier } filas anteriores de K y V
    } de cada cabeza de clave/valor en cada capa, { $millions } millones de números; un { $saved }% de las proyecciones ahorrado frente a calcular de nuevo las { $token } filas.
write-cache-grouped = {" "}Consultas agrupadas: cada cabeza K/V la comparten { $query ->
        [one] { $query } cabeza de consulta
       *[other] { $query } cabezas de consulta
    }.

## The timeline
write-timeline = Línea de tiempo
write-timeline-step = paso { $step } de { $steps }: antes de elegir el token { $step }
write-timeline-now = ahora: { $tokens ->
        [one] { $tokens } token escrito
       *[other] { $tokens } tokens escritos
    }

## The Q·K space
space-heading = Consultas y claves en un mismo espacio
space-translate = Traslación de claves
space-values = También valores
space-colour-by = Color según
space-colour-token = token
space-colour-position = posición
space-translated-note = Claves desplazadas por c = mean(Q) − mean(K): cada puntuación de la fila de una consulta gana el mismo q·c, que el softmax ignora, así que A no cambia; con las dos nubes alrededor de un mismo centro, la cercanía en la figura dice más.
space-plain-note = Claves tal como las calcula el modelo: q·k es grande cuando una consulta y una clave apuntan en la misma dirección desde el origen, que puede quedar lejos de ambas nubes.
space-one-token = Un solo token: una consulta y una clave no dan nada que proyectar. Escribe un texto de dos tokens o más.
space-key-title = clave { $position }: { $token }
space-query-title = consulta { $position }: { $token } (haz clic para elegirla)
space-value-title = valor { $position }: { $token }
space-output-title = salida de la consulta { $position }: { $token }
space-value-line-title = { $query } toma { $weight } del valor de “{ $key }”
space-caption = ● consultas, ■ claves de la capa { $layer }, cabeza { $head }. Los dos ejes conservan el { $share } % de la dispersión de los puntos; el resto queda fuera de la figura. Haz clic en un círculo, o en un token de arriba, para elegir la consulta.
space-caption-grouped = ● consultas, ■ claves de la capa { $layer }, cabeza { $head } (claves de la cabeza de clave/valor { $kv }). Los dos ejes conservan el { $share } % de la dispersión de los puntos; el resto queda fuera de la figura. Haz clic en un círculo, o en un token de arriba, para elegir la consulta.
space-plot-label = Consultas (círculos) y claves (cuadrados) de la cabeza sobre sus dos ejes principales
space-axis-1 = eje 1: { $share } % de la dispersión
space-axis-2 = eje 2: { $share } %
space-token-name = “{ $token }” ({ $position })
space-readout-query = Consulta
space-readout-weightiest = Mayor peso
space-readout-angle = Más cercana en ángulo (todas las dimensiones)
space-readout-plane = Más cercana en la figura
space-angle-same = la misma clave: es la que más apunta en la dirección de la consulta.
space-angle-other = { $key }, A = { $weight }: una clave más larga puede ganar con un ángulo mayor, ya que A sigue a q·k = ‖q‖‖k‖cos θ.
space-plane-same = la misma clave: aquí la figura dice la verdad.
space-plane-other = { $key }, A = { $weight }: aquí la figura engaña, porque un plano conserva solo parte de la dispersión; los números son exactos.
space-no-values = Esta ejecución no tiene vectores de valor para la cabeza (un archivo de traza escrito sin ellos), o todos son un mismo punto.
space-values-caption = ▲ valores de la cabeza de clave/valor { $kv } sobre sus propios dos ejes (conservan el { $share } % de la dispersión de los valores); ◆ la salida de la consulta elegida, o = Σ_j a_j v_j. Una fila de A suma 1, así que la salida es la media ponderada de los valores: queda entre los valores que su consulta pondera, en la figura como en cada dimensión.
space-values-plot-label = Los valores de la cabeza (triángulos) sobre sus propios dos ejes principales y la salida de la consulta elegida (rombo)
space-corpus = En el corpus
space-corpus-note = Todas las consultas y claves de esta cabeza en unos cientos de frases incluidas (cuentos, preguntas, listas, números, un poco de código), sobre los dos ejes principales del corpus; las consultas y claves de tu frase se colocan en los mismos ejes, encima. El worker procesa el corpus una vez por modelo; después, cambiar de cabeza es inmediato.
space-corpus-progress = Pasando el corpus por el modelo: { $done } de { $total } frases
space-corpus-caption = Capa { $layer }, cabeza { $head } en el corpus: las consultas en verde, las claves en rosa ({ $points } puntos de { $sentences } frases); las ● consultas y ■ claves de tu frase encima. Los dos ejes conservan el { $share } % de la dispersión del corpus.
space-corpus-plot-label = Consultas y claves de la cabeza en el corpus, con las de tu frase encima
space-visitor-query-title = consulta { $position }: { $token }
space-grid = Todas las cabezas
space-grid-note = Todas las cabezas en el corpus, una fila por capa, cada una sobre sus propios dos ejes (unas 30 consultas y 30 claves del corpus cada una). Haz clic en una para elegirla.
space-grid-tile = capa { $layer }, cabeza { $head }
space-tsne = t-SNE
space-tsne-note = t-SNE coloca los puntos de modo que cada uno conserve sus vecinos más cercanos (exacto, sobre todos los pares, con una semilla fija): los grupos significan algo, las distancias entre grupos y las direcciones no, y no hay ejes. Útil cuando los puntos son muchos y los dos ejes principales los amontonan.
space-tsne-caption = ● consultas, ■ claves de la capa { $layer }, cabeza { $head }, colocadas por t-SNE: los puntos cercanos son vecinos en todas las dimensiones; las distancias y direcciones entre grupos no significan nada. Haz clic en un círculo, o en un token de arriba, para elegir la consulta.
