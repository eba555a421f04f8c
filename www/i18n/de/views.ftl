# attnscope, German: views

## Die Anzeige einer Zelle

common-readout-empty = Zeigen Sie auf eine Zelle oder tippen Sie sie an, um ihr Gewicht und ihren rohen Score zu lesen.
common-readout-weight-only = „{ $query }“ → „{ $key }“: Gewicht { $weight }
common-readout-visible = „{ $query }“ → „{ $key }“: Gewicht { $weight } · roher Score q·k { $score } · skaliert { $scaled }
common-readout-visible-what-if = „{ $query }“ → „{ $key }“ (Was-wäre-wenn-Maske): Gewicht { $weight } · roher Score q·k { $score } · skaliert { $scaled }
common-readout-hidden = „{ $query }“ → „{ $key }“: verdeckt von der { $mask ->
        [causal] kausalen Maske
       *[other] Maske des gleitenden Fensters
    } (Score −∞, Gewicht 0) · roher Score q·k { $score }
common-readout-hidden-what-if = „{ $query }“ → „{ $key }“ (Was-wäre-wenn-Maske): verdeckt von der { $mask ->
        [causal] kausalen Maske
       *[other] Maske des gleitenden Fensters
    } (Score −∞, Gewicht 0) · roher Score q·k { $score }
common-mask-none = keine
common-mask-causal = kausal
common-mask-window = gleitendes Fenster

## Die vier Schritte

stage-play = ▶ Abspielen
stage-stop = ■ Stopp
stage-play-label = Die vier Schritte abspielen
stage-stop-label = Stopp
stage-play-title = QKᵀ → ×1/√d_k → +M → Softmax abspielen
stage-picker-label = Schritt der Berechnung
stage-title-scores = Schritt 1: die rohen Scores S = QKᵀ, ein Skalarprodukt je Query und Key
stage-title-scaled = Schritt 2: die Scores, skaliert mit 1/√d_k
stage-title-masked = Schritt 3: die Maske M addiert: −∞, wo ein Key verdeckt ist
stage-title-weights = Schritt 4: die Softmax jeder Zeile, die Attention-Gewichte A

## Die Heatmap

head-heatmap-label = Attention des gewählten Heads, Queries × Keys; die Gewichtstabelle enthält dieselben Zahlen. Die Pfeiltasten bewegen die beschriebene Zelle, Enter wählt ihre Query; Plus und Minus zoomen in einen langen Text
head-caption-weights-rows = Zeile i: wie Query-Token i seine Attention auf die Keys (Spalten) verteilt. Heller heißt mehr; jede Zeile ergibt in Summe 1.
head-caption-weights-rows-masked = Zeile i: wie Query-Token i seine Attention auf die Keys (Spalten) verteilt. Heller heißt mehr; jede Zeile ergibt in Summe 1. Grau: Keys, die die Maske verdeckt (Gewicht 0).
head-caption-weights-columns = Spalte j: wie Query-Token j seine Attention auf die Keys (Zeilen) verteilt. Heller heißt mehr; jede Spalte ergibt in Summe 1.
head-caption-weights-columns-masked = Spalte j: wie Query-Token j seine Attention auf die Keys (Zeilen) verteilt. Heller heißt mehr; jede Spalte ergibt in Summe 1. Grau: Keys, die die Maske verdeckt (Gewicht 0).
head-caption-masked = Scores nach der Maske: Graue Zellen sind −∞, Keys, die die Query nicht sehen darf. Rot ist positiv, Blau negativ.
head-caption-scores-rows = Zeile i: der Score von Query-Token i mit jedem Key, q·k. Rot ist positiv, Blau negativ.
head-caption-scores-columns = Spalte j: der Score von Query-Token j mit jedem Key, q·k. Rot ist positiv, Blau negativ.
head-compare-summary = Mit einem anderen Satz vergleichen (gleicher Head)
head-compare-text-label = Ein anderer Satz
head-compare-placeholder = z. B. dieselben Wörter in anderer Reihenfolge
head-compare-label = Attention-Gewichte desselben Heads im anderen Satz
head-compare-caption = { $what } ({ $tokens ->
        [one] { $tokens } Token
       *[other] { $tokens } Tokens
    }), Schicht { $layer }, Head { $head }
head-compare-close = Gepatchten Lauf schließen

## Die Punktraster

grid-caption-unmasked = Ohne Maske: Jedes Wort sieht jedes Wort. So arbeitet { $model }.
grid-caption-unmasked-what-if = Ohne Maske (Was-wäre-wenn): { $model } ist kausal; dieses Raster ist aus denselben Q und K ohne die Maske berechnet.
grid-caption-causal = Kausal: Ein Wort sieht nur sich selbst und frühere Wörter. So arbeitet { $model }.
grid-caption-causal-what-if = Kausal (Was-wäre-wenn): { $model } sieht in beide Richtungen; dieses Raster wendet eine kausale Maske auf dieselben Q und K an.
grid-caption-window = Gleitendes Fenster: Ein Wort sieht nur sich selbst und { $before ->
        [one] das Wort davor
       *[other] die { $before } Wörter davor
    }.
