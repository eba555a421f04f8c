# attnscope, French: analyses

## Shared by the analyses

beyond-map-hint = Pointez une case, ou touchez-la, pour lire sa valeur exacte.
beyond-layer = Couche
beyond-not-computed = Pas encore calculé.
beyond-cancelled = Annulé.
beyond-cancel = Annuler

## Value-weighted attention

beyond-vw-switch = Ce que montre la carte
beyond-vw-weights-button = Poids
beyond-vw-norms-button = Pondéré par la valeur
beyond-norm-colour = Couleur : chaque ligne par rapport à son plus grand ‖a·f(x)‖.
beyond-vw-title-norms = Couche { $layer } · tête { $head } : pondéré par la valeur ‖a·f(x)‖
beyond-vw-title-weights = Couche { $layer } · tête { $head } : poids A
beyond-vw-map-label = La tête sélectionnée, requêtes en lignes et clés en colonnes, chaque ligne colorée par rapport à sa plus grande valeur
beyond-vw-caption = Chaque ligne est colorée par rapport à sa plus grande valeur ; la lecture donne le nombre exact. Choisissez la tête dans le panneau ou dans « Toutes les têtes ».

## Definitions

beyond-value-weighted-definition = attention pondérée par la valeur (Kobayashi et al. 2020) : ‖a_ij · f(x_j)‖ avec f(x_j) = (x_j W_V^h + b_V^h) W_O^h, W_O^h la tranche de la matrice de sortie propre à la tête (le biais de W_O ne dépend pas du jeton et est omis)
beyond-rollout-definition = rollout de l’attention (Abnar & Zuidema 2020) : Ā_l = ½·mean_h A_l + ½·I, lignes renormalisées ; R_l = Ā_l · R_(l−1), R_1 = Ā_1 (moyenne sur les têtes de requête, modèles grouped-query compris)
beyond-lens-definition = logit lens (décodeurs) : softmax(final_norm(h_l) · W_outᵀ), h_l le flux résiduel après la couche l, lu à une position ; la grille donne le jeton le plus probable de chaque position, couche par couche
beyond-knockout-definition = knockout de tête : la sortie Z_h de la tête (avant W_O) mise à 0, ou à sa moyenne sur les positions du texte, et le modèle exécuté à nouveau ; effet : la liste des jetons suivants avant/après (décodeurs) ou le cosinus des plongements de la phrase avant/après (encodeurs)
beyond-importance-definition = carte d’importance : chaque tête supprimée seule ; décodeurs : baisse de la probabilité du jeton suivant le plus probable ; encodeurs : 1 − cosinus des plongements de la phrase avant/après
beyond-patch-definition = activation patching : une activation de l’exécution propre copiée dans l’exécution corrompue, et le reste exécuté à nouveau ; effet = (d − d_corrupt) / (d_clean − d_corrupt), d = logit(bonne) − logit(mauvaise) à la dernière position (0 : rien de restauré, 1 : la bonne réponse restaurée)
beyond-qk-definition = les requêtes et les clés d’une tête (après RoPE quand le modèle les fait tourner, avant l’échelle 1/√d_k) placées ensemble sur leurs deux axes principaux (ACP) ; la translation des clés déplace chaque clé de c = mean(Q) − mean(K), ce qui ajoute q_i·c à chaque score de la ligne i et laisse donc A inchangée ; les valeurs sur leurs deux axes à elles, où chaque sortie o_i = Σ_j a_ij v_j est la moyenne pondérée des points des valeurs

## Rollout

beyond-rollout-title = Rollout
beyond-rollout-layers = Après les couches 1 … { $shown } sur { $layers }
beyond-rollout-slider = Rollout après ce nombre de couches
beyond-rollout-grouped = Modèle grouped-query : la moyenne porte sur toutes les têtes de requête.
beyond-rollout-map-label = Rollout : quelle part de l’entrée de chaque jeton (colonnes) atteint chaque position (lignes)

## Logit lens

