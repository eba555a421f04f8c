# attnscope, Portuguese: writing

## Whether the model shown writes
write-not-encoder = A escrita está disponível para decodificadores: este modelo é um codificador, que lê o texto inteiro nos dois sentidos e não tem um próximo token a escolher.
write-not-trace = Um arquivo de traço guarda atenção calculada em outro lugar, sem os pesos do modelo: nada aqui pode escolher o próximo token.
write-not-translator = Um modelo de tradução escreve a sua tradução, mostrada na aba Tradução; aqui, a escrita está disponível para decodificadores.
write-at-most = Uma geração escreve no máximo { $tokens ->
        [one] { $tokens } token
       *[other] { $tokens } tokens
    }.
write-context-full = O texto ocupa todo o contexto do modelo: não há espaço para mais um token.
write-stopped = Parado.
write-end-of-text = { $model } escreveu { $token }, que encerra um texto: a escrita para aqui.

## The card
write-heading = Escrever
write-go = Escrever
write-step = Um passo
write-pause = Pausar
write-resume = Retomar
write-stop = Parar
write-settings = Configurações
write-count = Tokens
write-choose = Escolha
write-greedy = gulosa
write-sample = amostragem
write-top-k = top-k
write-top-p = top-p
write-seed = semente
write-hint-sample = Sorteia pelas barras abaixo, na temperatura indicada acima (0 desativa top-k; 1 desativa top-p); a mesma semente repete os mesmos sorteios.
write-hint-greedy = Gulosa: sempre o token mais provável.

## The step's distribution
write-cut-line = corte: os demais ficam de fora
write-chosen-mark = ◀ escolhido
write-kept = { $tokens ->
        [one] { $tokens } token mantido
       *[other] { $tokens } tokens mantidos
    }, com { $share } da probabilidade, renormalizada
write-chosen = Passo { $step }: escolheu { $token }, { $p } após a temperatura, { $kept } após renormalizar
write-chosen-drawn = Passo { $step }: escolheu { $token }, { $p } após a temperatura, { $kept } após renormalizar (sorteio { $draw })
write-chosen-drawn-unseen = Passo { $step }: escolheu { $token }, { $p } após a temperatura, { $kept } após renormalizar (sorteio { $draw }; fora dos dez mostrados)
write-cache-title = Cache de chaves e valores
write-cache-computed = O token { $token } calculou uma nova linha de Q { $query ->
        [one] na única cabeça de consulta
       *[other] em cada uma das { $query } cabeças de consulta
    } e uma nova linha de K e de V { $kv ->
        [one] na única cabeça de chave/valor
       *[other] em cada uma das { $kv } cabeças de chave/valor
    }, { $layers ->
        [one] na única camada
       *[other] em cada uma das { $layers } camadas
    }. Reaproveitado: { $earlier ->
        [one] a linha anterior de K e V
       *[other] as { $earlier } linhas anteriores de K e V
    } de cada cabeça de chave/valor em cada camada, { $millions } milhões de números; { $saved }% das projeções poupadas em relação a calcular de novo todas as { $token } linhas.
write-cache-grouped = {" "}Consultas agrupadas: cada cabeça K/V é compartilhada por { $query ->
        [one] { $query } cabeça de consulta
       *[other] { $query } cabeças de consulta
    }.

## The timeline
write-timeline = Linha do tempo
write-timeline-step = passo { $step } de { $steps }: antes de o token { $step } ser escolhido
write-timeline-now = agora: { $tokens ->
        [one] { $tokens } token escrito
       *[other] { $tokens } tokens escritos
    }

