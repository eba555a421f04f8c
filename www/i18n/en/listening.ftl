# attnscope, English: listening
# A trailing {" "} keeps the space before what the page puts next (Chinese leaves it out).

## The Speech tab (src/web/views/speech/)

# $message: the loading error, in English (from the core).
speech-whisper-load-failed = Whisper could not be loaded: { $message }
# Captions name the chosen head like this: "… over it (decoder layer 2, head 3) …".
speech-which-head = decoder layer { $layer }, head { $head }
speech-which-alignment = the mean of the alignment heads
# The intro is three pieces: text, the emphasised term, and the rest (which starts right after the term).
speech-intro = Say a sentence, open a sound file or pick an example. Whisper (tiny.en) writes what it hears; each token it writes has a query that looks at the sound's keys: its{" "}
speech-intro-cross = cross-attention
speech-intro-end = , softmax(qKᵀ/√d_k) over 20 ms frames of audio.
# $memory is speech-facts-memory or nothing.
speech-facts = { $seconds } s of sound, { $frames } frames of 20 ms; { $tokens } tokens; heard in { $ms } ms{ $memory }.
speech-facts-memory = , worker memory { $mb } MB
speech-tokens-label = The transcript's tokens
speech-alignment-mean = Alignment heads (mean)
# An option of the head menu; a ★ follows for an alignment head.
speech-layer-head = Layer { $layer } · head { $head }
# Before the head menu: "Cross-attention of [Alignment heads (mean)]".
speech-cross-of = Cross-attention of
speech-needs-secure = Recording needs a secure page (https:// or localhost); the files and the examples still work.
speech-no-microphone = This browser gives no access to a microphone; the files and the examples still work.
# $message: the browser's error, in English.
speech-microphone-refused = The microphone was refused ({ $message }); the files and the examples still work.
speech-microphone-failed = No microphone could be opened ({ $message }); the files and the examples still work.
speech-nothing-recorded = Nothing was recorded: the microphone sent no sound.
speech-not-decodable = This file is not sound the browser can decode ({ $message }).
speech-file-unreadable = The file could not be read: { $message }
speech-file-empty = The file holds no sound.
speech-recording = Recording… { $seconds } s of at most 30 s. Press Stop when you are done.
speech-reading = Reading the sound…
speech-downloading = Downloading Whisper tiny.en: { $loaded } of { $total } MB (once; the browser keeps it)…
speech-listening = Whisper is listening…
# Buttons.
speech-stop = ■ Stop
speech-record = ● Record
speech-open-file = Open a sound file…
speech-example-title = An example clip, synthesized by espeak-ng
speech-download-note = Whisper tiny.en is downloaded the first time (about { $size } MB) and kept by the browser; the sound never leaves this page.
# Drawn under the encoder's map, along the columns.
speech-encoder-axis = keys: frames heard →
speech-encoder-readout = Queries { $q0 }–{ $q1 } s give keys { $k0 }–{ $k1 } s { $weight } of their attention (on average); { $stayed } % of it stays on the clip, the rest goes to the padding.
speech-encoder-hover = Hover a cell to read its weight.
speech-encoder-title = The encoder reading the sound
speech-encoder-cell-frame = one 20 ms frame a side
speech-encoder-cell-block = a block of { $block } frames ({ $ms } ms) a side, the mean of its queries
# $cell: speech-encoder-cell-frame or speech-encoder-cell-block.
speech-encoder-caption = Before any word is written, the encoder's self-attention: each frame of sound (a row) over every frame (columns), with no mask — the encoder hears the whole clip both ways. Each cell is { $cell }; each row scaled to its own peak. The padded silence after the clip is left out.
# Menus: "Encoder layer [1] head [1]".
speech-encoder-layer = Encoder layer
speech-encoder-head = head
speech-encoder-aria = The encoder's self-attention: frames of sound as rows and columns
# The decoder's causal self-attention among the transcript's tokens. Menus: "Decoder layer [1] head [1]".
speech-decoder-title = The decoder reading its own words
speech-decoder-caption = While it writes, the decoder's causal self-attention: each token's query (a row) over the keys of the tokens written so far (columns); a row sums to 1. The cells above the diagonal are grey: the causal mask hides the tokens not yet written.
speech-decoder-layer = Decoder layer
speech-decoder-head = head
speech-decoder-aria = The decoder's causal self-attention: the transcript's tokens as rows (queries) and columns (keys)
# $weight: the weight, already written as a number.
speech-decoder-readout = “{ $query }” → “{ $key }”: { $weight }
speech-decoder-masked = “{ $query }” → “{ $key }”: hidden by the causal mask (“{ $key }” is written later)
speech-decoder-hover = Hover a cell to read its weight.
# Drawn under the padding's narrow column (keep it short).
speech-heatmap-pad = pad
# $which: speech-which-head or speech-which-alignment.
speech-heatmap-caption = Every token's cross-attention over time ({ $which }): a row per token, each scaled to its own peak; at the right, the share of the row that went to the silence padded after the clip (Whisper always reads 30 s).
speech-heatmap-aria = Cross-attention: the transcript's tokens as rows, time as columns
speech-spectrogram-caption = The sound's spectrogram (time across, pitch up), the chosen token's cross-attention over it ({ $which }), and the words' times from the alignment heads. Tap a word to hear it.
speech-spectrogram-aria = Spectrogram with the chosen token's attention over time and the words' spans
speech-readout = “{ $token }” (token { $index }): its query's weights peak at { $peak } on { $from }–{ $to } s; { $clip }% of them fall on the clip, { $padding }% on the silence padded after it.
speech-readout-none = Choose a token or a word to see where it listened.

## Step by step over the sound

speech-step-title = Step by step: one token's query over the sound
speech-step-caption = “{ $token }” (token { $index }) through decoder layer { $layer }, head { $head }: q comes from the decoder's token, k and v from the encoder's output for each 20 ms frame of sound.
speech-step-alignment = The alignment heads' mean is no single head: this step follows the first of them, layer { $layer }, head { $head }.
speech-step-query = The token's query ({ $count } numbers):
speech-step-table-caption = The { $count } frames of the clip this query weighs most, strongest first: each frame's key k, the dot product q·k, that score times the scale, and its weight a after the softmax over all { $keys } frames.
speech-step-time = Time (s)
speech-step-key = Key k (first numbers)
speech-step-weight = Weight a = softmax
speech-step-padding = The clip's { $frames } frames take { $clip } of the weight together; the { $pad } frames of silence padded after it take { $padding }.
speech-step-output = The head's output for this token ({ $count } numbers):
speech-step-waiting = Computing the step…
speech-step-failed = The step could not be computed: { $message }

## The Translation tab (src/web/views/translation/)

translation-which-head = decoder layer { $layer }, head { $head }
translation-which-layer = decoder layer { $layer }, mean of its heads
translation-which-head-mean = head { $head } averaged over the decoder layers
translation-which-mean = mean of every decoder layer and head
# The title of the exported SVG/PNG: model slug and translation, then a second line.
translation-svg-title =
    { $model }: { $translation }
    cross-attention, { $which }
translation-export-aria = Export the cross-attention
translation-export = Export
translation-export-json-title = Every decoder layer and head, with the tokens and the translation
translation-heatmap-caption = Cross-attention, { $which }: each row is a target word, each column a source word; a row sums to 1.
translation-heatmap-aria = Cross-attention: target words as rows, source words as columns
translation-readout = “{ $target }” → “{ $source }”: { $weight } ({ $which })
translation-readout-none = Point at a cell, or tap it, to read its weight.
translation-lines-aria = Cross-attention as lines from each target word (below) to the source words (above)
translation-lines-caption = Lines, { $which }: source above, translation below; click a target word to follow its lines.
translation-target-word = Target word
translation-step-caption = “{ $word }”, decoder layer { $layer }, head { $head }: q comes from the decoder (this word, after its SSRU), k and v from the encoder's output for each source word.
# The same, when the menus show a mean: step by step shows one head.
translation-step-caption-mean = “{ $word }”, decoder layer { $layer }, head { $head } (step by step follows one head: pick a layer and head above): q comes from the decoder (this word, after its SSRU), k and v from the encoder's output for each source word.
translation-step-source = source word j
translation-step-sum = Σ a_j = { $sum } (no mask: every source word is visible to every target word).
# Beside the stage when a translation model is chosen; the tab names are the page's.
translation-model-note = Bergamot's tiny translation model: 6 encoder layers of self-attention (the Heatmap, Dot grid and All heads tabs show them) and 2 decoder layers whose target words attend to the source words (the Translation tab).
translation-empty = Choose a translation model (Translate: English → Portuguese, or Portuguese → English) to see cross-attention.
# Menus: "Layer [Mean of layers]", "Head [Mean of heads]".
translation-layer = Layer
translation-mean-layers = Mean of layers
translation-decoder-layer = Decoder layer { $layer }
translation-head = Head
translation-mean-heads = Mean of heads
translation-head-n = Head { $head }
translation-parts-aria = Pictures of the cross-attention
# Tabs: keep them short.
translation-part-heatmap = Heatmap
translation-part-lines = Lines
translation-part-step = One word, step by step
translation-generate = ▶ Generate step by step
# A word the model could have chosen and its probability; $token is the model's piece.
translation-candidate = { $token } { $percent }%
# $others: translation-candidate, joined by ", ".
translation-generating = Step { $step } of { $total }: the model chose “{ $token }” — from { $others }. Its row below is where this word looked in the source.
translation-no-self-attention = No self-attention in this decoder.{" "}
translation-no-self-attention-why = This decoder has no self-attention. To be small and fast enough for a browser, each of its 2 layers replaces self-attention over the earlier target words with an SSRU (a simplified simple recurrent unit): one running summary of the words produced so far, updated by a forget gate, instead of attention weights over each of them. So the only attention in the decoder is the cross-attention shown here: queries from the target, keys and values from the encoder's output for the source.
translation-provenance = Where the model comes from · license: { $license }

## The Image tab (src/web/views/image/)

# A patch of the picture by row and column, as a token's name: "patch 1,2".
image-patch = patch { $row },{ $col }
image-none = The Image tab shows a vision model's attention over its picture. Open a vision trace: one written by attnscope.trace_image (Python) from a ViT, DeiT, DINOv2 or CLIP model.
image-rollout-computing = Rollout: computing it through every layer…
# $query: image-patch or a token's text; $top a weight; $share a percentage; $specials: how many tokens are not patches ([CLS], registers).
image-rollout-caption = Rollout after all { $layers } layers, every head averaged: how much of each patch's input reaches { $query }, through attention and the residual path; from 0 to the largest, { $top }; { $share }% comes from the { $patches } patches, the rest from { $specials ->
        [one] the special token
       *[other] the { $specials } special tokens
    }.