beyond-lens-title = Logit lens
beyond-lens-at = À « { $token } » (position { $position }) : ce que le modèle prédirait s’il s’arrêtait après chaque couche.
beyond-lens-after-layer = Après la couche
beyond-lens-top-token = Jeton en tête
beyond-lens-next-four = Les quatre suivants
beyond-lens-every-position = Toutes les positions (grille couches × positions)
beyond-lens-decoders-only = Le logit lens lit la matrice de sortie d’un décodeur : choisissez SmolLM2.

## Head knockout and the importance map

beyond-knockout-title = Knockout de têtes
beyond-ablation-switch = Comment une tête est supprimée
beyond-ablation-zero-long = Mettre sa sortie à zéro
beyond-ablation-zero = Zéro
beyond-ablation-mean-long = Sa moyenne sur les positions
beyond-ablation-mean = Moyenne
beyond-knockout-grid = Têtes : appuyez pour supprimer
beyond-knockout-head-change = L{ $layer } · H{ $head } : variation { $change }
beyond-knockout-head = Couche { $layer } tête { $head }
beyond-knockout-zeroed = { $count ->
        [one] Tête { $heads } mise à zéro.
       *[other] Têtes { $heads } mises à zéro.
    }
beyond-knockout-meaned = { $count ->
        [one] Tête { $heads } remplacée par sa moyenne.
       *[other] Têtes { $heads } remplacées par leur moyenne.
    }
beyond-knockout-top = Le jeton en tête avant, { $token } (p = { $before }), a maintenant p = { $after } et le rang { $rank }.
beyond-knockout-drop = Baisse de la probabilité du jeton en tête (la mesure de la carte d’importance) : { $drop }
beyond-knockout-before = Jeton suivant avant
beyond-knockout-after = Après
beyond-knockout-cosine = Cosinus des plongements de la phrase avant et après : { $cosine }
beyond-knockout-one-minus-cosine = 1 − cosinus (la mesure de la carte d’importance) : { $change }
beyond-knockout-none-moved = L’attention d’aucune couche suivante n’a changé.
beyond-knockout-moved = Têtes suivantes dont l’attention a le plus changé (moyenne de |ΔA|) : { $heads }
beyond-knockout-every-head = Toutes les têtes sont supprimées : il reste les plongements, les MLP et le chemin résiduel.
beyond-knockout-none-chosen = Aucune tête choisie : { $how } pour les supprimer.
beyond-knockout-how = appuyez sur une ou plusieurs têtes de la grille
beyond-knockout-run = Supprimer et relancer
beyond-knockout-clear = Effacer
beyond-knockout-all = Choisir toutes les têtes
beyond-importance-title = Carte d’importance
beyond-importance-running = Suppression de la tête { $done } sur { $total }…
beyond-importance-done = Terminé : { $heads } têtes ; couleur = { $measure }. La plus claire est la plus grande variation.
beyond-importance-measure-drop = baisse de la probabilité du jeton suivant le plus probable
beyond-importance-measure-cosine = 1 − cosinus des plongements de la phrase
beyond-importance-run = Supprimer chaque tête tour à tour
beyond-importance-progress = Têtes supprimées jusqu’ici
beyond-importance-caption = La carte colore la grille des têtes ci-dessus (avec le choix zéro / moyenne du knockout) ; survolez une tête pour voir son nombre.

## Activation patching

