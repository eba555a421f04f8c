# attnscope, Spanish: analyses

## Shared by the analyses

beyond-map-hint = Señala una celda, o tócala, para leer su valor exacto.
beyond-layer = Capa
beyond-not-computed = Aún no calculado.
beyond-cancelled = Cancelado.
beyond-cancel = Cancelar

## Value-weighted attention

beyond-vw-switch = Qué muestra el mapa
beyond-vw-weights-button = Pesos
beyond-vw-norms-button = Ponderado por valor
beyond-norm-colour = Color: cada fila respecto a su propio mayor ‖a·f(x)‖.
beyond-vw-title-norms = Capa { $layer } · cabeza { $head }: ponderado por valor ‖a·f(x)‖
beyond-vw-title-weights = Capa { $layer } · cabeza { $head }: pesos A
beyond-vw-map-label = La cabeza seleccionada, consultas en filas y claves en columnas, cada fila coloreada respecto a su mayor valor
beyond-vw-caption = Cada fila se colorea respecto a su propio mayor valor; la lectura da el número exacto. Elige la cabeza en el panel o en «Todas las cabezas».

## Definitions

beyond-value-weighted-definition = atención ponderada por valor (Kobayashi et al. 2020): ‖a_ij · f(x_j)‖ con f(x_j) = (x_j W_V^h + b_V^h) W_O^h, W_O^h la porción de la matriz de salida que corresponde a la cabeza (el sesgo de W_O no depende del token y se omite)
beyond-rollout-definition = rollout de atención (Abnar & Zuidema 2020): Ā_l = ½·mean_h A_l + ½·I, filas renormalizadas; R_l = Ā_l · R_(l−1), R_1 = Ā_1 (media sobre las cabezas de consulta, incluidos los modelos grouped-query)
beyond-lens-definition = logit lens (decodificadores): softmax(final_norm(h_l) · W_outᵀ), h_l el flujo residual tras la capa l, leído en una posición; la cuadrícula da el token más probable de cada posición en cada capa
beyond-knockout-definition = knockout de cabeza: la salida Z_h de la cabeza (antes de W_O) puesta a 0, o a su media sobre las posiciones del texto, y el modelo ejecutado de nuevo; efecto: la lista de siguientes tokens antes/después (decodificadores) o el coseno de los embeddings de la frase antes/después (codificadores)
beyond-importance-definition = mapa de importancia: cada cabeza eliminada por separado; decodificadores: caída de la probabilidad del siguiente token más probable; codificadores: 1 − coseno de los embeddings de la frase antes/después
beyond-patch-definition = activation patching: una activación de la ejecución limpia copiada en la ejecución corrupta, y el resto ejecutado de nuevo; efecto = (d − d_corrupt) / (d_clean − d_corrupt), d = logit(correcta) − logit(incorrecta) en la última posición (0: nada restaurado, 1: la respuesta limpia restaurada)
beyond-qk-definition = las consultas y claves de una cabeza (después de RoPE cuando el modelo las rota, antes de la escala 1/√d_k) colocadas juntas sobre sus dos ejes principales (PCA); la traslación de las claves desplaza cada clave por c = mean(Q) − mean(K), lo que suma q_i·c a cada puntuación de la fila i y por tanto deja A sin cambios; los valores sobre sus propios dos ejes, donde cada salida o_i = Σ_j a_ij v_j es la media ponderada de los puntos de los valores

## Rollout

beyond-rollout-title = Rollout
beyond-rollout-layers = Tras las capas 1 … { $shown } de { $layers }
beyond-rollout-slider = Rollout tras este número de capas
beyond-rollout-grouped = Modelo grouped-query: la media abarca todas las cabezas de consulta.
beyond-rollout-map-label = Rollout: cuánto de la entrada de cada token (columnas) llega a cada posición (filas)

## Logit lens