## The Q·K space
space-heading = Consultas e chaves num mesmo espaço
space-translate = Translação das chaves
space-values = Valores também
space-colour-by = Cor por
space-colour-token = token
space-colour-position = posição
space-translated-note = Chaves deslocadas por c = mean(Q) − mean(K): cada pontuação da linha de uma consulta ganha o mesmo q·c, que o softmax ignora, então A não muda; com as duas nuvens em torno de um mesmo centro, a proximidade na figura diz mais.
space-plain-note = Chaves como o modelo as calcula: q·k é grande quando uma consulta e uma chave apontam na mesma direção a partir da origem, que pode estar longe das duas nuvens.
space-one-token = Um só token: uma consulta e uma chave não dão o que projetar. Digite um texto de dois tokens ou mais.
space-key-title = chave { $position }: { $token }
space-query-title = consulta { $position }: { $token } (clique para escolher)
space-value-title = valor { $position }: { $token }
space-output-title = saída da consulta { $position }: { $token }
space-value-line-title = { $query } toma { $weight } do valor de “{ $key }”
space-caption = ● consultas, ■ chaves da camada { $layer }, cabeça { $head }. Os dois eixos guardam { $share } % da dispersão dos pontos; o resto fica fora da figura. Clique num círculo, ou num token acima, para escolher a consulta.
space-caption-grouped = ● consultas, ■ chaves da camada { $layer }, cabeça { $head } (chaves da cabeça de chave/valor { $kv }). Os dois eixos guardam { $share } % da dispersão dos pontos; o resto fica fora da figura. Clique num círculo, ou num token acima, para escolher a consulta.
space-plot-label = Consultas (círculos) e chaves (quadrados) da cabeça nos seus dois eixos principais
space-axis-1 = eixo 1: { $share } % da dispersão
space-axis-2 = eixo 2: { $share } %
space-token-name = “{ $token }” ({ $position })
space-readout-query = Consulta
space-readout-weightiest = Maior peso
space-readout-angle = Mais próxima em ângulo (todas as dimensões)
space-readout-plane = Mais próxima na figura
space-angle-same = a mesma chave: é a que aponta mais na direção da consulta.
space-angle-other = { $key }, A = { $weight }: uma chave mais longa pode vencer com um ângulo maior, pois A segue q·k = ‖q‖‖k‖cos θ.
space-plane-same = a mesma chave: aqui a figura diz a verdade.
space-plane-other = { $key }, A = { $weight }: aqui a figura engana, pois um plano guarda só parte da dispersão; os números são exatos.
space-no-values = Esta execução não tem vetores de valor para a cabeça (um arquivo de traço gravado sem eles), ou eles são todos um mesmo ponto.
space-values-caption = ▲ valores da cabeça de chave/valor { $kv } nos seus próprios dois eixos (que guardam { $share } % da dispersão dos valores); ◆ a saída da consulta escolhida, o = Σ_j a_j v_j. Uma linha de A soma 1, então a saída é a média ponderada dos valores: ela fica entre os valores que a sua consulta pondera, na figura como em todas as dimensões.
space-values-plot-label = Os valores da cabeça (triângulos) nos seus próprios dois eixos principais e a saída da consulta escolhida (losango)
space-corpus = No corpus
space-corpus-note = Todas as consultas e chaves desta cabeça em algumas centenas de frases incluídas (histórias, perguntas, listas, números, um pouco de código), nos dois eixos principais do corpus; as consultas e chaves da sua frase ficam nos mesmos eixos, por cima. O worker processa o corpus uma vez por modelo; depois, trocar de cabeça é imediato.
space-corpus-progress = Passando o corpus pelo modelo: { $done } de { $total } frases
space-corpus-caption = Camada { $layer }, cabeça { $head } no corpus: as consultas em verde, as chaves em rosa ({ $points } pontos de { $sentences } frases); as ● consultas e ■ chaves da sua frase por cima. Os dois eixos guardam { $share } % da dispersão do corpus.
space-corpus-plot-label = Consultas e chaves da cabeça no corpus, com as da sua frase por cima
space-visitor-query-title = consulta { $position }: { $token }
space-grid = Todas as cabeças
space-grid-note = Todas as cabeças no corpus, uma linha por camada, cada uma nos seus próprios dois eixos (cerca de 30 consultas e 30 chaves do corpus cada). Clique numa para escolhê-la.
space-grid-tile = camada { $layer }, cabeça { $head }
space-tsne = t-SNE
space-tsne-note = O t-SNE coloca os pontos de modo que cada um mantenha os seus vizinhos mais próximos (exato, sobre todos os pares, com uma semente fixa): os grupos têm significado, as distâncias entre grupos e as direções não, e não há eixos. Útil quando os pontos são muitos e os dois eixos principais os amontoam.
space-tsne-caption = ● consultas, ■ chaves da camada { $layer }, cabeça { $head }, colocadas pelo t-SNE: pontos próximos são vizinhos em todas as dimensões; as distâncias e direções entre grupos não significam nada. Clique num círculo, ou num token acima, para escolher a consulta.
