# attnscope, German: writing

## Whether the model shown writes
write-not-encoder = Schreiben gibt es für Decoder: Dieses Modell ist ein Encoder, der den ganzen Text in beide Richtungen liest und kein nächstes Token zu wählen hat.
write-not-trace = Eine Trace-Datei enthält anderswo berechnete Attention, ohne die Gewichte des Modells: Hier kann nichts ein nächstes Token wählen.
write-not-translator = Ein Übersetzungsmodell schreibt seine Übersetzung, zu sehen im Tab „Übersetzung“; Schreiben gibt es hier für Decoder.
write-at-most = Eine Generierung schreibt höchstens { $tokens ->
        [one] { $tokens } Token
       *[other] { $tokens } Tokens
    }.
write-context-full = Der Text füllt den Kontext des Modells: Für ein weiteres Token ist kein Platz.
write-stopped = Gestoppt.
write-end-of-text = { $model } hat { $token } geschrieben, das einen Text beendet: Das Schreiben endet hier.

## The card
write-heading = Schreiben
write-go = Schreiben
write-step = Schritt
write-pause = Pause
write-resume = Weiter
write-stop = Stopp
write-settings = Einstellungen
write-count = Tokens
write-choose = Auswahl
write-greedy = greedy
write-sample = Sampling
write-top-k = top-k
write-top-p = top-p
write-seed = Seed
write-hint-sample = Zieht aus den Balken unten, bei der Temperatur oben (0 schaltet top-k ab, 1 schaltet top-p ab); derselbe Seed wiederholt dieselben Ziehungen.
write-hint-greedy = Greedy: jedes Mal das wahrscheinlichste Token.

## The step's distribution
write-cut-line = Schnitt: der Rest fällt weg
write-chosen-mark = ◀ gewählt
write-kept = { $tokens ->
        [one] { $tokens } Token behalten
       *[other] { $tokens } Tokens behalten
    }, { $share } der Wahrscheinlichkeit, renormiert
write-chosen = Schritt { $step }: { $token } gewählt, { $p } nach Temperatur, { $kept } renormiert
write-chosen-drawn = Schritt { $step }: { $token } gewählt, { $p } nach Temperatur, { $kept } renormiert (Ziehung { $draw })
write-chosen-drawn-unseen = Schritt { $step }: { $token } gewählt, { $p } nach Temperatur, { $kept } renormiert (Ziehung { $draw }; nicht unter den zehn gezeigten)
write-cache-title = Key-Value-Cache
write-cache-computed = Token { $token } berechnete eine neue Zeile von Q { $query ->
        [one] im einzigen Query-Head
       *[other] in jedem der { $query } Query-Heads
    } und eine neue Zeile von K und V { $kv ->
        [one] im einzigen Key-Value-Head
       *[other] in jedem der { $kv } Key-Value-Heads
    }, { $layers ->
        [one] in der einzigen Schicht
       *[other] in jeder der { $layers } Schichten
    }. Wiederverwendet: { $earlier ->
        [one] die frühere Zeile von K und V
       *[other] die { $earlier } früheren Zeilen von K und V
    } jedes Key-Value-Heads in jeder Schicht, { $millions } Millionen Zahlen; { $saved } % der Projektionen gespart gegenüber der Neuberechnung aller { $token } Zeilen.
write-cache-grouped = {" "}Gruppierte Queries: Jeder K/V-Head wird von { $query ->
        [one] { $query } Query-Head
       *[other] { $query } Query-Heads
    } geteilt.

## The timeline
write-timeline = Zeitleiste
write-timeline-step = Schritt { $step } von { $steps }: bevor Token { $step } gewählt wurde
write-timeline-now = jetzt: { $tokens ->
        [one] { $tokens } Token geschrieben
       *[other] { $tokens } Tokens geschrieben
    }

