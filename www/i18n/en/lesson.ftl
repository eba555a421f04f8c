# attnscope, English: lesson
#
# The guided lesson: eight steps on attention, four on how a model writes,
# two on listening (cross-attention with speech). Words between quotation
# marks ($query, $key, $token, $last, $top, $word, $text) are the visitor's
# own tokens: never translate them. Numbers arrive already written in the
# page's language ($weight, $raw, $p…); integers select plural forms.

## Titles of the steps

lesson-step-tokens = Tokens
lesson-step-qkv = q, k and v: three projections of x
lesson-step-scores = Scores: q · k
lesson-step-scale = Why divide by √d_k
lesson-step-softmax = Softmax: scores become weights
lesson-step-mask = The causal mask and −∞
lesson-step-sum = The weighted sum, and E + ΔE
lesson-step-heads = Many heads, and heads that share keys
lesson-step-last-row = How a model writes: the last row chooses
lesson-step-next = The next-token distribution and its temperature
lesson-step-sampling = Sampling, and the seed
lesson-step-cache = The key/value cache
lesson-step-cross = Cross-attention: a word listens to the sound
lesson-step-timing = Where each word was said

## The card: count, try, Back and Next

# "Step 3 of 14" above the title.
lesson-count = Step { $step } of { $steps }
# A step's dot, read by a screen reader: "Step 3: Scores: q · k".
lesson-dot = Step { $step }: { $title }
lesson-steps = Lesson steps
lesson-back = ← Back
lesson-next = Next →
# Before the suggestion of the step; keep the space after it (or none, as the language writes).
lesson-try = Try:{" "}
lesson-computing = Computing…
lesson-type-sentence = Type a sentence to start: the lesson uses it.

## Shared pieces of the numbers

# A token of the visitor's text in quotation marks.
lesson-quoted = “{ $word }”
# A percentage; $p is already written with one decimal.
lesson-percent = { $p }%
# The first numbers of a vector and how many it has: "[0.1, 0.2, …] (64 numbers)".
lesson-preview = {"["}{ $numbers }] ({ $count } numbers)

## Step 1: tokens

lesson-says-tokens = { $model } reads your sentence as { $tokens ->
        [one] 1 token
       *[other] { $tokens } tokens
    }. Every token gets a row and a column in each picture of attention: here “{ $query }” is the query we follow.
lesson-label-tokens = tokens
lesson-label-query = query token
lesson-label-ids = token ids
lesson-try-tokens = Type a word of your own into the text box: a row and a column appear for it.

## Step 2: q, k and v

lesson-says-qkv = “{ $query }” enters the layer as a vector x of { $width } numbers. Three learned matrices project it into a query q, a key k and a value v of { $dk } numbers each: q asks, k answers, v is what gets passed on.
lesson-label-x = x of “{ $query }”
lesson-try-qkv = Choose another token (in the token list, or a row of any picture) to see its vectors.
# Canvas label of the strip of x (the others are q = x·W_Q …).
lesson-strip-x = x “{ $token }”
lesson-vectors-label = The vector x of “{ $token }” and its projections q, k and v, as strips of coloured cells
lesson-vectors-caption = One cell per number: red positive, blue negative, each strip against its own largest value. q, k and v are shorter than x: the head works in d_k dimensions.

## Step 3: scores

lesson-says-scores = The query of “{ $query }” is compared with every key by a dot product, s_j = q · k_j: the larger the score, the better the key matches what the query looks for.
lesson-try-scores = Point at a cell, or tap it, to read its score. Red is positive, blue negative.

## Step 4: scaling by 1/√d_k

lesson-says-scale = If the entries of q and k had variance 1, q · k would have variance d_k = { $dk }; multiplying by 1/√d_k brings it back near 1, so the softmax does not saturate. In this row the variance of the scores goes from { $raw } to { $scaled }.
lesson-label-scale = scale
lesson-label-var-raw = variance of q · k_j
lesson-label-var-scaled = after scaling
# "Play" is the button of the stage picker.
lesson-try-scale = Press Play to watch the scores shrink, or drop 1/√d_k and see the weights turn all-or-nothing.

