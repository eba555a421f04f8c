# attnscope, English: writing
# The Write card (a decoder continues the text one token at a time), its bars,
# key/value cache panel and timeline; then the Q·K space view.

## Whether the model shown writes (src/web/views/write/mod.rs)
write-not-encoder = Writing is offered for decoders: this model is an encoder, which reads the whole text both ways and has no next token to choose.
write-not-trace = A trace file holds attention computed elsewhere, without the model's weights: nothing here can choose a next token.
# "Translation" is the name of the tab that shows a translation model's output.
write-not-translator = A translation model writes its translation, shown in the Translation tab; writing here is offered for decoders.
# Shown on the page's error line when Write or Step is pressed and no token can be added.
write-at-most = A generation writes at most { $tokens ->
        [one] { $tokens } token
       *[other] { $tokens } tokens
    }.
write-context-full = The text fills the model's context: there is no room for another token.
write-stopped = Stopped.
# $model: the model's name (SmolLM2…); $token: the token written, in quotes.
write-end-of-text = { $model } wrote { $token }, which ends a text: writing stops here.

## The card (src/web/views/write/card.rs): heading, buttons, settings
write-heading = Write
write-go = Write
# Writes one token.
write-step = Step
write-pause = Pause
write-resume = Resume
write-stop = Stop
write-settings = Settings
# How many tokens a press of Write writes.
write-count = Tokens
# How the next token is chosen: greedy or sample.
write-choose = Choose
write-greedy = greedy
write-sample = sample
write-top-k = top-k
write-top-p = top-p
# The random seed of the draws.
write-seed = seed
write-hint-sample = Draws from the bars below at the temperature above (0 off for top-k, 1 off for top-p); the seed replays the same draws.
write-hint-greedy = Greedy: the most likely token each time.

## The step's distribution (src/web/views/write/bars.rs)
# Between the tokens top-k / top-p keeps and the ones it leaves out.
write-cut-line = cut: the rest are left out
write-chosen-mark = ◀ chosen
# $share: a percentage, "93.4%".
write-kept = kept { $tokens ->
        [one] { $tokens } token
       *[other] { $tokens } tokens
    }, { $share } of the probability, renormalized
# $token: the token chosen, in quotes; $p, $kept: percentages; $draw: the random number drawn (0 to 1).
write-chosen = Step { $step }: chose { $token }, { $p } after temperature, { $kept } renormalized
write-chosen-drawn = Step { $step }: chose { $token }, { $p } after temperature, { $kept } renormalized (draw { $draw })
write-chosen-drawn-unseen = Step { $step }: chose { $token }, { $p } after temperature, { $kept } renormalized (draw { $draw }; not among the ten shown)
write-cache-title = Key/value cache
# $token: the token's position (from 1); $earlier = $token − 1; $millions: "1.23"; $saved: a percentage without its sign.
write-cache-computed = Token { $token } computed one new row of Q in each of { $query ->
        [one] { $query } query head
       *[other] { $query } query heads
    } and one new row of K and V in each of { $kv ->
        [one] { $kv } key/value head
       *[other] { $kv } key/value heads
    }, in each of { $layers ->
        [one] { $layers } layer
       *[other] { $layers } layers
    }. Reused: the { $earlier ->
        [one] { $earlier } earlier K and V row
       *[other] { $earlier } earlier K and V rows
    } of every key/value head in every layer, { $millions } million numbers; { $saved }% of the projections saved against computing all { $token } rows again.
# Follows write-cache-computed (mind the leading space, kept by {" "}).
write-cache-grouped = {" "}Grouped queries: each K/V head is shared by { $query ->
        [one] { $query } query head
       *[other] { $query } query heads
    }.

## The timeline (src/web/views/write/timeline.rs)
write-timeline = Timeline
write-timeline-step = step { $step } of { $steps }: before token { $step } was chosen
write-timeline-now = now: { $tokens ->
        [one] { $tokens } token
       *[other] { $tokens } tokens
    } written

