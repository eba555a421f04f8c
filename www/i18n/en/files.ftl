# attnscope, English: files

## Opening a model of one's own (src/web/shell/open_model.rs)

# $message: why, in English, from the file reader.
files-cannot-open = This cannot be opened: { $message }
files-model-removed = Your model was removed from this browser.
files-reading = Reading the files…
files-no-worker = The computation worker could not start in this browser, so models cannot be opened here.
# Button.
files-open-model = Open a model…
files-open-model-title = A .gguf file, or a Hugging Face folder's config.json, tokenizer.json and model.safetensors; read here, never uploaded
# Button: choose a folder.
files-folder = Folder…
files-folder-title = A Hugging Face folder (config.json, tokenizer.json, model.safetensors)
# Button: remove the kept model.
files-forget = Forget
files-forget-title = Remove your model from this browser's storage
# The preflight summary of the chosen files: row names.
files-architecture = Architecture
files-layers = Layers
files-heads = Heads
files-parameters = Parameters
files-files = Files
files-weights = Weights
files-memory = Memory needed
# Grouped-query attention: 32 query heads share 8 key/value heads.
files-kv-heads = { $heads } over { $kv } key/value heads
# Millions of parameters; $millions is already written with the language's decimal sign.
files-millions = { $millions } M
files-preflight-label = The model you chose
# $why: in English, from the file reader.
files-cannot-load = It cannot be loaded: { $why }.
files-loading = Loading your model…
files-load = Load
files-close = Close
files-cancel = Cancel
# In the model choice, after the model's name.
files-your-files = your files
files-saved = saved

## Opening a trace file (src/web/shell/open_trace.rs)

# A trace: the attention weights of a run, recorded in a file.
files-open-trace = Open a trace…
files-open-trace-title = A .safetensors trace file written by the attnscope Python package or `attnscope trace --out`; or drop one on the page
# $name: the file's name; $why: in English, from the file reader.
files-trace-failed = { $name } could not be opened: { $why }
# $model: the model's name; $file: the trace file's name.
files-trace-info = { $model } · { $layers } layers × { $heads } heads · { $tokens } tokens · { $file }
files-trace-info-grouped = { $model } · { $layers } layers × { $heads } heads over { $kv } key/value heads · { $tokens } tokens · { $file }
files-needs-queries-keys = This trace file holds the attention weights only, no queries and keys, so step by step cannot follow a token through q·k and the Q·K space has no points to place. Write it with queries and keys (attnscope.trace(…, queries_keys=True), or `attnscope trace --out` without --no-queries-keys) to see them. The heatmap, dot grids, overview and head catalog show its weights.
# "Model" is the model choice's label.
files-needs-live-model = The lesson runs a live model on a sentence you type; a trace file's text is fixed. Choose a model under Model for the lesson, or look at this trace in the heatmap, dot grids, overview, head catalog and step by step.

## A class (src/web/shell/classroom/): the teacher's page leads, students' pages follow

# Button: find whether this page can hold a class.
class-hold = Hold a class…
# $command is the command `attnscope classroom --lan`, shown as code.
class-none = No class here: classes are held where the page is served by { $command }, run on the teacher's laptop.
class-start = Start a class
# Before the class's code: "Class ABCDE-FGHIJ".
class-name = Class
class-followers = { $count ->
    [one] { $count } student follows
   *[other] { $count } students follow
}
# After the class's code and its followers, in the teacher's box.
class-connecting = connecting…
class-connection-lost = connection lost, trying again…
# $reason: in English, from the server.
class-link-refused = refused: { $reason }
class-show-code = Show the join code
class-end = End the class
# The join code shown large for the room.
class-join-label = Join the class
class-qr-alt = QR code of the join link
class-code = Code
class-close = Close
# A student's banner.
class-waiting = Waiting for the teacher to open the class…
class-reconnecting = Reconnecting to the class…
# $reason: in English, from the server.
class-refused = The class refused: { $reason }
class-following = Following the teacher
class-exploring = Exploring on your own
class-detach = Explore on my own
class-rejoin = Back to the teacher

## Questions to the room

# The chosen token, when there is none.
class-this-token = this token
# Proposed prompts, which the teacher may edit; $query is a token.
class-propose-token = Which token does “{ $query }” attend to most in layer { $layer }, head { $head }?
class-propose-head = Which head attends most to the previous token?
class-propose-choice = Which is true of this head?
# Kinds of question: the students tap a token, pick a head, or one of the written choices.
class-kind-token = Tap a token
class-kind-head = Pick a head
class-kind-choice = Choices
class-kind-label = Kind of question
class-ask-room = Ask the room
class-choices-placeholder = One choice a line (two to eight)
class-ask = Ask
class-step-question = This step's question
class-answered = { $count ->
    [one] { $count } answer
   *[other] { $count } answers
}
class-reveal-model = Reveal the model's answer
class-reveal = Reveal the answer
# $name: the token or head the model weighs most.
class-model-answer = The model: “{ $name }”, the largest weight of the row
class-the-answer = The answer: “{ $name }”
class-end-question = End the question
class-question-label = A question
class-answer-sent = Answer sent: tap another to change it.
class-tap-answer = Tap your answer; the teacher sees the count, not who.

## The lesson's ready questions, by step (the teacher sends them in their language); $q is a token

class-step1 = A token's q, k and v are…
class-step1-a = three different tokens
class-step1-b = three projections of the same x
class-step1-c = the same vector, three times
class-step2 = Which key gives “{ $q }” its largest score q · k?
class-step3 = Without ÷ √d_k, the softmax of large scores becomes…
class-step3-a = flatter: the same weight everywhere
class-step3-b = unchanged
class-step3-c = sharper: nearly all on one key
class-step5 = With the causal mask, a token attends to…
class-step5-a = itself and the tokens before it
class-step5-b = only the tokens after it
class-step5-c = every token
class-step6 = Whose value adds most to the output of “{ $q }”?
class-step7 = Which head looks most at the previous token?
class-step8 = Which row of A is used to pick the next token?
class-step8-a = the first token's
class-step8-b = the last token's
class-step8-c = every row votes
class-step9 = A higher temperature makes the next-token distribution…
class-step9-a = sharper
class-step9-b = unchanged
class-step9-c = flatter
class-step10 = With the same seed and settings, sampling writes…
class-step10-a = the same text
class-step10-b = a different text each time
class-step11 = For each new token, the key/value cache saves recomputing…
class-step11-a = the new token's q
class-step11-b = nothing
class-step11-c = every earlier token's k and v
class-step12 = In Whisper's cross-attention, the keys and values come from…
class-step12-a = the words written so far
class-step12-b = the encoder's frames of sound
class-step12-c = the next word
class-step13 = The words' times come from…
class-step13-a = every head equally
class-step13-b = the few alignment heads
class-step13-c = the encoder's last layer
class-step-other = Which token does “{ $q }” attend to most?
