# attnscope, French: views

## La lecture d’une cellule

common-readout-empty = Pointez une cellule, ou touchez-la, pour lire son poids et son score brut.
common-readout-weight-only = « { $query } » → « { $key } » : poids { $weight }
common-readout-visible = « { $query } » → « { $key } » : poids { $weight } · score brut q·k { $score } · mis à l’échelle { $scaled }
common-readout-visible-what-if = « { $query } » → « { $key } » (masque hypothétique) : poids { $weight } · score brut q·k { $score } · mis à l’échelle { $scaled }
common-readout-hidden = « { $query } » → « { $key } » : caché par le { $mask ->
        [causal] masque causal
       *[other] masque à fenêtre glissante
    } (score −∞, poids 0) · score brut q·k { $score }
common-readout-hidden-what-if = « { $query } » → « { $key } » (masque hypothétique) : caché par le { $mask ->
        [causal] masque causal
       *[other] masque à fenêtre glissante
    } (score −∞, poids 0) · score brut q·k { $score }
common-mask-none = aucun
common-mask-causal = causal
common-mask-window = fenêtre glissante

## Les quatre étapes

stage-play = ▶ Lire
stage-stop = ■ Arrêter
stage-play-label = Lire les quatre étapes
stage-stop-label = Arrêter
stage-play-title = Lire QKᵀ → ×1/√d_k → +M → softmax
stage-picker-label = Étape du calcul
stage-title-scores = Étape 1 : les scores bruts S = QKᵀ, un produit scalaire par requête et par clé
stage-title-scaled = Étape 2 : les scores mis à l’échelle par 1/√d_k
stage-title-masked = Étape 3 : le masque M ajouté : −∞ là où une clé est cachée
stage-title-weights = Étape 4 : le softmax de chaque ligne, les poids d’attention A

## La carte de chaleur

head-heatmap-label = Attention de la tête choisie, requêtes × clés ; le tableau des poids donne les mêmes nombres. Les flèches déplacent la cellule décrite, Entrée choisit sa requête ; plus et moins zooment sur un texte long
head-caption-weights-rows = Ligne i : comment le jeton de requête i répartit son attention entre les clés (colonnes). Plus c’est clair, plus c’est fort ; chaque ligne a pour somme 1.
head-caption-weights-rows-masked = Ligne i : comment le jeton de requête i répartit son attention entre les clés (colonnes). Plus c’est clair, plus c’est fort ; chaque ligne a pour somme 1. En gris : les clés que le masque cache (poids 0).
head-caption-weights-columns = Colonne j : comment le jeton de requête j répartit son attention entre les clés (lignes). Plus c’est clair, plus c’est fort ; chaque colonne a pour somme 1.
head-caption-weights-columns-masked = Colonne j : comment le jeton de requête j répartit son attention entre les clés (lignes). Plus c’est clair, plus c’est fort ; chaque colonne a pour somme 1. En gris : les clés que le masque cache (poids 0).
head-caption-masked = Scores après le masque : les cellules grises valent −∞, ce sont les clés que la requête ne peut pas voir. Rouge : positif, bleu : négatif.
head-caption-scores-rows = Ligne i : le score du jeton de requête i avec chaque clé, q·k. Rouge : positif, bleu : négatif.
head-caption-scores-columns = Colonne j : le score du jeton de requête j avec chaque clé, q·k. Rouge : positif, bleu : négatif.
head-compare-summary = Comparer avec une autre phrase (même tête)
head-compare-text-label = Une autre phrase
head-compare-placeholder = p. ex. les mêmes mots dans un autre ordre
head-compare-label = Poids d’attention de la même tête sur l’autre phrase
head-compare-caption = { $what } ({ $tokens ->
        [one] { $tokens } jeton
       *[other] { $tokens } jetons
    }), couche { $layer }, tête { $head }
head-compare-close = Fermer l’exécution avec patching

## Les grilles de points

grid-caption-unmasked = Sans masque : chaque mot voit tous les mots. C’est ce qu’utilise { $model }.
grid-caption-unmasked-what-if = Sans masque (hypothèse) : { $model } est causal ; cette grille est calculée à partir des mêmes Q et K, sans le masque.
grid-caption-causal = Causal : un mot ne voit que lui-même et les mots précédents. C’est ce qu’utilise { $model }.
grid-caption-causal-what-if = Causal (hypothèse) : { $model } voit dans les deux sens ; cette grille applique un masque causal aux mêmes Q et K.
grid-caption-window = Fenêtre glissante : un mot ne voit que lui-même et { $before ->
        [one] le mot précédent
       *[other] les { $before } mots précédents
    }.
