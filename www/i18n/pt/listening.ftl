# attnscope, Portuguese: listening

## A aba Fala

speech-whisper-load-failed = Não foi possível carregar o Whisper: { $message }
speech-which-head = camada { $layer } do decodificador, cabeça { $head }
speech-which-alignment = a média das cabeças de alinhamento
speech-intro = Diga uma frase, abra um arquivo de som ou escolha um exemplo. O Whisper (tiny.en) escreve o que ouve; cada token que ele escreve tem uma consulta que olha para as chaves do som: é a sua{" "}
speech-intro-cross = atenção cruzada
speech-intro-end = , softmax(qKᵀ/√d_k) sobre quadros de áudio de 20 ms.
speech-facts = { $seconds } s de som, { $frames } quadros de 20 ms; { $tokens } tokens; ouvido em { $ms } ms{ $memory }.
speech-facts-memory = , memória do worker { $mb } MB
speech-tokens-label = Os tokens da transcrição
speech-alignment-mean = Cabeças de alinhamento (média)
speech-layer-head = Camada { $layer } · cabeça { $head }
speech-cross-of = Atenção cruzada de
speech-needs-secure = Gravar exige uma página segura (https:// ou localhost); os arquivos e os exemplos continuam funcionando.
speech-no-microphone = Este navegador não dá acesso a um microfone; os arquivos e os exemplos continuam funcionando.
speech-microphone-refused = O acesso ao microfone foi negado ({ $message }); os arquivos e os exemplos continuam funcionando.
speech-microphone-failed = Não foi possível abrir nenhum microfone ({ $message }); os arquivos e os exemplos continuam funcionando.
speech-nothing-recorded = Nada foi gravado: o microfone não enviou som.
speech-not-decodable = Este arquivo não é um som que o navegador consiga decodificar ({ $message }).
speech-file-unreadable = Não foi possível ler o arquivo: { $message }
speech-file-empty = O arquivo não contém som.
speech-recording = Gravando… { $seconds } s de no máximo 30 s. Aperte Parar quando terminar.
speech-reading = Lendo o som…
speech-downloading = Baixando o Whisper tiny.en: { $loaded } de { $total } MB (só uma vez; o navegador o guarda)…
speech-listening = O Whisper está ouvindo…
speech-stop = ■ Parar
speech-record = ● Gravar
speech-open-file = Abrir um arquivo de som…
speech-example-title = Um clipe de exemplo, sintetizado pelo espeak-ng
speech-download-note = O Whisper tiny.en é baixado na primeira vez (cerca de { $size } MB) e guardado pelo navegador; o som nunca sai desta página.
speech-encoder-axis = chaves: quadros ouvidos →
speech-encoder-readout = As consultas de { $q0 }–{ $q1 } s dão às chaves de { $k0 }–{ $k1 } s { $weight } da sua atenção (em média); { $stayed } % dela fica no clipe, o resto vai para o preenchimento.
speech-encoder-hover = Passe o cursor sobre uma célula para ler o seu peso.
speech-encoder-title = O codificador lendo o som
speech-encoder-cell-frame = um quadro de 20 ms de lado
speech-encoder-cell-block = um bloco de { $block } quadros ({ $ms } ms) de lado, a média das suas consultas
speech-encoder-caption = Antes de qualquer palavra ser escrita, a autoatenção do codificador: cada quadro de som (uma linha) sobre todos os quadros (colunas), sem máscara — o codificador ouve o clipe inteiro nos dois sentidos. Cada célula é { $cell }; cada linha em escala do seu próprio pico. O silêncio de preenchimento após o clipe fica de fora.
speech-encoder-layer = Camada do codificador
speech-encoder-head = cabeça
speech-encoder-aria = A autoatenção do codificador: quadros de som como linhas e colunas
speech-decoder-title = O decodificador lendo as próprias palavras
speech-decoder-caption = Enquanto escreve, a autoatenção causal do decodificador: a consulta de cada token (uma linha) sobre as chaves dos tokens escritos até agora (colunas); cada linha soma 1. As células acima da diagonal ficam cinza: a máscara causal esconde os tokens ainda não escritos.
speech-decoder-layer = Camada do decodificador
speech-decoder-head = cabeça
speech-decoder-aria = A autoatenção causal do decodificador: os tokens da transcrição como linhas (consultas) e colunas (chaves)
speech-decoder-readout = “{ $query }” → “{ $key }”: { $weight }
speech-decoder-masked = “{ $query }” → “{ $key }”: oculta pela máscara causal (“{ $key }” é escrito depois)
speech-decoder-hover = Passe o cursor sobre uma célula para ler o seu peso.
speech-heatmap-pad = pad
speech-heatmap-caption = A atenção cruzada de cada token ao longo do tempo ({ $which }): uma linha por token, cada uma em escala do seu próprio pico; à direita, a parte da linha que foi para o silêncio de preenchimento após o clipe (o Whisper sempre lê 30 s).
speech-heatmap-aria = Atenção cruzada: os tokens da transcrição como linhas, o tempo como colunas
speech-spectrogram-caption = O espectrograma do som (tempo na horizontal, graves embaixo), a atenção cruzada do token escolhido sobre ele ({ $which }) e os tempos das palavras segundo as cabeças de alinhamento. Toque numa palavra para ouvi-la.
speech-spectrogram-aria = Espectrograma com a atenção do token escolhido ao longo do tempo e os trechos das palavras
speech-readout = “{ $token }” (token { $index }): os pesos da sua consulta têm o pico de { $peak } em { $from }–{ $to } s; { $clip }% deles caem no clipe, { $padding }% no silêncio de preenchimento depois dele.
speech-readout-none = Escolha um token ou uma palavra para ver onde ele escutou.

## Passo a passo sobre o som

speech-step-title = Passo a passo: a consulta de um token sobre o som
speech-step-caption = “{ $token }” (token { $index }) pela camada { $layer } do decodificador, cabeça { $head }: q vem do token do decodificador, k e v da saída do codificador para cada quadro de som de 20 ms.
speech-step-alignment = A média das cabeças de alinhamento não é uma só cabeça: este passo segue a primeira delas, camada { $layer }, cabeça { $head }.
speech-step-query = A consulta do token ({ $count } números):
speech-step-table-caption = Os { $count } quadros do clipe a que esta consulta dá mais peso, o mais forte primeiro: a chave k de cada quadro, o produto escalar q·k, essa pontuação vezes a escala e o seu peso a depois do softmax sobre todos os { $keys } quadros.
speech-step-time = Tempo (s)
speech-step-key = Chave k (primeiros números)
speech-step-weight = Peso a = softmax
speech-step-padding = Os { $frames } quadros do clipe levam juntos { $clip } do peso; os { $pad } quadros de silêncio de preenchimento depois dele levam { $padding }.
speech-step-output = A saída da cabeça para este token ({ $count } números):
speech-step-waiting = Calculando o passo…
speech-step-failed = Não foi possível calcular o passo: { $message }

## A aba Tradução

translation-which-head = camada { $layer } do decodificador, cabeça { $head }
translation-which-layer = camada { $layer } do decodificador, média das suas cabeças
translation-which-head-mean = cabeça { $head }, média sobre as camadas do decodificador
translation-which-mean = média de todas as camadas e cabeças do decodificador
translation-svg-title =
    { $model }: { $translation }
    atenção cruzada, { $which }
translation-export-aria = Exportar a atenção cruzada
translation-export = Exportar
translation-export-json-title = Todas as camadas e cabeças do decodificador, com os tokens e a tradução
translation-heatmap-caption = Atenção cruzada, { $which }: cada linha é uma palavra de destino, cada coluna uma palavra de origem; cada linha soma 1.
translation-heatmap-aria = Atenção cruzada: palavras de destino como linhas, palavras de origem como colunas
translation-readout = “{ $target }” → “{ $source }”: { $weight } ({ $which })
translation-readout-none = Aponte para uma célula, ou toque nela, para ler o seu peso.
translation-lines-aria = A atenção cruzada como linhas de cada palavra de destino (embaixo) até as palavras de origem (em cima)
translation-lines-caption = Linhas, { $which }: origem em cima, tradução embaixo; clique numa palavra de destino para seguir as suas linhas.
translation-target-word = Palavra de destino
translation-step-caption = “{ $word }”, camada { $layer } do decodificador, cabeça { $head }: q vem do decodificador (esta palavra, depois da sua SSRU), k e v da saída do codificador para cada palavra de origem.
translation-step-caption-mean = “{ $word }”, camada { $layer } do decodificador, cabeça { $head } (o passo a passo segue uma cabeça: escolha uma camada e uma cabeça acima): q vem do decodificador (esta palavra, depois da sua SSRU), k e v da saída do codificador para cada palavra de origem.
translation-step-source = palavra de origem j
translation-step-sum = Σ a_j = { $sum } (sem máscara: toda palavra de origem é visível para toda palavra de destino).
translation-model-note = O pequeno modelo de tradução do Bergamot: 6 camadas de autoatenção no codificador (as abas Mapa de calor, Grade de pontos e Todas as cabeças as mostram) e 2 camadas no decodificador, cujas palavras de destino prestam atenção às palavras de origem (a aba Tradução).
translation-empty = Escolha um modelo de tradução (Traduzir: inglês → português, ou português → inglês) para ver a atenção cruzada.
translation-layer = Camada
translation-mean-layers = Média das camadas
translation-decoder-layer = Camada { $layer } do decodificador
translation-head = Cabeça
translation-mean-heads = Média das cabeças
translation-head-n = Cabeça { $head }
translation-parts-aria = Imagens da atenção cruzada
translation-part-heatmap = Mapa de calor
translation-part-lines = Linhas
translation-part-step = Uma palavra, passo a passo
translation-generate = ▶ Gerar passo a passo
translation-candidate = { $token } { $percent }%
translation-generating = Passo { $step } de { $total }: o modelo escolheu “{ $token }” — entre { $others }. A sua linha abaixo mostra para onde esta palavra olhou na origem.
translation-no-self-attention = Não há autoatenção neste decodificador.{" "}
translation-no-self-attention-why = Este decodificador não tem autoatenção. Para ser pequena e rápida o bastante para um navegador, cada uma das suas 2 camadas troca a autoatenção sobre as palavras de destino anteriores por uma SSRU (uma unidade recorrente simples simplificada): um único resumo contínuo das palavras produzidas até ali, atualizado por uma porta de esquecimento, em vez de pesos de atenção sobre cada uma delas. Assim, a única atenção no decodificador é a atenção cruzada mostrada aqui: consultas do destino, chaves e valores da saída do codificador para a origem.
translation-provenance = De onde vem o modelo · licença: { $license }

## A aba Imagem

image-patch = patch { $row },{ $col }
image-none = A aba Imagem mostra a atenção de um modelo de visão sobre a sua imagem. Abra um trace de visão: um escrito por attnscope.trace_image (Python) a partir de um modelo ViT, DeiT, DINOv2 ou CLIP.
image-rollout-computing = Rollout: calculando através de todas as camadas…
image-rollout-caption = Rollout após todas as { $layers } camadas, com a média de todas as cabeças: quanto da entrada de cada patch chega a { $query }, pela atenção e pelo caminho residual; de 0 ao maior valor, { $top }; { $share }% vem dos { $patches } patches, o resto { $specials ->
        [one] do token especial
       *[other] dos { $specials } tokens especiais
    }.
image-layer-head = Camada { $layer } · cabeça { $head }
image-head-reading = { $head }: lendo os pesos da cabeça…
image-head-caption = { $head }: para onde { $query } olha. Cada patch é colorido pelo peso que a consulta lhe dá, de 0 ao maior, { $top }; { $share }% do seu peso vai para os { $patches } patches, o resto { $specials ->
        [one] para o token especial
       *[other] para os { $specials } tokens especiais
    }.
image-readout-most = Maior peso: { $patch } ({ $weight })
image-readout-under = sob o cursor: { $patch }, { $weight } ({ $rank }º de { $count })
image-queries-aria = Token da consulta
image-hint = ou clique num patch (as setas o movem)
image-show = Mostrar
image-source-head = a cabeça escolhida
image-source-rollout = o rollout por todas as camadas
image-tint = Cor
image-overlay-aria = A imagem cortada em { $rows } × { $cols } patches, colorida pela atenção de { $query }
image-heads-tile = cabeça { $head }
image-heads-summary = Todas as cabeças da camada { $layer }, lado a lado
image-heads-caption = A mesma consulta em cada cabeça, cada uma colorida de 0 até o seu maior peso; um clique escolhe uma cabeça.
image-heads-aria = As cabeças da camada { $layer }, lado a lado
image-steps-aria = Consulta, chaves e um peso
image-step-query-label = Consulta:{" "}
image-step-keys-label = Chaves:{" "}
image-step-weight-label = Peso:{" "}
image-step-query = { $query }: o seu vetor q, de { $dims } números, pergunta o que este token procura.
image-step-query-none = { $query } (o trace não guarda consultas nem chaves).
image-step-keys = todos os { $n } tokens, os { $patches } patches e { $specials } especiais: cada um oferece um vetor k.
image-step-weight = a chave a que ela dá mais peso é { $key }: q·k = { $score }, × { $scale } (1/√{ $dims }) = { $scaled }; o softmax sobre todas as { $n } pontuações lhe dá { $weight }, a cor do seu patch.
image-step-weight-plain = a chave a que ela dá mais peso é { $key }, com { $weight }.

# The axes of the exported cross-attention heatmap (PNG, SVG).
translation-axis-keys = chaves →
translation-axis-queries = consultas ↓
