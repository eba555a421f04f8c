# attnscope, Portuguese: views

## A leitura de uma célula

common-readout-empty = Aponte para uma célula, ou toque nela, para ler seu peso e sua pontuação bruta.
common-readout-weight-only = “{ $query }” → “{ $key }”: peso { $weight }
common-readout-visible = “{ $query }” → “{ $key }”: peso { $weight } · pontuação bruta q·k { $score } · escalada { $scaled }
common-readout-visible-what-if = “{ $query }” → “{ $key }” (máscara hipotética): peso { $weight } · pontuação bruta q·k { $score } · escalada { $scaled }
common-readout-hidden = “{ $query }” → “{ $key }”: oculta pela { $mask ->
        [causal] máscara causal
       *[other] máscara de janela deslizante
    } (pontuação −∞, peso 0) · pontuação bruta q·k { $score }
common-readout-hidden-what-if = “{ $query }” → “{ $key }” (máscara hipotética): oculta pela { $mask ->
        [causal] máscara causal
       *[other] máscara de janela deslizante
    } (pontuação −∞, peso 0) · pontuação bruta q·k { $score }
common-mask-none = nenhuma
common-mask-causal = causal
common-mask-window = janela deslizante

## Os quatro passos

stage-play = ▶ Reproduzir
stage-stop = ■ Parar
stage-play-label = Reproduzir os quatro passos
stage-stop-label = Parar
stage-play-title = Reproduzir QKᵀ → ×1/√d_k → +M → softmax
stage-picker-label = Passo do cálculo
stage-title-scores = Passo 1: as pontuações brutas S = QKᵀ, um produto escalar por consulta e chave
stage-title-scaled = Passo 2: as pontuações escaladas por 1/√d_k
stage-title-masked = Passo 3: a máscara M somada: −∞ onde uma chave está oculta
stage-title-weights = Passo 4: o softmax de cada linha, os pesos de atenção A

## O mapa de calor

head-heatmap-label = Atenção da cabeça selecionada, consultas × chaves; a tabela de pesos lista os mesmos números. As setas movem a célula descrita, Enter escolhe sua consulta; mais e menos ampliam um texto longo
head-caption-weights-rows = Linha i: como o token de consulta i distribui sua atenção entre as chaves (colunas). Mais claro é mais; cada linha soma 1.
head-caption-weights-rows-masked = Linha i: como o token de consulta i distribui sua atenção entre as chaves (colunas). Mais claro é mais; cada linha soma 1. Cinza: chaves que a máscara oculta (peso 0).
head-caption-weights-columns = Coluna j: como o token de consulta j distribui sua atenção entre as chaves (linhas). Mais claro é mais; cada coluna soma 1.
head-caption-weights-columns-masked = Coluna j: como o token de consulta j distribui sua atenção entre as chaves (linhas). Mais claro é mais; cada coluna soma 1. Cinza: chaves que a máscara oculta (peso 0).
head-caption-masked = Pontuações após a máscara: as células cinza são −∞, chaves que a consulta não pode ver. Vermelho é positivo, azul é negativo.
head-caption-scores-rows = Linha i: a pontuação do token de consulta i com cada chave, q·k. Vermelho é positivo, azul é negativo.
head-caption-scores-columns = Coluna j: a pontuação do token de consulta j com cada chave, q·k. Vermelho é positivo, azul é negativo.
head-compare-summary = Comparar com outra frase (mesma cabeça)
head-compare-text-label = Outra frase
head-compare-placeholder = ex.: as mesmas palavras em outra ordem
head-compare-label = Pesos de atenção da mesma cabeça na outra frase
head-compare-caption = { $what } ({ $tokens ->
        [one] { $tokens } token
       *[other] { $tokens } tokens
    }), camada { $layer }, cabeça { $head }
head-compare-close = Fechar a execução com patching

## As grades de pontos

grid-caption-unmasked = Sem máscara: cada palavra vê todas as palavras. É isso que { $model } usa.
grid-caption-unmasked-what-if = Sem máscara (hipótese): { $model } é causal; esta grade é calculada com as mesmas Q e K, sem a máscara.
grid-caption-causal = Causal: uma palavra só vê a si mesma e as palavras anteriores. É isso que { $model } usa.
grid-caption-causal-what-if = Causal (hipótese): { $model } vê nos dois sentidos; esta grade aplica uma máscara causal às mesmas Q e K.
grid-caption-window = Janela deslizante: uma palavra só vê a si mesma e { $before ->
        [one] a palavra anterior
       *[other] as { $before } palavras anteriores
    }.
