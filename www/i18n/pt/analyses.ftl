# attnscope, Portuguese: analyses

## Shared by the analyses

beyond-map-hint = Aponte para uma célula, ou toque nela, para ler o valor exato.
beyond-layer = Camada
beyond-not-computed = Ainda não calculado.
beyond-cancelled = Cancelado.
beyond-cancel = Cancelar

## Value-weighted attention

beyond-vw-switch = O que o mapa mostra
beyond-vw-weights-button = Pesos
beyond-vw-norms-button = Ponderado por valor
beyond-norm-colour = Cor: cada linha em relação ao seu próprio maior ‖a·f(x)‖.
beyond-vw-title-norms = Camada { $layer } · cabeça { $head }: ponderado por valor ‖a·f(x)‖
beyond-vw-title-weights = Camada { $layer } · cabeça { $head }: pesos A
beyond-vw-map-label = A cabeça selecionada, consultas nas linhas e chaves nas colunas, cada linha colorida em relação ao seu maior valor
beyond-vw-caption = Cada linha é colorida em relação ao seu próprio maior valor; a leitura dá o número exato. Escolha a cabeça no painel ou em “Todas as cabeças”.

## Definitions

beyond-value-weighted-definition = atenção ponderada por valor (Kobayashi et al. 2020): ‖a_ij · f(x_j)‖ com f(x_j) = (x_j W_V^h + b_V^h) W_O^h, W_O^h a fatia da matriz de saída que cabe à cabeça (o viés de W_O não depende do token e fica de fora)
beyond-rollout-definition = rollout de atenção (Abnar & Zuidema 2020): Ā_l = ½·mean_h A_l + ½·I, linhas renormalizadas; R_l = Ā_l · R_(l−1), R_1 = Ā_1 (média sobre as cabeças de consulta, incluindo modelos grouped-query)
beyond-lens-definition = logit lens (decodificadores): softmax(final_norm(h_l) · W_outᵀ), h_l o fluxo residual após a camada l, lido numa posição; a grade dá o token mais provável de cada posição em cada camada
beyond-knockout-definition = knockout de cabeça: a saída Z_h da cabeça (antes de W_O) posta em 0, ou na sua média sobre as posições do texto, e o modelo executado de novo; efeito: a lista de próximos tokens antes/depois (decodificadores) ou o cosseno dos embeddings da frase antes/depois (codificadores)
beyond-importance-definition = mapa de importância: cada cabeça removida sozinha; decodificadores: queda na probabilidade do próximo token mais provável; codificadores: 1 − cosseno dos embeddings da frase antes/depois
beyond-patch-definition = activation patching: uma ativação da execução limpa copiada para a execução corrompida, e o resto executado de novo; efeito = (d − d_corrupt) / (d_clean − d_corrupt), d = logit(certa) − logit(errada) na última posição (0: nada restaurado, 1: a resposta limpa restaurada)
beyond-qk-definition = as consultas e chaves de uma cabeça (após o RoPE, quando o modelo as gira, antes da escala 1/√d_k) postas juntas nos seus dois eixos principais (PCA); a translação das chaves desloca cada chave por c = mean(Q) − mean(K), o que soma q_i·c a cada pontuação da linha i e portanto deixa A inalterada; os valores nos seus próprios dois eixos, onde cada saída o_i = Σ_j a_ij v_j é a média ponderada dos pontos dos valores

## Rollout

beyond-rollout-title = Rollout
beyond-rollout-layers = Após as camadas 1 … { $shown } de { $layers }
beyond-rollout-slider = Rollout após este número de camadas
beyond-rollout-grouped = Modelo grouped-query: a média é sobre todas as cabeças de consulta.
beyond-rollout-map-label = Rollout: quanto da entrada de cada token (colunas) chega a cada posição (linhas)

## Logit lens

