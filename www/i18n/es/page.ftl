# attnscope, Spanish: page

page-open-full = Abrir en attnscope ↗
page-run-progress = Calculando { $tokens } tokens: capa { $done } de { $blocks } lista
page-language = Idioma
page-language-failed = La página no pudo cambiar a { $language }: { $reason }

## The control bar: the brand's line, settings, the model, the text box, the layer and head

page-tagline = A = softmax(QKᵀ/√d_k + M), en vivo
page-settings = Ajustes
page-dark = Oscuro
page-dark-title = Tema oscuro, figuras incluidas
page-present = Presentación
page-present-title = Letra y figuras grandes, para un proyector
page-columns = Consultas en columnas
page-columns-title = Dibuja cada consulta como una columna, como en los vídeos de 3Blue1Brown
page-model = Modelo
page-model-saved = guardado
page-model-teaching-option = Modelo didáctico (integrado)
page-model-minilm-option = MiniLM · codificador · { $size }
page-model-smollm2-option = SmolLM2-135M · decodificador · { $size }
page-model-trace-option = Archivo de traza (abierto)
page-exact = Pesos f32 exactos ({ $size })
page-exact-title = Desactivado: los pesos redondeados a f16, la mitad de descarga; cada peso de atención queda a menos de 2e-3 del modelo en f32. Activado: el archivo f32 tal como se publicó, los números que imprime la CLI.
page-download = Descarga
page-downloading = Descargando { $model }: { $loaded } de { $total }
page-reading = Leyendo { $model }: { $loaded } de { $total }
page-retry = Reintentar
page-use-teaching = Usar el modelo didáctico
page-text = Texto
page-text-hosted-trace = El texto de una traza es fijo: sus tokens están sobre la figura
page-text-trace = El texto de un archivo de traza es fijo: elige un modelo para escribir
page-text-placeholder = Escribe una frase…
page-layer = Capa
page-head = Cabeza
page-head-title = Cabeza de consulta (y la cabeza de clave/valor que comparte, donde las cabezas las comparten)

## Models' names (real models keep their published names)

page-model-teaching = Modelo didáctico
page-model-custom = Tu modelo
page-model-trace = El archivo de traza
page-model-en-pt = Traducción: inglés → portugués
page-model-pt-en = Traducción: portugués → inglés
page-model-whisper = Whisper tiny.en (voz)
page-load-failed = No se pudo cargar { $model }: { $message }
page-other-sentence = La otra frase

## The tabs of views above the picture

page-views = Vistas
page-view-overview = Todas las cabezas
page-view-head = Mapa de calor
page-view-grid = Cuadrícula de puntos
page-view-explain = Paso a paso
page-view-space = Espacio Q·K
page-view-catalog = Catálogo
page-view-worked = Ejemplo 3×4
page-view-lesson = Lección
page-view-beyond = Más allá de los pesos
page-view-translate = Traducción
page-view-speech = Voz
page-view-image = Imagen
page-view-space-first = Espacio
page-view-space-rest = {" "}Q·K
page-view-beyond-first = Más allá
page-view-beyond-rest = {" "}de los pesos
page-view-worked-first = Ejemplo
page-view-worked-rest = {" "}3×4

## The side panel: status, notes on the model, next tokens, exports