beyond-lens-title = Logit lens
beyond-lens-at = En «{ $token }» (posición { $position }): lo que el modelo predeciría si se detuviera tras cada capa.
beyond-lens-after-layer = Tras la capa
beyond-lens-top-token = Token más probable
beyond-lens-next-four = Los cuatro siguientes
beyond-lens-every-position = Todas las posiciones (cuadrícula capas × posiciones)
beyond-lens-decoders-only = El logit lens lee la matriz de salida de un decodificador: elige SmolLM2.

## Head knockout and the importance map

beyond-knockout-title = Knockout de cabezas
beyond-ablation-switch = Cómo se elimina una cabeza
beyond-ablation-zero-long = Poner su salida a cero
beyond-ablation-zero = Cero
beyond-ablation-mean-long = Su media sobre las posiciones
beyond-ablation-mean = Media
beyond-knockout-grid = Cabezas: pulsa para eliminar
beyond-knockout-head-change = L{ $layer } · H{ $head }: cambio { $change }
beyond-knockout-head = Capa { $layer } cabeza { $head }
beyond-knockout-zeroed = { $count ->
        [one] Cabeza { $heads } puesta a cero.
       *[other] Cabezas { $heads } puestas a cero.
    }
beyond-knockout-meaned = { $count ->
        [one] Cabeza { $heads } sustituida por su media.
       *[other] Cabezas { $heads } sustituidas por su media.
    }
beyond-knockout-top = El token más probable antes, { $token } (p = { $before }), ahora tiene p = { $after } y ocupa el puesto { $rank }.
beyond-knockout-drop = Caída de la probabilidad del token más probable (la medida del mapa de importancia): { $drop }
beyond-knockout-before = Siguiente token antes
beyond-knockout-after = Después
beyond-knockout-cosine = Coseno de los embeddings de la frase antes y después: { $cosine }
beyond-knockout-one-minus-cosine = 1 − coseno (la medida del mapa de importancia): { $change }
beyond-knockout-none-moved = La atención de ninguna capa posterior cambió.
beyond-knockout-moved = Cabezas posteriores cuya atención más cambió (media de |ΔA|): { $heads }
beyond-knockout-every-head = Se eliminaron todas las cabezas: queda lo que aportan los embeddings, los MLP y el camino residual.
beyond-knockout-none-chosen = Ninguna cabeza elegida: { $how } para eliminarlas.
beyond-knockout-how = pulsa una o más cabezas en la cuadrícula
beyond-knockout-run = Eliminar y ejecutar de nuevo
beyond-knockout-clear = Borrar
beyond-knockout-all = Elegir todas las cabezas
beyond-importance-title = Mapa de importancia
beyond-importance-running = Eliminando la cabeza { $done } de { $total }…
beyond-importance-done = Hecho: { $heads } cabezas; color = { $measure }. La más clara es el mayor cambio.
beyond-importance-measure-drop = caída de la probabilidad del siguiente token más probable
beyond-importance-measure-cosine = 1 − coseno de los embeddings de la frase
beyond-importance-run = Eliminar cada cabeza por turnos
beyond-importance-progress = Cabezas eliminadas hasta ahora
beyond-importance-caption = El mapa colorea la cuadrícula de cabezas de arriba (con el selector cero / media del knockout); pasa el cursor sobre una cabeza para ver su número.

## Activation patching

