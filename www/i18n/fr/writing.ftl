# attnscope, French: writing

## Whether the model shown writes
write-not-encoder = L’écriture est proposée pour les décodeurs : ce modèle est un encodeur, qui lit tout le texte dans les deux sens et n’a pas de jeton suivant à choisir.
write-not-trace = Un fichier de trace contient une attention calculée ailleurs, sans les poids du modèle : rien ici ne peut choisir le jeton suivant.
write-not-translator = Un modèle de traduction écrit sa traduction, affichée dans l’onglet Traduction ; ici, l’écriture est proposée pour les décodeurs.
write-at-most = Une génération écrit au plus { $tokens ->
        [one] { $tokens } jeton
       *[other] { $tokens } jetons
    }.
write-context-full = Le texte remplit le contexte du modèle : il n’y a plus de place pour un autre jeton.
write-stopped = Arrêté.
write-end-of-text = { $model } a écrit { $token }, qui termine un texte : l’écriture s’arrête ici.

## The card
write-heading = Écrire
write-go = Écrire
write-step = Un pas
write-pause = Pause
write-resume = Reprendre
write-stop = Arrêter
write-settings = Réglages
write-count = Jetons
write-choose = Choix
write-greedy = glouton
write-sample = échantillonnage
write-top-k = top-k
write-top-p = top-p
write-seed = graine
write-hint-sample = Tire au sort selon les barres ci-dessous, à la température indiquée plus haut (0 désactive top-k ; 1 désactive top-p) ; la même graine rejoue les mêmes tirages.
write-hint-greedy = Glouton : à chaque fois le jeton le plus probable.

## The step's distribution
write-cut-line = coupure : le reste est écarté
write-chosen-mark = ◀ choisi
write-kept = { $tokens ->
        [one] { $tokens } jeton gardé
       *[other] { $tokens } jetons gardés
    }, soit { $share } de la probabilité, renormalisée
write-chosen = Pas { $step } : a choisi { $token }, { $p } après température, { $kept } après renormalisation
write-chosen-drawn = Pas { $step } : a choisi { $token }, { $p } après température, { $kept } après renormalisation (tirage { $draw })
write-chosen-drawn-unseen = Pas { $step } : a choisi { $token }, { $p } après température, { $kept } après renormalisation (tirage { $draw } ; hors des dix affichés)
write-cache-title = Cache clés-valeurs
write-cache-computed = Le jeton { $token } a calculé une nouvelle ligne de Q { $query ->
        [one] dans l’unique tête de requête
       *[other] dans chacune des { $query } têtes de requête
    } et une nouvelle ligne de K et de V { $kv ->
        [one] dans l’unique tête clé/valeur
       *[other] dans chacune des { $kv } têtes clé/valeur
    }, { $layers ->
        [one] dans l’unique couche
       *[other] dans chacune des { $layers } couches
    }. Réutilisé : { $earlier ->
        [one] la ligne précédente de K et de V
       *[other] les { $earlier } lignes précédentes de K et de V
    } de chaque tête clé/valeur dans chaque couche, soit { $millions } millions de nombres ; { $saved } % des projections épargnées par rapport au calcul des { $token } lignes.
write-cache-grouped = {" "}Requêtes groupées : chaque tête K/V est partagée par { $query ->
        [one] { $query } tête de requête
       *[other] { $query } têtes de requête
    }.

## The timeline
write-timeline = Chronologie
write-timeline-step = pas { $step } sur { $steps } : avant le choix du jeton { $step }
write-timeline-now = maintenant : { $tokens ->
        [one] { $tokens } jeton écrit
       *[other] { $tokens } jetons écrits
    }