grid-hint-norms = Grille propre au modèle : aire du cercle ∝ ‖a·f(x)‖, chaque ligne rapportée à son maximum.
grid-hint-weights = Aire du cercle ∝ poids d’attention (de 0 à 1).
grid-hint-masked = Aire du cercle ∝ |score| (rapporté au plus grand score brut) ; rouge positif, bleu négatif ; × marque −∞, une clé cachée.
grid-hint-scores = Aire du cercle ∝ |score| (rapporté au plus grand score brut) : la mise à l’échelle les réduit tous. Rouge positif, bleu négatif.
grid-norms-caption = ‖a·f(x)‖, pondéré par les valeurs, remplace la dernière étape, les poids, et seulement dans la grille avec le masque propre au modèle : les scores viennent avant tout vecteur de valeur, et un masque hypothétique n’a pas de normes à lui.
grid-small-caption = À cette longueur, un point ferait un ou deux pixels : chaque cellule est plutôt teintée selon la taille de son point. Zoomez (+, Ctrl + molette ou pincement) pour voir les points.

## Pas à pas

explain-vector-preview = { $vector } ({ $count } nombres)
explain-vector-show-all = { $label } : afficher les { $count } nombres
explain-scale-unscaled = 1/√d_k supprimé : les scores bruts vont directement au softmax (le modèle utilise 1/√{ $d_k } = { $model })
explain-scale-unscaled-temperature = 1/√d_k supprimé, × { $factor } pour la température (le modèle utilise 1/√{ $d_k } = { $model })
explain-scale-temperature = = { $factor } × 1/√{ $d_k } : la leçon sur la température est active (le facteur propre au modèle est 1/√{ $d_k } = { $model })
explain-scale-model = = 1/√{ $d_k }, la mise à l’échelle propre au modèle (d_k = { $d_k })
explain-scale-own = le facteur propre au modèle (1/√{ $d_k } vaudrait { $model })
explain-projection-minilm = (+ un biais b_Q ; x est E après la LayerNorm de la couche précédente)
explain-projection-smollm2 = (x est E après la RMSNorm ; q et k sont ensuite tournés selon leur position, RoPE)
explain-projection-custom = (x est E après la normalisation de la couche, telle que votre modèle la définit)
explain-projection-trace = (q et k tels que le fichier de trace les conserve ; x, v et ΔE n’y sont pas)
explain-projection-translate = (+ un biais b_Q ; l’encodeur du modèle de traduction, x après la LayerNorm de la couche précédente)
explain-projection-whisper = (+ un biais b_Q ; x est E après la LayerNorm de la couche)
explain-query-token = Jeton de requête
explain-choose-query = Choisir le jeton de requête
explain-key-of = k de { $token }
explain-value-of = v de { $token }
explain-weighted-value-of = valeur pondérée de { $token }
explain-head-note = Couche { $layer }, tête { $head } (clés et valeurs de la tête clé/valeur { $kv_head }) · d_k = { $d_k } · échelle = { $scale } · masque : { $mask }
explain-step-x = Le vecteur de « { $token } » à l’entrée de la couche
explain-formula-x = x = E[{ $index }]   ({ $count } nombres)
explain-step-q = Sa requête
explain-formula-q = q = x · W_Q   ({ $from } → { $to } nombres){ $note }
explain-step-scores = Comparer à chaque clé, mettre à l’échelle, appliquer le masque et le softmax, puis pondérer les valeurs
explain-formula-mask = s″_j = s′_j + M_ij   (M vaut 0 là où la clé est visible, −∞ là où le { $mask ->
        [none] masque (aucun)
        [causal] masque causal
       *[other] masque à fenêtre glissante
    } la cache)
