# attnscope, German: analyses

## Shared by the analyses

beyond-map-hint = Zeigen Sie auf eine Zelle oder tippen Sie sie an, um ihren genauen Wert zu lesen.
beyond-layer = Schicht
beyond-not-computed = Noch nicht berechnet.
beyond-cancelled = Abgebrochen.
beyond-cancel = Abbrechen

## Value-weighted attention

beyond-vw-switch = Was die Karte zeigt
beyond-vw-weights-button = Gewichte
beyond-vw-norms-button = Value-gewichtet
beyond-norm-colour = Farbe: jede Zeile relativ zu ihrem eigenen größten ‖a·f(x)‖.
beyond-vw-title-norms = Schicht { $layer } · Head { $head }: Value-gewichtet ‖a·f(x)‖
beyond-vw-title-weights = Schicht { $layer } · Head { $head }: Gewichte A
beyond-vw-map-label = Der gewählte Head, Queries nach unten und Keys nach rechts, jede Zeile relativ zu ihrem größten Wert gefärbt
beyond-vw-caption = Jede Zeile ist relativ zu ihrem eigenen größten Wert gefärbt; die Anzeige gibt die genaue Zahl. Wählen Sie den Head im Seitenbereich oder unter „Alle Heads“.

## Definitions

beyond-value-weighted-definition = Value-gewichtete Attention (Kobayashi et al. 2020): ‖a_ij · f(x_j)‖ mit f(x_j) = (x_j W_V^h + b_V^h) W_O^h, W_O^h der Anteil des Heads an der Ausgabematrix (der Bias von W_O hängt nicht vom Token ab und bleibt weg)
beyond-rollout-definition = Attention-Rollout (Abnar & Zuidema 2020): Ā_l = ½·mean_h A_l + ½·I, Zeilen neu normiert; R_l = Ā_l · R_(l−1), R_1 = Ā_1 (gemittelt über die Query-Heads, Grouped-Query-Modelle eingeschlossen)
beyond-lens-definition = Logit Lens (Decoder): softmax(final_norm(h_l) · W_outᵀ), h_l der Residualstrom nach Schicht l, an einer Position gelesen; das Raster zeigt für jede Position das wahrscheinlichste Token pro Schicht
beyond-knockout-definition = Head-Knockout: die Ausgabe Z_h des Heads (vor W_O) auf 0 gesetzt oder auf ihren Mittelwert über die Positionen des Textes, dann das Modell erneut ausgeführt; Wirkung: die Liste der nächsten Tokens vorher/nachher (Decoder) oder der Kosinus der Satz-Embeddings vorher/nachher (Encoder)
beyond-importance-definition = Wichtigkeitskarte: jeder Head einzeln ausgeschaltet; Decoder: Rückgang der Wahrscheinlichkeit des wahrscheinlichsten nächsten Tokens, Encoder: 1 − Kosinus der Satz-Embeddings vorher/nachher
beyond-patch-definition = Activation Patching: eine Aktivierung des sauberen Laufs in den verfälschten Lauf kopiert und der Rest erneut ausgeführt; Wirkung = (d − d_corrupt) / (d_clean − d_corrupt), d = logit(richtig) − logit(falsch) an der letzten Position (0: nichts wiederhergestellt, 1: die saubere Antwort wiederhergestellt)
beyond-qk-definition = die Queries und Keys eines Heads (nach RoPE, wo das Modell sie dreht, vor der Skalierung mit 1/√d_k) gemeinsam auf ihre zwei Hauptachsen gelegt (PCA); die Key-Verschiebung verschiebt jeden Key um c = mean(Q) − mean(K), was zu jedem Score der Zeile i q_i·c addiert und A daher unverändert lässt; die Values auf ihren eigenen zwei Achsen, wobei jede Ausgabe o_i = Σ_j a_ij v_j der gewichtete Mittelwert der Punkte der Values ist

## Rollout

beyond-rollout-title = Rollout
beyond-rollout-layers = Nach den Schichten 1 … { $shown } von { $layers }
beyond-rollout-slider = Rollout nach so vielen Schichten
beyond-rollout-grouped = Grouped-Query-Modell: gemittelt wird über alle Query-Heads.
beyond-rollout-map-label = Rollout: wie viel von der Eingabe jedes Tokens (Spalten) jede Position (Zeilen) erreicht

## Logit lens

