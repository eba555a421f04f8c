# attnscope, Portuguese: lesson

## Títulos dos passos

lesson-step-tokens = Tokens
lesson-step-qkv = q, k e v: três projeções de x
lesson-step-scores = Pontuações: q · k
lesson-step-scale = Por que dividir por √d_k
lesson-step-softmax = Softmax: pontuações viram pesos
lesson-step-mask = A máscara causal e o −∞
lesson-step-sum = A soma ponderada, e E + ΔE
lesson-step-heads = Muitas cabeças, e cabeças que compartilham chaves
lesson-step-last-row = Como um modelo escreve: a última linha escolhe
lesson-step-next = A distribuição do próximo token e sua temperatura
lesson-step-sampling = A amostragem e a semente
lesson-step-cache = O cache de chaves e valores
lesson-step-cross = Atenção cruzada: uma palavra escuta o som
lesson-step-timing = Onde cada palavra foi dita

## O cartão

lesson-count = Passo { $step } de { $steps }
lesson-dot = Passo { $step }: { $title }
lesson-steps = Passos da lição
lesson-back = ← Voltar
lesson-next = Avançar →
lesson-try = Experimente:{" "}
lesson-computing = Calculando…
lesson-type-sentence = Digite uma frase para começar: a lição parte dela.

## Peças comuns

lesson-quoted = “{ $word }”
lesson-percent = { $p }%
lesson-preview = {"["}{ $numbers }] ({ $count } números)

## Passo 1: tokens

lesson-says-tokens = O { $model } lê sua frase como { $tokens ->
        [one] { $tokens } token
       *[other] { $tokens } tokens
    }. Cada token ganha uma linha e uma coluna em cada imagem da atenção: aqui, “{ $query }” é a consulta que vamos acompanhar.
lesson-label-tokens = tokens
lesson-label-query = token da consulta
lesson-label-ids = ids dos tokens
lesson-try-tokens = Digite uma palavra sua na caixa de texto: aparecem uma linha e uma coluna para ela.

## Passo 2: q, k e v

lesson-says-qkv = “{ $query }” entra na camada como um vetor x de { $width } números. Três matrizes aprendidas o projetam numa consulta q, numa chave k e num valor v, de { $dk } números cada: q pergunta, k responde, v é o que se repassa.
lesson-label-x = x de “{ $query }”
lesson-try-qkv = Escolha outro token (na lista de tokens ou numa linha de qualquer imagem) para ver seus vetores.
lesson-strip-x = x “{ $token }”
lesson-vectors-label = O vetor x de “{ $token }” e suas projeções q, k e v, como faixas de células coloridas
lesson-vectors-caption = Uma célula por número: vermelho é positivo, azul é negativo, cada faixa em relação ao seu maior valor. q, k e v são mais curtos que x: a cabeça trabalha em d_k dimensões.

## Passo 3: pontuações

lesson-says-scores = A consulta de “{ $query }” é comparada com cada chave por um produto escalar, s_j = q · k_j: quanto maior a pontuação, melhor a chave corresponde ao que a consulta procura.
lesson-try-scores = Aponte para uma célula, ou toque nela, para ler sua pontuação. Vermelho é positivo; azul, negativo.

## Passo 4: dividir por √d_k

lesson-says-scale = Se as entradas de q e k tivessem variância 1, q · k teria variância d_k = { $dk }; multiplicar por 1/√d_k traz essa variância de volta para perto de 1, e assim o softmax não satura. Nesta linha, a variância das pontuações vai de { $raw } para { $scaled }.
lesson-label-scale = escala
lesson-label-var-raw = variância de q · k_j
lesson-label-var-scaled = depois da escala
lesson-try-scale = Aperte Reproduzir para ver as pontuações encolherem, ou tire o 1/√d_k e veja os pesos virarem tudo ou nada.

## Passo 5: softmax

lesson-says-softmax = O softmax transforma cada linha de pontuações em pesos, exp(s_j) / Σ exp(s_m): todos positivos, com soma 1. “{ $query }” dá seu maior peso, { $weight }, a “{ $key }”.
lesson-label-top = maior
lesson-value-top = { $weight } → “{ $key }”
lesson-try-softmax = Arraste o controle: um fator acima de 1 deixa o softmax mais concentrado; abaixo de 1, mais achatado.

## Passo 6: a máscara causal

