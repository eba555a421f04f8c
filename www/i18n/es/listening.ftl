# attnscope, Spanish: listening

## La pestaña Voz

speech-whisper-load-failed = No se pudo cargar Whisper: { $message }
speech-which-head = capa { $layer } del decodificador, cabeza { $head }
speech-which-alignment = la media de las cabezas de alineación
speech-intro = Di una frase, abre un archivo de sonido o elige un ejemplo. Whisper (tiny.en) escribe lo que oye; cada token que escribe tiene una consulta que mira las claves del sonido: es su{" "}
speech-intro-cross = atención cruzada
speech-intro-end = , softmax(qKᵀ/√d_k) sobre tramas de audio de 20 ms.
speech-facts = { $seconds } s de sonido, { $frames } tramas de 20 ms; { $tokens } tokens; oído en { $ms } ms{ $memory }.
speech-facts-memory = , memoria del worker { $mb } MB
speech-tokens-label = Los tokens de la transcripción
speech-alignment-mean = Cabezas de alineación (media)
speech-layer-head = Capa { $layer } · cabeza { $head }
speech-cross-of = Atención cruzada de
speech-needs-secure = Grabar requiere una página segura (https:// o localhost); los archivos y los ejemplos siguen funcionando.
speech-no-microphone = Este navegador no da acceso a un micrófono; los archivos y los ejemplos siguen funcionando.
speech-microphone-refused = Se denegó el acceso al micrófono ({ $message }); los archivos y los ejemplos siguen funcionando.
speech-microphone-failed = No se pudo abrir ningún micrófono ({ $message }); los archivos y los ejemplos siguen funcionando.
speech-nothing-recorded = No se grabó nada: el micrófono no envió sonido.
speech-not-decodable = Este archivo no es un sonido que el navegador pueda decodificar ({ $message }).
speech-file-unreadable = No se pudo leer el archivo: { $message }
speech-file-empty = El archivo no contiene sonido.
speech-recording = Grabando… { $seconds } s de un máximo de 30 s. Pulsa Detener cuando termines.
speech-reading = Leyendo el sonido…
speech-downloading = Descargando Whisper tiny.en: { $loaded } de { $total } MB (una sola vez; el navegador lo guarda)…
speech-listening = Whisper está escuchando…
speech-stop = ■ Detener
speech-record = ● Grabar
speech-open-file = Abrir un archivo de sonido…
speech-example-title = Un clip de ejemplo, sintetizado con espeak-ng
speech-download-note = Whisper tiny.en se descarga la primera vez (unos { $size } MB) y el navegador lo guarda; el sonido nunca sale de esta página.
speech-encoder-axis = claves: tramas oídas →
speech-encoder-readout = Las consultas de { $q0 }–{ $q1 } s dan a las claves de { $k0 }–{ $k1 } s { $weight } de su atención (en promedio); el { $stayed } % se queda en el clip, el resto va al relleno.
speech-encoder-hover = Pasa el puntero por una celda para leer su peso.
speech-encoder-title = El codificador leyendo el sonido
speech-encoder-cell-frame = una trama de 20 ms de lado
speech-encoder-cell-block = un bloque de { $block } tramas ({ $ms } ms) de lado, la media de sus consultas
speech-encoder-caption = Antes de que se escriba ninguna palabra, la autoatención del codificador: cada trama de sonido (una fila) sobre todas las tramas (columnas), sin máscara — el codificador oye el clip entero en ambos sentidos. Cada celda es { $cell }; cada fila, escalada a su propio pico. El silencio de relleno tras el clip queda fuera.
speech-encoder-layer = Capa del codificador
speech-encoder-head = cabeza
speech-encoder-aria = La autoatención del codificador: tramas de sonido como filas y columnas
speech-decoder-title = El decodificador leyendo sus propias palabras
speech-decoder-caption = Mientras escribe, la autoatención causal del decodificador: la consulta de cada token (una fila) sobre las claves de los tokens escritos hasta ahora (columnas); cada fila suma 1. Las celdas por encima de la diagonal son grises: la máscara causal oculta los tokens aún no escritos.
speech-decoder-layer = Capa del decodificador
speech-decoder-head = cabeza
speech-decoder-aria = La autoatención causal del decodificador: los tokens de la transcripción como filas (consultas) y columnas (claves)
speech-decoder-readout = “{ $query }” → “{ $key }”: { $weight }
speech-decoder-masked = “{ $query }” → “{ $key }”: oculta por la máscara causal (“{ $key }” se escribe después)
speech-decoder-hover = Pasa el puntero por una celda para leer su peso.
speech-heatmap-pad = pad
speech-heatmap-caption = La atención cruzada de cada token a lo largo del tiempo ({ $which }): una fila por token, cada una escalada a su propio pico; a la derecha, la parte de la fila que fue al silencio de relleno tras el clip (Whisper siempre lee 30 s).
speech-heatmap-aria = Atención cruzada: los tokens de la transcripción como filas, el tiempo como columnas
speech-spectrogram-caption = El espectrograma del sonido (tiempo en horizontal, graves abajo), la atención cruzada del token elegido sobre él ({ $which }) y los tiempos de las palabras según las cabezas de alineación. Toca una palabra para oírla.
speech-spectrogram-aria = Espectrograma con la atención del token elegido a lo largo del tiempo y los tramos de las palabras
speech-readout = “{ $token }” (token { $index }): los pesos de su consulta alcanzan el pico de { $peak } en { $from }–{ $to } s; el { $clip }% cae en el clip, el { $padding }% en el silencio de relleno que lo sigue.
speech-readout-none = Elige un token o una palabra para ver dónde escuchó.

## Paso a paso sobre el sonido

speech-step-title = Paso a paso: la consulta de un token sobre el sonido
speech-step-caption = “{ $token }” (token { $index }) a través de la capa { $layer } del decodificador, cabeza { $head }: q viene del token del decodificador, k y v de la salida del codificador para cada trama de sonido de 20 ms.
speech-step-alignment = La media de las cabezas de alineación no es una sola cabeza: este paso sigue a la primera de ellas, capa { $layer }, cabeza { $head }.
speech-step-query = La consulta del token ({ $count } números):
speech-step-table-caption = Las { $count } tramas del clip a las que esta consulta da más peso, la más fuerte primero: la clave k de cada trama, el producto escalar q·k, esa puntuación por la escala y su peso a tras el softmax sobre las { $keys } tramas.
speech-step-time = Tiempo (s)
speech-step-key = Clave k (primeros números)
speech-step-weight = Peso a = softmax
speech-step-padding = Las { $frames } tramas del clip se llevan juntas { $clip } del peso; las { $pad } tramas de silencio de relleno que lo siguen se llevan { $padding }.
speech-step-output = La salida de la cabeza para este token ({ $count } números):
speech-step-waiting = Calculando el paso…
speech-step-failed = No se pudo calcular el paso: { $message }

## La pestaña Traducción

translation-which-head = capa { $layer } del decodificador, cabeza { $head }
translation-which-layer = capa { $layer } del decodificador, media de sus cabezas
translation-which-head-mean = cabeza { $head }, media sobre las capas del decodificador
translation-which-mean = media de todas las capas y cabezas del decodificador
translation-svg-title =
    { $model }: { $translation }
    atención cruzada, { $which }
translation-export-aria = Exportar la atención cruzada
translation-export = Exportar
translation-export-json-title = Todas las capas y cabezas del decodificador, con los tokens y la traducción
translation-heatmap-caption = Atención cruzada, { $which }: cada fila es una palabra de destino, cada columna una palabra de origen; cada fila suma 1.
translation-heatmap-aria = Atención cruzada: palabras de destino como filas, palabras de origen como columnas
translation-readout = “{ $target }” → “{ $source }”: { $weight } ({ $which })
translation-readout-none = Señala una celda, o tócala, para leer su peso.
translation-lines-aria = La atención cruzada como líneas desde cada palabra de destino (abajo) hasta las palabras de origen (arriba)
translation-lines-caption = Líneas, { $which }: el origen arriba, la traducción abajo; haz clic en una palabra de destino para seguir sus líneas.
translation-target-word = Palabra de destino
translation-step-caption = “{ $word }”, capa { $layer } del decodificador, cabeza { $head }: q viene del decodificador (esta palabra, tras su SSRU), k y v de la salida del codificador para cada palabra de origen.
translation-step-caption-mean = “{ $word }”, capa { $layer } del decodificador, cabeza { $head } (el paso a paso sigue una sola cabeza: elige una capa y una cabeza arriba): q viene del decodificador (esta palabra, tras su SSRU), k y v de la salida del codificador para cada palabra de origen.
translation-step-source = palabra de origen j
translation-step-sum = Σ a_j = { $sum } (sin máscara: cada palabra de origen es visible para cada palabra de destino).
translation-model-note = El pequeño modelo de traducción de Bergamot: 6 capas de autoatención en el codificador (las pestañas Mapa de calor, Cuadrícula de puntos y Todas las cabezas las muestran) y 2 capas en el decodificador, cuyas palabras de destino atienden a las palabras de origen (la pestaña Traducción).
translation-empty = Elige un modelo de traducción (Traducir: inglés → portugués, o portugués → inglés) para ver la atención cruzada.
translation-layer = Capa
translation-mean-layers = Media de las capas
translation-decoder-layer = Capa { $layer } del decodificador
translation-head = Cabeza
translation-mean-heads = Media de las cabezas
translation-head-n = Cabeza { $head }
translation-parts-aria = Imágenes de la atención cruzada
translation-part-heatmap = Mapa de calor
translation-part-lines = Líneas
translation-part-step = Una palabra, paso a paso
translation-generate = ▶ Generar paso a paso
translation-candidate = { $token } { $percent }%
translation-generating = Paso { $step } de { $total }: el modelo eligió “{ $token }” — entre { $others }. Su fila, abajo, muestra adónde miró esta palabra en el origen.
translation-no-self-attention = Este decodificador no tiene autoatención.{" "}
translation-no-self-attention-why = Este decodificador no tiene autoatención. Para ser lo bastante pequeño y rápido para un navegador, cada una de sus 2 capas sustituye la autoatención sobre las palabras de destino anteriores por una SSRU (una unidad recurrente simple simplificada): un único resumen acumulado de las palabras producidas hasta ahora, actualizado por una puerta de olvido, en lugar de pesos de atención sobre cada una de ellas. Así que la única atención del decodificador es la atención cruzada que se ve aquí: consultas desde el destino, claves y valores desde la salida del codificador para el origen.
translation-provenance = De dónde viene el modelo · licencia: { $license }

## La pestaña Imagen

image-patch = parche { $row },{ $col }
image-none = La pestaña Imagen muestra la atención de un modelo de visión sobre su imagen. Abre una traza de visión: una escrita por attnscope.trace_image (Python) a partir de un modelo ViT, DeiT, DINOv2 o CLIP.
image-rollout-computing = Rollout: calculándolo a través de todas las capas…
image-rollout-caption = Rollout tras las { $layers } capas, con la media de todas las cabezas: cuánto de la entrada de cada parche llega a { $query }, por la atención y por el camino residual; de 0 al mayor, { $top }; el { $share }% viene de los { $patches } parches, el resto { $specials ->
        [one] del token especial
       *[other] de los { $specials } tokens especiales
    }.
image-layer-head = Capa { $layer } · cabeza { $head }
image-head-reading = { $head }: leyendo los pesos de la cabeza…
image-head-caption = { $head }: adónde mira { $query }. Cada parche se colorea según el peso que le da la consulta, de 0 al mayor, { $top }; el { $share }% de su peso va a los { $patches } parches, el resto { $specials ->
        [one] al token especial
       *[other] a los { $specials } tokens especiales
    }.
image-readout-most = Mayor peso: { $patch } ({ $weight })
image-readout-under = bajo el puntero: { $patch }, { $weight } (puesto { $rank } de { $count })
image-queries-aria = Token de consulta
image-hint = o haz clic en un parche (las flechas lo mueven)
image-show = Mostrar
image-source-head = la cabeza elegida
image-source-rollout = el rollout a través de todas las capas
image-tint = Color
image-overlay-aria = La imagen cortada en { $rows } × { $cols } parches, coloreada por la atención de { $query }
image-heads-tile = cabeza { $head }
image-heads-summary = Todas las cabezas de la capa { $layer }, una al lado de otra
image-heads-caption = La misma consulta en cada cabeza, cada una coloreada de 0 a su propio peso mayor; un clic elige una cabeza.
image-heads-aria = Las cabezas de la capa { $layer }, una al lado de otra
image-steps-aria = Consulta, claves y un peso
image-step-query-label = Consulta:{" "}
image-step-keys-label = Claves:{" "}
image-step-weight-label = Peso:{" "}
image-step-query = { $query }: su vector q, de { $dims } números, pregunta qué busca este token.
image-step-query-none = { $query } (la traza no guarda consultas ni claves).
image-step-keys = los { $n } tokens, los { $patches } parches y { $specials } especiales: cada uno ofrece un vector k.
image-step-weight = la clave a la que da más peso es { $key }: q·k = { $score }, × { $scale } (1/√{ $dims }) = { $scaled }; el softmax sobre las { $n } puntuaciones le da { $weight }, el color de su parche.
image-step-weight-plain = la clave a la que da más peso es { $key }, con { $weight }.

# The axes of the exported cross-attention heatmap (PNG, SVG).
translation-axis-keys = claves →
translation-axis-queries = consultas ↓
