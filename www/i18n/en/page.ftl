# attnscope, English: page

page-open-full = Open in attnscope ↗
page-run-progress = Computing { $tokens ->
        [one] 1 token
       *[other] { $tokens } tokens
    }: layer { $done } of { $blocks } done
page-language = Language
page-language-failed = The page could not switch to { $language }: { $reason }

## The control bar: the brand's line, settings, the model, the text box, the layer and head

# Under the name "attnscope": the formula, computed live in the browser.
page-tagline = A = softmax(QKᵀ/√d_k + M), live
page-settings = Settings
page-dark = Dark
page-dark-title = Dark theme, pictures included
page-present = Presentation
page-present-title = Large type and pictures, for a projector
page-columns = Columns are queries
page-columns-title = Draw each query as a column, as 3Blue1Brown's videos do
page-model = Model
# In the model list, in place of a download's size: the model is kept on this device.
page-model-saved = saved
page-model-teaching-option = Teaching model (built in)
# $size: the download's size ("22.7 MB"), or page-model-saved.
page-model-minilm-option = MiniLM · encoder · { $size }
page-model-smollm2-option = SmolLM2-135M · decoder · { $size }
page-model-trace-option = Trace file (opened)
page-exact = Exact f32 weights ({ $size })
page-exact-title = Off: the weights rounded to f16, half the download; every attention weight stays within 2e-3 of the f32 model's. On: the f32 file as published, the numbers the CLI prints.
page-download = Download
# $model: a model's name; $loaded, $total: sizes such as "12.5 MB".
page-downloading = Downloading { $model }: { $loaded } of { $total }
# The visitor's own model, read from files on their device.
page-reading = Reading { $model }: { $loaded } of { $total }
page-retry = Retry download
page-use-teaching = Use the teaching model
page-text = Text
page-text-hosted-trace = A trace's text is fixed: its tokens are above the picture
page-text-trace = A trace file's text is fixed: choose a model to type
page-text-placeholder = Type a sentence…
page-layer = Layer
page-head = Head
page-head-title = Query head (and the key/value head it shares, where heads share them)

## Models' names (real models keep their published names)

page-model-teaching = Teaching model
page-model-custom = Your model
page-model-trace = The trace file
page-model-en-pt = Translate: English → Portuguese
page-model-pt-en = Translate: Portuguese → English
page-model-whisper = Whisper tiny.en (speech)
# $model: a model's name; $message: why, in English (from the program's core).
page-load-failed = { $model } could not be loaded: { $message }
# The caption of a second run of the selected head, on a sentence the visitor typed.
page-other-sentence = The other sentence

## The tabs of views above the picture

page-views = Views
page-view-overview = All heads
page-view-head = Heatmap
page-view-grid = Dot grid
page-view-explain = Step by step
page-view-space = Q·K space
page-view-catalog = Catalog
page-view-worked = Worked 3×4
page-view-lesson = Lesson
page-view-beyond = Beyond weights
page-view-translate = Translation
page-view-speech = Speech
page-view-image = Image
# Three tabs' labels in two parts: on a projector only the first shows. The two parts
# together read as the whole label above (the second keeps its leading space).
page-view-space-first = Q·K
page-view-space-rest = {" "}space
page-view-beyond-first = Beyond
page-view-beyond-rest = {" "}weights
page-view-worked-first = Worked
page-view-worked-rest = {" "}3×4

## The side panel: status, notes on the model, next tokens, exports

page-rail = Settings, notes and exports
page-computing = computing…
page-status-empty = Type some text to see its attention.
# $time: "0.4 ms", or page-under-tenth-ms.
page-status = { $tokens ->
        [one] 1 token
       *[other] { $tokens } tokens
    }, computed in { $time } in your browser
page-status-threads = { $tokens ->
        [one] 1 token
       *[other] { $tokens } tokens
    }, computed in { $time } on { $threads } threads in your browser
# $why: the reason, in English (from the program's core).
page-status-one-thread = { $tokens ->
        [one] 1 token
       *[other] { $tokens } tokens
    }, computed in { $time } on one thread ({ $why }) in your browser