## The Q·K space
space-heading = Queries und Keys in einem Raum
space-translate = Keys verschieben
space-values = Auch Values
space-colour-by = Farbe nach
space-colour-token = Token
space-colour-position = Position
space-translated-note = Keys verschoben um c = mean(Q) − mean(K): Jeder Score in der Zeile einer Query erhält dasselbe q·c, das Softmax ignoriert, also bleibt A unverändert; liegen beide Wolken um ein Zentrum, sagt die Nähe im Bild mehr.
space-plain-note = Keys, wie das Modell sie berechnet: q·k ist groß, wo eine Query und ein Key vom Ursprung aus in dieselbe Richtung zeigen, und der kann weit von beiden Wolken entfernt liegen.
space-one-token = Ein Token: Eine Query und ein Key lassen sich nicht sinnvoll projizieren. Geben Sie einen Text mit zwei oder mehr Tokens ein.
space-key-title = Key { $position }: { $token }
space-query-title = Query { $position }: { $token } (zum Auswählen klicken)
space-value-title = Value { $position }: { $token }
space-output-title = Ausgabe der Query { $position }: { $token }
space-value-line-title = { $query } nimmt { $weight } vom Value von „{ $key }“
space-caption = ● Queries, ■ Keys von Schicht { $layer }, Head { $head }. Die zwei Achsen erfassen { $share } % der Streuung der Punkte; der Rest liegt außerhalb des Bildes. Klicken Sie auf einen Kreis oder oben auf ein Token, um die Query zu wählen.
space-caption-grouped = ● Queries, ■ Keys von Schicht { $layer }, Head { $head } (Keys von Key-Value-Head { $kv }). Die zwei Achsen erfassen { $share } % der Streuung der Punkte; der Rest liegt außerhalb des Bildes. Klicken Sie auf einen Kreis oder oben auf ein Token, um die Query zu wählen.
space-plot-label = Queries (Kreise) und Keys (Quadrate) des Heads auf ihren zwei Hauptachsen
space-axis-1 = Achse 1: { $share } % der Streuung
space-axis-2 = Achse 2: { $share } %
space-token-name = „{ $token }“ ({ $position })
space-readout-query = Query
space-readout-weightiest = Höchstes Gewicht
space-readout-angle = Nächster im Winkel (alle Dimensionen)
space-readout-plane = Nächster im Bild
space-angle-same = derselbe Key: Er zeigt am ehesten in die Richtung der Query.
space-angle-other = { $key }, A = { $weight }: Ein längerer Key kann trotz größeren Winkels gewinnen, denn A folgt q·k = ‖q‖‖k‖cos θ.
space-plane-same = derselbe Key: Hier sagt das Bild die Wahrheit.
space-plane-other = { $key }, A = { $weight }: Hier täuscht das Bild, denn eine Ebene erfasst nur einen Teil der Streuung; die Zahlen sind exakt.
space-no-values = Dieser Lauf hat keine Value-Vektoren für den Head (eine Trace-Datei ohne sie), oder sie fallen alle in einen Punkt.
space-values-caption = ▲ Values von Key-Value-Head { $kv } auf ihren eigenen zwei Achsen (sie erfassen { $share } % der Streuung der Values); ◆ die Ausgabe der gewählten Query, o = Σ_j a_j v_j. Eine Zeile von A summiert sich zu 1, also ist die Ausgabe der gewichtete Mittelwert der Values: Sie liegt zwischen den Values, die ihre Query gewichtet, im Bild wie in jeder Dimension.
space-values-plot-label = Die Values des Heads (Dreiecke) auf ihren eigenen zwei Hauptachsen und die Ausgabe der gewählten Query (Raute)
space-corpus = Über das Korpus
space-corpus-note = Alle Queries und Keys dieses Heads über einige hundert eingebaute Sätze (Geschichten, Fragen, Listen, Zahlen, etwas Code), auf den zwei Hauptachsen des Korpus; die Queries und Keys Ihres Satzes liegen auf denselben Achsen, obenauf. Der Worker berechnet das Korpus einmal pro Modell; danach wechseln Sie den Head sofort.
space-corpus-progress = Das Korpus läuft durch das Modell: { $done } von { $total } Sätzen
space-corpus-caption = Schicht { $layer }, Head { $head } über das Korpus: die Queries grün, die Keys rosa ({ $points } Punkte aus { $sentences } Sätzen); die ● Queries und ■ Keys Ihres Satzes obenauf. Die zwei Achsen erfassen { $share } % der Streuung des Korpus.
space-corpus-plot-label = Queries und Keys des Heads über das Korpus, die Ihres Satzes obenauf
space-visitor-query-title = Query { $position }: { $token }
space-grid = Alle Heads
space-grid-note = Alle Heads über das Korpus, eine Zeile pro Schicht, jeder auf seinen eigenen zwei Achsen (je etwa 30 Queries und 30 Keys des Korpus). Klicken Sie auf einen, um ihn zu wählen.
space-grid-tile = Schicht { $layer }, Head { $head }
space-tsne = t-SNE
space-tsne-note = t-SNE platziert die Punkte so, dass jeder seine nächsten Nachbarn behält (exakt, über alle Paare, mit festem Seed): Gruppen bedeuten etwas, Abstände zwischen Gruppen und Richtungen nicht, und es gibt keine Achsen. Nützlich, wenn die Punkte zahlreich sind und die zwei Hauptachsen sie zusammendrängen.
space-tsne-caption = ● Queries, ■ Keys von Schicht { $layer }, Head { $head }, platziert von t-SNE: nahe Punkte sind Nachbarn in allen Dimensionen; Abstände und Richtungen zwischen Gruppen bedeuten nichts. Klicken Sie auf einen Kreis oder oben auf ein Token, um die Query zu wählen.
