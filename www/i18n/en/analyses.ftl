# attnscope, English: analyses
# "Beyond weights" (value-weighted attention, rollout, logit lens, knockout, activation
# patching) and the head catalog (its table, maps, detectors, similar heads, find heads).
# L3 · H1 means layer 3, head 1 everywhere on the page.

## Shared by the analyses

beyond-map-hint = Point at a cell, or tap it, to read its exact value.
beyond-layer = Layer
beyond-not-computed = Not computed yet.
beyond-cancelled = Cancelled.
beyond-cancel = Cancel

## Value-weighted attention (the switch also sits under the heatmap and the dot grid)

# The switch's buttons: "Weights A" and "Value-weighted ‖a·f(x)‖"; the word is hidden on phones.
beyond-vw-switch = What the map shows
beyond-vw-weights-button = Weights
beyond-vw-norms-button = Value-weighted
beyond-norm-colour = Colour: each row against its own largest ‖a·f(x)‖.
beyond-vw-title-norms = Layer { $layer } · head { $head }: value-weighted ‖a·f(x)‖
beyond-vw-title-weights = Layer { $layer } · head { $head }: weights A
beyond-vw-map-label = The selected head, queries down and keys across, each row coloured against its largest value
# “All heads” is the name of a tab.
beyond-vw-caption = Each row is coloured against its own largest value; the readout gives the exact number. Pick the head in the panel or in “All heads”.

## The quantities' one-line definitions (the formulas stay as they are)

beyond-value-weighted-definition = value-weighted attention (Kobayashi et al. 2020): ‖a_ij · f(x_j)‖ with f(x_j) = (x_j W_V^h + b_V^h) W_O^h, W_O^h the head's slice of the output matrix (W_O's bias is not per token and is left out)
beyond-rollout-definition = attention rollout (Abnar & Zuidema 2020): Ā_l = ½·mean_h A_l + ½·I, rows renormalized; R_l = Ā_l · R_(l−1), R_1 = Ā_1 (query heads averaged, grouped-query models included)
beyond-lens-definition = logit lens (decoders): softmax(final_norm(h_l) · W_outᵀ), h_l the residual stream after layer l, read at one position; the grid gives each position's top token per layer
beyond-knockout-definition = head knockout: the head's output Z_h (before W_O) set to 0, or to its mean over the text's positions, and the model run again; effect: the next-token list before/after (decoders) or the cosine of the sentence embeddings before/after (encoders)
beyond-importance-definition = importance map: every head knocked out alone; decoders: drop in the probability of the top next token, encoders: 1 − cosine of the sentence embeddings before/after
beyond-patch-definition = activation patching: one activation of the clean run copied into the corrupted run and the rest run again; effect = (d − d_corrupt) / (d_clean − d_corrupt), d = logit(right) − logit(wrong) at the last position (0: nothing restored, 1: the clean answer restored)
# Shown on the Q·K space tab.
beyond-qk-definition = a head's queries and keys (after RoPE where the model turns them, before the 1/√d_k scale) placed together on their two principal axes (PCA); key translation moves every key by c = mean(Q) − mean(K), which adds q_i·c to every score of row i and so leaves A unchanged; the values on their own two axes, where each output o_i = Σ_j a_ij v_j is the weighted mean of the values' points

## Rollout

beyond-rollout-title = Rollout
beyond-rollout-layers = After layers 1 … { $shown } of { $layers }
beyond-rollout-slider = Rollout after this many layers
beyond-rollout-grouped = Grouped-query model: the mean is over every query head.
beyond-rollout-map-label = Rollout: how much each token's input (columns) reaches each position (rows)

## Logit lens

beyond-lens-title = Logit lens
beyond-lens-at = At “{ $token }” (position { $position }): what the model would predict if it stopped after each layer.
# Column headings of the table: after layer n, the top token, its probability p, the next four.
beyond-lens-after-layer = After layer
beyond-lens-top-token = Top token
beyond-lens-next-four = Next four
beyond-lens-every-position = Every position (layers × positions grid)
beyond-lens-decoders-only = The logit lens reads a decoder's output matrix: choose SmolLM2.

## Head knockout and the importance map

beyond-knockout-title = Head knockout
beyond-ablation-switch = How a head is removed
beyond-ablation-zero-long = Zero its output
beyond-ablation-zero = Zero
beyond-ablation-mean-long = Its mean over positions
beyond-ablation-mean = Mean
beyond-knockout-grid = Heads: press to knock out
beyond-knockout-head-change = L{ $layer } · H{ $head }: change { $change }
beyond-knockout-head = Layer { $layer } head { $head }
# $heads: "0.1, 2.3" (layer.head); $count: how many.
beyond-knockout-zeroed = { $count ->
       *[other] Heads { $heads } zeroed.
    }
beyond-knockout-meaned = { $count ->
       *[other] Heads { $heads } replaced by their mean.
    }