explain-formula-v = v_j = x_j · W_V     chaque valeur est multipliée par son poids : a_j · v_j
explain-table-caption = Requête « { $token } » face à chaque clé
explain-col-key = clé j
explain-col-scaled = s_j × échelle
explain-step-z = Additionner les valeurs pondérées : la sortie de la tête
explain-formula-z = z = Σ_j a_j · v_j   ({ $count } nombres)
explain-step-delta = Toutes les têtes ensemble : la mise à jour ΔE
explain-formula-delta = ΔE[{ $index }] = [z_1 | … | z_H] · W_O   (le z de chaque tête, concaténés puis projetés à nouveau sur { $count } nombres)
explain-step-residual = Le flux résiduel après l’attention
explain-formula-residual = E[{ $index }] + ΔE[{ $index }]   (le vecteur du jeton, infléchi par ce qu’il a recueilli)
explain-label-residual = E plus delta E
explain-computing = calcul en cours…
explain-empty = Saisissez un texte pour suivre un jeton à travers la formule.
explain-lines-label = Lignes de chaque jeton de requête (à gauche) vers les clés (à droite), aussi marquées que le poids ; celles de la requête choisie ressortent. Le tableau ci-dessous donne les mêmes nombres.
explain-lines-caption = À gauche, les requêtes ; à droite, les clés. Une ligne est aussi opaque que son poids ; cliquez sur un mot à gauche pour le suivre.
explain-row-note = Ligne de « { $token } » dans cette tête : poids maximal { $top }, entropie { $entropy } bits (une ligne uniforme en aurait { $uniform }).
explain-row-label = Poids d’attention de { $token }
explain-scaling-legend = Mise à l’échelle et température
explain-scaling-note = Si les composantes de q et k sont indépendantes, de moyenne 0 et de variance 1, q·k a pour variance d_k : des têtes larges donnent de grands scores, et l’exponentielle du softmax change les grands écarts en tout-ou-rien (avec des gradients minuscules). Diviser par √d_k ramène la variance à 1. Multipliez les scores ci-dessous et regardez les lignes se concentrer (facteur > 1, un softmax plus froid) ou s’aplatir (facteur < 1, un softmax plus chaud).
explain-model-setting = ★ C’est le réglage réel du modèle : facteur 1, mise à l’échelle par 1/√d_k.
explain-not-model-setting = Ce n’est pas le réglage du modèle : il utilise le facteur 1, avec mise à l’échelle par 1/√d_k. Les couches suivantes ne sont pas recalculées ; chaque tête montre ce à quoi elle prêterait attention.
explain-multiply = Multiplier les scores mis à l’échelle par
explain-times = fois { $factor }
explain-mark-model = ×1 (le modèle)
explain-reset = Revenir au réglage du modèle
explain-unscaled = supprimer 1/√d_k (donner les scores bruts q·k au softmax)
explain-position-legend = Ordre des mots
explain-positional = encodage positionnel (modèle pédagogique)
explain-position-note = L’attention compare des vecteurs, pas des places : sans code positionnel, mélanger les mots ne fait que mélanger de la même façon les lignes et les colonnes de A, et la tête « mot précédent » ne peut pas savoir quel mot venait avant.
explain-next-temperature = Température du softmax du jeton suivant
explain-next-temperature-note = (logits ÷ T : sous 1, la distribution se resserre ; au-dessus, elle s’aplatit ; 1 est la valeur du modèle)

## Toutes les têtes

overview-label = Chaque couche et chaque tête ; les flèches déplacent la sélection
overview-knock-cell = Couche { $layer }, tête { $head }
overview-knock-cell-out = Couche { $layer }, tête { $head } : neutralisée
overview-knock-title-out = L{ $layer } · H{ $head } (neutralisée)
overview-knock-count = { $count ->
        [0] Aucune tête choisie
        [one] { $count } tête choisie
       *[other] { $count } têtes choisies
    }
overview-knock-tools = Knockout de têtes
overview-knock-mode = Neutraliser des têtes
overview-knock-how = activez « Neutraliser des têtes » et cliquez sur des vignettes
overview-knock-run = Lancer le knockout
overview-knock-clear = Effacer
overview-caption-knockout = Mode knockout : cliquez sur les vignettes pour choisir les têtes à retirer (barrées), puis sur Lancer le knockout ; désactivez le mode pour ouvrir à nouveau des têtes.
overview-caption = Chaque vignette est l’attention d’une tête (les lignes sont les requêtes) sur ce texte. Cliquez sur une vignette ou utilisez les flèches pour ouvrir cette tête dans toutes les vues.
overview-scale-caption = Sur un texte aussi long, chaque cellule d’une vignette est le poids moyen d’un bloc de jetons, dessiné par rapport à la cellule la plus claire de la vignette pour que son motif apparaisse ; la carte de chaleur donne chaque poids.
overview-norms-caption = Pondéré par les valeurs : chaque vignette montre ‖a·f(x)‖, chaque ligne rapportée à son maximum ; les valeurs exactes sont dans la lecture de la carte de chaleur et dans les exports.

## L’exemple détaillé 3×4

worked-cell-label = { $matrix }, ligne { $row }, colonne { $column }
worked-seed-heading = Le seed : ÷ √{ $width } (largeur de l’entrée)
worked-note = Trois entrées de largeur 4, des projections en largeur 3 — l’exemple détaillé du seed 003. Modifiez n’importe quel nombre ; tout ce qui suit est recalculé avec la formule qu’utilisent les modèles.
worked-reset = Revenir aux nombres du seed