## Step 5: softmax

lesson-says-softmax = The softmax turns each row of scores into weights, exp(s_j) / Σ exp(s_m): all positive, summing to 1. “{ $query }” gives its largest weight, { $weight }, to “{ $key }”.
lesson-label-top = largest
lesson-value-top = { $weight } → “{ $key }”
lesson-try-softmax = Drag the slider: a factor above 1 sharpens the softmax, below 1 flattens it.

## Step 6: the causal mask

lesson-says-mask-causal = { $model } is causal: the mask adds −∞ to the score of every later token, and exp(−∞) = 0, so no token attends to the future. “{ $query }” sees { $seen } of the { $tokens } tokens.
lesson-says-mask-window = { $model } is causal with a sliding window: the mask adds −∞ to the score of every later token and of every token more than { $back } back, and exp(−∞) = 0. “{ $query }” sees { $seen } of the { $tokens } tokens.
lesson-says-mask-none = { $model } reads both ways (no mask). A decoder adds −∞ to the score of every later token, and exp(−∞) = 0: the causal grid shows what { $model } would attend to with that mask.
lesson-label-mask = the model's mask
# The model's mask, as its readout names it.
lesson-mask-none = none
lesson-mask-causal = causal
lesson-mask-window = sliding window
lesson-label-hidden = keys a causal mask hides from “{ $query }”
lesson-try-mask = Press Play: the crosses (−∞) become weights of exactly 0.

## Step 7: the weighted sum

lesson-says-sum = The head's output for “{ $query }” is the weighted sum z = Σ a_j v_j. The outputs of all heads, joined and projected by W_O, make the update ΔE that is added to the token's vector: E + ΔE.
lesson-try-sum = Click a word on the left to follow another query.

## Step 8: many heads

lesson-says-heads-shared = { $model } has { $layers ->
        [one] { $layers } layer
       *[other] { $layers } layers
    } of { $heads ->
        [one] { $heads } head
       *[other] { $heads } heads
    }, each with a pattern of its own. Its query heads share { $kv } key/value heads (grouped-query attention): the heads under one bracket use the same k and v.
lesson-says-heads-own = { $model } has { $layers ->
        [one] { $layers } layer
       *[other] { $layers } layers
    } of { $heads ->
        [one] { $heads } head
       *[other] { $heads } heads
    }, each with a pattern of its own and its own keys and values. SmolLM2 shares each key/value head among three query heads (grouped-query attention).
lesson-label-heads = layers × heads
lesson-label-kv = key/value heads
# $head is the number of the selected head.
lesson-label-group = heads sharing head { $head }'s keys
lesson-sharing-none = none (keys of its own)
lesson-try-heads = Click a tile to open that head in every view; with SmolLM2, compare heads under one bracket.

## Chapter: how a model writes

lesson-says-no-writer = { $model } reads the whole text at once and has no next token to choose. This chapter needs a model that writes: a decoder such as SmolLM2.
lesson-use-smollm2 = Use SmolLM2, which writes
lesson-no-distribution = The distribution appears with a model that writes.
lesson-label-top-next = most likely next
# A token and its probability: “ forest” 50.0%
lesson-value-token = “{ $token }” { $p }

lesson-says-last-row = { $model } writes one token at a time. Under the causal mask, row i of A sees only tokens 0 … i, so every row could predict the token after it; when writing, only the last row counts. After the last layer, the vector of “{ $last }” becomes the logits of the next token: its best guess is “{ $top }”, { $p }.
lesson-label-last = the row that chooses
lesson-label-visible = keys it sees
lesson-try-last-row = Type a word at the end: a new last row appears, and the next-token list changes.

lesson-says-next = A softmax turns the logits z into probabilities, p_i = exp(z_i / T) / Σ exp(z_j / T). T = 1 gives the model's own distribution. A lower T sharpens it: the top token wins more and more often, and the text starts repeating itself. A higher T flattens it: rare tokens come up, and the text rambles. At T = { $t }, “{ $top }” gets { $p }.
lesson-label-listed = the five listed, together
lesson-try-next = Drag the temperature: the bars sharpen below 1 and flatten above it.

