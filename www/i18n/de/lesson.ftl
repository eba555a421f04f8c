# attnscope, German: lesson

## Titel der Schritte

lesson-step-tokens = Token
lesson-step-qkv = q, k und v: drei Projektionen von x
lesson-step-scores = Scores: q · k
lesson-step-scale = Warum durch √d_k teilen
lesson-step-softmax = Softmax: aus Scores werden Gewichte
lesson-step-mask = Die kausale Maske und −∞
lesson-step-sum = Die gewichtete Summe, und E + ΔE
lesson-step-heads = Viele Heads, und Heads, die sich Keys teilen
lesson-step-last-row = Wie ein Modell schreibt: Die letzte Zeile wählt
lesson-step-next = Die Verteilung des nächsten Tokens und ihre Temperatur
lesson-step-sampling = Sampling und der Seed
lesson-step-cache = Der Key-Value-Cache
lesson-step-cross = Cross-Attention: Ein Wort hört dem Klang zu
lesson-step-timing = Wo jedes Wort gesprochen wurde

## Die Karte

lesson-count = Schritt { $step } von { $steps }
lesson-dot = Schritt { $step }: { $title }
lesson-steps = Schritte der Lektion
lesson-back = ← Zurück
lesson-next = Weiter →
lesson-try = Probieren Sie:{" "}
lesson-computing = Wird berechnet…
lesson-type-sentence = Geben Sie einen Satz ein: Die Lektion arbeitet damit.

## Gemeinsame Bausteine

lesson-quoted = „{ $word }“
lesson-percent = { $p } %
lesson-preview = {"["}{ $numbers }] ({ $count } Zahlen)

## Schritt 1: Token

lesson-says-tokens = { $model } liest Ihren Satz als { $tokens } Token. Jedes Token bekommt in jedem Bild der Attention eine Zeile und eine Spalte: Hier verfolgen wir die Query von „{ $query }“.
lesson-label-tokens = Token
lesson-label-query = Query-Token
lesson-label-ids = Token-IDs
lesson-try-tokens = Tippen Sie ein eigenes Wort in das Textfeld: Dafür erscheinen eine Zeile und eine Spalte.

## Schritt 2: q, k und v

lesson-says-qkv = „{ $query }“ kommt als Vektor x mit { $width } Zahlen in die Schicht. Drei gelernte Matrizen projizieren ihn auf eine Query q, einen Key k und einen Value v mit je { $dk } Zahlen: q fragt, k antwortet, v ist das, was weitergegeben wird.
lesson-label-x = x von „{ $query }“
lesson-try-qkv = Wählen Sie ein anderes Token (in der Token-Liste oder als Zeile eines beliebigen Bildes), um seine Vektoren zu sehen.
lesson-strip-x = x „{ $token }“
lesson-vectors-label = Der Vektor x von „{ $token }“ und seine Projektionen q, k und v als Streifen farbiger Zellen
lesson-vectors-caption = Eine Zelle pro Zahl: rot positiv, blau negativ, jeder Streifen relativ zu seinem eigenen größten Wert. q, k und v sind kürzer als x: Der Head rechnet in d_k Dimensionen.

## Schritt 3: Scores

lesson-says-scores = Die Query von „{ $query }“ wird über ein Skalarprodukt mit jedem Key verglichen, s_j = q · k_j: Je größer der Score, desto besser passt der Key zu dem, was die Query sucht.
lesson-try-scores = Zeigen Sie auf eine Zelle oder tippen Sie sie an, um ihren Score zu lesen. Rot ist positiv, Blau negativ.

## Schritt 4: Teilen durch √d_k

lesson-says-scale = Hätten die Einträge von q und k die Varianz 1, so hätte q · k die Varianz d_k = { $dk }; die Multiplikation mit 1/√d_k bringt sie wieder in die Nähe von 1, damit die Softmax nicht sättigt. In dieser Zeile geht die Varianz der Scores von { $raw } auf { $scaled }.
lesson-label-scale = Skalierung
lesson-label-var-raw = Varianz von q · k_j
lesson-label-var-scaled = nach der Skalierung
lesson-try-scale = Drücken Sie Abspielen und sehen Sie die Scores schrumpfen, oder lassen Sie 1/√d_k weg: Die Gewichte werden zu Alles-oder-nichts.

## Schritt 5: Softmax

lesson-says-softmax = Die Softmax macht aus jeder Zeile von Scores Gewichte, exp(s_j) / Σ exp(s_m): alle positiv, mit Summe 1. „{ $query }“ gibt sein größtes Gewicht, { $weight }, an „{ $key }“.
lesson-label-top = größtes
lesson-value-top = { $weight } → „{ $key }“
lesson-try-softmax = Ziehen Sie den Regler: Ein Faktor über 1 macht die Softmax schärfer, unter 1 flacher.

## Schritt 6: Die kausale Maske