beyond-knockout-top = The top token before, { $token } (p = { $before }), now has p = { $after } and rank { $rank }.
beyond-knockout-drop = Drop in the top token's probability (the importance map's measure): { $drop }
beyond-knockout-before = Next token before
beyond-knockout-after = After
beyond-knockout-cosine = Cosine of the sentence embeddings before and after: { $cosine }
beyond-knockout-one-minus-cosine = 1 − cosine (the importance map's measure): { $change }
beyond-knockout-none-moved = No later layer's attention changed.
beyond-knockout-moved = Later heads whose attention changed most (mean |ΔA|): { $heads }
beyond-knockout-every-head = Every head is removed: what is left is the embeddings, the MLPs and the residual path.
# $how: beyond-knockout-how, or how the "All heads" tab says it.
beyond-knockout-none-chosen = No head chosen: { $how } to knock them out.
beyond-knockout-how = press one or more heads in the grid
beyond-knockout-run = Knock out and run again
beyond-knockout-clear = Clear
beyond-knockout-all = Choose every head
beyond-importance-title = Importance map
beyond-importance-running = Knocking out head { $done } of { $total }…
# $measure: one of the two measures below, then the top token when there is one.
beyond-importance-done = Done: { $heads } heads; colour = { $measure }. Brightest is the largest change.
beyond-importance-measure-drop = drop in the probability of the top next token
beyond-importance-measure-cosine = 1 − cosine of the sentence embeddings
beyond-importance-run = Knock out every head in turn
beyond-importance-progress = Heads knocked out so far
beyond-importance-caption = The map colours the heads' grid above (with the knockout's zero / mean switch); hover a head for its number.

## Activation patching (the prompts themselves stay English: they are the model's input)

beyond-patch-title = Activation patching
beyond-patch-stale = The text has changed since these maps were computed: press Patch again to open its cells.
beyond-patch-decoders-only = Patching compares the next token's logits, which an encoder such as MiniLM does not give: choose SmolLM2 or a decoder opened from files.
beyond-patch-clean-note = The clean prompt is the text above. Change one word of it in the corrupted prompt (the same number of tokens, or choose to pad or trim).
beyond-patch-preset = Preset
beyond-patch-choose = Choose…
beyond-patch-preset-indirect = Indirect object
beyond-patch-preset-factual = Factual recall
beyond-patch-preset-repeated = Repeated sequence
beyond-patch-preset-indirect-note = The second name decides the answer. In the residual map, the early layers carry it at that name's position; in the middle layers it moves to the last position: the heads that move it light up in the heads map.
beyond-patch-preset-factual-note = The landmark's tokens decide the city. The residual map shows the fact read at the landmark's last token in the early and middle layers, then carried to the last position.
beyond-patch-preset-repeated-note = The answer is copied from the first time the name appeared (induction). The heads that copy it, induction heads, light up in the heads map (last position).
beyond-patch-corrupt = Corrupted prompt
beyond-patch-right = Right answer
beyond-patch-wrong = Wrong answer
# The label of the choice of what to patch (the options below).
beyond-patch-what = Patch
beyond-patch-what-residual = the residual stream (layer × position)
beyond-patch-what-heads = each head, every position (layer × head)
beyond-patch-what-heads-last = each head, last position (layer × head)
beyond-patch-what-blocks = attention and feed-forward blocks (layer × position)
beyond-patch-fit = If their lengths differ
beyond-patch-fit-exact = say where, and stop
beyond-patch-fit-pad = pad the shorter (spaces)
beyond-patch-fit-trim = trim the longer
# The button that starts patching.
beyond-patch-run = Patch
beyond-patch-progress = Patching done so far
beyond-patch-running = Patching: step { $done } of { $total }…
# $right, $wrong: the answers' tokens in quotes; $notes: beyond-patch-note for each note, or nothing.
beyond-patch-done = Done. The prompts differ at position { $at }. d = logit({ $right }) − logit({ $wrong }): { $clean } on the clean prompt, { $corrupt } on the corrupted one.{ $notes } Tap a cell, then “Open”, to see its patched run beside the clean one in the heatmap.
# $note comes from the engine, in English.
beyond-patch-note = Note: { $note }.
# What was patched, in a map's title and in beyond-patch-open-what.
beyond-patch-site-residual = residual stream
beyond-patch-site-heads = heads' outputs
beyond-patch-site-attention = attention block
beyond-patch-site-feed-forward = feed-forward block
beyond-patch-map-title-heads = { $site }: layer × head
beyond-patch-map-title-positions = { $site }: layer × position
# A map's column ($column in the messages below).
beyond-patch-column-head = head { $head }
beyond-patch-column-position = position { $position } “{ $token }”
beyond-patch-readout = Layer { $layer }, { $column }: effect { $effect } (d = { $d })
beyond-patch-readout-hint = Point at a cell, or tap it, for its effect and d.
# Shown above the patched run in the heatmap tab.
beyond-patch-open-what = This map is the patched run: the { $site } of layer { $layer } at { $column } copied from the clean run (the other map) into the corrupted one; effect { $effect } (d = { $d })
beyond-patch-open = Open layer { $layer }, { $column } in the heatmap
beyond-patch-open-hint = Tap a cell to open its run
beyond-patch-caption = Red: the patch restores the clean answer (1 fully); white: nothing (0); blue: it pushes further from it.