# After a step of writing that drew a number u. "Step" here is the step of writing, not of the lesson.
lesson-says-drawn = Step { $step } drew u = { $u }. It kept { $kept } tokens, { $mass } of the probability, then scaled them up to sum to 1, and took “{ $token }”: the token whose slice of the running total holds u. Its share was { $share }. The seed fixes every u, so the same link writes the same text.
# "sample" and "Write" are the option and the card of the Write panel.
lesson-says-greedy = Step { $step } took “{ $token }” ({ $p }) with no draw: greedy decoding always takes the most likely token. Choose “sample” in the Write card to draw instead.
lesson-says-sampling = Greedy decoding always takes the most likely token. Sampling draws a number u between 0 and 1 and takes the token whose slice of the running total of the probabilities holds it. Top-k keeps only the k most likely tokens, top-p the fewest whose probabilities add up to p, and what is kept is scaled up to sum to 1. The seed fixes every draw, so the same link writes the same text.
lesson-label-chosen = chosen
lesson-draw-none = none (greedy)
lesson-label-kept = kept
lesson-value-kept = { $kept } tokens, { $mass }
lesson-try-sampling = In the Write card choose “sample”, set a seed and press Step: the bars show the cut and the token drawn.

# $shared is lesson-says-cache-shared, or nothing.
lesson-says-cache = The next token's query needs the key and value of every earlier token in every layer. Under the causal mask those never change, so the model keeps them: writing token { $next } computes one new row of Q, K and V in each of { $layers } layers ({ $computed } numbers) and reuses the { $n } rows of K and V computed before ({ $reused } numbers).{ $shared }
# Follows lesson-says-cache: keep the space before it (or none, as the language writes).
lesson-says-cache-shared = {" "}Its { $heads } query heads share { $kv } key/value heads, so the cache holds { $kv } sets of keys and values per layer, not { $heads }.
lesson-label-cache-new = computed for the next token
lesson-label-cache-reused = reused from the cache
lesson-label-cache-saved = rows of K and V not recomputed
lesson-try-cache = Press Write and watch the heatmap grow by one row per token, each row computed once.

## Chapter: listening

lesson-no-clip = This chapter listens. Play one of the examples under the picture (or record a sentence of your own): Whisper tiny.en writes what it hears, in your browser, and the lesson goes on with its numbers.
# $which is lesson-which-head or lesson-which-mean; $from and $to are seconds.
lesson-says-cross = Whisper heard “{ $text }” and wrote it as { $tokens } tokens. Each token's query is compared with keys that come from another sequence: the encoder's 1,500 frames of sound (20 ms each; the clip fills { $frames } of them, silence the rest). Same formula, softmax(q Kᵀ/√d_k), with no mask: every token may listen anywhere. Here ({ $which }) the query of “{ $query }” puts its largest weight, { $weight }, on { $from }–{ $to } s.
lesson-which-head = decoder layer { $layer }, head { $head }
lesson-which-mean = the mean of the alignment heads
lesson-label-listen-tokens = tokens written
lesson-label-listen-frames = frames of sound (keys)
lesson-value-frames = { $frames } of the clip, 1,500 in all
lesson-label-listen-peak = largest weight of “{ $query }”
# $time is in seconds.
lesson-value-peak = { $weight } at { $time } s
lesson-label-listen-clip = share on the clip
lesson-try-cross = Tap another word's span under the spectrogram: its first token becomes the query, and the stretch plays.

# $heads lists the alignment heads as layer.head: "1.1, 2.2"; $span is lesson-says-timing-span or nothing.
lesson-says-timing = Most heads do not follow time, but a few do: the checkpoint names { $count } alignment heads (layer.head { $heads }). Their mean, row by row, steps through the sound as the words go on; dynamic time warping along it gives each word its start and end.{ $span }
# Follows lesson-says-timing: keep the space before it (or none, as the language writes).
lesson-says-timing-span = {" "}“{ $word }” was said from { $start } s to { $end } s.
lesson-label-listen-heads = alignment heads
lesson-label-listen-words = words timed
lesson-try-timing = Choose one head instead of the alignment heads' mean: most heads listen all over the clip.
