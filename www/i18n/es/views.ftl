# attnscope, Spanish: views

## La lectura de una celda

common-readout-empty = Señala una celda, o tócala, para leer su peso y su puntuación bruta.
common-readout-weight-only = “{ $query }” → “{ $key }”: peso { $weight }
common-readout-visible = “{ $query }” → “{ $key }”: peso { $weight } · puntuación bruta q·k { $score } · escalada { $scaled }
common-readout-visible-what-if = “{ $query }” → “{ $key }” (máscara hipotética): peso { $weight } · puntuación bruta q·k { $score } · escalada { $scaled }
common-readout-hidden = “{ $query }” → “{ $key }”: oculta por la { $mask ->
        [causal] máscara causal
       *[other] máscara de ventana deslizante
    } (puntuación −∞, peso 0) · puntuación bruta q·k { $score }
common-readout-hidden-what-if = “{ $query }” → “{ $key }” (máscara hipotética): oculta por la { $mask ->
        [causal] máscara causal
       *[other] máscara de ventana deslizante
    } (puntuación −∞, peso 0) · puntuación bruta q·k { $score }
common-mask-none = ninguna
common-mask-causal = causal
common-mask-window = ventana deslizante

## Los cuatro pasos

stage-play = ▶ Reproducir
stage-stop = ■ Detener
stage-play-label = Reproducir los cuatro pasos
stage-stop-label = Detener
stage-play-title = Reproducir QKᵀ → ×1/√d_k → +M → softmax
stage-picker-label = Paso del cálculo
stage-title-scores = Paso 1: las puntuaciones brutas S = QKᵀ, un producto escalar por cada consulta y clave
stage-title-scaled = Paso 2: las puntuaciones escaladas por 1/√d_k
stage-title-masked = Paso 3: se suma la máscara M: −∞ donde una clave está oculta
stage-title-weights = Paso 4: el softmax de cada fila, los pesos de atención A

## El mapa de calor

head-heatmap-label = Atención de la cabeza seleccionada, consultas × claves; la tabla de pesos muestra los mismos números. Las flechas mueven la celda descrita, Intro elige su consulta; más y menos amplían un texto largo
head-caption-weights-rows = Fila i: cómo el token de consulta i reparte su atención entre las claves (columnas). Más brillante es más; cada fila suma 1.
head-caption-weights-rows-masked = Fila i: cómo el token de consulta i reparte su atención entre las claves (columnas). Más brillante es más; cada fila suma 1. Gris: claves que la máscara oculta (peso 0).
head-caption-weights-columns = Columna j: cómo el token de consulta j reparte su atención entre las claves (filas). Más brillante es más; cada columna suma 1.
head-caption-weights-columns-masked = Columna j: cómo el token de consulta j reparte su atención entre las claves (filas). Más brillante es más; cada columna suma 1. Gris: claves que la máscara oculta (peso 0).
head-caption-masked = Puntuaciones tras la máscara: las celdas grises son −∞, claves que la consulta no puede ver. Rojo es positivo, azul negativo.
head-caption-scores-rows = Fila i: la puntuación del token de consulta i con cada clave, q·k. Rojo es positivo, azul negativo.
head-caption-scores-columns = Columna j: la puntuación del token de consulta j con cada clave, q·k. Rojo es positivo, azul negativo.
head-compare-summary = Comparar con otra frase (misma cabeza)
head-compare-text-label = Otra frase
head-compare-placeholder = p. ej., las mismas palabras en otro orden
head-compare-label = Pesos de atención de la misma cabeza en la otra frase
head-compare-caption = { $what } ({ $tokens ->
        [one] { $tokens } token
       *[other] { $tokens } tokens
    }), capa { $layer }, cabeza { $head }
head-compare-close = Cerrar la ejecución con patching

## Las cuadrículas de puntos

grid-caption-unmasked = Sin máscara: cada palabra ve todas las palabras. Es lo que usa { $model }.
grid-caption-unmasked-what-if = Sin máscara (hipótesis): { $model } es causal; esta cuadrícula se calcula con las mismas Q y K, sin la máscara.
grid-caption-causal = Causal: una palabra solo se ve a sí misma y a las palabras anteriores. Es lo que usa { $model }.
grid-caption-causal-what-if = Causal (hipótesis): { $model } ve en ambos sentidos; esta cuadrícula aplica una máscara causal a las mismas Q y K.
grid-caption-window = Ventana deslizante: una palabra solo se ve a sí misma y { $before ->
        [one] a la palabra anterior
       *[other] a las { $before } palabras anteriores
    }.