## The Q·K space
space-heading = Requêtes et clés dans un même espace
space-translate = Translation des clés
space-values = Valeurs aussi
space-colour-by = Couleur selon
space-colour-token = jeton
space-colour-position = position
space-translated-note = Clés déplacées de c = mean(Q) − mean(K) : chaque score de la ligne d’une requête gagne le même q·c, que softmax ignore, donc A ne change pas ; avec les deux nuages autour d’un même centre, la proximité sur la figure en dit plus.
space-plain-note = Les clés telles que le modèle les calcule : q·k est grand quand une requête et une clé pointent dans la même direction depuis l’origine, qui peut être loin des deux nuages.
space-one-token = Un seul jeton : une requête et une clé, il n’y a rien à projeter. Tapez un texte d’au moins deux jetons.
space-key-title = clé { $position } : { $token }
space-query-title = requête { $position } : { $token } (cliquez pour la choisir)
space-value-title = valeur { $position } : { $token }
space-output-title = sortie de la requête { $position } : { $token }
space-value-line-title = { $query } prend { $weight } de la valeur de « { $key } »
space-caption = ● requêtes, ■ clés de la couche { $layer }, tête { $head }. Les deux axes gardent { $share } % de la dispersion des points ; le reste sort de la figure. Cliquez sur un cercle, ou sur un jeton plus haut, pour choisir la requête.
space-caption-grouped = ● requêtes, ■ clés de la couche { $layer }, tête { $head } (clés de la tête clé/valeur { $kv }). Les deux axes gardent { $share } % de la dispersion des points ; le reste sort de la figure. Cliquez sur un cercle, ou sur un jeton plus haut, pour choisir la requête.
space-plot-label = Requêtes (cercles) et clés (carrés) de la tête sur leurs deux axes principaux
space-axis-1 = axe 1 : { $share } % de la dispersion
space-axis-2 = axe 2 : { $share } %
space-token-name = « { $token } » ({ $position })
space-readout-query = Requête
space-readout-weightiest = Plus fort poids
space-readout-angle = La plus proche en angle (toutes dimensions)
space-readout-plane = La plus proche sur la figure
space-angle-same = la même clé : c’est elle qui pointe le plus dans la direction de la requête.
space-angle-other = { $key }, A = { $weight } : une clé plus longue peut l’emporter avec un angle plus large, car A suit q·k = ‖q‖‖k‖cos θ.
space-plane-same = la même clé : ici, la figure dit vrai.
space-plane-other = { $key }, A = { $weight } : ici, la figure trompe, car un plan ne garde qu’une partie de la dispersion ; les nombres, eux, sont exacts.
space-no-values = Cette exécution n’a pas de vecteurs de valeur pour la tête (un fichier de trace écrit sans eux), ou ils sont tous en un même point.
space-values-caption = ▲ valeurs de la tête clé/valeur { $kv } sur leurs deux axes propres (qui gardent { $share } % de la dispersion des valeurs) ; ◆ la sortie de la requête choisie, o = Σ_j a_j v_j. Une ligne de A a pour somme 1, donc la sortie est la moyenne pondérée des valeurs : elle se place parmi les valeurs que sa requête pondère, sur la figure comme dans chaque dimension.
space-values-plot-label = Les valeurs de la tête (triangles) sur leurs deux axes principaux propres et la sortie de la requête choisie (losange)
space-corpus = Sur le corpus
space-corpus-note = Toutes les requêtes et clés de cette tête sur quelques centaines de phrases intégrées (histoires, questions, listes, nombres, un peu de code), sur les deux axes principaux du corpus ; les requêtes et clés de votre phrase sont placées sur les mêmes axes, par-dessus. Le worker traite le corpus une fois par modèle ; changer de tête est ensuite immédiat.
space-corpus-progress = Passage du corpus dans le modèle : { $done } phrases sur { $total }
space-corpus-caption = Couche { $layer }, tête { $head } sur le corpus : les requêtes en vert, les clés en rose ({ $points } points de { $sentences } phrases) ; les ● requêtes et ■ clés de votre phrase par-dessus. Les deux axes gardent { $share } % de la dispersion du corpus.
space-corpus-plot-label = Requêtes et clés de la tête sur le corpus, avec celles de votre phrase par-dessus
space-visitor-query-title = requête { $position } : { $token }
space-grid = Toutes les têtes
space-grid-note = Toutes les têtes sur le corpus, une ligne par couche, chacune sur ses deux axes propres (environ 30 requêtes et 30 clés du corpus chacune). Cliquez sur l'une d'elles pour la choisir.
space-grid-tile = couche { $layer }, tête { $head }
space-tsne = t-SNE
space-tsne-note = t-SNE place les points de sorte que chacun garde ses plus proches voisins (exact, sur toutes les paires, avec une graine fixe) : les groupes ont un sens, les distances entre groupes et les directions n'en ont pas, et il n'y a pas d'axes. Utile quand les points sont nombreux et que les deux axes principaux les entassent.
space-tsne-caption = ● requêtes, ■ clés de la couche { $layer }, tête { $head }, placées par t-SNE : des points proches sont voisins dans toutes les dimensions ; les distances et directions entre groupes ne veulent rien dire. Cliquez sur un cercle, ou sur un jeton plus haut, pour choisir la requête.
