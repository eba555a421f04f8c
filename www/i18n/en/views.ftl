# attnscope, English: views
# The heatmap, the dot grids, step by step, all heads, the worked 3×4 example,
# the stage picker and the readout of a cell.

## The readout of a cell (common/readout.rs). $query and $key are tokens; numbers come written.

common-readout-empty = Point at a cell, or tap it, to read its weight and raw score.
# A trace file holds the weights only.
common-readout-weight-only = “{ $query }” → “{ $key }”: weight { $weight }
common-readout-visible = “{ $query }” → “{ $key }”: weight { $weight } · raw score q·k { $score } · scaled { $scaled }
# The cell of a grid drawn with a mask the model does not use.
common-readout-visible-what-if = “{ $query }” → “{ $key }” (what-if mask): weight { $weight } · raw score q·k { $score } · scaled { $scaled }
# $mask is "causal" or "window" (a sliding window).
common-readout-hidden = “{ $query }” → “{ $key }”: hidden by the { $mask ->
        [causal] causal
       *[other] sliding window
    } mask (score −∞, weight 0) · raw score q·k { $score }
common-readout-hidden-what-if = “{ $query }” → “{ $key }” (what-if mask): hidden by the { $mask ->
        [causal] causal
       *[other] sliding window
    } mask (score −∞, weight 0) · raw score q·k { $score }
# A head's mask, after "mask:".
common-mask-none = none
common-mask-causal = causal
common-mask-window = sliding window

## The four steps and Play (common/stages.rs)

stage-play = ▶ Play
stage-stop = ■ Stop
stage-play-label = Play the four steps
stage-stop-label = Stop
stage-play-title = Play QKᵀ → ×1/√d_k → +M → softmax
stage-picker-label = Step of the computation
stage-title-scores = Step 1: the raw scores S = QKᵀ, one dot product per query and key
stage-title-scaled = Step 2: the scores scaled by 1/√d_k
stage-title-masked = Step 3: the mask M added: −∞ where a key is hidden
stage-title-weights = Step 4: the softmax of each row, the attention weights A

## The heatmap (head/)

head-heatmap-label = Attention of the selected head, queries by keys; the table of weights lists the same numbers. Arrow keys move the described cell, Enter chooses its query; plus and minus zoom a long text
head-caption-weights-rows = Row i: how query token i spreads its attention over the keys (columns). Brighter is more; each row sums to 1.
head-caption-weights-rows-masked = Row i: how query token i spreads its attention over the keys (columns). Brighter is more; each row sums to 1. Grey: keys the mask hides (weight 0).
head-caption-weights-columns = Column j: how query token j spreads its attention over the keys (rows). Brighter is more; each column sums to 1.
head-caption-weights-columns-masked = Column j: how query token j spreads its attention over the keys (rows). Brighter is more; each column sums to 1. Grey: keys the mask hides (weight 0).
head-caption-masked = Scores after the mask: grey cells are −∞, keys the query may not see. Red is positive, blue negative.
head-caption-scores-rows = Row i: query token i's score with every key, q·k. Red is positive, blue negative.
head-caption-scores-columns = Column j: query token j's score with every key, q·k. Red is positive, blue negative.
head-compare-summary = Compare with another sentence (same head)
head-compare-text-label = Another sentence
head-compare-placeholder = e.g. the same words in another order
head-compare-label = Attention weights of the same head on the other sentence
# $what: what the second run is ("The other sentence", a patched run…).
head-compare-caption = { $what } ({ $tokens ->
        [one] { $tokens } token
       *[other] { $tokens } tokens
    }), layer { $layer } head { $head }
head-compare-close = Close the patched run

## The dot grids (grid/). $model is the model's name (MiniLM, SmolLM2…).

grid-caption-unmasked = Unmasked: every word sees every word. This is what { $model } uses.
grid-caption-unmasked-what-if = Unmasked (what-if): { $model } is causal; this grid is computed from the same Q and K without the mask.
grid-caption-causal = Causal: a word sees only itself and earlier words. This is what { $model } uses.
grid-caption-causal-what-if = Causal (what-if): { $model } sees both ways; this grid applies a causal mask to the same Q and K.
grid-caption-window = Sliding window: a word sees only itself and the { $before ->
        [one] { $before } word
       *[other] { $before } words
    } before it.