grid-hint-norms = Raster mit der Maske des Modells: Kreisfläche ∝ ‖a·f(x)‖, jede Zeile relativ zu ihrem größten Wert.
grid-hint-weights = Kreisfläche ∝ Attention-Gewicht (0 bis 1).
grid-hint-masked = Kreisfläche ∝ |Score| (relativ zum größten rohen Score); Rot positiv, Blau negativ; × markiert −∞, einen verdeckten Key.
grid-hint-scores = Kreisfläche ∝ |Score| (relativ zum größten rohen Score): Die Skalierung verkleinert alle. Rot positiv, Blau negativ.
grid-norms-caption = Das Value-gewichtete ‖a·f(x)‖ ersetzt den letzten Schritt, die Gewichte, und nur im Raster mit der eigenen Maske des Modells: Die Scores kommen vor jedem Value-Vektor, und eine Was-wäre-wenn-Maske hat keine eigenen Normen.
grid-small-caption = Bei dieser Länge wäre ein Punkt ein oder zwei Pixel groß: Jede Zelle ist stattdessen nach der Größe ihres Punkts schattiert. Vergrößern (+, Strg + Mausrad oder Zwei-Finger-Geste), um die Punkte zu sehen.

## Schritt für Schritt

explain-vector-preview = { $vector } ({ $count } Zahlen)
explain-vector-show-all = { $label }: alle { $count } Zahlen zeigen
explain-scale-unscaled = 1/√d_k weggelassen: Die rohen Scores gehen direkt in die Softmax (das Modell nutzt 1/√{ $d_k } = { $model })
explain-scale-unscaled-temperature = 1/√d_k weggelassen, × { $factor } für die Temperatur (das Modell nutzt 1/√{ $d_k } = { $model })
explain-scale-temperature = = { $factor } × 1/√{ $d_k }: Die Lektion zur Temperatur ist aktiv (der eigene Faktor des Modells ist 1/√{ $d_k } = { $model })
explain-scale-model = = 1/√{ $d_k }, die eigene Skalierung des Modells (d_k = { $d_k })
explain-scale-own = der eigene Faktor des Modells (1/√{ $d_k } wäre { $model })
explain-projection-minilm = (+ ein Bias b_Q; x ist E nach der LayerNorm der vorigen Schicht)
explain-projection-smollm2 = (x ist E nach der RMSNorm; q und k werden dann je nach Position gedreht, RoPE)
explain-projection-custom = (x ist E nach der Normalisierung der Schicht, wie Ihr Modell sie definiert)
explain-projection-trace = (q und k, wie die Trace-Datei sie speichert; x, v und ΔE sind nicht darin)
explain-projection-translate = (+ ein Bias b_Q; der Encoder des Übersetzungsmodells, x nach der LayerNorm der vorigen Schicht)
explain-projection-whisper = (+ ein Bias b_Q; x ist E nach der LayerNorm der Schicht)
explain-query-token = Query-Token
explain-choose-query = Query-Token wählen
explain-key-of = k von { $token }
explain-value-of = v von { $token }
explain-weighted-value-of = gewichteter Value von { $token }
explain-head-note = Schicht { $layer }, Head { $head } (Keys und Values aus Key/Value-Head { $kv_head }) · d_k = { $d_k } · Skala = { $scale } · Maske: { $mask }
explain-step-x = Der Vektor von „{ $token }“ beim Eintritt in die Schicht
explain-formula-x = x = E[{ $index }]   ({ $count } Zahlen)
explain-step-q = Seine Query
explain-formula-q = q = x · W_Q   ({ $from } → { $to } Zahlen){ $note }
explain-step-scores = Mit jedem Key vergleichen, skalieren, Maske und Softmax anwenden, die Values gewichten
explain-formula-mask = s″_j = s′_j + M_ij   (M ist 0, wo der Key sichtbar ist, −∞, wo die { $mask ->
        [none] Maske (keine)
        [causal] kausale Maske
       *[other] Maske des gleitenden Fensters
    } ihn verdeckt)