lesson-says-mask-causal = O { $model } é causal: a máscara soma −∞ à pontuação de cada token posterior, e exp(−∞) = 0, então nenhum token olha para o futuro. “{ $query }” vê { $seen } dos { $tokens } tokens.
lesson-says-mask-window = O { $model } é causal com janela deslizante: a máscara soma −∞ à pontuação de cada token posterior e de cada token a mais de { $back ->
        [one] { $back } posição
       *[other] { $back } posições
    } para trás, e exp(−∞) = 0. “{ $query }” vê { $seen } dos { $tokens } tokens.
lesson-says-mask-none = O { $model } lê nos dois sentidos (sem máscara). Um decodificador soma −∞ à pontuação de cada token posterior, e exp(−∞) = 0: a grade causal mostra para onde o { $model } olharia com essa máscara.
lesson-label-mask = a máscara do modelo
lesson-mask-none = nenhuma
lesson-mask-causal = causal
lesson-mask-window = janela deslizante
lesson-label-hidden = chaves que uma máscara causal esconde de “{ $query }”
lesson-try-mask = Aperte Reproduzir: as cruzes (−∞) viram pesos exatamente iguais a 0.

## Passo 7: a soma ponderada

lesson-says-sum = A saída da cabeça para “{ $query }” é a soma ponderada z = Σ a_j v_j. As saídas de todas as cabeças, concatenadas e projetadas por W_O, formam a atualização ΔE, que é somada ao vetor do token: E + ΔE.
lesson-try-sum = Clique numa palavra à esquerda para acompanhar outra consulta.

## Passo 8: muitas cabeças

lesson-says-heads-shared = O { $model } tem { $layers ->
        [one] { $layers } camada
       *[other] { $layers } camadas
    } de { $heads ->
        [one] { $heads } cabeça
       *[other] { $heads } cabeças
    }, cada uma com seu próprio padrão. Suas cabeças de consulta compartilham { $kv ->
        [one] { $kv } cabeça de chave e valor
       *[other] { $kv } cabeças de chave e valor
    } (atenção com consultas agrupadas): as cabeças sob o mesmo colchete usam os mesmos k e v.
lesson-says-heads-own = O { $model } tem { $layers ->
        [one] { $layers } camada
       *[other] { $layers } camadas
    } de { $heads ->
        [one] { $heads } cabeça
       *[other] { $heads } cabeças
    }, cada uma com seu próprio padrão e suas próprias chaves e valores. O SmolLM2 compartilha cada cabeça de chave e valor entre três cabeças de consulta (atenção com consultas agrupadas).
lesson-label-heads = camadas × cabeças
lesson-label-kv = cabeças de chave e valor
lesson-label-group = cabeças que usam as chaves da cabeça { $head }
lesson-sharing-none = nenhuma (tem chaves próprias)
lesson-try-heads = Clique num quadro para abrir essa cabeça em todas as visualizações; com o SmolLM2, compare as cabeças sob o mesmo colchete.

## Capítulo: como um modelo escreve

lesson-says-no-writer = O { $model } lê o texto inteiro de uma vez e não tem um próximo token para escolher. Este capítulo precisa de um modelo que escreva: um decodificador como o SmolLM2.
lesson-use-smollm2 = Usar o SmolLM2, que escreve
lesson-no-distribution = A distribuição aparece com um modelo que escreve.
lesson-label-top-next = próximo mais provável
lesson-value-token = “{ $token }” { $p }

lesson-says-last-row = O { $model } escreve um token por vez. Sob a máscara causal, a linha i de A só vê os tokens 0 … i, então toda linha poderia prever o token seguinte; na hora de escrever, só a última linha conta. Depois da última camada, o vetor de “{ $last }” vira os logits do próximo token: seu melhor palpite é “{ $top }”, com { $p }.
lesson-label-last = a linha que escolhe
lesson-label-visible = chaves que ela vê
lesson-try-last-row = Digite uma palavra no fim: aparece uma nova última linha, e a lista de próximos tokens muda.

lesson-says-next = Um softmax transforma os logits z em probabilidades, p_i = exp(z_i / T) / Σ exp(z_j / T). Com T = 1, temos a distribuição do próprio modelo. Um T menor a concentra: o token mais provável vence cada vez mais, e o texto começa a se repetir. Um T maior a achata: tokens raros aparecem, e o texto divaga. Com T = { $t }, “{ $top }” recebe { $p }.
lesson-label-listed = os cinco listados, juntos
lesson-try-next = Arraste a temperatura: as barras se concentram abaixo de 1 e se achatam acima.