## The head catalog: its table and maps

catalog-column-head = Layer · head
catalog-column-entropy = Entropy (bits)
catalog-column-distance = Mean distance (tokens)
catalog-column-previous = Previous token
catalog-column-first = First token (sink)
catalog-column-self = Itself
catalog-column-head-title = Where the head sits
catalog-column-entropy-title = Mean entropy of a row: 0 when each query looks at one key, log2(n) when it spreads evenly
catalog-column-distance-title = Mean |i − j| weighted by A: how far the head looks
catalog-column-previous-title = Mean weight on the token just before the query
catalog-column-first-title = Mean weight on the first token, the “attention sink”
catalog-column-self-title = Mean weight on the query's own token
catalog-select-head = Select layer { $layer }, head { $head }
catalog-table-caption = Every head, measured from its attention weights on this text. Sort by a column; choose a row to select that head.
# $measure: one of the column names above.
catalog-map-label = { $measure } of every head, layers down and heads across; the table below lists the same numbers
catalog-map-readout = L{ $layer } · H{ $head }: entropy { $entropy } bits · distance { $distance } · previous { $previous } · first { $first } · itself { $itself }
catalog-maps-caption = Each map: layers down, heads across, coloured from the lowest value (dark) to the highest (yellow); the three weights on one scale, 0 to 1. Click a head to open it.

## Find heads

catalog-find-title = Find heads
# "Query word [select] attends to [select] [Rank the heads]"
catalog-find-query = Query word
catalog-find-key = attends to
catalog-find-run = Rank the heads
catalog-find-ranked = Heads ranked by how much “{ $query }” attends to “{ $key }”:

## Head detectors

catalog-detectors-title = Head detectors
catalog-detector-induction = induction
catalog-detector-duplicate = duplicate token
catalog-detector-previous = previous token
catalog-detector-first = first token
catalog-detector-induction-definition = induction (Olsson et al. 2022): mean over the second copy of A[p+T+t, p+t+1], the weight on the token after the earlier occurrence
catalog-detector-duplicate-definition = duplicate-token: mean over the second copy of A[p+T+t, p+t], the weight on the earlier occurrence of the same token
catalog-detector-previous-definition = previous-token: mean over i ≥ 1 of A[i, i−1]
catalog-detector-first-definition = first-token: mean over i of A[i, 0]
catalog-detector-cell = Layer { $layer } head { $head }: { $score }
catalog-detector-prompt = { $tokens ->
       *[other] Prompt ({ $tokens } tokens): { $prompt }
    }
catalog-detector-repeats = What the prompt repeats
catalog-detector-random = Random tokens
catalog-detector-mine = My text
catalog-detector-text = Text, repeated twice
# An example text for the model (the models read English best).
catalog-detector-placeholder = e.g. Mr and Mrs Dursley of number four
catalog-detector-period = Random tokens per copy
catalog-detector-seed = Seed
catalog-detector-run = Run the detectors

## Heads that resemble each other

catalog-similar-title = Heads that resemble each other
catalog-similar-definition = d(g, h) = mean over queries i of √JS(A_g[i,:], A_h[i,:]), the Jensen–Shannon divergence in bits (0 ≤ d ≤ 1); the heads placed by classical multidimensional scaling of d and grouped by average linkage
catalog-similar-too-long = Comparing every two heads row by row takes texts of up to { $most } tokens; this one has { $tokens }. Shorten it to map the heads.
catalog-similar-running = Comparing every two heads: { $done } of { $total } pairs
catalog-similar-stop = Stop
# "[Compare the heads] on this text (every two heads, row by row)."
catalog-similar-start = Compare the heads
catalog-similar-start-after = on this text (every two heads, row by row).
catalog-similar-groups = Groups
catalog-similar-map-label = Every head on one map: heads that attend alike are near each other
# A dot's tooltip; $head: "L0 · H3".
catalog-similar-dot = { $head }: group { $group } (click to open)
catalog-similar-caption = Each dot is one of the { $heads } heads, placed so that heads attending alike over this text's { $tokens } tokens are near each other; the colours are groups of alike heads. Click a dot to open that head in every view.
catalog-similar-not-on-map = The selected head is not on this map.
catalog-similar-like = Heads like { $head }:
catalog-similar-same-group = same group