grid-hint-norms = Cuadrícula propia del modelo: área del círculo ∝ ‖a·f(x)‖, cada fila respecto a su mayor valor.
grid-hint-weights = Área del círculo ∝ peso de atención (de 0 a 1).
grid-hint-masked = Área del círculo ∝ |puntuación| (respecto a la mayor puntuación bruta); rojo positivo, azul negativo; × marca −∞, una clave oculta.
grid-hint-scores = Área del círculo ∝ |puntuación| (respecto a la mayor puntuación bruta): el escalado las encoge todas. Rojo positivo, azul negativo.
grid-norms-caption = El ‖a·f(x)‖ ponderado por los valores sustituye al último paso, los pesos, y solo en la cuadrícula con la máscara propia del modelo: las puntuaciones llegan antes que cualquier vector de valor, y una máscara hipotética no tiene normas propias.
grid-small-caption = Con esta longitud, un punto ocuparía uno o dos píxeles: cada celda se sombrea según el tamaño de su punto. Amplía (+, Ctrl + rueda o pellizcando) para ver los puntos.

## Paso a paso

explain-vector-preview = { $vector } ({ $count } números)
explain-vector-show-all = { $label }: mostrar los { $count } números
explain-scale-unscaled = 1/√d_k eliminado: las puntuaciones brutas van directamente al softmax (el modelo usa 1/√{ $d_k } = { $model })
explain-scale-unscaled-temperature = 1/√d_k eliminado, × { $factor } por la temperatura (el modelo usa 1/√{ $d_k } = { $model })
explain-scale-temperature = = { $factor } × 1/√{ $d_k }: la lección de temperatura está activa (el factor propio del modelo es 1/√{ $d_k } = { $model })
explain-scale-model = = 1/√{ $d_k }, el escalado propio del modelo (d_k = { $d_k })
explain-scale-own = el factor propio del modelo (1/√{ $d_k } sería { $model })
explain-projection-minilm = (+ un sesgo b_Q; x es E tras la LayerNorm de la capa anterior)
explain-projection-smollm2 = (x es E tras la RMSNorm; luego q y k se rotan según su posición, RoPE)
explain-projection-custom = (x es E tras la normalización de la capa, tal como la define tu modelo)
explain-projection-trace = (q y k tal como los guarda el archivo de trace; x, v y ΔE no están en él)
explain-projection-translate = (+ un sesgo b_Q; el codificador del modelo de traducción, x tras la LayerNorm de la capa anterior)
explain-projection-whisper = (+ un sesgo b_Q; x es E tras la LayerNorm de la capa)
explain-query-token = Token de consulta
explain-choose-query = Elige el token de consulta
explain-key-of = k de { $token }
explain-value-of = v de { $token }
explain-weighted-value-of = valor ponderado de { $token }
explain-head-note = Capa { $layer }, cabeza { $head } (claves y valores de la cabeza de clave/valor { $kv_head }) · d_k = { $d_k } · escala = { $scale } · máscara: { $mask }
explain-step-x = El vector de “{ $token }” al entrar en la capa
explain-formula-x = x = E[{ $index }]   ({ $count } números)
explain-step-q = Su consulta
explain-formula-q = q = x · W_Q   ({ $from } → { $to } números){ $note }
explain-step-scores = Comparar con cada clave, escalar, aplicar la máscara y el softmax, y ponderar los valores
explain-formula-mask = s″_j = s′_j + M_ij   (M es 0 donde la clave es visible, −∞ donde la { $mask ->
        [none] máscara (ninguna)
        [causal] máscara causal
       *[other] máscara de ventana deslizante
    } la oculta)