beyond-lens-title = Logit lens
beyond-lens-at = Em “{ $token }” (posição { $position }): o que o modelo preveria se parasse após cada camada.
beyond-lens-after-layer = Após a camada
beyond-lens-top-token = Token mais provável
beyond-lens-next-four = Os quatro seguintes
beyond-lens-every-position = Todas as posições (grade camadas × posições)
beyond-lens-decoders-only = O logit lens lê a matriz de saída de um decodificador: escolha o SmolLM2.

## Head knockout and the importance map

beyond-knockout-title = Knockout de cabeças
beyond-ablation-switch = Como uma cabeça é removida
beyond-ablation-zero-long = Zerar a sua saída
beyond-ablation-zero = Zero
beyond-ablation-mean-long = A sua média sobre as posições
beyond-ablation-mean = Média
beyond-knockout-grid = Cabeças: pressione para remover
beyond-knockout-head-change = L{ $layer } · H{ $head }: variação { $change }
beyond-knockout-head = Camada { $layer } cabeça { $head }
beyond-knockout-zeroed = { $count ->
        [one] Cabeça { $heads } zerada.
       *[other] Cabeças { $heads } zeradas.
    }
beyond-knockout-meaned = { $count ->
        [one] Cabeça { $heads } substituída pela sua média.
       *[other] Cabeças { $heads } substituídas pela sua média.
    }
beyond-knockout-top = O token mais provável antes, { $token } (p = { $before }), agora tem p = { $after } e ocupa a posição { $rank }.
beyond-knockout-drop = Queda na probabilidade do token mais provável (a medida do mapa de importância): { $drop }
beyond-knockout-before = Próximo token antes
beyond-knockout-after = Depois
beyond-knockout-cosine = Cosseno dos embeddings da frase antes e depois: { $cosine }
beyond-knockout-one-minus-cosine = 1 − cosseno (a medida do mapa de importância): { $change }
beyond-knockout-none-moved = A atenção de nenhuma camada seguinte mudou.
beyond-knockout-moved = Cabeças seguintes cuja atenção mais mudou (média de |ΔA|): { $heads }
beyond-knockout-every-head = Todas as cabeças foram removidas: resta o que vem dos embeddings, dos MLPs e do caminho residual.
beyond-knockout-none-chosen = Nenhuma cabeça escolhida: { $how } para removê-las.
beyond-knockout-how = pressione uma ou mais cabeças na grade
beyond-knockout-run = Remover e executar de novo
beyond-knockout-clear = Limpar
beyond-knockout-all = Escolher todas as cabeças
beyond-importance-title = Mapa de importância
beyond-importance-running = Removendo a cabeça { $done } de { $total }…
beyond-importance-done = Pronto: { $heads } cabeças; cor = { $measure }. A mais clara é a maior variação.
beyond-importance-measure-drop = queda na probabilidade do próximo token mais provável
beyond-importance-measure-cosine = 1 − cosseno dos embeddings da frase
beyond-importance-run = Remover cada cabeça, uma por vez
beyond-importance-progress = Cabeças removidas até agora
beyond-importance-caption = O mapa colore a grade de cabeças acima (com a escolha zero / média do knockout); passe o cursor sobre uma cabeça para ver o seu número.

## Activation patching