page-status-memory = worker memory { $size }
page-status-memory-both = worker memory { $size } (both workers)
page-under-tenth-ms = under 0.1 ms
page-tokens-label = Tokens: choose one to follow it in every view
page-model-card = The model
page-note-teaching = The teaching model's five heads were designed by hand, not learned: each does one thing you can explain.
page-note-minilm-exact = MiniLM (all-MiniLM-L6-v2): a BERT encoder, 6 layers × 12 heads; its f32 weights as published.
page-note-minilm = MiniLM (all-MiniLM-L6-v2): a BERT encoder, 6 layers × 12 heads; its weights rounded to f16 (half the download), every attention weight within 2e-3 of the f32 model's.
page-note-smollm2 = SmolLM2-135M: a Llama decoder, 30 layers × 9 query heads over 3 key/value heads.
page-note-custom = Your model, read from your own files in this browser: nothing was uploaded.
page-note-trace = A trace file: attention computed elsewhere, read from the file a head at a time.
# $name: the model's name.
page-mask-none = { $name } attends both ways (no mask). A causal grid for it is a what-if, computed from the same Q and K.
page-mask-causal = { $name } is causal: each token sees only itself and earlier tokens. An unmasked grid for it is a what-if.
# $window: page-mask-window.
page-mask-sliding = { $name } is causal { $window }
page-mask-window = with a sliding window: each token sees only itself and the { $before } tokens before it.
# $said: one of the three above; a model whose layers differ (Gemma 3's local layers).
page-mask-local = { $said } Layer { $layer } is a local one, { $window }
page-head-note = Head { $head }
# $name: the head's name, in English (the teaching model's).
page-head-note-named = Head { $head }: “{ $name }”
page-append-token = Append this token
page-next-tokens = Most likely next tokens
page-next-click = Click one to append it.
page-export-heading = Export this head
page-export-busy = Waiting for the text's attention to be computed
# The title of the exported picture (PNG, SVG), under the model's name.
page-export-title = layer { $layer } · head { $head } · A = softmax(QKᵀ/√d_k + M) · mask: { $mask }
page-mask-name-none = none
page-mask-name-causal = causal
page-mask-name-sliding = sliding window
# For screen readers only.
page-table-too-long = The table of weights is shown for texts up to { $max } tokens; export CSV for longer ones.
page-table-caption = Attention weights of the selected head: rows are queries, columns are keys
page-table-corner = query \ key

## Offline use

page-offline-saving = Saving for offline use…
page-offline-ready = ✓ Works offline
page-offline-ready-title = The page's files are saved in this browser: it opens and computes without a network

## Zooming into a picture

page-zoom = Zoom
page-zoom-title = Ctrl + wheel, a pinch, or + and − on the focused picture zoom; a drag or the wheel pans; 0 fits
page-zoom-out = Zoom out
page-zoom-in = Zoom in
# $level: "1.5×".
page-zoom-level = Zoom { $level }
page-zoom-fit = Fit
page-zoom-fit-title = Fit: the whole map

## The computation's worker (errors; $why and $error are in English, from the browser or the core)

page-worker-restarted = The computation worker stopped unexpectedly ({ $why }); it was restarted.
page-worker-gave-up = The computation worker stopped unexpectedly ({ $why }); it failed too often to restart it; reload the page.
page-worker-restarted-model = the computation worker stopped unexpectedly ({ $why }); it was restarted: choose the model again to reload it
page-worker-gave-up-model = the computation worker stopped unexpectedly ({ $why }); it failed too often to restart it; reload the page: choose the model again to reload it
page-needs-worker = { $model } needs the background worker, which could not start in this browser
page-worker-not-started = the computation worker did not start: reload the page
page-trace-worker-not-started = the background worker that reads trace files did not start: reload the page
page-hosted-worker-not-started = the background worker that reads the trace did not start
page-worker-unreadable = unreadable reply from the worker: { $error }
page-worker-no-reason = no reason given; out of memory?

## A page inside a notebook, reading its host's trace

page-host-no-reason = no reason given
page-host-not-bytes = the host sent something other than bytes
page-host-wrong-length = the host sent { $sent } bytes for { $asked } asked (has the file changed?)

# The axes of the exported heatmap (PNG, SVG).
page-axis-keys = keys →
page-axis-queries = queries ↓

# The teaching model as a run names it (the lesson, the status, exports).
page-model-teaching-run = Teaching model (hand-designed heads)

# The teaching model's five heads: "name: what the head does" (the part before the first colon is the name).
page-teaching-describes = describes: Nouns attend to adjectives, preferring those just before them (creature → fluffy, blue).
page-teaching-previous-word = previous word: Every word attends to the word before it.
page-teaching-self = self: Every word attends to itself (and to repeats of itself).
page-teaching-who-did-what = who did what: Verbs attend to nearby nouns and pronouns (roamed → creature, forest).
page-teaching-introduces = introduces: Determiners attend forward to the noun they introduce (a → creature).
