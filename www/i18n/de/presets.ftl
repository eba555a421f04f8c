# attnscope, German: presets

preset-picker-label = Beispiel
preset-choose = Satz wählen…
preset-english-group = Englische Sätze

preset-pair = „{ $query }“ → „{ $key }“ am stärksten in Schicht { $layer }, Head { $head }: Gewicht { $weight }
preset-measure = Stärkster Wert „{ $measure }“: Schicht { $layer }, Head { $head } ({ $value })
preset-induction = Stärkste Induktion: Schicht { $layer }, Head { $head } (mittleres Gewicht { $value })
preset-switch = Am besten mit { $model } ({ $size } MB Download) — wechseln
preset-multilingual = MiniLM und SmolLM2 wurden mit englischen Texten trainiert: Für diesen Satz besser ein mehrsprachiges Modell wie Qwen2.5 oder Gemma 3 aus Dateien öffnen.

# Englische Sätze: Die zitierten Wörter bleiben englisch.
preset-fluffy-label = Das flauschige blaue Wesen
preset-fluffy-note = Substantive sammeln ihre Adjektive: Folgen Sie „creature“ und sehen Sie, auf welche Wörter es achtet.
preset-animal-label = Wer ist „it“? (das Tier)
preset-animal-note = Worauf achtet „it“? Ändern Sie „tired“ in „wide“ und schauen Sie noch einmal.
preset-trophy-label = Wer ist „it“? (der Pokal)
preset-trophy-note = Dieselbe Frage mit einem Dreh: Ändern Sie „big“ in „small“ — wandert „it“ zu „suitcase“?
preset-capital-label = Die Hauptstadt von Frankreich ist …
preset-capital-note = Ein Decoder rät das nächste Token: SmolLM2 nennt „ Paris“ zuerst. Welche Heads bringen „France“ zum letzten Token?
preset-repeat-label = Eine Zufallsfolge, wiederholt
preset-repeat-note = Vorgänger-Token-Heads erhellen die Linie direkt unter der Diagonale; Induktions-Heads lassen jedes Wort der zweiten Kopie auf das Wort schauen, das beim ersten Mal darauf folgte.
preset-sink-label = Der Erst-Token-Sink
preset-sink-note = Heads ohne Aufgabe parken ihr Gewicht auf dem ersten Token, dem „Attention-Sink“: Achten Sie auf eine helle erste Spalte.

preset-pt-criatura-label = Portugiesisch: das blaue, flauschige Wesen
preset-pt-criatura-note = Im Portugiesischen folgen die Adjektive dem Substantiv: Folgen Sie „criatura“ und sehen Sie, auf welche Wörter es achtet. In der englischen Übersetzung stehen sie davor: Sehen Sie sich die Cross-Attention an.
preset-pt-cachorro-label = Portugiesisch: Wer ist „ele“? (der Hund)
preset-pt-cachorro-note = Achtet „ele“ auf „cachorro“? Ändern Sie „ele estava muito cansado“ in „ela era estreita demais“: Das weibliche Pronomen gehört jetzt zu „rua“.
preset-pt-gatos-label = Portugiesisch: schwarze Katzen (Übersetzung)
preset-pt-gatos-note = Aus „gatos pretos“ wird „black cats“: In der Cross-Attention schauen die englischen Wörter in umgekehrter Reihenfolge auf die portugiesischen. Auf welche Wörter achtet „gatos“?
preset-pt-capital-label = Portugiesisch: Die Hauptstadt von Portugal ist …
preset-pt-capital-note = Ein Decoder rät das nächste Token: Ist „ Lisboa“ unter den Tipps von SmolLM2? Welche Heads bringen „Portugal“ zum letzten Token?
preset-pt-sequencia-label = Portugiesisch: eine Zufallsfolge, wiederholt
preset-pt-sequencia-note = Wörter ohne Sinn, die auch ein auf Englisch trainiertes Modell kopiert: Vorgänger-Token-Heads erhellen die Linie unter der Diagonale; Induktions-Heads lassen jedes Wort der zweiten Kopie auf das Wort schauen, das beim ersten Mal darauf folgte.

preset-es-criatura-label = Spanisch: das blaue, flauschige Wesen
preset-es-criatura-note = Im Spanischen folgen die Adjektive dem Substantiv: Ein Encoder lässt „criatura“ nach vorn auf sie schauen, die kausale Maske eines Decoders würde sie verbergen. Auf welche Wörter achtet „criatura“?
preset-es-perro-label = Spanisch: Wer war müde? (der Hund)
preset-es-perro-note = Das Spanische lässt das Pronomen weg: Worauf achtet „cansado“? Ändern Sie es in „ancha“: Die weibliche Endung gehört jetzt zu „calle“.
preset-es-capital-label = Spanisch: Die Hauptstadt von Spanien ist …
preset-es-capital-note = Ein Decoder rät das nächste Token: Ist „ Madrid“ unter den Tipps von SmolLM2? Welche Heads bringen „España“ zum letzten Token?
preset-es-secuencia-label = Spanisch: eine Zufallsfolge, wiederholt
preset-es-secuencia-note = Wörter ohne Sinn, die auch ein auf Englisch trainiertes Modell kopiert: Vorgänger-Token-Heads erhellen die Linie unter der Diagonale; Induktions-Heads lassen jedes Wort der zweiten Kopie auf das Wort schauen, das beim ersten Mal darauf folgte.
preset-es-sumidero-label = Spanisch: der Erst-Token-Sink
preset-es-sumidero-note = In jeder Sprache parken Heads ohne Aufgabe ihr Gewicht auf dem ersten Token, dem „Attention-Sink“: Achten Sie auf eine helle erste Spalte.