beyond-patch-title = Activation patching
beyond-patch-stale = O texto mudou desde que estes mapas foram calculados: pressione “Aplicar patch” de novo para abrir as suas células.
beyond-patch-decoders-only = O patching compara os logits do próximo token, que um codificador como o MiniLM não fornece: escolha o SmolLM2 ou um decodificador aberto de arquivos.
beyond-patch-clean-note = O prompt limpo é o texto acima. Mude uma palavra dele no prompt corrompido (o mesmo número de tokens, ou escolha completar ou cortar).
beyond-patch-preset = Exemplo
beyond-patch-choose = Escolher…
beyond-patch-preset-indirect = Objeto indireto
beyond-patch-preset-factual = Memória de fatos
beyond-patch-preset-repeated = Sequência repetida
beyond-patch-preset-indirect-note = O segundo nome decide a resposta. No mapa residual, as primeiras camadas o carregam na posição desse nome; nas camadas do meio ele passa para a última posição: as cabeças que o movem se acendem no mapa de cabeças.
beyond-patch-preset-factual-note = Os tokens do monumento decidem a cidade. O mapa residual mostra o fato lido no último token do monumento nas camadas iniciais e do meio, e depois levado à última posição.
beyond-patch-preset-repeated-note = A resposta é copiada da primeira vez que o nome apareceu (indução). As cabeças que a copiam, as cabeças de indução, se acendem no mapa de cabeças (última posição).
beyond-patch-corrupt = Prompt corrompido
beyond-patch-right = Resposta certa
beyond-patch-wrong = Resposta errada
beyond-patch-what = Onde aplicar
beyond-patch-what-residual = o fluxo residual (camada × posição)
beyond-patch-what-heads = cada cabeça, todas as posições (camada × cabeça)
beyond-patch-what-heads-last = cada cabeça, última posição (camada × cabeça)
beyond-patch-what-blocks = blocos de atenção e feed-forward (camada × posição)
beyond-patch-fit = Se os comprimentos diferirem
beyond-patch-fit-exact = dizer onde, e parar
beyond-patch-fit-pad = completar o mais curto (espaços)
beyond-patch-fit-trim = cortar o mais longo
beyond-patch-run = Aplicar patch
beyond-patch-progress = Patching feito até agora
beyond-patch-running = Patching: passo { $done } de { $total }…
beyond-patch-done = Pronto. Os prompts diferem na posição { $at }. d = logit({ $right }) − logit({ $wrong }): { $clean } no prompt limpo, { $corrupt } no corrompido.{ $notes } Toque numa célula e depois em “Abrir” para ver a sua execução modificada ao lado da limpa no mapa de calor.
beyond-patch-note = Nota: { $note }.
beyond-patch-site-residual = fluxo residual
beyond-patch-site-heads = saídas das cabeças
beyond-patch-site-attention = bloco de atenção
beyond-patch-site-feed-forward = bloco feed-forward
beyond-patch-map-title-heads = { $site }: camada × cabeça
beyond-patch-map-title-positions = { $site }: camada × posição
beyond-patch-column-head = cabeça { $head }
beyond-patch-column-position = posição { $position } “{ $token }”
beyond-patch-readout = Camada { $layer }, { $column }: efeito { $effect } (d = { $d })
beyond-patch-readout-hint = Aponte para uma célula, ou toque nela, para ver o seu efeito e d.
beyond-patch-open-what = Este mapa é a execução modificada: na camada { $layer }, em { $column }, a ativação “{ $site }” foi copiada da execução limpa (o outro mapa) para a corrompida; efeito { $effect } (d = { $d })
beyond-patch-open = Abrir camada { $layer }, { $column } no mapa de calor
beyond-patch-open-hint = Toque numa célula para abrir a sua execução
beyond-patch-caption = Vermelho: o patch restaura a resposta limpa (1: totalmente); branco: nada (0); azul: afasta-a ainda mais.

## The head catalog: its table and maps

catalog-column-head = Camada · cabeça
catalog-column-entropy = Entropia (bits)
catalog-column-distance = Distância média (tokens)
catalog-column-previous = Token anterior
catalog-column-first = Primeiro token (sumidouro)
catalog-column-self = O próprio
catalog-column-head-title = Onde a cabeça está
catalog-column-entropy-title = Entropia média de uma linha: 0 quando cada consulta olha para uma só chave, log2(n) quando se espalha por igual
catalog-column-distance-title = Média de |i − j| ponderada por A: a que distância a cabeça olha
catalog-column-previous-title = Peso médio no token logo antes da consulta
catalog-column-first-title = Peso médio no primeiro token, o “sumidouro de atenção”
catalog-column-self-title = Peso médio no próprio token da consulta
catalog-select-head = Selecionar camada { $layer }, cabeça { $head }
catalog-table-caption = Cada cabeça, medida a partir dos seus pesos de atenção neste texto. Ordene por uma coluna; escolha uma linha para selecionar essa cabeça.
catalog-map-label = { $measure } de cada cabeça, camadas nas linhas e cabeças nas colunas; a tabela abaixo lista os mesmos números
catalog-map-readout = L{ $layer } · H{ $head }: entropia { $entropy } bits · distância { $distance } · anterior { $previous } · primeiro { $first } · o próprio { $itself }
catalog-maps-caption = Cada mapa: camadas nas linhas, cabeças nas colunas, colorido do menor valor (escuro) ao maior (amarelo); os três pesos numa mesma escala, de 0 a 1. Clique numa cabeça para abri-la.