grid-hint-norms = Grade do próprio modelo: área do círculo ∝ ‖a·f(x)‖, cada linha em relação ao seu maior valor.
grid-hint-weights = Área do círculo ∝ peso de atenção (de 0 a 1).
grid-hint-masked = Área do círculo ∝ |pontuação| (em relação à maior pontuação bruta); vermelho positivo, azul negativo; × marca −∞, uma chave oculta.
grid-hint-scores = Área do círculo ∝ |pontuação| (em relação à maior pontuação bruta): a escala encolhe todas. Vermelho positivo, azul negativo.
grid-norms-caption = O ‖a·f(x)‖ ponderado pelos valores substitui o último passo, os pesos, e só na grade com a máscara do próprio modelo: as pontuações vêm antes de qualquer vetor de valor, e uma máscara hipotética não tem normas próprias.
grid-small-caption = Neste comprimento, um ponto teria um ou dois pixels: cada célula é sombreada pelo tamanho do seu ponto. Amplie (+, Ctrl + roda do mouse ou pinça) para ver os pontos.

## Passo a passo

explain-vector-preview = { $vector } ({ $count } números)
explain-vector-show-all = { $label }: mostrar os { $count } números
explain-scale-unscaled = 1/√d_k removido: as pontuações brutas vão direto para o softmax (o modelo usa 1/√{ $d_k } = { $model })
explain-scale-unscaled-temperature = 1/√d_k removido, × { $factor } pela temperatura (o modelo usa 1/√{ $d_k } = { $model })
explain-scale-temperature = = { $factor } × 1/√{ $d_k }: a lição de temperatura está ativa (o fator do próprio modelo é 1/√{ $d_k } = { $model })
explain-scale-model = = 1/√{ $d_k }, a escala do próprio modelo (d_k = { $d_k })
explain-scale-own = o fator do próprio modelo (1/√{ $d_k } seria { $model })
explain-projection-minilm = (+ um viés b_Q; x é E após a LayerNorm da camada anterior)
explain-projection-smollm2 = (x é E após a RMSNorm; q e k são então girados conforme sua posição, RoPE)
explain-projection-custom = (x é E após a normalização da camada, como o seu modelo a define)
explain-projection-trace = (q e k como o arquivo de trace os guarda; x, v e ΔE não estão nele)
explain-projection-translate = (+ um viés b_Q; o codificador do modelo de tradução, x após a LayerNorm da camada anterior)
explain-projection-whisper = (+ um viés b_Q; x é E após a LayerNorm da camada)
explain-query-token = Token de consulta
explain-choose-query = Escolha o token de consulta
explain-key-of = k de { $token }
explain-value-of = v de { $token }
explain-weighted-value-of = valor ponderado de { $token }
explain-head-note = Camada { $layer }, cabeça { $head } (chaves e valores da cabeça de chave/valor { $kv_head }) · d_k = { $d_k } · escala = { $scale } · máscara: { $mask }
explain-step-x = O vetor de “{ $token }” ao entrar na camada
explain-formula-x = x = E[{ $index }]   ({ $count } números)
explain-step-q = Sua consulta
explain-formula-q = q = x · W_Q   ({ $from } → { $to } números){ $note }
explain-step-scores = Comparar com cada chave, escalar, aplicar a máscara e o softmax, e ponderar os valores
explain-formula-mask = s″_j = s′_j + M_ij   (M é 0 onde a chave é visível, −∞ onde a { $mask ->
        [none] máscara (nenhuma)
        [causal] máscara causal
       *[other] máscara de janela deslizante
    } a oculta)
