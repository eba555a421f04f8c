# attnscope, Portuguese: page

page-open-full = Abrir no attnscope ↗
page-run-progress = Calculando { $tokens } tokens: camada { $done } de { $blocks } pronta
page-language = Idioma
page-language-failed = Não foi possível mudar a página para { $language }: { $reason }

## The control bar: the brand's line, settings, the model, the text box, the layer and head

page-tagline = A = softmax(QKᵀ/√d_k + M), ao vivo
page-settings = Configurações
page-dark = Escuro
page-dark-title = Tema escuro, figuras incluídas
page-present = Apresentação
page-present-title = Texto e figuras grandes, para um projetor
page-columns = Consultas em colunas
page-columns-title = Desenha cada consulta como uma coluna, como nos vídeos do 3Blue1Brown
page-model = Modelo
page-model-saved = salvo
page-model-teaching-option = Modelo didático (embutido)
page-model-minilm-option = MiniLM · codificador · { $size }
page-model-smollm2-option = SmolLM2-135M · decodificador · { $size }
page-model-trace-option = Arquivo de trace (aberto)
page-exact = Pesos f32 exatos ({ $size })
page-exact-title = Desligado: os pesos arredondados para f16, metade do download; cada peso de atenção fica a menos de 2e-3 do modelo em f32. Ligado: o arquivo f32 como publicado, os números que a CLI imprime.
page-download = Download
page-downloading = Baixando { $model }: { $loaded } de { $total }
page-reading = Lendo { $model }: { $loaded } de { $total }
page-retry = Tentar de novo
page-use-teaching = Usar o modelo didático
page-text = Texto
page-text-hosted-trace = O texto de um trace é fixo: seus tokens estão acima da figura
page-text-trace = O texto de um arquivo de trace é fixo: escolha um modelo para digitar
page-text-placeholder = Digite uma frase…
page-layer = Camada
page-head = Cabeça
page-head-title = Cabeça de consulta (e a cabeça de chave/valor que ela compartilha, quando as cabeças as compartilham)

## Models' names (real models keep their published names)

page-model-teaching = Modelo didático
page-model-custom = Seu modelo
page-model-trace = O arquivo de trace
page-model-en-pt = Tradução: inglês → português
page-model-pt-en = Tradução: português → inglês
page-model-whisper = Whisper tiny.en (fala)
page-load-failed = Não foi possível carregar { $model }: { $message }
page-other-sentence = A outra frase

## The tabs of views above the picture

page-views = Visualizações
page-view-overview = Todas as cabeças
page-view-head = Mapa de calor
page-view-grid = Grade de pontos
page-view-explain = Passo a passo
page-view-space = Espaço Q·K
page-view-catalog = Catálogo
page-view-worked = Exemplo 3×4
page-view-lesson = Lição
page-view-beyond = Além dos pesos
page-view-translate = Tradução
page-view-speech = Fala
page-view-image = Imagem
page-view-space-first = Espaço
page-view-space-rest = {" "}Q·K
page-view-beyond-first = Além
page-view-beyond-rest = {" "}dos pesos
page-view-worked-first = Exemplo
page-view-worked-rest = {" "}3×4

## The side panel: status, notes on the model, next tokens, exports

