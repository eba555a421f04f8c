# attnscope, French: page

page-open-full = Ouvrir dans attnscope ↗
page-run-progress = Calcul de { $tokens } jetons : couche { $done } sur { $blocks } terminée
page-language = Langue
page-language-failed = La page n'a pas pu passer en { $language } : { $reason }

## The control bar: the brand's line, settings, the model, the text box, the layer and head

page-tagline = A = softmax(QKᵀ/√d_k + M), en direct
page-settings = Réglages
page-dark = Sombre
page-dark-title = Thème sombre, figures comprises
page-present = Présentation
page-present-title = Texte et figures en grand, pour un projecteur
page-columns = Requêtes en colonnes
page-columns-title = Dessiner chaque requête comme une colonne, comme dans les vidéos de 3Blue1Brown
page-model = Modèle
page-model-saved = enregistré
page-model-teaching-option = Modèle pédagogique (intégré)
page-model-minilm-option = MiniLM · encodeur · { $size }
page-model-smollm2-option = SmolLM2-135M · décodeur · { $size }
page-model-trace-option = Fichier de trace (ouvert)
page-exact = Poids f32 exacts ({ $size })
page-exact-title = Désactivé : les poids arrondis en f16, deux fois moins à télécharger ; chaque poids d'attention reste à moins de 2e-3 de celui du modèle en f32. Activé : le fichier f32 tel que publié, les nombres qu'affiche la CLI.
page-download = Téléchargement
page-downloading = Téléchargement de { $model } : { $loaded } sur { $total }
page-reading = Lecture de { $model } : { $loaded } sur { $total }
page-retry = Réessayer
page-use-teaching = Utiliser le modèle pédagogique
page-text = Texte
page-text-hosted-trace = Le texte d'une trace est fixe : ses jetons sont au-dessus de la figure
page-text-trace = Le texte d'un fichier de trace est fixe : choisissez un modèle pour écrire
page-text-placeholder = Tapez une phrase…
page-layer = Couche
page-head = Tête
page-head-title = Tête de requête (et la tête de clé/valeur qu'elle partage, là où les têtes les partagent)

## Models' names (real models keep their published names)

page-model-teaching = Modèle pédagogique
page-model-custom = Votre modèle
page-model-trace = Le fichier de trace
page-model-en-pt = Traduction : anglais → portugais
page-model-pt-en = Traduction : portugais → anglais
page-model-whisper = Whisper tiny.en (parole)
page-load-failed = Impossible de charger { $model } : { $message }
page-other-sentence = L'autre phrase

## The tabs of views above the picture

page-views = Vues
page-view-overview = Toutes les têtes
page-view-head = Carte de chaleur
page-view-grid = Grille de points
page-view-explain = Pas à pas
page-view-space = Espace Q·K
page-view-catalog = Catalogue
page-view-worked = Exemple 3×4
page-view-lesson = Leçon
page-view-beyond = Au-delà des poids
page-view-translate = Traduction
page-view-speech = Parole
page-view-image = Image
page-view-space-first = Espace
page-view-space-rest = {" "}Q·K
page-view-beyond-first = Au-delà
page-view-beyond-rest = {" "}des poids
page-view-worked-first = Exemple
page-view-worked-rest = {" "}3×4

## The side panel: status, notes on the model, next tokens, exports

page-rail = Réglages, notes et exports
page-computing = calcul en cours…
page-status-empty = Tapez un texte pour voir son attention.
page-status = { $tokens ->
    [one] { $tokens } jeton, calculé en { $time } dans votre navigateur
   *[other] { $tokens } jetons, calculés en { $time } dans votre navigateur
}
page-status-threads = { $tokens ->
    [one] { $tokens } jeton, calculé en { $time } sur { $threads } threads dans votre navigateur
   *[other] { $tokens } jetons, calculés en { $time } sur { $threads } threads dans votre navigateur
}
page-status-one-thread = { $tokens ->
    [one] { $tokens } jeton, calculé en { $time } sur un seul thread ({ $why }) dans votre navigateur
   *[other] { $tokens } jetons, calculés en { $time } sur un seul thread ({ $why }) dans votre navigateur
}
page-status-memory = mémoire du worker { $size }
page-status-memory-both = mémoire du worker { $size } (les deux workers)
page-under-tenth-ms = moins de 0,1 ms
page-tokens-label = Jetons : choisissez-en un pour le suivre dans toutes les vues
page-model-card = Le modèle
page-note-teaching = Les cinq têtes du modèle pédagogique ont été conçues à la main, pas apprises : chacune fait une seule chose que l'on peut expliquer.
page-note-minilm-exact = MiniLM (all-MiniLM-L6-v2) : un encodeur BERT, 6 couches × 12 têtes ; ses poids f32 tels que publiés.
page-note-minilm = MiniLM (all-MiniLM-L6-v2) : un encodeur BERT, 6 couches × 12 têtes ; ses poids arrondis en f16 (deux fois moins à télécharger), chaque poids d'attention à moins de 2e-3 de celui du modèle en f32.
page-note-smollm2 = SmolLM2-135M : un décodeur Llama, 30 couches × 9 têtes de requête sur 3 têtes de clé/valeur.
page-note-custom = Votre modèle, lu depuis vos propres fichiers dans ce navigateur : rien n'a été envoyé.
page-note-trace = Un fichier de trace : une attention calculée ailleurs, lue dans le fichier une tête à la fois.
page-mask-none = { $name } regarde dans les deux sens (sans masque). Une grille causale pour lui est une hypothèse, calculée à partir des mêmes Q et K.
page-mask-causal = { $name } est causal : chaque jeton ne voit que lui-même et les jetons précédents. Une grille sans masque pour lui est une hypothèse.
page-mask-sliding = { $name } est causal { $window }
page-mask-window = { $before ->
    [one] avec une fenêtre glissante : chaque jeton ne voit que lui-même et le { $before } jeton qui le précède.
   *[other] avec une fenêtre glissante : chaque jeton ne voit que lui-même et les { $before } jetons qui le précèdent.
}
page-mask-local = { $said } La couche { $layer } est locale, { $window }
page-head-note = Tête { $head }
page-head-note-named = Tête { $head } : « { $name } »
page-append-token = Ajouter ce jeton
page-next-tokens = Jetons suivants les plus probables
page-next-click = Cliquez sur l'un d'eux pour l'ajouter.
page-export-heading = Exporter cette tête
page-export-busy = En attente du calcul de l'attention du texte
page-export-title = couche { $layer } · tête { $head } · A = softmax(QKᵀ/√d_k + M) · masque : { $mask }
page-mask-name-none = aucun
page-mask-name-causal = causal
page-mask-name-sliding = fenêtre glissante
page-table-too-long = Le tableau des poids est affiché pour les textes de { $max } jetons au plus ; exportez en CSV pour les plus longs.
page-table-caption = Poids d'attention de la tête sélectionnée : les lignes sont les requêtes, les colonnes les clés
page-table-corner = requête \ clé

## Offline use

page-offline-saving = Enregistrement pour une utilisation hors ligne…
page-offline-ready = ✓ Fonctionne hors ligne
page-offline-ready-title = Les fichiers de la page sont enregistrés dans ce navigateur : elle s'ouvre et calcule sans réseau

## Zooming into a picture

page-zoom = Zoom
page-zoom-title = Ctrl + molette, un pincement, ou + et − sur la figure active zooment ; un glisser ou la molette déplace ; 0 ajuste
page-zoom-out = Zoom arrière
page-zoom-in = Zoom avant
page-zoom-level = Zoom { $level }
page-zoom-fit = Ajuster
page-zoom-fit-title = Ajuster : la carte entière

## The computation's worker (errors; $why and $error are in English, from the browser or the core)

page-worker-restarted = Le worker de calcul s'est arrêté de façon inattendue ({ $why }) ; il a été redémarré.
page-worker-gave-up = Le worker de calcul s'est arrêté de façon inattendue ({ $why }) ; il a échoué trop souvent pour être redémarré ; rechargez la page.
page-worker-restarted-model = le worker de calcul s'est arrêté de façon inattendue ({ $why }) ; il a été redémarré : choisissez à nouveau le modèle pour le recharger
page-worker-gave-up-model = le worker de calcul s'est arrêté de façon inattendue ({ $why }) ; il a échoué trop souvent pour être redémarré ; rechargez la page : choisissez à nouveau le modèle pour le recharger
page-needs-worker = { $model } a besoin du worker d'arrière-plan, qui n'a pas pu démarrer dans ce navigateur
page-worker-not-started = le worker de calcul n'a pas démarré : rechargez la page
page-trace-worker-not-started = le worker d'arrière-plan qui lit les fichiers de trace n'a pas démarré : rechargez la page
page-hosted-worker-not-started = le worker d'arrière-plan qui lit la trace n'a pas démarré
page-worker-unreadable = réponse illisible du worker : { $error }
page-worker-no-reason = aucune raison donnée ; mémoire épuisée ?

## A page inside a notebook, reading its host's trace

page-host-no-reason = aucune raison donnée
page-host-not-bytes = l'hôte a envoyé autre chose que des octets
page-host-wrong-length = l'hôte a envoyé { $sent } octets pour { $asked } demandés (le fichier a-t-il changé ?)

# The axes of the exported heatmap (PNG, SVG).
page-axis-keys = clés →
page-axis-queries = requêtes ↓

# The teaching model as a run names it (the lesson, the status, exports).
page-model-teaching-run = Modèle pédagogique (têtes conçues à la main)

# The teaching model's five heads: "name: what the head does" (the part before the first colon is the name).
page-teaching-describes = décrit : Les noms portent leur attention sur les adjectifs, surtout ceux placés juste avant (créature → bleue, duveteuse).
page-teaching-previous-word = mot précédent : Chaque mot porte son attention sur le mot qui le précède.
page-teaching-self = soi : Chaque mot porte son attention sur lui-même (et sur ses répétitions).
page-teaching-who-did-what = qui a fait quoi : Les verbes portent leur attention sur les noms et pronoms proches (errait → créature, forêt).
page-teaching-introduces = introduit : Les déterminants portent leur attention vers l’avant, sur le nom qu’ils introduisent (une → créature).