beyond-lens-title = Logit Lens
beyond-lens-at = Bei „{ $token }“ (Position { $position }): was das Modell vorhersagen würde, wenn es nach jeder Schicht aufhörte.
beyond-lens-after-layer = Nach Schicht
beyond-lens-top-token = Top-Token
beyond-lens-next-four = Die nächsten vier
beyond-lens-every-position = Jede Position (Raster Schichten × Positionen)
beyond-lens-decoders-only = Die Logit Lens liest die Ausgabematrix eines Decoders: Wählen Sie SmolLM2.

## Head knockout and the importance map

beyond-knockout-title = Head-Knockout
beyond-ablation-switch = Wie ein Head entfernt wird
beyond-ablation-zero-long = Seine Ausgabe auf null setzen
beyond-ablation-zero = Null
beyond-ablation-mean-long = Ihr Mittelwert über die Positionen
beyond-ablation-mean = Mittel
beyond-knockout-grid = Heads: zum Ausschalten drücken
beyond-knockout-head-change = L{ $layer } · H{ $head }: Änderung { $change }
beyond-knockout-head = Schicht { $layer } Head { $head }
beyond-knockout-zeroed = { $count ->
        [one] Head { $heads } auf null gesetzt.
       *[other] Heads { $heads } auf null gesetzt.
    }
beyond-knockout-meaned = { $count ->
        [one] Head { $heads } durch seinen Mittelwert ersetzt.
       *[other] Heads { $heads } durch ihren Mittelwert ersetzt.
    }
beyond-knockout-top = Das Top-Token vorher, { $token } (p = { $before }), hat jetzt p = { $after } und Rang { $rank }.
beyond-knockout-drop = Rückgang der Wahrscheinlichkeit des Top-Tokens (das Maß der Wichtigkeitskarte): { $drop }
beyond-knockout-before = Nächstes Token vorher
beyond-knockout-after = Nachher
beyond-knockout-cosine = Kosinus der Satz-Embeddings vorher und nachher: { $cosine }
beyond-knockout-one-minus-cosine = 1 − Kosinus (das Maß der Wichtigkeitskarte): { $change }
beyond-knockout-none-moved = Die Attention keiner späteren Schicht hat sich geändert.
beyond-knockout-moved = Spätere Heads, deren Attention sich am stärksten geändert hat (Mittel von |ΔA|): { $heads }
beyond-knockout-every-head = Alle Heads sind entfernt: Übrig bleiben die Embeddings, die MLPs und der Residualpfad.
beyond-knockout-none-chosen = Kein Head gewählt: { $how }, um sie auszuschalten.
beyond-knockout-how = Drücken Sie einen oder mehrere Heads im Raster
beyond-knockout-run = Ausschalten und neu rechnen
beyond-knockout-clear = Leeren
beyond-knockout-all = Alle Heads wählen
beyond-importance-title = Wichtigkeitskarte
beyond-importance-running = Head { $done } von { $total } wird ausgeschaltet…
beyond-importance-done = Fertig: { $heads } Heads; Farbe = { $measure }. Am hellsten ist die größte Änderung.
beyond-importance-measure-drop = Rückgang der Wahrscheinlichkeit des wahrscheinlichsten nächsten Tokens
beyond-importance-measure-cosine = 1 − Kosinus der Satz-Embeddings
beyond-importance-run = Jeden Head einzeln ausschalten
beyond-importance-progress = Bisher ausgeschaltete Heads
beyond-importance-caption = Die Karte färbt das Raster der Heads oben (mit dem Null/Mittel-Schalter des Knockouts); fahren Sie über einen Head, um seine Zahl zu sehen.

## Activation patching