lesson-says-drawn = O passo { $step } sorteou u = { $u }. Ele manteve { $kept ->
        [one] { $kept } token
       *[other] { $kept } tokens
    }, { $mass } da probabilidade, reescalou-os para somarem 1 e pegou “{ $token }”: o token cuja fatia do total acumulado contém u. A parte dele era { $share }. A semente fixa cada u, então o mesmo link escreve o mesmo texto.
lesson-says-greedy = O passo { $step } pegou “{ $token }” ({ $p }) sem sorteio: a decodificação gulosa sempre pega o token mais provável. Escolha “amostragem” no cartão Escrever para sortear.
lesson-says-sampling = A decodificação gulosa sempre pega o token mais provável. A amostragem sorteia um número u entre 0 e 1 e pega o token cuja fatia do total acumulado das probabilidades o contém. O top-k mantém só os k tokens mais prováveis; o top-p, o menor grupo cujas probabilidades somam p; e o que sobra é reescalado para somar 1. A semente fixa cada sorteio, então o mesmo link escreve o mesmo texto.
lesson-label-chosen = escolhido
lesson-draw-none = nenhum (gulosa)
lesson-label-kept = mantidos
lesson-value-kept = { $kept ->
        [one] { $kept } token
       *[other] { $kept } tokens
    }, { $mass }
lesson-try-sampling = No cartão Escrever, escolha “amostragem”, defina uma semente e aperte “Um passo”: as barras mostram o corte e o token sorteado.

lesson-says-cache = A consulta do próximo token precisa da chave e do valor de cada token anterior, em cada camada. Sob a máscara causal, eles nunca mudam, então o modelo os guarda: escrever o token { $next } calcula uma nova linha de Q, K e V em cada uma das { $layers } camadas ({ $computed } números) e reaproveita as { $n } linhas de K e V calculadas antes ({ $reused } números).{ $shared }
lesson-says-cache-shared = {" "}Suas { $heads } cabeças de consulta compartilham { $kv } cabeças de chave e valor, então o cache guarda { $kv } conjuntos de chaves e valores por camada, e não { $heads }.
lesson-label-cache-new = calculados para o próximo token
lesson-label-cache-reused = reaproveitados do cache
lesson-label-cache-saved = linhas de K e V não recalculadas
lesson-try-cache = Aperte Escrever e veja o mapa de calor crescer uma linha por token, cada linha calculada uma única vez.

## Capítulo: escutar

lesson-no-clip = Este capítulo escuta. Toque um dos exemplos abaixo da imagem (ou grave uma frase sua): o Whisper tiny.en escreve o que ouve, no seu navegador, e a lição continua com os números dele.
lesson-says-cross = O Whisper ouviu “{ $text }” e escreveu isso como { $tokens ->
        [one] { $tokens } token
       *[other] { $tokens } tokens
    }. A consulta de cada token é comparada com chaves que vêm de outra sequência: os 1500 quadros de som do codificador (20 ms cada; o áudio ocupa { $frames } deles, e o silêncio, o resto). A mesma fórmula, softmax(q Kᵀ/√d_k), sem máscara: cada token pode escutar em qualquer lugar. Aqui ({ $which }), a consulta de “{ $query }” põe seu maior peso, { $weight }, em { $from }–{ $to } s.
lesson-which-head = camada { $layer } do decodificador, cabeça { $head }
lesson-which-mean = a média das cabeças de alinhamento
lesson-label-listen-tokens = tokens escritos
lesson-label-listen-frames = quadros de som (chaves)
lesson-value-frames = { $frames } do áudio, 1500 ao todo
lesson-label-listen-peak = maior peso de “{ $query }”
lesson-value-peak = { $weight } em { $time } s
lesson-label-listen-clip = parte sobre o áudio
lesson-try-cross = Toque no trecho de outra palavra sob o espectrograma: o primeiro token dela vira a consulta, e o trecho toca.

lesson-says-timing = A maioria das cabeças não acompanha o tempo, mas algumas sim: o checkpoint aponta { $count } cabeças de alinhamento (camada.cabeça { $heads }). A média delas, linha a linha, avança pelo som à medida que as palavras seguem; o alinhamento temporal dinâmico (DTW) ao longo dela dá a cada palavra seu início e seu fim.{ $span }
lesson-says-timing-span = {" "}“{ $word }” foi dita de { $start } s a { $end } s.
lesson-label-listen-heads = cabeças de alinhamento
lesson-label-listen-words = palavras com tempo marcado
lesson-try-timing = Escolha uma só cabeça em vez da média das cabeças de alinhamento: a maioria das cabeças escuta o áudio inteiro.