grid-hint-norms = Model's own grid: circle area ∝ ‖a·f(x)‖, each row against its own largest.
grid-hint-weights = Circle area ∝ attention weight (0 to 1).
grid-hint-masked = Circle area ∝ |score| (against the largest raw score); red positive, blue negative; × marks −∞, a hidden key.
grid-hint-scores = Circle area ∝ |score| (against the largest raw score): scaling shrinks them all. Red positive, blue negative.
grid-norms-caption = Value-weighted ‖a·f(x)‖ replaces the last step, the weights, and only in the grid with the model's own mask: the scores come before any value vector, and a what-if mask has no norms of its own.
grid-small-caption = At this length a dot would be a pixel or two: each cell is shaded by its dot's size instead. Zoom in (+, Ctrl + wheel or a pinch) to see the dots.

## Step by step (explain/)

# A long vector folded: $vector is its first entries, "[a, b, c, d, … ]".
explain-vector-preview = { $vector } ({ $count } numbers)
explain-vector-show-all = { $label }: show all { $count } numbers
explain-scale-unscaled = 1/√d_k dropped: the raw scores go straight to the softmax (the model uses 1/√{ $d_k } = { $model })
explain-scale-unscaled-temperature = 1/√d_k dropped, × { $factor } for temperature (the model uses 1/√{ $d_k } = { $model })
explain-scale-temperature = = { $factor } × 1/√{ $d_k }: the temperature lesson is on (the model's own factor is 1/√{ $d_k } = { $model })
explain-scale-model = = 1/√{ $d_k }, the model's own scaling (d_k = { $d_k })
explain-scale-own = the model's own factor (1/√{ $d_k } would be { $model })
# After the formula q = x · W_Q: how each model makes x into q.
explain-projection-minilm = (+ a bias b_Q; x is E after the previous layer's LayerNorm)
explain-projection-smollm2 = (x is E after RMSNorm; q and k are then rotated by their position, RoPE)
explain-projection-custom = (x is E after the layer's normalization, as your model defines it)
explain-projection-trace = (q and k as the trace file stores them; x, v and ΔE are not in it)
explain-projection-translate = (+ a bias b_Q; the translation model's encoder, x after the previous layer's LayerNorm)
explain-projection-whisper = (+ a bias b_Q; x is E after the layer's LayerNorm)
explain-query-token = Query token
explain-choose-query = Choose the query token
explain-key-of = k of { $token }
explain-value-of = v of { $token }
explain-weighted-value-of = weighted value of { $token }
# $mask is the head's mask, as common-mask-… says it.
explain-head-note = Layer { $layer }, head { $head } (keys and values from key/value head { $kv_head }) · d_k = { $d_k } · scale = { $scale } · mask: { $mask }
explain-step-x = The vector of “{ $token }” entering the layer
explain-formula-x = x = E[{ $index }]   ({ $count } numbers)
explain-step-q = Its query
# $note is one of explain-projection-…, or nothing.
explain-formula-q = q = x · W_Q   ({ $from } → { $to } numbers){ $note }
explain-step-scores = Compare with every key, scale, mask, softmax, and weigh the values
# $mask is "none", "causal" or "window" (a sliding window).
explain-formula-mask = s″_j = s′_j + M_ij   (M is 0 where the key is visible, −∞ where the { $mask ->
        [none] none
        [causal] causal
       *[other] sliding window
    } mask hides it)
explain-formula-v = v_j = x_j · W_V     each value is multiplied by its weight: a_j · v_j
explain-table-caption = Query “{ $token }” against every key
explain-col-key = key j
explain-col-scaled = s_j × scale
explain-step-z = Add up the weighted values: the head's output
explain-formula-z = z = Σ_j a_j · v_j   ({ $count } numbers)
explain-step-delta = All heads together: the update ΔE
explain-formula-delta = ΔE[{ $index }] = [z_1 | … | z_H] · W_O   (every head's z, joined and projected back to { $count } numbers)
explain-step-residual = The residual stream after attention
explain-formula-residual = E[{ $index }] + ΔE[{ $index }]   (the token's vector, nudged by what it gathered)
# Read aloud by a screen reader for the vector E + ΔE.
explain-label-residual = E plus delta E
explain-computing = computing…
explain-empty = Type some text to follow a token through the formula.
explain-lines-label = Lines from each query token (left) to the keys (right), as strong as the weight; the chosen query's lines stand out. The table below lists the same numbers.
explain-lines-caption = Left: queries, right: keys. A line is as opaque as its weight; click a word on the left to follow it.
explain-row-note = Row of “{ $token }” in this head: largest weight { $top }, entropy { $entropy } bits (a uniform row would have { $uniform }).
explain-row-label = Attention weights of { $token }
explain-scaling-legend = Scaling and temperature
explain-scaling-note = If the entries of q and k are independent with mean 0 and variance 1, q·k has variance d_k: wide heads give large scores, and the exponential in softmax turns large gaps into all-or-nothing (with tiny gradients). Dividing by √d_k brings the variance back to 1. Multiply the scores below and watch the rows sharpen (factor > 1, a colder softmax) or flatten (factor < 1, a hotter one).
explain-model-setting = ★ This is the model's real setting: factor 1, scaled by 1/√d_k.
explain-not-model-setting = Not the model's setting: it uses factor 1, scaled by 1/√d_k. Later layers are not re-run; each head shows what it would attend to.
explain-multiply = Multiply the scaled scores by
# The slider's value read aloud: "times 2.00".
explain-times = times { $factor }
explain-mark-model = ×1 (the model)
explain-reset = Back to the model's setting
explain-unscaled = drop 1/√d_k (feed the raw scores q·k to the softmax)
explain-position-legend = Word order
explain-positional = positional encoding (teaching model)
explain-position-note = Attention compares vectors, not places: without a positional code, shuffling the words only shuffles the rows and columns of A the same way, and the “previous word” head cannot tell which word came before.
explain-next-temperature = Temperature of the next-token softmax
explain-next-temperature-note = (logits ÷ T: below 1 sharpens, above 1 flattens; 1 is the model's own)

## All heads (model/overview.rs). A tile is one head's small heatmap.

overview-label = Every layer and head; arrow keys move the selection
overview-knock-cell = Layer { $layer } head { $head }
overview-knock-cell-out = Layer { $layer } head { $head }: knocked out
# L = layer, H = head, as the tiles are labelled.
overview-knock-title-out = L{ $layer } · H{ $head } (knocked out)
overview-knock-count = { $count ->
        [0] No head chosen
        [one] { $count } head chosen
       *[other] { $count } heads chosen
    }
overview-knock-tools = Head knockout
overview-knock-mode = Knock out heads
# Completes "No head chosen: … to knock them out." (analyses' message); names the button overview-knock-mode.
overview-knock-how = turn on “Knock out heads” and click tiles
overview-knock-run = Run knockout
overview-knock-clear = Clear
overview-caption-knockout = Knockout mode: click tiles to choose the heads to remove (crossed out), then Run knockout; turn the mode off to open heads again.
overview-caption = Each tile is one head's attention (rows are queries), on this text. Click a tile or use the arrow keys to open that head in every view.
overview-scale-caption = On a text this long each tile's cell is the mean weight over a block of tokens, drawn against the tile's brightest cell so that its pattern shows; the heatmap has each weight.
overview-norms-caption = Value-weighted: each tile shows ‖a·f(x)‖, each row against its own largest; the exact values are in the heatmap's readout and the exports.

## The worked 3×4 example (worked/). "Seed 003" is one of the project's founding notes: a name.

# $matrix is X, W_Q, W_K or W_V.
worked-cell-label = { $matrix } row { $row } column { $column }
worked-seed-heading = The seed: ÷ √{ $width } (input width)
worked-note = Three inputs of width 4, projections to width 3 — the worked example of seed 003. Edit any number; everything below is recomputed with the same formula the models use.
worked-reset = Back to the seed's numbers
