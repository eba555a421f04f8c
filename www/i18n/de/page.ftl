# attnscope, German: page

page-open-full = In attnscope öffnen ↗
page-run-progress = { $tokens } Token werden berechnet: Schicht { $done } von { $blocks } fertig
page-language = Sprache
page-language-failed = Die Seite konnte nicht zu { $language } wechseln: { $reason }

## The control bar: the brand's line, settings, the model, the text box, the layer and head

page-tagline = A = softmax(QKᵀ/√d_k + M), live
page-settings = Einstellungen
page-dark = Dunkel
page-dark-title = Dunkles Design, Bilder eingeschlossen
page-present = Präsentation
page-present-title = Große Schrift und Bilder, für einen Beamer
page-columns = Queries als Spalten
page-columns-title = Jede Query als Spalte zeichnen, wie in den Videos von 3Blue1Brown
page-model = Modell
page-model-saved = gespeichert
page-model-teaching-option = Lehrmodell (eingebaut)
page-model-minilm-option = MiniLM · Encoder · { $size }
page-model-smollm2-option = SmolLM2-135M · Decoder · { $size }
page-model-trace-option = Trace-Datei (geöffnet)
page-exact = Exakte f32-Gewichte ({ $size })
page-exact-title = Aus: die Gewichte auf f16 gerundet, halber Download; jedes Attention-Gewicht bleibt auf 2e-3 genau beim f32-Modell. An: die f32-Datei wie veröffentlicht, die Zahlen, die die CLI ausgibt.
page-download = Download
page-downloading = { $model } wird geladen: { $loaded } von { $total }
page-reading = { $model } wird gelesen: { $loaded } von { $total }
page-retry = Erneut laden
page-use-teaching = Lehrmodell verwenden
page-text = Text
page-text-hosted-trace = Der Text eines Trace steht fest: seine Token stehen über dem Bild
page-text-trace = Der Text einer Trace-Datei steht fest: zum Tippen ein Modell wählen
page-text-placeholder = Einen Satz eingeben…
page-layer = Schicht
page-head = Head
page-head-title = Query-Head (und der Key/Value-Head, den er teilt, wo Heads sie teilen)

## Models' names (real models keep their published names)

page-model-teaching = Lehrmodell
page-model-custom = Ihr Modell
page-model-trace = Die Trace-Datei
page-model-en-pt = Übersetzung: Englisch → Portugiesisch
page-model-pt-en = Übersetzung: Portugiesisch → Englisch
page-model-whisper = Whisper tiny.en (Sprache)
page-load-failed = { $model } konnte nicht geladen werden: { $message }
page-other-sentence = Der andere Satz

## The tabs of views above the picture

page-views = Ansichten
page-view-overview = Alle Heads
page-view-head = Heatmap
page-view-grid = Punktraster
page-view-explain = Schritt für Schritt
page-view-space = Q·K-Raum
page-view-catalog = Katalog
page-view-worked = Beispiel 3×4
page-view-lesson = Lektion
page-view-beyond = Jenseits der Gewichte
page-view-translate = Übersetzung
page-view-speech = Sprache
page-view-image = Bild
page-view-space-first = Q·K
page-view-space-rest = -Raum
page-view-beyond-first = Jenseits
page-view-beyond-rest = {" "}der Gewichte
page-view-worked-first = Beispiel
page-view-worked-rest = {" "}3×4

## The side panel: status, notes on the model, next tokens, exports

page-rail = Einstellungen, Notizen und Exporte
page-computing = wird berechnet…
page-status-empty = Text eingeben, um seine Attention zu sehen.
page-status = { $tokens } Token, berechnet in { $time } in Ihrem Browser
page-status-threads = { $tokens } Token, berechnet in { $time } auf { $threads } Threads in Ihrem Browser
page-status-one-thread = { $tokens } Token, berechnet in { $time } auf einem Thread ({ $why }) in Ihrem Browser
page-status-memory = Worker-Speicher { $size }
page-status-memory-both = Worker-Speicher { $size } (beide Worker)
page-under-tenth-ms = unter 0,1 ms
page-tokens-label = Token: eines wählen, um es in jeder Ansicht zu verfolgen
page-model-card = Das Modell
page-note-teaching = Die fünf Heads des Lehrmodells wurden von Hand entworfen, nicht gelernt: Jeder tut genau eine Sache, die sich erklären lässt.
page-note-minilm-exact = MiniLM (all-MiniLM-L6-v2): ein BERT-Encoder, 6 Schichten × 12 Heads; seine f32-Gewichte wie veröffentlicht.
page-note-minilm = MiniLM (all-MiniLM-L6-v2): ein BERT-Encoder, 6 Schichten × 12 Heads; seine Gewichte auf f16 gerundet (halber Download), jedes Attention-Gewicht auf 2e-3 genau beim f32-Modell.
page-note-smollm2 = SmolLM2-135M: ein Llama-Decoder, 30 Schichten × 9 Query-Heads über 3 Key/Value-Heads.
page-note-custom = Ihr Modell, aus Ihren eigenen Dateien in diesem Browser gelesen: Nichts wurde hochgeladen.
page-note-trace = Eine Trace-Datei: anderswo berechnete Attention, Head für Head aus der Datei gelesen.
page-mask-none = { $name } schaut in beide Richtungen (keine Maske). Ein kausales Raster dafür ist ein Gedankenexperiment, aus denselben Q und K berechnet.
page-mask-causal = { $name } ist kausal: Jedes Token sieht nur sich selbst und frühere Token. Ein Raster ohne Maske dafür ist ein Gedankenexperiment.
page-mask-sliding = { $name } ist kausal, { $window }
page-mask-window = { $before ->
    [one] mit gleitendem Fenster: Jedes Token sieht nur sich selbst und das { $before } Token davor.
   *[other] mit gleitendem Fenster: Jedes Token sieht nur sich selbst und die { $before } Token davor.
}
page-mask-local = { $said } Schicht { $layer } ist eine lokale, { $window }
page-head-note = Head { $head }
page-head-note-named = Head { $head }: „{ $name }“
page-append-token = Dieses Token anhängen
page-next-tokens = Wahrscheinlichste nächste Token
page-next-click = Eines anklicken, um es anzuhängen.
page-export-heading = Diesen Head exportieren
page-export-busy = Warten, bis die Attention des Texts berechnet ist
page-export-title = Schicht { $layer } · Head { $head } · A = softmax(QKᵀ/√d_k + M) · Maske: { $mask }
page-mask-name-none = keine
page-mask-name-causal = kausal
page-mask-name-sliding = gleitendes Fenster
page-table-too-long = Die Tabelle der Gewichte erscheint für Texte bis { $max } Token; für längere als CSV exportieren.
page-table-caption = Attention-Gewichte des gewählten Heads: Zeilen sind Queries, Spalten sind Keys
page-table-corner = Query \ Key