beyond-patch-title = Activation patching
beyond-patch-stale = El texto ha cambiado desde que se calcularon estos mapas: pulsa «Aplicar patch» otra vez para abrir sus celdas.
beyond-patch-decoders-only = El patching compara los logits del siguiente token, que un codificador como MiniLM no da: elige SmolLM2 o un decodificador abierto desde archivos.
beyond-patch-clean-note = El prompt limpio es el texto de arriba. Cambia una de sus palabras en el prompt corrupto (el mismo número de tokens, o elige rellenar o recortar).
beyond-patch-preset = Ejemplo
beyond-patch-choose = Elegir…
beyond-patch-preset-indirect = Objeto indirecto
beyond-patch-preset-factual = Recuerdo de hechos
beyond-patch-preset-repeated = Secuencia repetida
beyond-patch-preset-indirect-note = El segundo nombre decide la respuesta. En el mapa residual, las primeras capas lo llevan en la posición de ese nombre; en las capas intermedias pasa a la última posición: las cabezas que lo mueven se iluminan en el mapa de cabezas.
beyond-patch-preset-factual-note = Los tokens del monumento deciden la ciudad. El mapa residual muestra el dato leído en el último token del monumento en las capas iniciales e intermedias, y después llevado a la última posición.
beyond-patch-preset-repeated-note = La respuesta se copia de la primera vez que apareció el nombre (inducción). Las cabezas que la copian, las cabezas de inducción, se iluminan en el mapa de cabezas (última posición).
beyond-patch-corrupt = Prompt corrupto
beyond-patch-right = Respuesta correcta
beyond-patch-wrong = Respuesta incorrecta
beyond-patch-what = Dónde aplicar
beyond-patch-what-residual = el flujo residual (capa × posición)
beyond-patch-what-heads = cada cabeza, todas las posiciones (capa × cabeza)
beyond-patch-what-heads-last = cada cabeza, última posición (capa × cabeza)
beyond-patch-what-blocks = bloques de atención y feed-forward (capa × posición)
beyond-patch-fit = Si sus longitudes difieren
beyond-patch-fit-exact = decir dónde, y parar
beyond-patch-fit-pad = rellenar el más corto (espacios)
beyond-patch-fit-trim = recortar el más largo
beyond-patch-run = Aplicar patch
beyond-patch-progress = Patching hecho hasta ahora
beyond-patch-running = Patching: paso { $done } de { $total }…
beyond-patch-done = Hecho. Los prompts difieren en la posición { $at }. d = logit({ $right }) − logit({ $wrong }): { $clean } en el prompt limpio, { $corrupt } en el corrupto.{ $notes } Toca una celda y luego «Abrir» para ver su ejecución modificada junto a la limpia en el mapa de calor.
beyond-patch-note = Nota: { $note }.
beyond-patch-site-residual = flujo residual
beyond-patch-site-heads = salidas de las cabezas
beyond-patch-site-attention = bloque de atención
beyond-patch-site-feed-forward = bloque feed-forward
beyond-patch-map-title-heads = { $site }: capa × cabeza
beyond-patch-map-title-positions = { $site }: capa × posición
beyond-patch-column-head = cabeza { $head }
beyond-patch-column-position = posición { $position } «{ $token }»
beyond-patch-readout = Capa { $layer }, { $column }: efecto { $effect } (d = { $d })
beyond-patch-readout-hint = Señala una celda, o tócala, para ver su efecto y d.
beyond-patch-open-what = Este mapa es la ejecución modificada: en la capa { $layer }, en { $column }, la activación «{ $site }» se copió de la ejecución limpia (el otro mapa) a la corrupta; efecto { $effect } (d = { $d })
beyond-patch-open = Abrir capa { $layer }, { $column } en el mapa de calor
beyond-patch-open-hint = Toca una celda para abrir su ejecución
beyond-patch-caption = Rojo: el patch restaura la respuesta limpia (1: del todo); blanco: nada (0); azul: la aleja aún más.

## The head catalog: its table and maps

catalog-column-head = Capa · cabeza
catalog-column-entropy = Entropía (bits)
catalog-column-distance = Distancia media (tokens)
catalog-column-previous = Token anterior
catalog-column-first = Primer token (sumidero)
catalog-column-self = Sí mismo
catalog-column-head-title = Dónde está la cabeza
catalog-column-entropy-title = Entropía media de una fila: 0 cuando cada consulta mira a una sola clave, log2(n) cuando se reparte por igual
catalog-column-distance-title = Media de |i − j| ponderada por A: a qué distancia mira la cabeza
catalog-column-previous-title = Peso medio sobre el token justo anterior a la consulta
catalog-column-first-title = Peso medio sobre el primer token, el «sumidero de atención»
catalog-column-self-title = Peso medio sobre el propio token de la consulta
catalog-select-head = Seleccionar capa { $layer }, cabeza { $head }
catalog-table-caption = Cada cabeza, medida a partir de sus pesos de atención en este texto. Ordena por una columna; elige una fila para seleccionar esa cabeza.
catalog-map-label = { $measure } de cada cabeza, capas en filas y cabezas en columnas; la tabla de abajo da los mismos números
catalog-map-readout = L{ $layer } · H{ $head }: entropía { $entropy } bits · distancia { $distance } · anterior { $previous } · primero { $first } · sí mismo { $itself }
catalog-maps-caption = Cada mapa: capas en filas, cabezas en columnas, coloreado del valor más bajo (oscuro) al más alto (amarillo); los tres pesos en una misma escala, de 0 a 1. Haz clic en una cabeza para abrirla.