preset-fr-creature-label = Französisch: das blaue, flauschige Wesen
preset-fr-creature-note = Im Französischen folgen die Adjektive dem Substantiv: Ein Encoder lässt „créature“ nach vorn auf sie schauen, die kausale Maske eines Decoders würde sie verbergen. Auf welche Wörter achtet „créature“?
preset-fr-jane-label = Französisch: Jane besucht Afrika
preset-fr-jane-note = Das Beispiel aus dem Kurs: Die Darstellung von „l'Afrique“ entsteht aus den Wörtern um es herum. Achtet „Afrique“ auf „visite“, auf „septembre“?
preset-fr-chat-label = Französisch: Wer ist „il“? (die Katze)
preset-fr-chat-note = Achtet „il“ auf „chat“? Ändern Sie „qu'il était trop fatigué“ in „qu'elle était trop large“: Das weibliche Pronomen gehört jetzt zu „rue“.
preset-fr-capitale-label = Französisch: Die Hauptstadt von Frankreich ist …
preset-fr-capitale-note = Ein Decoder rät das nächste Token: Ist „ Paris“ unter den Tipps von SmolLM2? Welche Heads bringen „France“ zum letzten Token?
preset-fr-sequence-label = Französisch: eine Zufallsfolge, wiederholt
preset-fr-sequence-note = Wörter ohne Sinn, die auch ein auf Englisch trainiertes Modell kopiert: Vorgänger-Token-Heads erhellen die Linie unter der Diagonale; Induktions-Heads lassen jedes Wort der zweiten Kopie auf das Wort schauen, das beim ersten Mal darauf folgte.

preset-de-wesen-label = Das flauschige blaue Wesen
preset-de-wesen-note = Wie im Englischen stehen die Adjektive vor dem Substantiv, und ihre Endungen richten sich nach ihm: Folgen Sie „Wesen“ und sehen Sie, auf welche Wörter es achtet.
preset-de-vogel-label = Wer ist „er“? (der Vogel)
preset-de-vogel-note = „er“ ist maskulin wie „Vogel“, „Katze“ dagegen feminin: Achtet „er“ auf „Vogel“? Ändern Sie „er zu schnell“ in „sie zu langsam“ und schauen Sie noch einmal.
preset-de-pokal-label = Wer ist „er“? (der Pokal)
preset-de-pokal-note = Hier hilft das Genus nicht: „Pokal“ und „Koffer“ sind beide maskulin. Ändern Sie „groß“ in „klein“ — wandert „er“ zu „Koffer“?
preset-de-hauptstadt-label = Die Hauptstadt von Deutschland ist …
preset-de-hauptstadt-note = Ein Decoder rät das nächste Token: Ist „ Berlin“ unter den Tipps von SmolLM2? Welche Heads bringen „Deutschland“ zum letzten Token?
preset-de-folge-label = Eine Zufallsfolge, wiederholt
preset-de-folge-note = Wörter ohne Sinn, die auch ein auf Englisch trainiertes Modell kopiert: Vorgänger-Token-Heads erhellen die Linie unter der Diagonale; Induktions-Heads lassen jedes Wort der zweiten Kopie auf das Wort schauen, das beim ersten Mal darauf folgte.

preset-zh-shengwu-label = Chinesisch: das flauschige blaue Wesen
preset-zh-shengwu-note = Wie im Englischen stehen die Adjektive vor dem Substantiv, verbunden durch „的“: Folgen Sie „生物“ und sehen Sie, auf welche Wörter es achtet.
preset-zh-xiaomao-label = Chinesisch: Wer ist „它“? (das Kätzchen)
preset-zh-xiaomao-note = Achtet „它“ auf „小猫“? Ändern Sie „太累了“ in „太宽了“ und schauen Sie noch einmal.
preset-zh-shoudu-label = Chinesisch: Die Hauptstadt von China ist …
preset-zh-shoudu-note = Ein Decoder rät das nächste Token: Ist „北京“ unter seinen Tipps? Welche Heads bringen „中国“ zum letzten Token?
preset-zh-xulie-label = Chinesisch: eine Zufallsfolge, wiederholt
preset-zh-xulie-note = Wörter ohne Sinn, die auch ein auf Englisch trainiertes Modell kopiert, Byte für Byte: Vorgänger-Token-Heads erhellen die Linie unter der Diagonale; Induktions-Heads lassen jedes Token der zweiten Kopie auf das Token schauen, das beim ersten Mal darauf folgte.