page-rail = Ajustes, notas y exportaciones
page-computing = calculando…
page-status-empty = Escribe un texto para ver su atención.
page-status = { $tokens ->
    [one] { $tokens } token, calculado en { $time } en tu navegador
   *[other] { $tokens } tokens, calculados en { $time } en tu navegador
}
page-status-threads = { $tokens ->
    [one] { $tokens } token, calculado en { $time } con { $threads } hilos en tu navegador
   *[other] { $tokens } tokens, calculados en { $time } con { $threads } hilos en tu navegador
}
page-status-one-thread = { $tokens ->
    [one] { $tokens } token, calculado en { $time } con un solo hilo ({ $why }) en tu navegador
   *[other] { $tokens } tokens, calculados en { $time } con un solo hilo ({ $why }) en tu navegador
}
page-status-memory = memoria del worker { $size }
page-status-memory-both = memoria del worker { $size } (ambos workers)
page-under-tenth-ms = menos de 0,1 ms
page-tokens-label = Tokens: elige uno para seguirlo en todas las vistas
page-model-card = El modelo
page-note-teaching = Las cinco cabezas del modelo didáctico se diseñaron a mano, no se aprendieron: cada una hace una sola cosa que se puede explicar.
page-note-minilm-exact = MiniLM (all-MiniLM-L6-v2): un codificador BERT, 6 capas × 12 cabezas; sus pesos f32 tal como se publicaron.
page-note-minilm = MiniLM (all-MiniLM-L6-v2): un codificador BERT, 6 capas × 12 cabezas; sus pesos redondeados a f16 (la mitad de descarga), cada peso de atención a menos de 2e-3 del modelo en f32.
page-note-smollm2 = SmolLM2-135M: un decodificador Llama, 30 capas × 9 cabezas de consulta sobre 3 cabezas de clave/valor.
page-note-custom = Tu modelo, leído de tus propios archivos en este navegador: no se subió nada.
page-note-trace = Un archivo de traza: atención calculada en otro lugar, leída del archivo una cabeza cada vez.
page-mask-none = { $name } atiende en ambos sentidos (sin máscara). Una cuadrícula causal para él es una hipótesis, calculada con las mismas Q y K.
page-mask-causal = { $name } es causal: cada token ve solo a sí mismo y a los tokens anteriores. Una cuadrícula sin máscara para él es una hipótesis.
page-mask-sliding = { $name } es causal { $window }
page-mask-window = { $before ->
    [one] con una ventana deslizante: cada token ve solo a sí mismo y al { $before } token anterior.
   *[other] con una ventana deslizante: cada token ve solo a sí mismo y a los { $before } tokens anteriores.
}
page-mask-local = { $said } La capa { $layer } es local, { $window }
page-head-note = Cabeza { $head }
page-head-note-named = Cabeza { $head }: “{ $name }”
page-append-token = Añadir este token
page-next-tokens = Siguientes tokens más probables
page-next-click = Haz clic en uno para añadirlo.
page-export-heading = Exportar esta cabeza
page-export-busy = Esperando a que se calcule la atención del texto
page-export-title = capa { $layer } · cabeza { $head } · A = softmax(QKᵀ/√d_k + M) · máscara: { $mask }
page-mask-name-none = ninguna
page-mask-name-causal = causal
page-mask-name-sliding = ventana deslizante
page-table-too-long = La tabla de pesos se muestra para textos de hasta { $max } tokens; exporta en CSV los más largos.
page-table-caption = Pesos de atención de la cabeza seleccionada: las filas son consultas, las columnas son claves
page-table-corner = consulta \ clave

## Offline use

page-offline-saving = Guardando para usar sin conexión…
page-offline-ready = ✓ Funciona sin conexión
page-offline-ready-title = Los archivos de la página están guardados en este navegador: se abre y calcula sin red

## Zooming into a picture

page-zoom = Zoom
page-zoom-title = Ctrl + rueda, un gesto de pellizco, o + y − sobre la figura enfocada hacen zoom; arrastrar o la rueda desplaza; 0 ajusta
page-zoom-out = Alejar
page-zoom-in = Acercar
page-zoom-level = Zoom { $level }
page-zoom-fit = Ajustar
page-zoom-fit-title = Ajustar: el mapa entero

## The computation's worker (errors; $why and $error are in English, from the browser or the core)

page-worker-restarted = El worker de cálculo se detuvo inesperadamente ({ $why }); se ha reiniciado.
page-worker-gave-up = El worker de cálculo se detuvo inesperadamente ({ $why }); falló demasiadas veces para reiniciarlo; recarga la página.
page-worker-restarted-model = el worker de cálculo se detuvo inesperadamente ({ $why }); se ha reiniciado: elige el modelo otra vez para recargarlo
page-worker-gave-up-model = el worker de cálculo se detuvo inesperadamente ({ $why }); falló demasiadas veces para reiniciarlo; recarga la página: elige el modelo otra vez para recargarlo
page-needs-worker = { $model } necesita el worker en segundo plano, que no pudo iniciarse en este navegador
page-worker-not-started = el worker de cálculo no se inició: recarga la página
page-trace-worker-not-started = el worker en segundo plano que lee archivos de traza no se inició: recarga la página
page-hosted-worker-not-started = el worker en segundo plano que lee la traza no se inició
page-worker-unreadable = respuesta ilegible del worker: { $error }
page-worker-no-reason = no se indicó el motivo; ¿falta de memoria?

## A page inside a notebook, reading its host's trace

page-host-no-reason = no se indicó el motivo
page-host-not-bytes = el anfitrión envió algo que no son bytes
page-host-wrong-length = el anfitrión envió { $sent } bytes de los { $asked } pedidos (¿ha cambiado el archivo?)

# The axes of the exported heatmap (PNG, SVG).
page-axis-keys = claves →
page-axis-queries = consultas ↓

# The teaching model as a run names it (the lesson, the status, exports).
page-model-teaching-run = Modelo didáctico (cabezas diseñadas a mano)

# The teaching model's five heads: "name: what the head does" (the part before the first colon is the name).
page-teaching-describes = describe: Los sustantivos prestan atención a los adjetivos, sobre todo a los que van justo antes (criatura → azul, esponjosa).
page-teaching-previous-word = palabra anterior: Cada palabra presta atención a la palabra anterior.
page-teaching-self = sí misma: Cada palabra presta atención a sí misma (y a sus repeticiones).
page-teaching-who-did-what = quién hizo qué: Los verbos prestan atención a los sustantivos y pronombres cercanos (recorría → criatura, bosque).
page-teaching-introduces = introduce: Los artículos prestan atención hacia delante al sustantivo que introducen (una → criatura).