beyond-patch-title = Activation Patching
beyond-patch-stale = Der Text hat sich geändert, seit diese Karten berechnet wurden: Drücken Sie erneut „Patchen“, um ihre Zellen zu öffnen.
beyond-patch-decoders-only = Patching vergleicht die Logits des nächsten Tokens, die ein Encoder wie MiniLM nicht liefert: Wählen Sie SmolLM2 oder einen aus Dateien geöffneten Decoder.
beyond-patch-clean-note = Der saubere Prompt ist der Text oben. Ändern Sie im verfälschten Prompt ein Wort davon (gleich viele Tokens, oder wählen Sie Auffüllen oder Kürzen).
beyond-patch-preset = Beispiel
beyond-patch-choose = Wählen…
beyond-patch-preset-indirect = Indirektes Objekt
beyond-patch-preset-factual = Faktenabruf
beyond-patch-preset-repeated = Wiederholte Folge
beyond-patch-preset-indirect-note = Der zweite Name entscheidet die Antwort. In der Residualkarte tragen ihn die frühen Schichten an der Position dieses Namens; in den mittleren Schichten wandert er zur letzten Position: Die Heads, die ihn verschieben, leuchten in der Head-Karte auf.
beyond-patch-preset-factual-note = Die Tokens des Wahrzeichens entscheiden die Stadt. Die Residualkarte zeigt, wie die Tatsache in den frühen und mittleren Schichten am letzten Token des Wahrzeichens gelesen und dann zur letzten Position getragen wird.
beyond-patch-preset-repeated-note = Die Antwort wird vom ersten Auftreten des Namens kopiert (Induktion). Die Heads, die sie kopieren, die Induktions-Heads, leuchten in der Head-Karte auf (letzte Position).
beyond-patch-corrupt = Verfälschter Prompt
beyond-patch-right = Richtige Antwort
beyond-patch-wrong = Falsche Antwort
beyond-patch-what = Patchen
beyond-patch-what-residual = den Residualstrom (Schicht × Position)
beyond-patch-what-heads = jeden Head, alle Positionen (Schicht × Head)
beyond-patch-what-heads-last = jeden Head, letzte Position (Schicht × Head)
beyond-patch-what-blocks = Attention- und Feed-Forward-Blöcke (Schicht × Position)
beyond-patch-fit = Bei ungleicher Länge
beyond-patch-fit-exact = sagen, wo, und anhalten
beyond-patch-fit-pad = den kürzeren auffüllen (Leerzeichen)
beyond-patch-fit-trim = den längeren kürzen
beyond-patch-run = Patchen
beyond-patch-progress = Bisheriger Fortschritt des Patchings
beyond-patch-running = Patching: Schritt { $done } von { $total }…
beyond-patch-done = Fertig. Die Prompts unterscheiden sich an Position { $at }. d = logit({ $right }) − logit({ $wrong }): { $clean } beim sauberen Prompt, { $corrupt } beim verfälschten.{ $notes } Tippen Sie auf eine Zelle, dann auf „Öffnen“, um ihren gepatchten Lauf neben dem sauberen in der Heatmap zu sehen.
beyond-patch-note = Hinweis: { $note }.
beyond-patch-site-residual = Residualstrom
beyond-patch-site-heads = Ausgaben der Heads
beyond-patch-site-attention = Attention-Block
beyond-patch-site-feed-forward = Feed-Forward-Block
beyond-patch-map-title-heads = { $site }: Schicht × Head
beyond-patch-map-title-positions = { $site }: Schicht × Position
beyond-patch-column-head = Head { $head }
beyond-patch-column-position = Position { $position } „{ $token }“
beyond-patch-readout = Schicht { $layer }, { $column }: Wirkung { $effect } (d = { $d })
beyond-patch-readout-hint = Zeigen Sie auf eine Zelle oder tippen Sie sie an, um ihre Wirkung und d zu sehen.
beyond-patch-open-what = Diese Karte ist der gepatchte Lauf: in Schicht { $layer } bei { $column } die Aktivierung „{ $site }“ aus dem sauberen Lauf (der anderen Karte) in den verfälschten kopiert; Wirkung { $effect } (d = { $d })
beyond-patch-open = Schicht { $layer }, { $column } in der Heatmap öffnen
beyond-patch-open-hint = Tippen Sie auf eine Zelle, um ihren Lauf zu öffnen
beyond-patch-caption = Rot: Der Patch stellt die saubere Antwort wieder her (1: vollständig); weiß: nichts (0); blau: Er entfernt das Ergebnis noch weiter davon.

## The head catalog: its table and maps

