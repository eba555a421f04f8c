# attnscope, German: listening

## Der Tab Sprache

speech-whisper-load-failed = Whisper konnte nicht geladen werden: { $message }
speech-which-head = Decoder-Schicht { $layer }, Head { $head }
speech-which-alignment = der Mittelwert der Alignment-Heads
speech-intro = Sprechen Sie einen Satz, öffnen Sie eine Audiodatei oder wählen Sie ein Beispiel. Whisper (tiny.en) schreibt, was es hört; jedes Token, das es schreibt, hat eine Query, die auf die Keys des Klangs schaut: seine{" "}
speech-intro-cross = Cross-Attention
speech-intro-end = , softmax(qKᵀ/√d_k) über Audio-Frames von 20 ms.
speech-facts = { $seconds } s Audio, { $frames } Frames à 20 ms; { $tokens } Tokens; gehört in { $ms } ms{ $memory }.
speech-facts-memory = , Worker-Speicher { $mb } MB
speech-tokens-label = Die Tokens des Transkripts
speech-alignment-mean = Alignment-Heads (Mittel)
speech-layer-head = Schicht { $layer } · Head { $head }
speech-cross-of = Cross-Attention von
speech-needs-secure = Aufnehmen braucht eine sichere Seite (https:// oder localhost); die Dateien und die Beispiele funktionieren weiterhin.
speech-no-microphone = Dieser Browser gibt keinen Zugriff auf ein Mikrofon; die Dateien und die Beispiele funktionieren weiterhin.
speech-microphone-refused = Der Zugriff auf das Mikrofon wurde verweigert ({ $message }); die Dateien und die Beispiele funktionieren weiterhin.
speech-microphone-failed = Kein Mikrofon ließ sich öffnen ({ $message }); die Dateien und die Beispiele funktionieren weiterhin.
speech-nothing-recorded = Nichts aufgenommen: Das Mikrofon hat keinen Ton geliefert.
speech-not-decodable = Diese Datei ist kein Audio, das der Browser dekodieren kann ({ $message }).
speech-file-unreadable = Die Datei konnte nicht gelesen werden: { $message }
speech-file-empty = Die Datei enthält keinen Ton.
speech-recording = Aufnahme… { $seconds } s von höchstens 30 s. Drücken Sie Stopp, wenn Sie fertig sind.
speech-reading = Audio wird gelesen…
speech-downloading = Whisper tiny.en wird geladen: { $loaded } von { $total } MB (nur einmal; der Browser behält es)…
speech-listening = Whisper hört zu…
speech-stop = ■ Stopp
speech-record = ● Aufnehmen
speech-open-file = Audiodatei öffnen…
speech-example-title = Ein Beispielclip, synthetisiert mit espeak-ng
speech-download-note = Whisper tiny.en wird beim ersten Mal geladen (etwa { $size } MB) und vom Browser behalten; der Ton verlässt diese Seite nie.
speech-encoder-axis = Keys: gehörte Frames →
speech-encoder-readout = Queries bei { $q0 }–{ $q1 } s geben Keys bei { $k0 }–{ $k1 } s { $weight } ihrer Attention (im Mittel); { $stayed } % davon bleiben im Clip, der Rest geht an das Padding.
speech-encoder-hover = Fahren Sie über eine Zelle, um ihr Gewicht zu lesen.
speech-encoder-title = Der Encoder liest den Klang
speech-encoder-cell-frame = ein Frame von 20 ms je Seite
speech-encoder-cell-block = ein Block aus { $block } Frames ({ $ms } ms) je Seite, das Mittel seiner Queries
speech-encoder-caption = Bevor irgendein Wort geschrieben wird, die Self-Attention des Encoders: jeder Frame (eine Zeile) über alle Frames (Spalten), ohne Maske — der Encoder hört den ganzen Clip in beide Richtungen. Jede Zelle ist { $cell }; jede Zeile auf ihr eigenes Maximum skaliert. Die aufgefüllte Stille nach dem Clip ist weggelassen.
speech-encoder-layer = Encoder-Schicht
speech-encoder-head = Head
speech-encoder-aria = Die Self-Attention des Encoders: Frames als Zeilen und Spalten
speech-decoder-title = Der Decoder liest seine eigenen Wörter
speech-decoder-caption = Beim Schreiben die kausale Self-Attention des Decoders: die Query jedes Tokens (eine Zeile) über die Keys der bisher geschriebenen Tokens (Spalten); jede Zeile ergibt zusammen 1. Die Zellen über der Diagonale sind grau: Die kausale Maske verdeckt die noch nicht geschriebenen Tokens.
speech-decoder-layer = Decoder-Schicht
speech-decoder-head = Head
speech-decoder-aria = Die kausale Self-Attention des Decoders: die Tokens des Transkripts als Zeilen (Queries) und Spalten (Keys)
speech-decoder-readout = „{ $query }“ → „{ $key }“: { $weight }
speech-decoder-masked = „{ $query }“ → „{ $key }“: verdeckt von der kausalen Maske („{ $key }“ wird später geschrieben)
speech-decoder-hover = Fahren Sie über eine Zelle, um ihr Gewicht zu lesen.
speech-heatmap-pad = Pad
speech-heatmap-caption = Die Cross-Attention jedes Tokens über die Zeit ({ $which }): eine Zeile pro Token, jede auf ihr eigenes Maximum skaliert; rechts der Anteil der Zeile, der an die nach dem Clip aufgefüllte Stille ging (Whisper liest immer 30 s).
speech-heatmap-aria = Cross-Attention: die Tokens des Transkripts als Zeilen, die Zeit als Spalten
speech-spectrogram-caption = Das Spektrogramm des Klangs (Zeit nach rechts, Tonhöhe nach oben), die Cross-Attention des gewählten Tokens darüber ({ $which }) und die Zeiten der Wörter aus den Alignment-Heads. Tippen Sie auf ein Wort, um es zu hören.
speech-spectrogram-aria = Spektrogramm mit der Attention des gewählten Tokens über die Zeit und den Abschnitten der Wörter
speech-readout = „{ $token }“ (Token { $index }): Die Gewichte seiner Query erreichen ihr Maximum { $peak } bei { $from }–{ $to } s; { $clip } % davon fallen auf den Clip, { $padding } % auf die danach aufgefüllte Stille.
speech-readout-none = Wählen Sie ein Token oder ein Wort, um zu sehen, wohin es gehört hat.

## Schritt für Schritt über den Klang

speech-step-title = Schritt für Schritt: die Query eines Tokens über den Klang
speech-step-caption = „{ $token }“ (Token { $index }) durch Decoder-Schicht { $layer }, Head { $head }: q kommt vom Token des Decoders, k und v aus der Ausgabe des Encoders für jeden Frame von 20 ms.
speech-step-alignment = Der Mittelwert der Alignment-Heads ist kein einzelner Head: Dieser Schritt folgt dem ersten von ihnen, Schicht { $layer }, Head { $head }.
speech-step-query = Die Query des Tokens ({ $count } Zahlen):
speech-step-table-caption = Die { $count } Frames des Clips, die diese Query am stärksten gewichtet, der stärkste zuerst: der Key k jedes Frames, das Skalarprodukt q·k, dieser Score mal der Skalierung und sein Gewicht a nach der Softmax über alle { $keys } Frames.
speech-step-time = Zeit (s)
speech-step-key = Key k (erste Zahlen)
speech-step-weight = Gewicht a = Softmax
speech-step-padding = Die { $frames } Frames des Clips erhalten zusammen { $clip } des Gewichts; die { $pad } Frames der danach aufgefüllten Stille erhalten { $padding }.
speech-step-output = Die Ausgabe des Heads für dieses Token ({ $count } Zahlen):
speech-step-waiting = Der Schritt wird berechnet…
speech-step-failed = Der Schritt konnte nicht berechnet werden: { $message }

## Der Tab Übersetzung

translation-which-head = Decoder-Schicht { $layer }, Head { $head }
translation-which-layer = Decoder-Schicht { $layer }, Mittel ihrer Heads
translation-which-head-mean = Head { $head }, gemittelt über die Decoder-Schichten
translation-which-mean = Mittel aller Decoder-Schichten und Heads
translation-svg-title =
    { $model }: { $translation }
    Cross-Attention, { $which }
translation-export-aria = Die Cross-Attention exportieren
translation-export = Export
translation-export-json-title = Alle Decoder-Schichten und Heads, mit den Tokens und der Übersetzung
translation-heatmap-caption = Cross-Attention, { $which }: Jede Zeile ist ein Zielwort, jede Spalte ein Quellwort; jede Zeile summiert sich zu 1.
translation-heatmap-aria = Cross-Attention: Zielwörter als Zeilen, Quellwörter als Spalten
translation-readout = „{ $target }“ → „{ $source }“: { $weight } ({ $which })
translation-readout-none = Zeigen Sie auf eine Zelle oder tippen Sie sie an, um ihr Gewicht zu lesen.
translation-lines-aria = Cross-Attention als Linien von jedem Zielwort (unten) zu den Quellwörtern (oben)
translation-lines-caption = Linien, { $which }: Quelle oben, Übersetzung unten; klicken Sie auf ein Zielwort, um seinen Linien zu folgen.
translation-target-word = Zielwort
translation-step-caption = „{ $word }“, Decoder-Schicht { $layer }, Head { $head }: q kommt aus dem Decoder (dieses Wort, nach seiner SSRU), k und v aus der Ausgabe des Encoders für jedes Quellwort.
translation-step-caption-mean = „{ $word }“, Decoder-Schicht { $layer }, Head { $head } (Schritt für Schritt folgt einem Head: Wählen Sie oben eine Schicht und einen Head): q kommt aus dem Decoder (dieses Wort, nach seiner SSRU), k und v aus der Ausgabe des Encoders für jedes Quellwort.
translation-step-source = Quellwort j
translation-step-sum = Σ a_j = { $sum } (keine Maske: Jedes Quellwort ist für jedes Zielwort sichtbar).
translation-model-note = Bergamots kleines Übersetzungsmodell: 6 Encoder-Schichten mit Self-Attention (die Tabs Heatmap, Punktraster und Alle Heads zeigen sie) und 2 Decoder-Schichten, deren Zielwörter auf die Quellwörter achten (der Tab Übersetzung).
translation-empty = Wählen Sie ein Übersetzungsmodell (Übersetzen: Englisch → Portugiesisch oder Portugiesisch → Englisch), um die Cross-Attention zu sehen.
translation-layer = Schicht
translation-mean-layers = Mittel der Schichten
translation-decoder-layer = Decoder-Schicht { $layer }
translation-head = Head
translation-mean-heads = Mittel der Heads
translation-head-n = Head { $head }
translation-parts-aria = Bilder der Cross-Attention
translation-part-heatmap = Heatmap
translation-part-lines = Linien
translation-part-step = Ein Wort, Schritt für Schritt
translation-generate = ▶ Schritt für Schritt erzeugen
translation-candidate = { $token } { $percent } %
translation-generating = Schritt { $step } von { $total }: Das Modell wählte „{ $token }“ — aus { $others }. Seine Zeile unten zeigt, wohin dieses Wort in der Quelle geschaut hat.
translation-no-self-attention = Keine Self-Attention in diesem Decoder.{" "}
translation-no-self-attention-why = Dieser Decoder hat keine Self-Attention. Um klein und schnell genug für einen Browser zu sein, ersetzt jede seiner 2 Schichten die Self-Attention über die früheren Zielwörter durch eine SSRU (eine vereinfachte einfache rekurrente Einheit): eine einzige laufende Zusammenfassung der bisher erzeugten Wörter, aktualisiert durch ein Forget-Gate, statt Attention-Gewichten über jedes einzelne. Die einzige Attention im Decoder ist also die hier gezeigte Cross-Attention: Queries aus dem Ziel, Keys und Values aus der Ausgabe des Encoders für die Quelle.
translation-provenance = Woher das Modell stammt · Lizenz: { $license }

## Der Tab Bild

image-patch = Patch { $row },{ $col }
image-none = Der Tab Bild zeigt die Attention eines Vision-Modells über seinem Bild. Öffnen Sie eine Vision-Trace: eine, die attnscope.trace_image (Python) aus einem ViT-, DeiT-, DINOv2- oder CLIP-Modell geschrieben hat.
image-rollout-computing = Rollout: wird durch alle Schichten berechnet…
image-rollout-caption = Rollout nach allen { $layers } Schichten, alle Heads gemittelt: wie viel von der Eingabe jedes Patches bei { $query } ankommt, über die Attention und den Residualpfad; von 0 bis zum größten, { $top }; { $share } % kommen von den { $patches } Patches, der Rest { $specials ->
        [one] vom Spezial-Token
       *[other] von den { $specials } Spezial-Tokens
    }.
image-layer-head = Schicht { $layer } · Head { $head }
image-head-reading = { $head }: Die Gewichte des Heads werden gelesen…
image-head-caption = { $head }: wohin { $query } schaut. Jedes Patch ist nach dem Gewicht eingefärbt, das die Query ihm gibt, von 0 bis zum größten, { $top }; { $share } % ihres Gewichts gehen an die { $patches } Patches, der Rest { $specials ->
        [one] an das Spezial-Token
       *[other] an die { $specials } Spezial-Tokens
    }.
image-readout-most = Größtes Gewicht: { $patch } ({ $weight })
image-readout-under = unter dem Zeiger: { $patch }, { $weight } (Rang { $rank } von { $count })
image-queries-aria = Query-Token
image-hint = oder klicken Sie auf ein Patch (die Pfeiltasten bewegen es)
image-show = Zeigen
image-source-head = den gewählten Head
image-source-rollout = Rollout durch alle Schichten
image-tint = Färbung
image-overlay-aria = Das Bild, zerlegt in { $rows } × { $cols } Patches, eingefärbt nach der Attention von { $query }
image-heads-tile = Head { $head }
image-heads-summary = Alle Heads von Schicht { $layer } nebeneinander
image-heads-caption = Dieselbe Query in jedem Head, jeder von 0 bis zu seinem eigenen größten Gewicht eingefärbt; ein Klick wählt einen Head.
image-heads-aria = Die Heads von Schicht { $layer } nebeneinander
image-steps-aria = Query, Keys und ein Gewicht
image-step-query-label = Query:{" "}
image-step-keys-label = Keys:{" "}
image-step-weight-label = Gewicht:{" "}
image-step-query = { $query }: Sein Vektor q mit { $dims } Zahlen fragt, wonach dieses Token sucht.
image-step-query-none = { $query } (die Trace enthält keine Queries und Keys).
image-step-keys = alle { $n } Tokens, die { $patches } Patches und { $specials } spezielle: Jedes bietet einen Vektor k.
image-step-weight = Der Key mit dem größten Gewicht ist { $key }: q·k = { $score }, × { $scale } (1/√{ $dims }) = { $scaled }; die Softmax über alle { $n } Scores gibt ihm { $weight }, die Färbung seines Patches.
image-step-weight-plain = Der Key mit dem größten Gewicht ist { $key }, mit { $weight }.

# The axes of the exported cross-attention heatmap (PNG, SVG).
translation-axis-keys = Keys →
translation-axis-queries = Queries ↓