explain-formula-v = v_j = x_j · W_V     cada valor se multiplica por su peso: a_j · v_j
explain-table-caption = Consulta “{ $token }” frente a cada clave
explain-col-key = clave j
explain-col-scaled = s_j × escala
explain-step-z = Sumar los valores ponderados: la salida de la cabeza
explain-formula-z = z = Σ_j a_j · v_j   ({ $count } números)
explain-step-delta = Todas las cabezas juntas: la actualización ΔE
explain-formula-delta = ΔE[{ $index }] = [z_1 | … | z_H] · W_O   (el z de cada cabeza, concatenados y proyectados de vuelta a { $count } números)
explain-step-residual = El flujo residual tras la atención
explain-formula-residual = E[{ $index }] + ΔE[{ $index }]   (el vector del token, desplazado por lo que ha reunido)
explain-label-residual = E más delta E
explain-computing = calculando…
explain-empty = Escribe un texto para seguir un token a través de la fórmula.
explain-lines-label = Líneas de cada token de consulta (izquierda) a las claves (derecha), tan intensas como el peso; las líneas de la consulta elegida destacan. La tabla de abajo muestra los mismos números.
explain-lines-caption = Izquierda: consultas; derecha: claves. Una línea es tan opaca como su peso; haz clic en una palabra de la izquierda para seguirla.
explain-row-note = Fila de “{ $token }” en esta cabeza: peso máximo { $top }, entropía { $entropy } bits (una fila uniforme tendría { $uniform }).
explain-row-label = Pesos de atención de { $token }
explain-scaling-legend = Escalado y temperatura
explain-scaling-note = Si las entradas de q y k son independientes, con media 0 y varianza 1, q·k tiene varianza d_k: las cabezas anchas dan puntuaciones grandes, y la exponencial del softmax convierte las diferencias grandes en todo o nada (con gradientes diminutos). Dividir por √d_k devuelve la varianza a 1. Multiplica las puntuaciones abajo y observa cómo las filas se afilan (factor > 1, un softmax más frío) o se aplanan (factor < 1, uno más caliente).
explain-model-setting = ★ Esta es la configuración real del modelo: factor 1, escalado por 1/√d_k.
explain-not-model-setting = No es la configuración del modelo: usa factor 1, escalado por 1/√d_k. Las capas siguientes no se vuelven a calcular; cada cabeza muestra a qué prestaría atención.
explain-multiply = Multiplicar las puntuaciones escaladas por
explain-times = por { $factor }
explain-mark-model = ×1 (el modelo)
explain-reset = Volver a la configuración del modelo
explain-unscaled = quitar 1/√d_k (pasar las puntuaciones brutas q·k al softmax)
explain-position-legend = Orden de las palabras
explain-positional = codificación posicional (modelo didáctico)
explain-position-note = La atención compara vectores, no posiciones: sin un código posicional, barajar las palabras solo baraja de la misma manera las filas y las columnas de A, y la cabeza de la “palabra anterior” no puede saber qué palabra vino antes.
explain-next-temperature = Temperatura del softmax del siguiente token
explain-next-temperature-note = (logits ÷ T: por debajo de 1 afila, por encima de 1 aplana; 1 es el valor del propio modelo)

## Todas las cabezas

overview-label = Todas las capas y cabezas; las flechas mueven la selección
overview-knock-cell = Capa { $layer }, cabeza { $head }
overview-knock-cell-out = Capa { $layer }, cabeza { $head }: desactivada
overview-knock-title-out = L{ $layer } · H{ $head } (desactivada)
overview-knock-count = { $count ->
        [0] Ninguna cabeza elegida
        [one] { $count } cabeza elegida
       *[other] { $count } cabezas elegidas
    }
overview-knock-tools = Knockout de cabezas
overview-knock-mode = Desactivar cabezas
overview-knock-how = activa “Desactivar cabezas” y haz clic en las miniaturas
overview-knock-run = Ejecutar knockout
overview-knock-clear = Borrar
overview-caption-knockout = Modo knockout: haz clic en las miniaturas para elegir las cabezas que quitar (tachadas) y luego en Ejecutar knockout; desactiva el modo para volver a abrir cabezas.
overview-caption = Cada miniatura es la atención de una cabeza (las filas son las consultas) sobre este texto. Haz clic en una miniatura o usa las flechas para abrir esa cabeza en todas las vistas.
overview-scale-caption = En un texto tan largo, cada celda de una miniatura es el peso medio de un bloque de tokens, dibujado respecto a la celda más brillante de la miniatura para que se vea su patrón; el mapa de calor tiene cada peso.
overview-norms-caption = Ponderado por los valores: cada miniatura muestra ‖a·f(x)‖, cada fila respecto a su mayor valor; los valores exactos están en la lectura del mapa de calor y en las exportaciones.

## El ejemplo resuelto 3×4

worked-cell-label = { $matrix }, fila { $row }, columna { $column }
worked-seed-heading = El seed: ÷ √{ $width } (anchura de la entrada)
worked-note = Tres entradas de anchura 4, proyecciones a anchura 3 — el ejemplo resuelto del seed 003. Edita cualquier número; todo lo de abajo se recalcula con la misma fórmula que usan los modelos.
worked-reset = Volver a los números del seed