page-rail = Configurações, notas e exportações
page-computing = calculando…
page-status-empty = Digite um texto para ver sua atenção.
page-status = { $tokens ->
    [one] { $tokens } token, calculado em { $time } no seu navegador
   *[other] { $tokens } tokens, calculados em { $time } no seu navegador
}
page-status-threads = { $tokens ->
    [one] { $tokens } token, calculado em { $time } em { $threads } threads no seu navegador
   *[other] { $tokens } tokens, calculados em { $time } em { $threads } threads no seu navegador
}
page-status-one-thread = { $tokens ->
    [one] { $tokens } token, calculado em { $time } em uma só thread ({ $why }) no seu navegador
   *[other] { $tokens } tokens, calculados em { $time } em uma só thread ({ $why }) no seu navegador
}
page-status-memory = memória do worker { $size }
page-status-memory-both = memória do worker { $size } (os dois workers)
page-under-tenth-ms = menos de 0,1 ms
page-tokens-label = Tokens: escolha um para acompanhá-lo em todas as visualizações
page-model-card = O modelo
page-note-teaching = As cinco cabeças do modelo didático foram projetadas à mão, não aprendidas: cada uma faz uma coisa que dá para explicar.
page-note-minilm-exact = MiniLM (all-MiniLM-L6-v2): um codificador BERT, 6 camadas × 12 cabeças; seus pesos f32 como publicados.
page-note-minilm = MiniLM (all-MiniLM-L6-v2): um codificador BERT, 6 camadas × 12 cabeças; seus pesos arredondados para f16 (metade do download), cada peso de atenção a menos de 2e-3 do modelo em f32.
page-note-smollm2 = SmolLM2-135M: um decodificador Llama, 30 camadas × 9 cabeças de consulta sobre 3 cabeças de chave/valor.
page-note-custom = Seu modelo, lido dos seus próprios arquivos neste navegador: nada foi enviado.
page-note-trace = Um arquivo de trace: atenção calculada em outro lugar, lida do arquivo uma cabeça por vez.
page-mask-none = { $name } atende nos dois sentidos (sem máscara). Uma grade causal para ele é uma hipótese, calculada a partir dos mesmos Q e K.
page-mask-causal = { $name } é causal: cada token vê apenas a si mesmo e os tokens anteriores. Uma grade sem máscara para ele é uma hipótese.
page-mask-sliding = { $name } é causal { $window }
page-mask-window = { $before ->
    [one] com uma janela deslizante: cada token vê apenas a si mesmo e o { $before } token anterior.
   *[other] com uma janela deslizante: cada token vê apenas a si mesmo e os { $before } tokens anteriores.
}
page-mask-local = { $said } A camada { $layer } é local, { $window }
page-head-note = Cabeça { $head }
page-head-note-named = Cabeça { $head }: “{ $name }”
page-append-token = Acrescentar este token
page-next-tokens = Próximos tokens mais prováveis
page-next-click = Clique em um para acrescentá-lo.
page-export-heading = Exportar esta cabeça
page-export-busy = Aguardando o cálculo da atenção do texto
page-export-title = camada { $layer } · cabeça { $head } · A = softmax(QKᵀ/√d_k + M) · máscara: { $mask }
page-mask-name-none = nenhuma
page-mask-name-causal = causal
page-mask-name-sliding = janela deslizante
page-table-too-long = A tabela de pesos é mostrada para textos de até { $max } tokens; exporte em CSV para textos mais longos.
page-table-caption = Pesos de atenção da cabeça selecionada: as linhas são consultas, as colunas são chaves
page-table-corner = consulta \ chave

## Offline use

page-offline-saving = Salvando para uso offline…
page-offline-ready = ✓ Funciona offline
page-offline-ready-title = Os arquivos da página estão salvos neste navegador: ela abre e calcula sem rede

## Zooming into a picture

page-zoom = Zoom
page-zoom-title = Ctrl + roda, um gesto de pinça, ou + e − na figura em foco dão zoom; arrastar ou a roda desloca; 0 ajusta
page-zoom-out = Diminuir zoom
page-zoom-in = Aumentar zoom
page-zoom-level = Zoom { $level }
page-zoom-fit = Ajustar
page-zoom-fit-title = Ajustar: o mapa inteiro

## The computation's worker (errors; $why and $error are in English, from the browser or the core)

page-worker-restarted = O worker de cálculo parou inesperadamente ({ $why }); ele foi reiniciado.
page-worker-gave-up = O worker de cálculo parou inesperadamente ({ $why }); falhou vezes demais para ser reiniciado; recarregue a página.
page-worker-restarted-model = o worker de cálculo parou inesperadamente ({ $why }); ele foi reiniciado: escolha o modelo de novo para recarregá-lo
page-worker-gave-up-model = o worker de cálculo parou inesperadamente ({ $why }); falhou vezes demais para ser reiniciado; recarregue a página: escolha o modelo de novo para recarregá-lo
page-needs-worker = { $model } precisa do worker em segundo plano, que não pôde ser iniciado neste navegador
page-worker-not-started = o worker de cálculo não iniciou: recarregue a página
page-trace-worker-not-started = o worker em segundo plano que lê arquivos de trace não iniciou: recarregue a página
page-hosted-worker-not-started = o worker em segundo plano que lê o trace não iniciou
page-worker-unreadable = resposta ilegível do worker: { $error }
page-worker-no-reason = nenhum motivo informado; falta de memória?

## A page inside a notebook, reading its host's trace

page-host-no-reason = nenhum motivo informado
page-host-not-bytes = o host enviou algo que não são bytes
page-host-wrong-length = o host enviou { $sent } bytes dos { $asked } pedidos (o arquivo mudou?)

# The axes of the exported heatmap (PNG, SVG).
page-axis-keys = chaves →
page-axis-queries = consultas ↓

# The teaching model as a run names it (the lesson, the status, exports).
page-model-teaching-run = Modelo didático (cabeças feitas à mão)

# The teaching model's five heads: "name: what the head does" (the part before the first colon is the name).
page-teaching-describes = descreve: Substantivos prestam atenção aos adjetivos, de preferência aos que vêm logo antes (criatura → azul, fofa).
page-teaching-previous-word = palavra anterior: Cada palavra presta atenção à palavra que vem antes dela.
page-teaching-self = si mesma: Cada palavra presta atenção a si mesma (e às suas repetições).
page-teaching-who-did-what = quem fez o quê: Verbos prestam atenção a substantivos e pronomes próximos (vagava → criatura, floresta).
page-teaching-introduces = introduz: Artigos prestam atenção, para a frente, ao substantivo que introduzem (uma → criatura).