image-layer-head = Layer { $layer } · head { $head }
# $head: image-layer-head.
image-head-reading = { $head }: reading the head's weights…
image-head-caption = { $head }: where { $query } looks. Each patch is tinted by the weight the query gives it, from 0 to the largest, { $top }; { $share }% of its weight goes to the { $patches } patches, the rest to { $specials ->
        [one] the special token
       *[other] the { $specials } special tokens
    }.
# The readout's two parts, joined by " · ".
image-readout-most = Most weight: { $patch } ({ $weight })
image-readout-under = under the pointer: { $patch }, { $weight } (rank { $rank } of { $count })
image-queries-aria = Query token
image-hint = or click a patch (arrow keys move it)
# "Show [the chosen head]" / "Show [rollout through every layer]".
image-show = Show
image-source-head = the chosen head
image-source-rollout = rollout through every layer
# A slider: how strongly the patches are tinted.
image-tint = Tint
image-overlay-aria = The picture cut into { $rows } × { $cols } patches, tinted by the attention of { $query }
# Drawn under each small copy of the picture.
image-heads-tile = head { $head }
image-heads-summary = Every head of layer { $layer } side by side
image-heads-caption = The same query in each head, each tinted from 0 to its own largest weight; a click chooses a head.
image-heads-aria = Layer { $layer }'s heads side by side
image-steps-aria = Query, keys and a weight
# The three numbered lines: a bold label, then its text.
image-step-query-label = Query:{" "}
image-step-keys-label = Keys:{" "}
image-step-weight-label = Weight:{" "}
image-step-query = { $query }: its vector q, { $dims } numbers, asks what this token looks for.
image-step-query-none = { $query } (the trace holds no queries and keys).
image-step-keys = all { $n } tokens, the { $patches } patches and { $specials } special: each offers a vector k.
image-step-weight = the key it weighs most is { $key }: q·k = { $score }, × { $scale } (1/√{ $dims }) = { $scaled }; the softmax over all { $n } scores gives it { $weight }, the tint of its patch.
image-step-weight-plain = the key it weighs most is { $key }, with { $weight }.

# The axes of the exported cross-attention heatmap (PNG, SVG).
translation-axis-keys = keys →
translation-axis-queries = queries ↓