## Find heads

catalog-find-title = Buscar cabezas
catalog-find-query = Palabra de consulta
catalog-find-key = atiende a
catalog-find-run = Ordenar las cabezas
catalog-find-ranked = Cabezas ordenadas según cuánto atiende «{ $query }» a «{ $key }»:

## Head detectors

catalog-detectors-title = Detectores de cabezas
catalog-detector-induction = inducción
catalog-detector-duplicate = token duplicado
catalog-detector-previous = token anterior
catalog-detector-first = primer token
catalog-detector-induction-definition = inducción (Olsson et al. 2022): media sobre la segunda copia de A[p+T+t, p+t+1], el peso sobre el token que sigue a la aparición anterior
catalog-detector-duplicate-definition = token duplicado: media sobre la segunda copia de A[p+T+t, p+t], el peso sobre la aparición anterior del mismo token
catalog-detector-previous-definition = token anterior: media sobre i ≥ 1 de A[i, i−1]
catalog-detector-first-definition = primer token: media sobre i de A[i, 0]
catalog-detector-cell = Capa { $layer } cabeza { $head }: { $score }
catalog-detector-prompt = { $tokens ->
        [one] Prompt ({ $tokens } token): { $prompt }
       *[other] Prompt ({ $tokens } tokens): { $prompt }
    }
catalog-detector-repeats = Qué repite el prompt
catalog-detector-random = Tokens aleatorios
catalog-detector-mine = Mi texto
catalog-detector-text = Texto, repetido dos veces
catalog-detector-placeholder = p. ej. Mr and Mrs Dursley of number four
catalog-detector-period = Tokens aleatorios por copia
catalog-detector-seed = Semilla
catalog-detector-run = Ejecutar los detectores

## Heads that resemble each other

catalog-similar-title = Cabezas que se parecen
catalog-similar-definition = d(g, h) = media sobre las consultas i de √JS(A_g[i,:], A_h[i,:]), la divergencia de Jensen–Shannon en bits (0 ≤ d ≤ 1); las cabezas colocadas mediante escalamiento multidimensional clásico de d y agrupadas por enlace promedio
catalog-similar-too-long = Comparar cada par de cabezas fila a fila requiere textos de hasta { $most } tokens; este tiene { $tokens }. Acórtalo para situar las cabezas en el mapa.
catalog-similar-running = Comparando cada par de cabezas: { $done } de { $total } pares
catalog-similar-stop = Parar
catalog-similar-start = Comparar las cabezas
catalog-similar-start-after = en este texto (cada par de cabezas, fila a fila).
catalog-similar-groups = Grupos
catalog-similar-map-label = Todas las cabezas en un solo mapa: las que atienden de forma parecida quedan cerca
catalog-similar-dot = { $head }: grupo { $group } (clic para abrir)
catalog-similar-caption = Cada punto es una de las { $heads } cabezas, colocadas de modo que las que atienden de forma parecida a los { $tokens } tokens de este texto queden cerca; los colores son grupos de cabezas parecidas. Haz clic en un punto para abrir esa cabeza en todas las vistas.
catalog-similar-not-on-map = La cabeza seleccionada no está en este mapa.
catalog-similar-like = Cabezas parecidas a { $head }:
catalog-similar-same-group = mismo grupo