lesson-says-mask-causal = { $model } ist kausal: Die Maske addiert −∞ zum Score jedes späteren Tokens, und exp(−∞) = 0, also schaut kein Token in die Zukunft. „{ $query }“ sieht { $seen } der { $tokens } Token.
lesson-says-mask-window = { $model } ist kausal mit gleitendem Fenster: Die Maske addiert −∞ zum Score jedes späteren Tokens und jedes Tokens, das mehr als { $back } { $back ->
        [one] Position
       *[other] Positionen
    } zurückliegt, und exp(−∞) = 0. „{ $query }“ sieht { $seen } der { $tokens } Token.
lesson-says-mask-none = { $model } liest in beide Richtungen (keine Maske). Ein Decoder addiert −∞ zum Score jedes späteren Tokens, und exp(−∞) = 0: Das kausale Raster zeigt, worauf { $model } mit dieser Maske achten würde.
lesson-label-mask = Maske des Modells
lesson-mask-none = keine
lesson-mask-causal = kausal
lesson-mask-window = gleitendes Fenster
lesson-label-hidden = Keys, die eine kausale Maske vor „{ $query }“ verbirgt
lesson-try-mask = Drücken Sie Abspielen: Die Kreuze (−∞) werden zu Gewichten von genau 0.

## Schritt 7: Die gewichtete Summe

lesson-says-sum = Die Ausgabe des Heads für „{ $query }“ ist die gewichtete Summe z = Σ a_j v_j. Die Ausgaben aller Heads, aneinandergehängt und mit W_O projiziert, ergeben die Änderung ΔE, die zum Vektor des Tokens addiert wird: E + ΔE.
lesson-try-sum = Klicken Sie links auf ein Wort, um einer anderen Query zu folgen.

## Schritt 8: Viele Heads

lesson-says-heads-shared = { $model } hat { $layers ->
        [one] { $layers } Schicht
       *[other] { $layers } Schichten
    } mit je { $heads ->
        [one] { $heads } Head
       *[other] { $heads } Heads
    }, jeder mit eigenem Muster. Seine Query-Heads teilen sich { $kv ->
        [one] { $kv } Key-Value-Head
       *[other] { $kv } Key-Value-Heads
    } (Grouped-Query-Attention): Die Heads unter einer Klammer verwenden dieselben k und v.
lesson-says-heads-own = { $model } hat { $layers ->
        [one] { $layers } Schicht
       *[other] { $layers } Schichten
    } mit je { $heads ->
        [one] { $heads } Head
       *[other] { $heads } Heads
    }, jeder mit eigenem Muster und eigenen Keys und Values. SmolLM2 teilt jeden Key-Value-Head auf drei Query-Heads auf (Grouped-Query-Attention).
lesson-label-heads = Schichten × Heads
lesson-label-kv = Key-Value-Heads
lesson-label-group = Heads mit den Keys von Head { $head }
lesson-sharing-none = keine (eigene Keys)
lesson-try-heads = Klicken Sie auf eine Kachel, um diesen Head in allen Ansichten zu öffnen; vergleichen Sie bei SmolLM2 die Heads unter einer Klammer.

## Kapitel: Wie ein Modell schreibt

lesson-says-no-writer = { $model } liest den ganzen Text auf einmal und hat kein nächstes Token zu wählen. Dieses Kapitel braucht ein Modell, das schreibt: einen Decoder wie SmolLM2.
lesson-use-smollm2 = SmolLM2 nehmen, das schreibt
lesson-no-distribution = Die Verteilung erscheint mit einem Modell, das schreibt.
lesson-label-top-next = wahrscheinlichstes nächstes
lesson-value-token = „{ $token }“ { $p }

lesson-says-last-row = { $model } schreibt ein Token nach dem anderen. Unter der kausalen Maske sieht Zeile i von A nur die Token 0 … i, also könnte jede Zeile das Token nach ihr vorhersagen; beim Schreiben zählt nur die letzte Zeile. Nach der letzten Schicht wird der Vektor von „{ $last }“ zu den Logits des nächsten Tokens: Sein bester Tipp ist „{ $top }“ mit { $p }.
lesson-label-last = die Zeile, die wählt
lesson-label-visible = Keys, die sie sieht
lesson-try-last-row = Tippen Sie am Ende ein Wort: Eine neue letzte Zeile erscheint, und die Liste der nächsten Token ändert sich.

lesson-says-next = Eine Softmax macht aus den Logits z Wahrscheinlichkeiten, p_i = exp(z_i / T) / Σ exp(z_j / T). T = 1 ergibt die eigene Verteilung des Modells. Ein kleineres T schärft sie: Das wahrscheinlichste Token gewinnt immer öfter, und der Text beginnt sich zu wiederholen. Ein größeres T macht sie flacher: Seltene Token tauchen auf, und der Text schweift ab. Bei T = { $t } bekommt „{ $top }“ { $p }.
lesson-label-listed = die fünf gelisteten zusammen
lesson-try-next = Ziehen Sie die Temperatur: Die Balken werden unter 1 schärfer und über 1 flacher.