## The Q·K space (src/web/views/space/mod.rs)
space-heading = Queries and keys in one space
space-translate = Key translation
space-values = Values too
space-colour-by = Colour by
space-colour-token = token
space-colour-position = position
space-translated-note = Keys moved by c = mean(Q) − mean(K): each score of a query's row gains the same q·c, which softmax ignores, so A is unchanged; with both clouds around one centre, nearness in the picture says more.
space-plain-note = Keys as the model computes them: q·k is large where a query and a key point the same way from the origin, which may lie far from both clouds.
space-one-token = One token: one query and one key are nothing to project. Type a text of two tokens or more.
# Tooltips of the points ($token: the token's text; $position: its position, from 0).
space-key-title = key { $position }: { $token }
space-query-title = query { $position }: { $token } (click to choose)
space-value-title = value { $position }: { $token }
space-output-title = output of query { $position }: { $token }
# Tooltip of a line from a query's output to a value: $weight is its attention weight.
space-value-line-title = { $query } takes { $weight } of “{ $key }”'s value
# $share: the percentage of the spread the two axes keep, "84.2".
space-caption = ● queries, ■ keys of layer { $layer }, head { $head }. The two axes keep { $share } % of the points' spread; the rest is out of the picture. Click a circle, or a token above, to choose the query.
space-caption-grouped = ● queries, ■ keys of layer { $layer }, head { $head } (keys of key/value head { $kv }). The two axes keep { $share } % of the points' spread; the rest is out of the picture. Click a circle, or a token above, to choose the query.
space-plot-label = Queries (circles) and keys (squares) of the head on their two principal axes
space-axis-1 = axis 1: { $share } % of the spread
space-axis-2 = axis 2: { $share } %
# The readout: a token named by its text and position.
space-token-name = “{ $token }” ({ $position })
space-readout-query = Query
space-readout-weightiest = Weighs most
space-readout-angle = Nearest in angle (all dimensions)
space-readout-plane = Nearest in the picture
space-angle-same = the same key: it points most nearly the query's way.
space-angle-other = { $key }, A = { $weight }: a longer key can win with a wider angle, since A follows q·k = ‖q‖‖k‖cos θ.
space-plane-same = the same key: here the picture tells the truth.
space-plane-other = { $key }, A = { $weight }: here the picture misleads, as a plane keeps only part of the spread; the numbers are exact.
space-no-values = This run has no value vectors for the head (a trace file written without them), or they are all one point.
space-values-caption = ▲ values of key/value head { $kv } on their own two axes (they keep { $share } % of the values' spread); ◆ the chosen query's output o = Σ_j a_j v_j. A row of A sums to 1, so the output is the weighted mean of the values: it sits among the values its query weighs, in the picture as in every dimension.
space-values-plot-label = The head's values (triangles) on their own two principal axes and the chosen query's output (diamond)
space-corpus = Over the corpus
space-corpus-note = Every query and key of this head over a few hundred built-in sentences (stories, questions, lists, numbers, a little code), on the corpus's two principal axes; your sentence's queries and keys are placed on the same axes, on top. The worker runs the corpus once per model; switching heads is then immediate.
space-corpus-progress = Running the corpus through the model: { $done } of { $total } sentences
space-corpus-caption = Layer { $layer }, head { $head } over the corpus: its queries green, its keys pink ({ $points } points of { $sentences } sentences); your sentence's ● queries and ■ keys on top. The two axes keep { $share } % of the corpus's spread.
space-corpus-plot-label = The head's queries and keys over the corpus, with your sentence's on top
space-visitor-query-title = query { $position }: { $token }
space-grid = Every head
space-grid-note = Every head over the corpus, a row per layer, each on its own two axes (about 30 queries and 30 keys of the corpus each). Click one to choose it.
space-grid-tile = layer { $layer }, head { $head }
space-tsne = t-SNE
space-tsne-note = t-SNE places the points so that each keeps its nearest neighbours (exact, over every pair, with a fixed seed): groups mean something, distances between groups and the directions do not, and there are no axes. Useful when the points are many and the two principal axes crowd them.
space-tsne-caption = ● queries, ■ keys of layer { $layer }, head { $head }, placed by t-SNE: near points are neighbours in every dimension; the distances and directions between groups mean nothing. Click a circle, or a token above, to choose the query.
