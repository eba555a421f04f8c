# attnscope, Español: files

## Abrir un modelo propio

files-cannot-open = No se puede abrir: { $message }
files-model-removed = Tu modelo se eliminó de este navegador.
files-reading = Leyendo los archivos…
files-no-worker = El worker de cálculo no pudo iniciarse en este navegador, así que aquí no se pueden abrir modelos.
files-open-model = Abrir un modelo…
files-open-model-title = Un archivo .gguf, o config.json, tokenizer.json y model.safetensors de una carpeta de Hugging Face; se leen aquí, nunca se suben
files-folder = Carpeta…
files-folder-title = Una carpeta de Hugging Face (config.json, tokenizer.json, model.safetensors)
files-forget = Olvidar
files-forget-title = Quitar tu modelo del almacenamiento de este navegador
files-architecture = Arquitectura
files-layers = Capas
files-heads = Cabezas
files-parameters = Parámetros
files-files = Archivos
files-weights = Pesos
files-memory = Memoria necesaria
files-kv-heads = { $heads } sobre { $kv ->
    [one] { $kv } cabeza de clave y valor
   *[other] { $kv } cabezas de clave y valor
}
files-millions = { $millions } M
files-preflight-label = El modelo elegido
files-cannot-load = No se puede cargar: { $why }.
files-loading = Cargando tu modelo…
files-load = Cargar
files-close = Cerrar
files-cancel = Cancelar
files-your-files = tus archivos
files-saved = guardado

## Abrir un archivo de traza

files-open-trace = Abrir una traza…
files-open-trace-title = Un archivo de traza .safetensors escrito por el paquete de Python attnscope o por `attnscope trace --out`; o suelta uno en la página
files-trace-failed = No se pudo abrir { $name }: { $why }
files-trace-info = { $model } · { $layers ->
    [one] { $layers } capa
   *[other] { $layers } capas
} × { $heads ->
    [one] { $heads } cabeza
   *[other] { $heads } cabezas
} · { $tokens ->
    [one] { $tokens } token
   *[other] { $tokens } tokens
} · { $file }
files-trace-info-grouped = { $model } · { $layers ->
    [one] { $layers } capa
   *[other] { $layers } capas
} × { $heads } cabezas sobre { $kv ->
    [one] { $kv } cabeza de clave y valor
   *[other] { $kv } cabezas de clave y valor
} · { $tokens ->
    [one] { $tokens } token
   *[other] { $tokens } tokens
} · { $file }
files-needs-queries-keys = Este archivo de traza guarda solo los pesos de atención, sin consultas ni claves: el Paso a paso no puede seguir un token a través de q·k, y el Espacio Q·K no tiene puntos que situar. Escríbelo con consultas y claves (attnscope.trace(…, queries_keys=True), o `attnscope trace --out` sin --no-queries-keys) para verlos. Las pestañas Mapa de calor, Cuadrícula de puntos, Todas las cabezas y Catálogo muestran sus pesos.
files-needs-live-model = La lección ejecuta un modelo en vivo sobre una frase que escribes; el texto de un archivo de traza es fijo. Elige un modelo en Modelo para la lección, o mira esta traza en las pestañas Mapa de calor, Cuadrícula de puntos, Todas las cabezas, Catálogo y Paso a paso.

## Una clase: la página del docente guía, las de los estudiantes la siguen

class-hold = Dar una clase…
class-none = Aquí no hay clase: las clases se dan donde { $command }, ejecutado en el portátil del docente, sirve la página.
class-start = Empezar una clase
class-name = Clase
class-followers = { $count ->
    [one] { $count } estudiante sigue
   *[other] { $count } estudiantes siguen
}
class-connecting = conectando…
class-connection-lost = conexión perdida, reintentando…
class-link-refused = rechazada: { $reason }
class-show-code = Mostrar el código de acceso
class-end = Terminar la clase
class-join-label = Unirse a la clase
class-qr-alt = Código QR del enlace de acceso
class-code = Código
class-close = Cerrar
class-waiting = Esperando a que el docente abra la clase…
class-reconnecting = Reconectando con la clase…
class-refused = La clase rechazó la conexión: { $reason }
class-following = Siguiendo al docente
class-exploring = Explorando por tu cuenta
class-detach = Explorar por mi cuenta
class-rejoin = Volver con el docente

## Preguntas a la clase

class-this-token = este token
class-propose-token = ¿A qué token atiende más “{ $query }” en la capa { $layer }, cabeza { $head }?
class-propose-head = ¿Qué cabeza atiende más al token anterior?
class-propose-choice = ¿Qué es cierto de esta cabeza?
class-kind-token = Tocar un token
class-kind-head = Elegir cabeza
class-kind-choice = Opciones
class-kind-label = Tipo de pregunta
class-ask-room = Preguntar a la clase
class-choices-placeholder = Una opción por línea (de dos a ocho)
class-ask = Preguntar
class-step-question = La pregunta de este paso
class-answered = { $count ->
    [one] { $count } respuesta
   *[other] { $count } respuestas
}
class-reveal-model = Revelar la respuesta del modelo
class-reveal = Revelar la respuesta
class-model-answer = El modelo: “{ $name }”, el mayor peso de la fila
class-the-answer = La respuesta: “{ $name }”
class-end-question = Cerrar la pregunta
class-question-label = Una pregunta
class-answer-sent = Respuesta enviada: toca otra para cambiarla.
class-tap-answer = Toca tu respuesta; el docente ve el recuento, no quién respondió.

## Las preguntas listas de la lección, por paso

class-step1 = La q, la k y la v de un token son…
class-step1-a = tres tokens distintos
class-step1-b = tres proyecciones del mismo x
class-step1-c = el mismo vector, tres veces
class-step2 = ¿Qué clave da a “{ $q }” su mayor puntuación q · k?
class-step3 = Sin el ÷ √d_k, el softmax de puntuaciones grandes se vuelve…
class-step3-a = más plano: el mismo peso en todas partes
class-step3-b = igual
class-step3-c = más agudo: casi todo en una clave
class-step5 = Con la máscara causal, un token atiende…
class-step5-a = a sí mismo y a los tokens anteriores
class-step5-b = solo a los tokens posteriores
class-step5-c = a todos los tokens
class-step6 = ¿El valor de qué token aporta más a la salida de “{ $q }”?
class-step7 = ¿Qué cabeza mira más al token anterior?
class-step8 = ¿Qué fila de A se usa para elegir el siguiente token?
class-step8-a = la del primer token
class-step8-b = la del último token
class-step8-c = votan todas las filas
class-step9 = Una temperatura más alta vuelve la distribución del siguiente token…
class-step9-a = más aguda
class-step9-b = igual
class-step9-c = más plana
class-step10 = Con la misma semilla y los mismos ajustes, el muestreo escribe…
class-step10-a = el mismo texto
class-step10-b = un texto distinto cada vez
class-step11 = Con cada token nuevo, la caché de claves y valores ahorra recalcular…
class-step11-a = la q del token nuevo
class-step11-b = nada
class-step11-c = la k y la v de todos los tokens anteriores
class-step12 = En la atención cruzada de Whisper, las claves y los valores vienen…
class-step12-a = de las palabras escritas hasta ahora
class-step12-b = de las tramas de sonido del codificador
class-step12-c = de la siguiente palabra
class-step13 = Los tiempos de las palabras vienen…
class-step13-a = de todas las cabezas por igual
class-step13-b = de las pocas cabezas de alineación
class-step13-c = de la última capa del codificador
class-step-other = ¿A qué token atiende más “{ $q }”?