lesson-says-drawn = Schritt { $step } hat u = { $u } gezogen. Er behielt { $kept } Token, { $mass } der Wahrscheinlichkeit, skalierte sie auf Summe 1 hoch und nahm „{ $token }“: das Token, dessen Abschnitt der laufenden Summe u enthält. Sein Anteil war { $share }. Der Seed legt jedes u fest, daher schreibt derselbe Link denselben Text.
lesson-says-greedy = Schritt { $step } nahm „{ $token }“ ({ $p }) ohne Ziehung: Greedy-Decoding nimmt immer das wahrscheinlichste Token. Wählen Sie in der Karte Schreiben „Sampling“, um stattdessen zu ziehen.
lesson-says-sampling = Greedy-Decoding nimmt immer das wahrscheinlichste Token. Sampling zieht eine Zahl u zwischen 0 und 1 und nimmt das Token, dessen Abschnitt der laufenden Summe der Wahrscheinlichkeiten sie enthält. Top-k behält nur die k wahrscheinlichsten Token, Top-p die wenigsten, deren Wahrscheinlichkeiten zusammen p erreichen, und was bleibt, wird auf Summe 1 hochskaliert. Der Seed legt jede Ziehung fest, daher schreibt derselbe Link denselben Text.
lesson-label-chosen = gewählt
lesson-draw-none = keine (greedy)
lesson-label-kept = behalten
lesson-value-kept = { $kept } Token, { $mass }
lesson-try-sampling = Wählen Sie in der Karte Schreiben „Sampling“, setzen Sie einen Seed und drücken Sie Schritt: Die Balken zeigen den Schnitt und das gezogene Token.

lesson-says-cache = Die Query des nächsten Tokens braucht Key und Value jedes früheren Tokens in jeder Schicht. Unter der kausalen Maske ändern die sich nie, also behält das Modell sie: Token { $next } zu schreiben berechnet in jeder der { $layers } Schichten eine neue Zeile von Q, K und V ({ $computed } Zahlen) und verwendet die { $n } zuvor berechneten Zeilen von K und V wieder ({ $reused } Zahlen).{ $shared }
lesson-says-cache-shared = {" "}Seine { $heads } Query-Heads teilen sich { $kv } Key-Value-Heads, daher hält der Cache pro Schicht { $kv } Sätze von Keys und Values, nicht { $heads }.
lesson-label-cache-new = für das nächste Token berechnet
lesson-label-cache-reused = aus dem Cache wiederverwendet
lesson-label-cache-saved = Zeilen von K und V nicht neu berechnet
lesson-try-cache = Drücken Sie Schreiben und sehen Sie, wie die Heatmap um eine Zeile pro Token wächst, jede Zeile nur einmal berechnet.

## Kapitel: Hören

lesson-no-clip = Dieses Kapitel hört zu. Spielen Sie eines der Beispiele unter dem Bild ab (oder nehmen Sie einen eigenen Satz auf): Whisper tiny.en schreibt, was es hört, in Ihrem Browser, und die Lektion geht mit seinen Zahlen weiter.
lesson-says-cross = Whisper hat „{ $text }“ gehört und als { $tokens } Token geschrieben. Die Query jedes Tokens wird mit Keys aus einer anderen Folge verglichen: den 1500 Klang-Frames des Encoders (je 20 ms; der Clip füllt { $frames } davon, Stille den Rest). Dieselbe Formel, softmax(q Kᵀ/√d_k), ohne Maske: Jedes Token darf überall hinhören. Hier ({ $which }) legt die Query von „{ $query }“ ihr größtes Gewicht, { $weight }, auf { $from }–{ $to } s.
lesson-which-head = Decoder-Schicht { $layer }, Head { $head }
lesson-which-mean = Mittel der Alignment-Heads
lesson-label-listen-tokens = geschriebene Token
lesson-label-listen-frames = Klang-Frames (Keys)
lesson-value-frames = { $frames } vom Clip, 1500 insgesamt
lesson-label-listen-peak = größtes Gewicht von „{ $query }“
lesson-value-peak = { $weight } bei { $time } s
lesson-label-listen-clip = Anteil auf dem Clip
lesson-try-cross = Tippen Sie unter dem Spektrogramm auf den Abschnitt eines anderen Wortes: Sein erstes Token wird die Query, und der Abschnitt wird abgespielt.

lesson-says-timing = Die meisten Heads folgen nicht der Zeit, einige aber schon: Der Checkpoint nennt { $count } Alignment-Heads (Schicht.Head { $heads }). Ihr Mittel schreitet Zeile für Zeile durch den Klang, während die Wörter voranschreiten; Dynamic Time Warping entlang dieses Mittels gibt jedem Wort Anfang und Ende.{ $span }
lesson-says-timing-span = {" "}„{ $word }“ wurde von { $start } s bis { $end } s gesprochen.
lesson-label-listen-heads = Alignment-Heads
lesson-label-listen-words = zeitlich verortete Wörter
lesson-try-timing = Wählen Sie einen einzelnen Head statt des Mittels der Alignment-Heads: Die meisten Heads hören über den ganzen Clip verteilt hin.