## Offline use

page-offline-saving = Wird für die Offline-Nutzung gespeichert…
page-offline-ready = ✓ Funktioniert offline
page-offline-ready-title = Die Dateien der Seite sind in diesem Browser gespeichert: Sie öffnet sich und rechnet ohne Netz

## Zooming into a picture

page-zoom = Zoom
page-zoom-title = Strg + Mausrad, Zweifingergeste oder + und − auf dem fokussierten Bild zoomen; Ziehen oder das Mausrad verschiebt; 0 passt ein
page-zoom-out = Verkleinern
page-zoom-in = Vergrößern
page-zoom-level = Zoom { $level }
page-zoom-fit = Alles
page-zoom-fit-title = Einpassen: die ganze Karte

## The computation's worker (errors; $why and $error are in English, from the browser or the core)

page-worker-restarted = Der Rechen-Worker wurde unerwartet beendet ({ $why }); er wurde neu gestartet.
page-worker-gave-up = Der Rechen-Worker wurde unerwartet beendet ({ $why }); er ist zu oft ausgefallen, um ihn neu zu starten; bitte die Seite neu laden.
page-worker-restarted-model = der Rechen-Worker wurde unerwartet beendet ({ $why }); er wurde neu gestartet: das Modell erneut wählen, um es neu zu laden
page-worker-gave-up-model = der Rechen-Worker wurde unerwartet beendet ({ $why }); er ist zu oft ausgefallen, um ihn neu zu starten; bitte die Seite neu laden: das Modell erneut wählen, um es neu zu laden
page-needs-worker = { $model } braucht den Hintergrund-Worker, der in diesem Browser nicht starten konnte
page-worker-not-started = der Rechen-Worker ist nicht gestartet: bitte die Seite neu laden
page-trace-worker-not-started = der Hintergrund-Worker, der Trace-Dateien liest, ist nicht gestartet: bitte die Seite neu laden
page-hosted-worker-not-started = der Hintergrund-Worker, der den Trace liest, ist nicht gestartet
page-worker-unreadable = unlesbare Antwort vom Worker: { $error }
page-worker-no-reason = kein Grund angegeben; Speicher erschöpft?

## A page inside a notebook, reading its host's trace

page-host-no-reason = kein Grund angegeben
page-host-not-bytes = der Host hat etwas anderes als Bytes geschickt
page-host-wrong-length = der Host hat { $sent } Bytes für { $asked } angeforderte geschickt (hat sich die Datei geändert?)

# The axes of the exported heatmap (PNG, SVG).
page-axis-keys = Keys →
page-axis-queries = Queries ↓

# The teaching model as a run names it (the lesson, the status, exports).
page-model-teaching-run = Lehrmodell (von Hand entworfene Heads)

# The teaching model's five heads: "name: what the head does" (the part before the first colon is the name).
page-teaching-describes = beschreibt: Substantive richten ihre Attention auf Adjektive, am liebsten auf die direkt davor (Wesen → flauschiges, blaues).
page-teaching-previous-word = vorheriges Wort: Jedes Wort richtet seine Attention auf das Wort davor.
page-teaching-self = selbst: Jedes Wort richtet seine Attention auf sich selbst (und auf seine Wiederholungen).
page-teaching-who-did-what = wer tat was: Verben richten ihre Attention auf nahe Substantive und Pronomen (streifte → Wesen, Wald).
page-teaching-introduces = führt ein: Artikel richten ihre Attention nach vorn, auf das Substantiv, das sie einführen (ein → Wesen).
