# attnscope, Deutsch: files

## Ein eigenes Modell öffnen

files-cannot-open = Das lässt sich nicht öffnen: { $message }
files-model-removed = Ihr Modell wurde aus diesem Browser entfernt.
files-reading = Dateien werden gelesen…
files-no-worker = Der Rechen-Worker konnte in diesem Browser nicht starten, daher lassen sich hier keine Modelle öffnen.
files-open-model = Modell öffnen…
files-open-model-title = Eine .gguf-Datei oder config.json, tokenizer.json und model.safetensors eines Hugging-Face-Ordners; hier gelesen, nie hochgeladen
files-folder = Ordner…
files-folder-title = Ein Hugging-Face-Ordner (config.json, tokenizer.json, model.safetensors)
files-forget = Vergessen
files-forget-title = Ihr Modell aus dem Speicher dieses Browsers entfernen
files-architecture = Architektur
files-layers = Schichten
files-heads = Heads
files-parameters = Parameter
files-files = Dateien
files-weights = Gewichte
files-memory = Benötigter Speicher
files-kv-heads = { $heads } über { $kv } Key-Value-Heads
files-millions = { $millions } Mio.
files-preflight-label = Das gewählte Modell
files-cannot-load = Es lässt sich nicht laden: { $why }.
files-loading = Ihr Modell wird geladen…
files-load = Laden
files-close = Schließen
files-cancel = Abbrechen
files-your-files = Ihre Dateien
files-saved = gespeichert

## Eine Trace-Datei öffnen

files-open-trace = Trace öffnen…
files-open-trace-title = Eine .safetensors-Trace-Datei, geschrieben vom Python-Paket attnscope oder von `attnscope trace --out`; oder ziehen Sie eine auf die Seite
files-trace-failed = { $name } ließ sich nicht öffnen: { $why }
files-trace-info = { $model } · { $layers ->
    [one] { $layers } Schicht
   *[other] { $layers } Schichten
} × { $heads ->
    [one] { $heads } Head
   *[other] { $heads } Heads
} · { $tokens } Token · { $file }
files-trace-info-grouped = { $model } · { $layers ->
    [one] { $layers } Schicht
   *[other] { $layers } Schichten
} × { $heads } Heads über { $kv } Key-Value-Heads · { $tokens } Token · { $file }
files-needs-queries-keys = Diese Trace-Datei enthält nur die Attention-Gewichte, keine Queries und Keys: Schritt für Schritt kann einem Token daher nicht durch q·k folgen, und der Q·K-Raum hat keine Punkte zu setzen. Schreiben Sie sie mit Queries und Keys (attnscope.trace(…, queries_keys=True) oder `attnscope trace --out` ohne --no-queries-keys), um sie zu sehen. Die Tabs Heatmap, Punktraster, Alle Heads und Katalog zeigen ihre Gewichte.
files-needs-live-model = Die Lektion rechnet ein laufendes Modell auf einem Satz, den Sie eingeben; der Text einer Trace-Datei steht fest. Wählen Sie für die Lektion ein Modell unter Modell, oder sehen Sie sich diese Trace in den Tabs Heatmap, Punktraster, Alle Heads, Katalog und Schritt für Schritt an.

## Ein Kurs: die Seite der Lehrkraft führt, die der Lernenden folgen

class-hold = Kurs halten…
class-none = Hier gibt es keinen Kurs: Kurse finden statt, wo { $command } die Seite bereitstellt, gestartet auf dem Laptop der Lehrkraft.
class-start = Kurs starten
class-name = Kurs
class-followers = { $count ->
    [one] { $count } Person folgt
   *[other] { $count } Personen folgen
}
class-connecting = Verbindungsaufbau…
class-connection-lost = Verbindung verloren, neuer Versuch…
class-link-refused = abgelehnt: { $reason }
class-show-code = Beitrittscode zeigen
class-end = Kurs beenden
class-join-label = Dem Kurs beitreten
class-qr-alt = QR-Code des Beitrittslinks
class-code = Code
class-close = Schließen
class-waiting = Warten, bis die Lehrkraft den Kurs öffnet…
class-reconnecting = Verbindung zum Kurs wird wiederhergestellt…
class-refused = Der Kurs hat abgelehnt: { $reason }
class-following = Folgt der Lehrkraft
class-exploring = Eigene Erkundung
class-detach = Selbst erkunden
class-rejoin = Zurück zur Lehrkraft