explain-formula-v = v_j = x_j · W_V     jeder Value wird mit seinem Gewicht multipliziert: a_j · v_j
explain-table-caption = Query „{ $token }“ gegen jeden Key
explain-col-key = Key j
explain-col-scaled = s_j × Skala
explain-step-z = Die gewichteten Values addieren: die Ausgabe des Heads
explain-formula-z = z = Σ_j a_j · v_j   ({ $count } Zahlen)
explain-step-delta = Alle Heads zusammen: das Update ΔE
explain-formula-delta = ΔE[{ $index }] = [z_1 | … | z_H] · W_O   (das z jedes Heads, aneinandergehängt und zurück auf { $count } Zahlen projiziert)
explain-step-residual = Der Residual-Stream nach der Attention
explain-formula-residual = E[{ $index }] + ΔE[{ $index }]   (der Vektor des Tokens, verschoben um das, was er gesammelt hat)
explain-label-residual = E plus Delta E
explain-computing = wird berechnet…
explain-empty = Geben Sie einen Text ein, um ein Token durch die Formel zu verfolgen.
explain-lines-label = Linien von jedem Query-Token (links) zu den Keys (rechts), so kräftig wie das Gewicht; die Linien der gewählten Query heben sich ab. Die Tabelle unten enthält dieselben Zahlen.
explain-lines-caption = Links die Queries, rechts die Keys. Eine Linie ist so deckend wie ihr Gewicht; klicken Sie links auf ein Wort, um ihm zu folgen.
explain-row-note = Zeile von „{ $token }“ in diesem Head: größtes Gewicht { $top }, Entropie { $entropy } Bit (eine gleichmäßige Zeile hätte { $uniform }).
explain-row-label = Attention-Gewichte von { $token }
explain-scaling-legend = Skalierung und Temperatur
explain-scaling-note = Sind die Einträge von q und k unabhängig mit Mittelwert 0 und Varianz 1, hat q·k die Varianz d_k: Breite Heads liefern große Scores, und die Exponentialfunktion der Softmax macht aus großen Abständen ein Alles-oder-nichts (mit winzigen Gradienten). Die Division durch √d_k bringt die Varianz zurück auf 1. Multiplizieren Sie die Scores unten und sehen Sie, wie die Zeilen schärfer (Faktor > 1, eine kältere Softmax) oder flacher werden (Faktor < 1, eine heißere).
explain-model-setting = ★ Das ist die echte Einstellung des Modells: Faktor 1, skaliert mit 1/√d_k.
explain-not-model-setting = Nicht die Einstellung des Modells: Es nutzt Faktor 1, skaliert mit 1/√d_k. Spätere Schichten werden nicht neu berechnet; jeder Head zeigt, worauf er achten würde.
explain-multiply = Skalierte Scores multiplizieren mit
explain-times = mal { $factor }
explain-mark-model = ×1 (das Modell)
explain-reset = Zurück zur Einstellung des Modells
explain-unscaled = 1/√d_k weglassen (die rohen Scores q·k direkt in die Softmax)
explain-position-legend = Wortreihenfolge
explain-positional = Positionskodierung (Lehrmodell)
explain-position-note = Attention vergleicht Vektoren, nicht Plätze: Ohne Positionscode vertauscht ein Mischen der Wörter nur die Zeilen und Spalten von A auf dieselbe Weise, und der „Vorgängerwort“-Head kann nicht erkennen, welches Wort davor kam.
explain-next-temperature = Temperatur der Softmax für das nächste Token
explain-next-temperature-note = (Logits ÷ T: unter 1 schärfer, über 1 flacher; 1 ist der Wert des Modells)

## Alle Heads

overview-label = Jede Schicht und jeder Head; die Pfeiltasten verschieben die Auswahl
overview-knock-cell = Schicht { $layer }, Head { $head }
overview-knock-cell-out = Schicht { $layer }, Head { $head }: ausgeschaltet
overview-knock-title-out = L{ $layer } · H{ $head } (ausgeschaltet)
overview-knock-count = { $count ->
        [0] Kein Head gewählt
        [one] { $count } Head gewählt
       *[other] { $count } Heads gewählt
    }
overview-knock-tools = Head-Knockout
overview-knock-mode = Heads ausschalten
overview-knock-how = „Heads ausschalten“ einschalten und Kacheln anklicken
overview-knock-run = Knockout starten
overview-knock-clear = Leeren
overview-caption-knockout = Knockout-Modus: Klicken Sie auf Kacheln, um die zu entfernenden Heads zu wählen (durchgestrichen), dann auf „Knockout starten“; schalten Sie den Modus aus, um wieder Heads zu öffnen.
overview-caption = Jede Kachel ist die Attention eines Heads (Zeilen sind Queries) auf diesem Text. Klicken Sie auf eine Kachel oder nutzen Sie die Pfeiltasten, um diesen Head in jeder Ansicht zu öffnen.
overview-scale-caption = Bei einem so langen Text ist jede Zelle einer Kachel das mittlere Gewicht eines Blocks von Tokens, gemessen an der hellsten Zelle der Kachel, damit ihr Muster sichtbar wird; die Heatmap zeigt jedes Gewicht.
overview-norms-caption = Value-gewichtet: Jede Kachel zeigt ‖a·f(x)‖, jede Zeile relativ zu ihrem größten Wert; die genauen Werte stehen in der Anzeige der Heatmap und in den Exporten.

## Das durchgerechnete Beispiel 3×4

worked-cell-label = { $matrix }, Zeile { $row }, Spalte { $column }
worked-seed-heading = Der Seed: ÷ √{ $width } (Eingabebreite)
worked-note = Drei Eingaben der Breite 4, Projektionen auf Breite 3 — das durchgerechnete Beispiel aus Seed 003. Ändern Sie eine beliebige Zahl; alles darunter wird mit derselben Formel neu berechnet, die die Modelle verwenden.
worked-reset = Zurück zu den Zahlen des Seeds
