# attnscope, Français: files

## Ouvrir son propre modèle

files-cannot-open = Impossible de l’ouvrir : { $message }
files-model-removed = Votre modèle a été retiré de ce navigateur.
files-reading = Lecture des fichiers…
files-no-worker = Le worker de calcul n’a pas pu démarrer dans ce navigateur : impossible d’ouvrir des modèles ici.
files-open-model = Ouvrir un modèle…
files-open-model-title = Un fichier .gguf, ou les config.json, tokenizer.json et model.safetensors d’un dossier Hugging Face ; lus ici, jamais envoyés
files-folder = Dossier…
files-folder-title = Un dossier Hugging Face (config.json, tokenizer.json, model.safetensors)
files-forget = Oublier
files-forget-title = Retirer votre modèle du stockage de ce navigateur
files-architecture = Architecture
files-layers = Couches
files-heads = Têtes
files-parameters = Paramètres
files-files = Fichiers
files-weights = Poids
files-memory = Mémoire requise
files-kv-heads = { $heads } sur { $kv ->
    [one] { $kv } tête clé-valeur
   *[other] { $kv } têtes clé-valeur
}
files-millions = { $millions } M
files-preflight-label = Le modèle choisi
files-cannot-load = Impossible de le charger : { $why }.
files-loading = Chargement de votre modèle…
files-load = Charger
files-close = Fermer
files-cancel = Annuler
files-your-files = vos fichiers
files-saved = enregistré

## Ouvrir un fichier de trace

files-open-trace = Ouvrir une trace…
files-open-trace-title = Un fichier de trace .safetensors écrit par le paquet Python attnscope ou par `attnscope trace --out` ; ou déposez-en un sur la page
files-trace-failed = Impossible d’ouvrir { $name } : { $why }
files-trace-info = { $model } · { $layers ->
    [one] { $layers } couche
   *[other] { $layers } couches
} × { $heads ->
    [one] { $heads } tête
   *[other] { $heads } têtes
} · { $tokens ->
    [one] { $tokens } jeton
   *[other] { $tokens } jetons
} · { $file }
files-trace-info-grouped = { $model } · { $layers ->
    [one] { $layers } couche
   *[other] { $layers } couches
} × { $heads } têtes sur { $kv ->
    [one] { $kv } tête clé-valeur
   *[other] { $kv } têtes clé-valeur
} · { $tokens ->
    [one] { $tokens } jeton
   *[other] { $tokens } jetons
} · { $file }
files-needs-queries-keys = Ce fichier de trace ne contient que les poids d’attention, sans requêtes ni clés : le Pas à pas ne peut pas suivre un jeton à travers q·k, et l’Espace Q·K n’a aucun point à placer. Écrivez-le avec les requêtes et les clés (attnscope.trace(…, queries_keys=True), ou `attnscope trace --out` sans --no-queries-keys) pour les voir. Les onglets Carte de chaleur, Grille de points, Toutes les têtes et Catalogue montrent ses poids.
files-needs-live-model = La leçon fait tourner un modèle en direct sur une phrase que vous tapez ; le texte d’un fichier de trace est figé. Choisissez un modèle sous Modèle pour la leçon, ou regardez cette trace dans les onglets Carte de chaleur, Grille de points, Toutes les têtes, Catalogue et Pas à pas.

## Un cours : la page de l’enseignant mène, celles des élèves suivent

class-hold = Faire cours…
class-none = Pas de cours ici : les cours ont lieu là où la page est servie par { $command }, lancé sur l’ordinateur de l’enseignant.
class-start = Démarrer un cours
class-name = Cours
class-followers = { $count ->
    [one] { $count } élève suit
   *[other] { $count } élèves suivent
}
class-connecting = connexion en cours…
class-connection-lost = connexion perdue, nouvelle tentative…
class-link-refused = refusé : { $reason }
class-show-code = Afficher le code du cours
class-end = Terminer le cours
class-join-label = Rejoindre le cours
class-qr-alt = Code QR du lien pour rejoindre
class-code = Code
class-close = Fermer
class-waiting = En attente de l’ouverture du cours par l’enseignant…
class-reconnecting = Reconnexion au cours…
class-refused = Le cours a refusé la connexion : { $reason }
class-following = Vous suivez l’enseignant
class-exploring = Exploration libre
class-detach = Explorer par moi-même
class-rejoin = Revenir à l’enseignant