## Fragen an die Klasse

class-this-token = dieses Token
class-propose-token = Auf welches Token achtet „{ $query }“ in Schicht { $layer }, Head { $head } am meisten?
class-propose-head = Welcher Head achtet am meisten auf das vorige Token?
class-propose-choice = Was trifft auf diesen Head zu?
class-kind-token = Token tippen
class-kind-head = Head wählen
class-kind-choice = Auswahl
class-kind-label = Art der Frage
class-ask-room = Klasse fragen
class-choices-placeholder = Eine Antwort pro Zeile (zwei bis acht)
class-ask = Fragen
class-step-question = Frage zu diesem Schritt
class-answered = { $count ->
    [one] { $count } Antwort
   *[other] { $count } Antworten
}
class-reveal-model = Antwort des Modells zeigen
class-reveal = Antwort zeigen
class-model-answer = Das Modell: „{ $name }“, das größte Gewicht der Zeile
class-the-answer = Die Antwort: „{ $name }“
class-end-question = Frage beenden
class-question-label = Eine Frage
class-answer-sent = Antwort gesendet: eine andere antippen, um sie zu ändern.
class-tap-answer = Antwort antippen; die Lehrkraft sieht nur die Anzahl, nicht wer.

## Die vorbereiteten Fragen der Lektion, nach Schritt

class-step1 = q, k und v eines Tokens sind…
class-step1-a = drei verschiedene Token
class-step1-b = drei Projektionen desselben x
class-step1-c = dreimal derselbe Vektor
class-step2 = Welcher Key gibt „{ $q }“ seinen größten Score q · k?
class-step3 = Ohne ÷ √d_k wird der Softmax großer Scores…
class-step3-a = flacher: überall dasselbe Gewicht
class-step3-b = unverändert
class-step3-c = schärfer: fast alles auf einem Key
class-step5 = Mit der kausalen Maske achtet ein Token auf…
class-step5-a = sich selbst und die Token davor
class-step5-b = nur die Token danach
class-step5-c = jedes Token
class-step6 = Wessen Value trägt am meisten zur Ausgabe von „{ $q }“ bei?
class-step7 = Welcher Head schaut am meisten auf das vorige Token?
class-step8 = Welche Zeile von A wählt das nächste Token?
class-step8-a = die des ersten Tokens
class-step8-b = die des letzten Tokens
class-step8-c = alle Zeilen stimmen ab
class-step9 = Eine höhere Temperatur macht die Verteilung des nächsten Tokens…
class-step9-a = schärfer
class-step9-b = unverändert
class-step9-c = flacher
class-step10 = Mit demselben Seed und denselben Einstellungen schreibt das Sampling…
class-step10-a = denselben Text
class-step10-b = jedes Mal einen anderen Text
class-step11 = Für jedes neue Token erspart der Key-Value-Cache das erneute Berechnen von…
class-step11-a = q des neuen Tokens
class-step11-b = nichts
class-step11-c = k und v aller früheren Token
class-step12 = In Whispers Cross-Attention kommen Keys und Values aus…
class-step12-a = den bisher geschriebenen Wörtern
class-step12-b = den Audio-Frames des Encoders
class-step12-c = dem nächsten Wort
class-step13 = Die Zeiten der Wörter kommen aus…
class-step13-a = allen Heads gleichermaßen
class-step13-b = den wenigen Alignment-Heads
class-step13-c = der letzten Schicht des Encoders
class-step-other = Auf welches Token achtet „{ $q }“ am meisten?