beyond-patch-title = Activation patching
beyond-patch-stale = Le texte a changé depuis le calcul de ces cartes : appuyez de nouveau sur « Patcher » pour ouvrir leurs cases.
beyond-patch-decoders-only = Le patching compare les logits du jeton suivant, qu’un encodeur comme MiniLM ne donne pas : choisissez SmolLM2 ou un décodeur ouvert depuis des fichiers.
beyond-patch-clean-note = Le prompt propre est le texte ci-dessus. Changez-en un mot dans le prompt corrompu (même nombre de jetons, ou choisissez de compléter ou de couper).
beyond-patch-preset = Exemple
beyond-patch-choose = Choisir…
beyond-patch-preset-indirect = Objet indirect
beyond-patch-preset-factual = Rappel de faits
beyond-patch-preset-repeated = Séquence répétée
beyond-patch-preset-indirect-note = Le second prénom décide de la réponse. Dans la carte résiduelle, les premières couches le portent à la position de ce prénom ; dans les couches du milieu, il passe à la dernière position : les têtes qui l’y déplacent s’allument dans la carte des têtes.
beyond-patch-preset-factual-note = Les jetons du monument décident de la ville. La carte résiduelle montre le fait lu au dernier jeton du monument dans les premières couches et celles du milieu, puis porté à la dernière position.
beyond-patch-preset-repeated-note = La réponse est copiée de la première apparition du nom (induction). Les têtes qui la copient, les têtes d’induction, s’allument dans la carte des têtes (dernière position).
beyond-patch-corrupt = Prompt corrompu
beyond-patch-right = Bonne réponse
beyond-patch-wrong = Mauvaise réponse
beyond-patch-what = Patcher
beyond-patch-what-residual = le flux résiduel (couche × position)
beyond-patch-what-heads = chaque tête, toutes les positions (couche × tête)
beyond-patch-what-heads-last = chaque tête, dernière position (couche × tête)
beyond-patch-what-blocks = les blocs d’attention et feed-forward (couche × position)
beyond-patch-fit = Si leurs longueurs diffèrent
beyond-patch-fit-exact = dire où, et s’arrêter
beyond-patch-fit-pad = compléter le plus court (espaces)
beyond-patch-fit-trim = couper le plus long
beyond-patch-run = Patcher
beyond-patch-progress = Patching effectué jusqu’ici
beyond-patch-running = Patching : étape { $done } sur { $total }…
beyond-patch-done = Terminé. Les prompts diffèrent à la position { $at }. d = logit({ $right }) − logit({ $wrong }) : { $clean } sur le prompt propre, { $corrupt } sur le prompt corrompu.{ $notes } Touchez une case, puis « Ouvrir », pour voir son exécution patchée à côté de l’exécution propre dans la carte de chaleur.
beyond-patch-note = Remarque : { $note }.
beyond-patch-site-residual = flux résiduel
beyond-patch-site-heads = sorties des têtes
beyond-patch-site-attention = bloc d’attention
beyond-patch-site-feed-forward = bloc feed-forward
beyond-patch-map-title-heads = { $site } : couche × tête
beyond-patch-map-title-positions = { $site } : couche × position
beyond-patch-column-head = tête { $head }
beyond-patch-column-position = position { $position } « { $token } »
beyond-patch-readout = Couche { $layer }, { $column } : effet { $effect } (d = { $d })
beyond-patch-readout-hint = Pointez une case, ou touchez-la, pour lire son effet et d.
beyond-patch-open-what = Cette carte est l’exécution patchée : à la couche { $layer }, en { $column }, l’activation « { $site } » copiée de l’exécution propre (l’autre carte) dans l’exécution corrompue ; effet { $effect } (d = { $d })
beyond-patch-open = Ouvrir couche { $layer }, { $column } dans la carte de chaleur
beyond-patch-open-hint = Touchez une case pour ouvrir son exécution
beyond-patch-caption = Rouge : le patch restaure la bonne réponse (1 : entièrement) ; blanc : rien (0) ; bleu : il l’en éloigne encore plus.

## The head catalog: its table and maps

catalog-column-head = Couche · tête
catalog-column-entropy = Entropie (bits)
catalog-column-distance = Distance moyenne (jetons)
catalog-column-previous = Jeton précédent
catalog-column-first = Premier jeton (puits)
catalog-column-self = Lui-même
catalog-column-head-title = Où se trouve la tête
catalog-column-entropy-title = Entropie moyenne d’une ligne : 0 quand chaque requête regarde une seule clé, log2(n) quand elle se répartit également
catalog-column-distance-title = Moyenne de |i − j| pondérée par A : à quelle distance la tête regarde
catalog-column-previous-title = Poids moyen sur le jeton juste avant la requête
catalog-column-first-title = Poids moyen sur le premier jeton, le « puits d’attention »
catalog-column-self-title = Poids moyen sur le jeton de la requête elle-même
catalog-select-head = Sélectionner la couche { $layer }, tête { $head }
catalog-table-caption = Chaque tête, mesurée à partir de ses poids d’attention sur ce texte. Triez par une colonne ; choisissez une ligne pour sélectionner cette tête.
catalog-map-label = { $measure } de chaque tête, couches en lignes et têtes en colonnes ; le tableau ci-dessous donne les mêmes nombres
catalog-map-readout = L{ $layer } · H{ $head } : entropie { $entropy } bits · distance { $distance } · précédent { $previous } · premier { $first } · lui-même { $itself }
catalog-maps-caption = Chaque carte : couches en lignes, têtes en colonnes, colorée de la plus petite valeur (sombre) à la plus grande (jaune) ; les trois poids sur une même échelle, de 0 à 1. Cliquez sur une tête pour l’ouvrir.