catalog-column-head = Schicht · Head
catalog-column-entropy = Entropie (Bit)
catalog-column-distance = Mittlere Distanz (Tokens)
catalog-column-previous = Vorheriges Token
catalog-column-first = Erstes Token (Sink)
catalog-column-self = Selbst
catalog-column-head-title = Wo der Head sitzt
catalog-column-entropy-title = Mittlere Entropie einer Zeile: 0, wenn jede Query auf einen einzigen Key schaut, log2(n), wenn sie sich gleichmäßig verteilt
catalog-column-distance-title = Mittleres |i − j|, gewichtet mit A: wie weit der Head schaut
catalog-column-previous-title = Mittleres Gewicht auf dem Token direkt vor der Query
catalog-column-first-title = Mittleres Gewicht auf dem ersten Token, dem „Attention-Sink“
catalog-column-self-title = Mittleres Gewicht auf dem eigenen Token der Query
catalog-select-head = Schicht { $layer }, Head { $head } auswählen
catalog-table-caption = Jeder Head, gemessen an seinen Attention-Gewichten auf diesem Text. Sortieren Sie nach einer Spalte; wählen Sie eine Zeile, um diesen Head auszuwählen.
catalog-map-label = { $measure } jedes Heads, Schichten nach unten und Heads nach rechts; die Tabelle unten listet dieselben Zahlen
catalog-map-readout = L{ $layer } · H{ $head }: Entropie { $entropy } Bit · Distanz { $distance } · vorheriges { $previous } · erstes { $first } · selbst { $itself }
catalog-maps-caption = Jede Karte: Schichten nach unten, Heads nach rechts, gefärbt vom kleinsten Wert (dunkel) bis zum größten (gelb); die drei Gewichte auf einer Skala, 0 bis 1. Klicken Sie auf einen Head, um ihn zu öffnen.

## Find heads

catalog-find-title = Heads finden
catalog-find-query = Query-Wort
catalog-find-key = achtet auf
catalog-find-run = Heads ordnen
catalog-find-ranked = Heads geordnet danach, wie stark „{ $query }“ auf „{ $key }“ achtet:

## Head detectors

catalog-detectors-title = Head-Detektoren
catalog-detector-induction = Induktion
catalog-detector-duplicate = doppeltes Token
catalog-detector-previous = vorheriges Token
catalog-detector-first = erstes Token
catalog-detector-induction-definition = Induktion (Olsson et al. 2022): Mittel über die zweite Kopie von A[p+T+t, p+t+1], das Gewicht auf dem Token nach dem früheren Vorkommen
catalog-detector-duplicate-definition = doppeltes Token: Mittel über die zweite Kopie von A[p+T+t, p+t], das Gewicht auf dem früheren Vorkommen desselben Tokens
catalog-detector-previous-definition = vorheriges Token: Mittel über i ≥ 1 von A[i, i−1]
catalog-detector-first-definition = erstes Token: Mittel über i von A[i, 0]
catalog-detector-cell = Schicht { $layer } Head { $head }: { $score }
catalog-detector-prompt = { $tokens ->
        [one] Prompt ({ $tokens } Token): { $prompt }
       *[other] Prompt ({ $tokens } Tokens): { $prompt }
    }
catalog-detector-repeats = Was der Prompt wiederholt
catalog-detector-random = Zufällige Tokens
catalog-detector-mine = Mein Text
catalog-detector-text = Text, zweimal wiederholt
catalog-detector-placeholder = z. B. Mr and Mrs Dursley of number four
catalog-detector-period = Zufällige Tokens pro Kopie
catalog-detector-seed = Seed
catalog-detector-run = Detektoren starten

## Heads that resemble each other

catalog-similar-title = Heads, die einander ähneln
catalog-similar-definition = d(g, h) = Mittel über die Queries i von √JS(A_g[i,:], A_h[i,:]), die Jensen-Shannon-Divergenz in Bit (0 ≤ d ≤ 1); die Heads durch klassische multidimensionale Skalierung von d angeordnet und durch Average Linkage gruppiert
catalog-similar-too-long = Jedes Paar von Heads Zeile für Zeile zu vergleichen geht nur bei Texten bis { $most } Tokens; dieser hat { $tokens }. Kürzen Sie ihn, um die Heads abzubilden.
catalog-similar-running = Jedes Paar von Heads wird verglichen: { $done } von { $total } Paaren
catalog-similar-stop = Stopp
catalog-similar-start = Heads vergleichen
catalog-similar-start-after = auf diesem Text (jedes Paar von Heads, Zeile für Zeile).
catalog-similar-groups = Gruppen
catalog-similar-map-label = Alle Heads auf einer Karte: Heads, die ähnlich gewichten, liegen nahe beieinander
catalog-similar-dot = { $head }: Gruppe { $group } (zum Öffnen klicken)
catalog-similar-caption = Jeder Punkt ist einer der { $heads } Heads, so platziert, dass Heads, die die { $tokens } Tokens dieses Textes ähnlich gewichten, nahe beieinander liegen; die Farben sind Gruppen ähnlicher Heads. Klicken Sie auf einen Punkt, um diesen Head in allen Ansichten zu öffnen.
catalog-similar-not-on-map = Der gewählte Head ist nicht auf dieser Karte.
catalog-similar-like = Heads ähnlich wie { $head }:
catalog-similar-same-group = gleiche Gruppe