explain-formula-v = v_j = x_j · W_V     cada valor é multiplicado pelo seu peso: a_j · v_j
explain-table-caption = Consulta “{ $token }” contra cada chave
explain-col-key = chave j
explain-col-scaled = s_j × escala
explain-step-z = Somar os valores ponderados: a saída da cabeça
explain-formula-z = z = Σ_j a_j · v_j   ({ $count } números)
explain-step-delta = Todas as cabeças juntas: a atualização ΔE
explain-formula-delta = ΔE[{ $index }] = [z_1 | … | z_H] · W_O   (o z de cada cabeça, concatenados e projetados de volta para { $count } números)
explain-step-residual = O fluxo residual após a atenção
explain-formula-residual = E[{ $index }] + ΔE[{ $index }]   (o vetor do token, ajustado pelo que ele reuniu)
explain-label-residual = E mais delta E
explain-computing = calculando…
explain-empty = Digite um texto para seguir um token pela fórmula.
explain-lines-label = Linhas de cada token de consulta (à esquerda) até as chaves (à direita), tão fortes quanto o peso; as linhas da consulta escolhida se destacam. A tabela abaixo lista os mesmos números.
explain-lines-caption = À esquerda, as consultas; à direita, as chaves. Uma linha é tão opaca quanto o seu peso; clique numa palavra à esquerda para segui-la.
explain-row-note = Linha de “{ $token }” nesta cabeça: maior peso { $top }, entropia { $entropy } bits (uma linha uniforme teria { $uniform }).
explain-row-label = Pesos de atenção de { $token }
explain-scaling-legend = Escala e temperatura
explain-scaling-note = Se as entradas de q e k são independentes, com média 0 e variância 1, q·k tem variância d_k: cabeças largas dão pontuações grandes, e a exponencial do softmax transforma grandes diferenças em tudo ou nada (com gradientes minúsculos). Dividir por √d_k traz a variância de volta a 1. Multiplique as pontuações abaixo e veja as linhas ficarem mais nítidas (fator > 1, um softmax mais frio) ou mais planas (fator < 1, um mais quente).
explain-model-setting = ★ Esta é a configuração real do modelo: fator 1, com escala 1/√d_k.
explain-not-model-setting = Não é a configuração do modelo: ele usa fator 1, com escala 1/√d_k. As camadas seguintes não são recalculadas; cada cabeça mostra a que prestaria atenção.
explain-multiply = Multiplicar as pontuações escaladas por
explain-times = vezes { $factor }
explain-mark-model = ×1 (o modelo)
explain-reset = Voltar à configuração do modelo
explain-unscaled = remover 1/√d_k (passar as pontuações brutas q·k ao softmax)
explain-position-legend = Ordem das palavras
explain-positional = codificação posicional (modelo didático)
explain-position-note = A atenção compara vetores, não posições: sem um código posicional, embaralhar as palavras só embaralha do mesmo jeito as linhas e as colunas de A, e a cabeça da “palavra anterior” não consegue saber qual palavra veio antes.
explain-next-temperature = Temperatura do softmax do próximo token
explain-next-temperature-note = (logits ÷ T: abaixo de 1 aguça, acima de 1 achata; 1 é o valor do próprio modelo)

## Todas as cabeças

overview-label = Cada camada e cada cabeça; as setas movem a seleção
overview-knock-cell = Camada { $layer }, cabeça { $head }
overview-knock-cell-out = Camada { $layer }, cabeça { $head }: desativada
overview-knock-title-out = L{ $layer } · H{ $head } (desativada)
overview-knock-count = { $count ->
        [0] Nenhuma cabeça escolhida
        [one] { $count } cabeça escolhida
       *[other] { $count } cabeças escolhidas
    }
overview-knock-tools = Knockout de cabeças
overview-knock-mode = Desativar cabeças
overview-knock-how = ative “Desativar cabeças” e clique nas miniaturas
overview-knock-run = Executar knockout
overview-knock-clear = Limpar
overview-caption-knockout = Modo knockout: clique nas miniaturas para escolher as cabeças a remover (riscadas) e depois em Executar knockout; desligue o modo para voltar a abrir cabeças.
overview-caption = Cada miniatura é a atenção de uma cabeça (as linhas são as consultas) sobre este texto. Clique numa miniatura ou use as setas para abrir essa cabeça em todas as vistas.
overview-scale-caption = Num texto tão longo, cada célula de uma miniatura é o peso médio de um bloco de tokens, desenhado em relação à célula mais clara da miniatura para que o padrão apareça; o mapa de calor tem cada peso.
overview-norms-caption = Ponderado pelos valores: cada miniatura mostra ‖a·f(x)‖, cada linha em relação ao seu maior valor; os valores exatos estão na leitura do mapa de calor e nas exportações.

## O exemplo resolvido 3×4

worked-cell-label = { $matrix }, linha { $row }, coluna { $column }
worked-seed-heading = O seed: ÷ √{ $width } (largura da entrada)
worked-note = Três entradas de largura 4, projeções para largura 3 — o exemplo resolvido do seed 003. Edite qualquer número; tudo abaixo é recalculado com a mesma fórmula que os modelos usam.
worked-reset = Voltar aos números do seed