## Find heads

catalog-find-title = Trouver des têtes
catalog-find-query = Mot requête
catalog-find-key = regarde
catalog-find-run = Classer les têtes
catalog-find-ranked = Têtes classées selon l’attention que « { $query } » porte à « { $key } » :

## Head detectors

catalog-detectors-title = Détecteurs de têtes
catalog-detector-induction = induction
catalog-detector-duplicate = jeton dupliqué
catalog-detector-previous = jeton précédent
catalog-detector-first = premier jeton
catalog-detector-induction-definition = induction (Olsson et al. 2022) : moyenne sur la seconde copie de A[p+T+t, p+t+1], le poids sur le jeton qui suit l’occurrence précédente
catalog-detector-duplicate-definition = jeton dupliqué : moyenne sur la seconde copie de A[p+T+t, p+t], le poids sur l’occurrence précédente du même jeton
catalog-detector-previous-definition = jeton précédent : moyenne sur i ≥ 1 de A[i, i−1]
catalog-detector-first-definition = premier jeton : moyenne sur i de A[i, 0]
catalog-detector-cell = Couche { $layer } tête { $head } : { $score }
catalog-detector-prompt = { $tokens ->
        [one] Prompt ({ $tokens } jeton) : { $prompt }
       *[other] Prompt ({ $tokens } jetons) : { $prompt }
    }
catalog-detector-repeats = Ce que le prompt répète
catalog-detector-random = Jetons aléatoires
catalog-detector-mine = Mon texte
catalog-detector-text = Texte, répété deux fois
catalog-detector-placeholder = p. ex. Mr and Mrs Dursley of number four
catalog-detector-period = Jetons aléatoires par copie
catalog-detector-seed = Graine
catalog-detector-run = Lancer les détecteurs

## Heads that resemble each other

catalog-similar-title = Têtes qui se ressemblent
catalog-similar-definition = d(g, h) = moyenne sur les requêtes i de √JS(A_g[i,:], A_h[i,:]), la divergence de Jensen–Shannon en bits (0 ≤ d ≤ 1) ; les têtes placées par positionnement multidimensionnel classique de d et regroupées par lien moyen
catalog-similar-too-long = Comparer chaque paire de têtes ligne par ligne demande des textes d’au plus { $most } jetons ; celui-ci en a { $tokens }. Raccourcissez-le pour placer les têtes.
catalog-similar-running = Comparaison de chaque paire de têtes : { $done } paires sur { $total }
catalog-similar-stop = Arrêter
catalog-similar-start = Comparer les têtes
catalog-similar-start-after = sur ce texte (chaque paire de têtes, ligne par ligne).
catalog-similar-groups = Groupes
catalog-similar-map-label = Toutes les têtes sur une carte : les têtes qui répartissent leur attention de la même façon sont proches
catalog-similar-dot = { $head } : groupe { $group } (cliquer pour ouvrir)
catalog-similar-caption = Chaque point est l’une des { $heads } têtes, placées de sorte que les têtes qui répartissent leur attention de la même façon sur les { $tokens } jetons de ce texte soient proches ; les couleurs sont des groupes de têtes semblables. Cliquez sur un point pour ouvrir cette tête dans toutes les vues.
catalog-similar-not-on-map = La tête sélectionnée n’est pas sur cette carte.
catalog-similar-like = Têtes proches de { $head } :
catalog-similar-same-group = même groupe