## Questions à la classe

class-this-token = ce jeton
class-propose-token = À quel jeton « { $query } » prête-t-il le plus attention dans la couche { $layer }, tête { $head } ?
class-propose-head = Quelle tête prête le plus attention au jeton précédent ?
class-propose-choice = Qu’est-ce qui est vrai de cette tête ?
class-kind-token = Toucher un jeton
class-kind-head = Choisir une tête
class-kind-choice = Choix
class-kind-label = Type de question
class-ask-room = Interroger la classe
class-choices-placeholder = Un choix par ligne (de deux à huit)
class-ask = Demander
class-step-question = La question de cette étape
class-answered = { $count ->
    [one] { $count } réponse
   *[other] { $count } réponses
}
class-reveal-model = Révéler la réponse du modèle
class-reveal = Révéler la réponse
class-model-answer = Le modèle : « { $name } », le plus grand poids de la ligne
class-the-answer = La réponse : « { $name } »
class-end-question = Clore la question
class-question-label = Une question
class-answer-sent = Réponse envoyée : touchez-en une autre pour la changer.
class-tap-answer = Touchez votre réponse ; l’enseignant voit le décompte, pas qui a répondu.

## Les questions prêtes de la leçon, par étape

class-step1 = Les q, k et v d’un jeton sont…
class-step1-a = trois jetons différents
class-step1-b = trois projections du même x
class-step1-c = le même vecteur, trois fois
class-step2 = Quelle clé donne à « { $q } » son plus grand score q · k ?
class-step3 = Sans le ÷ √d_k, le softmax de grands scores devient…
class-step3-a = plus plat : le même poids partout
class-step3-b = inchangé
class-step3-c = plus pointu : presque tout sur une clé
class-step5 = Avec le masque causal, un jeton prête attention…
class-step5-a = à lui-même et aux jetons qui le précèdent
class-step5-b = seulement aux jetons qui le suivent
class-step5-c = à tous les jetons
class-step6 = La valeur de quel jeton contribue le plus à la sortie de « { $q } » ?
class-step7 = Quelle tête regarde le plus le jeton précédent ?
class-step8 = Quelle ligne de A sert à choisir le jeton suivant ?
class-step8-a = celle du premier jeton
class-step8-b = celle du dernier jeton
class-step8-c = toutes les lignes votent
class-step9 = Une température plus élevée rend la distribution du jeton suivant…
class-step9-a = plus pointue
class-step9-b = inchangée
class-step9-c = plus plate
class-step10 = Avec la même graine et les mêmes réglages, l’échantillonnage écrit…
class-step10-a = le même texte
class-step10-b = un texte différent à chaque fois
class-step11 = Pour chaque nouveau jeton, le cache clés-valeurs évite de recalculer…
class-step11-a = le q du nouveau jeton
class-step11-b = rien
class-step11-c = les k et v de tous les jetons précédents
class-step12 = Dans l’attention croisée de Whisper, les clés et les valeurs viennent…
class-step12-a = des mots écrits jusqu’ici
class-step12-b = des trames sonores de l’encodeur
class-step12-c = du mot suivant
class-step13 = Les instants des mots viennent…
class-step13-a = de toutes les têtes à parts égales
class-step13-b = des quelques têtes d’alignement
class-step13-c = de la dernière couche de l’encodeur
class-step-other = À quel jeton « { $q } » prête-t-il le plus attention ?