## Find heads

catalog-find-title = Encontrar cabeças
catalog-find-query = Palavra de consulta
catalog-find-key = presta atenção a
catalog-find-run = Ordenar as cabeças
catalog-find-ranked = Cabeças ordenadas por quanto “{ $query }” presta atenção a “{ $key }”:

## Head detectors

catalog-detectors-title = Detectores de cabeças
catalog-detector-induction = indução
catalog-detector-duplicate = token duplicado
catalog-detector-previous = token anterior
catalog-detector-first = primeiro token
catalog-detector-induction-definition = indução (Olsson et al. 2022): média sobre a segunda cópia de A[p+T+t, p+t+1], o peso no token que segue a ocorrência anterior
catalog-detector-duplicate-definition = token duplicado: média sobre a segunda cópia de A[p+T+t, p+t], o peso na ocorrência anterior do mesmo token
catalog-detector-previous-definition = token anterior: média sobre i ≥ 1 de A[i, i−1]
catalog-detector-first-definition = primeiro token: média sobre i de A[i, 0]
catalog-detector-cell = Camada { $layer } cabeça { $head }: { $score }
catalog-detector-prompt = { $tokens ->
        [one] Prompt ({ $tokens } token): { $prompt }
       *[other] Prompt ({ $tokens } tokens): { $prompt }
    }
catalog-detector-repeats = O que o prompt repete
catalog-detector-random = Tokens aleatórios
catalog-detector-mine = Meu texto
catalog-detector-text = Texto, repetido duas vezes
catalog-detector-placeholder = ex.: Mr and Mrs Dursley of number four
catalog-detector-period = Tokens aleatórios por cópia
catalog-detector-seed = Semente
catalog-detector-run = Executar os detectores

## Heads that resemble each other

catalog-similar-title = Cabeças que se parecem
catalog-similar-definition = d(g, h) = média sobre as consultas i de √JS(A_g[i,:], A_h[i,:]), a divergência de Jensen–Shannon em bits (0 ≤ d ≤ 1); as cabeças dispostas por escalonamento multidimensional clássico de d e agrupadas por ligação média
catalog-similar-too-long = Comparar cada par de cabeças linha a linha exige textos de até { $most } tokens; este tem { $tokens }. Encurte-o para mapear as cabeças.
catalog-similar-running = Comparando cada par de cabeças: { $done } de { $total } pares
catalog-similar-stop = Parar
catalog-similar-start = Comparar as cabeças
catalog-similar-start-after = neste texto (cada par de cabeças, linha a linha).
catalog-similar-groups = Grupos
catalog-similar-map-label = Todas as cabeças num só mapa: cabeças que distribuem a atenção de forma parecida ficam próximas
catalog-similar-dot = { $head }: grupo { $group } (clique para abrir)
catalog-similar-caption = Cada ponto é uma das { $heads } cabeças, posicionadas de modo que cabeças que distribuem a atenção de forma parecida sobre os { $tokens } tokens deste texto fiquem próximas; as cores são grupos de cabeças parecidas. Clique num ponto para abrir essa cabeça em todas as visualizações.
catalog-similar-not-on-map = A cabeça selecionada não está neste mapa.
catalog-similar-like = Cabeças parecidas com { $head }:
catalog-similar-same-group = mesmo grupo
