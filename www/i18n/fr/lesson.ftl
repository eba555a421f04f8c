# attnscope, French: lesson

## Titres des étapes

lesson-step-tokens = Jetons
lesson-step-qkv = q, k et v : trois projections de x
lesson-step-scores = Scores : q · k
lesson-step-scale = Pourquoi diviser par √d_k
lesson-step-softmax = Softmax : des scores aux poids
lesson-step-mask = Le masque causal et −∞
lesson-step-sum = La somme pondérée, et E + ΔE
lesson-step-heads = Plusieurs têtes, et des têtes qui partagent leurs clés
lesson-step-last-row = Comment un modèle écrit : la dernière ligne choisit
lesson-step-next = La distribution du jeton suivant et sa température
lesson-step-sampling = L’échantillonnage et la graine
lesson-step-cache = Le cache clés-valeurs
lesson-step-cross = Attention croisée : un mot écoute le son
lesson-step-timing = Où chaque mot a été prononcé

## La carte

lesson-count = Étape { $step } sur { $steps }
lesson-dot = Étape { $step } : { $title }
lesson-steps = Étapes de la leçon
lesson-back = ← Retour
lesson-next = Suivant →
lesson-try = À essayer :{" "}
lesson-computing = Calcul en cours…
lesson-type-sentence = Tapez une phrase pour commencer : la leçon s’appuie dessus.

## Pièces communes

lesson-quoted = « { $word } »
lesson-percent = { $p } %
lesson-preview = {"["}{ $numbers }] ({ $count } nombres)

## Étape 1 : les jetons

lesson-says-tokens = { $model } lit votre phrase comme une suite de { $tokens ->
        [one] { $tokens } jeton
       *[other] { $tokens } jetons
    }. Chaque jeton reçoit une ligne et une colonne dans chaque image de l’attention : ici, nous suivons la requête de « { $query } ».
lesson-label-tokens = jetons
lesson-label-query = jeton de la requête
lesson-label-ids = identifiants des jetons
lesson-try-tokens = Tapez un mot de votre choix dans la zone de texte : une ligne et une colonne apparaissent pour lui.

## Étape 2 : q, k et v

lesson-says-qkv = « { $query } » entre dans la couche sous la forme d’un vecteur x de { $width } nombres. Trois matrices apprises le projettent en une requête q, une clé k et une valeur v de { $dk } nombres chacune : q demande, k répond, v est ce qui est transmis.
lesson-label-x = x de « { $query } »
lesson-try-qkv = Choisissez un autre jeton (dans la liste des jetons, ou une ligne de n’importe quelle image) pour voir ses vecteurs.
lesson-strip-x = x « { $token } »
lesson-vectors-label = Le vecteur x de « { $token } » et ses projections q, k et v, en bandes de cases colorées
lesson-vectors-caption = Une case par nombre : rouge positif, bleu négatif, chaque bande rapportée à sa plus grande valeur. q, k et v sont plus courts que x : la tête travaille en d_k dimensions.

## Étape 3 : les scores

lesson-says-scores = La requête de « { $query } » est comparée à chaque clé par un produit scalaire, s_j = q · k_j : plus le score est grand, mieux la clé correspond à ce que cherche la requête.
lesson-try-scores = Pointez une case, ou touchez-la, pour lire son score. Le rouge est positif, le bleu négatif.

## Étape 4 : diviser par √d_k

lesson-says-scale = Si les composantes de q et de k avaient une variance de 1, q · k aurait une variance d_k = { $dk } ; multiplier par 1/√d_k la ramène près de 1, et le softmax ne sature pas. Dans cette ligne, la variance des scores passe de { $raw } à { $scaled }.
lesson-label-scale = facteur d’échelle
lesson-label-var-raw = variance de q · k_j
lesson-label-var-scaled = après mise à l’échelle
lesson-try-scale = Appuyez sur « Lire » pour voir les scores rétrécir, ou retirez 1/√d_k et regardez les poids devenir tout ou rien.

## Étape 5 : le softmax

lesson-says-softmax = Le softmax transforme chaque ligne de scores en poids, exp(s_j) / Σ exp(s_m) : tous positifs, de somme 1. « { $query } » donne son plus grand poids, { $weight }, à « { $key } ».
lesson-label-top = le plus grand
lesson-value-top = { $weight } → « { $key } »
lesson-try-softmax = Faites glisser le curseur : un facteur supérieur à 1 rend le softmax plus tranché, inférieur à 1 plus plat.

## Étape 6 : le masque causal

lesson-says-mask-causal = { $model } est causal : le masque ajoute −∞ au score de chaque jeton ultérieur, et exp(−∞) = 0, donc aucun jeton ne regarde l’avenir. « { $query } » voit { $seen } des { $tokens } jetons.
lesson-says-mask-window = { $model } est causal avec une fenêtre glissante : le masque ajoute −∞ au score de chaque jeton ultérieur et de chaque jeton situé plus de { $back ->
        [one] { $back } position
       *[other] { $back } positions
    } en arrière, et exp(−∞) = 0. « { $query } » voit { $seen } des { $tokens } jetons.
lesson-says-mask-none = { $model } lit dans les deux sens (pas de masque). Un décodeur ajoute −∞ au score de chaque jeton ultérieur, et exp(−∞) = 0 : la grille causale montre ce que { $model } regarderait avec ce masque.
lesson-label-mask = le masque du modèle
lesson-mask-none = aucun
lesson-mask-causal = causal
lesson-mask-window = fenêtre glissante
lesson-label-hidden = clés qu’un masque causal cache à « { $query } »
lesson-try-mask = Appuyez sur « Lire » : les croix (−∞) deviennent des poids exactement nuls.

## Étape 7 : la somme pondérée

lesson-says-sum = La sortie de la tête pour « { $query } » est la somme pondérée z = Σ a_j v_j. Les sorties de toutes les têtes, mises bout à bout et projetées par W_O, forment la mise à jour ΔE qui s’ajoute au vecteur du jeton : E + ΔE.
lesson-try-sum = Cliquez sur un mot à gauche pour suivre une autre requête.

## Étape 8 : plusieurs têtes

lesson-says-heads-shared = { $model } compte { $layers ->
        [one] { $layers } couche
       *[other] { $layers } couches
    } de { $heads ->
        [one] { $heads } tête
       *[other] { $heads } têtes
    }, chacune avec son propre motif. Ses têtes de requête se partagent { $kv ->
        [one] { $kv } tête clé-valeur
       *[other] { $kv } têtes clé-valeur
    } (attention à requêtes groupées) : les têtes sous une même accolade utilisent les mêmes k et v.
lesson-says-heads-own = { $model } compte { $layers ->
        [one] { $layers } couche
       *[other] { $layers } couches
    } de { $heads ->
        [one] { $heads } tête
       *[other] { $heads } têtes
    }, chacune avec son propre motif et ses propres clés et valeurs. SmolLM2 partage chaque tête clé-valeur entre trois têtes de requête (attention à requêtes groupées).
lesson-label-heads = couches × têtes
lesson-label-kv = têtes clé-valeur
lesson-label-group = têtes qui partagent les clés de la tête { $head }
lesson-sharing-none = aucune (ses propres clés)
lesson-try-heads = Cliquez sur une vignette pour ouvrir cette tête dans toutes les vues ; avec SmolLM2, comparez les têtes d’une même accolade.

## Chapitre : comment un modèle écrit

lesson-says-no-writer = { $model } lit tout le texte d’un coup et n’a pas de jeton suivant à choisir. Ce chapitre demande un modèle qui écrit : un décodeur comme SmolLM2.
lesson-use-smollm2 = Passer à SmolLM2, qui écrit
lesson-no-distribution = La distribution apparaît avec un modèle qui écrit.
lesson-label-top-next = suivant le plus probable
lesson-value-token = « { $token } » { $p }

lesson-says-last-row = { $model } écrit un jeton à la fois. Sous le masque causal, la ligne i de A ne voit que les jetons 0 … i : chaque ligne pourrait donc prédire le jeton qui la suit, mais pour écrire, seule la dernière compte. Après la dernière couche, le vecteur de « { $last } » devient les logits du jeton suivant : son meilleur pari est « { $top } », à { $p }.
lesson-label-last = la ligne qui choisit
lesson-label-visible = clés qu’elle voit
lesson-try-last-row = Tapez un mot à la fin : une nouvelle dernière ligne apparaît, et la liste des jetons suivants change.

lesson-says-next = Un softmax transforme les logits z en probabilités, p_i = exp(z_i / T) / Σ exp(z_j / T). T = 1 donne la distribution propre du modèle. Un T plus bas la resserre : le jeton en tête gagne de plus en plus souvent, et le texte se met à se répéter. Un T plus haut l’aplatit : des jetons rares apparaissent, et le texte divague. À T = { $t }, « { $top } » obtient { $p }.
lesson-label-listed = les cinq de la liste, ensemble
lesson-try-next = Faites glisser la température : les barres se resserrent en dessous de 1 et s’aplatissent au-dessus.

lesson-says-drawn = L’étape { $step } a tiré u = { $u }. Elle a gardé { $kept ->
        [one] { $kept } jeton
       *[other] { $kept } jetons
    }, soit { $mass } de la probabilité, les a remis à l’échelle pour que la somme fasse 1, et a pris « { $token } » : le jeton dont la tranche du total cumulé contient u. Sa part était de { $share }. La graine fixe chaque u : le même lien écrit donc le même texte.
lesson-says-greedy = L’étape { $step } a pris « { $token } » ({ $p }) sans tirage : le décodage glouton prend toujours le jeton le plus probable. Choisissez « échantillonnage » dans la carte Écrire pour tirer au sort.
lesson-says-sampling = Le décodage glouton prend toujours le jeton le plus probable. L’échantillonnage tire un nombre u entre 0 et 1 et prend le jeton dont la tranche du total cumulé des probabilités le contient. Le top-k ne garde que les k jetons les plus probables, le top-p le plus petit nombre de jetons dont les probabilités atteignent p, et ce qui reste est remis à l’échelle pour que la somme fasse 1. La graine fixe chaque tirage : le même lien écrit donc le même texte.
lesson-label-chosen = choisi
lesson-draw-none = aucun (glouton)
lesson-label-kept = gardés
lesson-value-kept = { $kept ->
        [one] { $kept } jeton
       *[other] { $kept } jetons
    }, { $mass }
lesson-try-sampling = Dans la carte Écrire, choisissez « échantillonnage », fixez une graine et appuyez sur « Un pas » : les barres montrent la coupure et le jeton tiré.

lesson-says-cache = La requête du jeton suivant a besoin de la clé et de la valeur de chaque jeton précédent, dans chaque couche. Sous le masque causal, elles ne changent jamais : le modèle les garde donc. Écrire le jeton { $next } calcule une nouvelle ligne de Q, K et V dans chacune des { $layers } couches ({ $computed } nombres) et réutilise les { $n } lignes de K et V déjà calculées ({ $reused } nombres).{ $shared }
lesson-says-cache-shared = {" "}Ses { $heads } têtes de requête se partagent { $kv } têtes clé-valeur : le cache garde donc { $kv } jeux de clés et de valeurs par couche, et non { $heads }.
lesson-label-cache-new = calculés pour le jeton suivant
lesson-label-cache-reused = réutilisés depuis le cache
lesson-label-cache-saved = lignes de K et V non recalculées
lesson-try-cache = Appuyez sur Écrire et regardez la carte de chaleur grandir d’une ligne par jeton, chaque ligne calculée une seule fois.

## Chapitre : écouter

lesson-no-clip = Ce chapitre écoute. Lancez l’un des exemples sous l’image (ou enregistrez une phrase à vous) : Whisper tiny.en écrit ce qu’il entend, dans votre navigateur, et la leçon continue avec ses nombres.
lesson-says-cross = Whisper a entendu « { $text } » et l’a écrit en { $tokens ->
        [one] { $tokens } jeton
       *[other] { $tokens } jetons
    }. La requête de chaque jeton est comparée à des clés qui viennent d’une autre séquence : les 1500 trames de son de l’encodeur (20 ms chacune ; l’extrait en remplit { $frames }, le silence le reste). Même formule, softmax(q Kᵀ/√d_k), sans masque : chaque jeton peut écouter partout. Ici ({ $which }), la requête de « { $query } » met son plus grand poids, { $weight }, sur { $from }–{ $to } s.
lesson-which-head = couche { $layer } du décodeur, tête { $head }
lesson-which-mean = la moyenne des têtes d’alignement
lesson-label-listen-tokens = jetons écrits
lesson-label-listen-frames = trames de son (clés)
lesson-value-frames = { $frames } pour l’extrait, 1500 en tout
lesson-label-listen-peak = plus grand poids de « { $query } »
lesson-value-peak = { $weight } à { $time } s
lesson-label-listen-clip = part sur l’extrait
lesson-try-cross = Touchez le segment d’un autre mot sous le spectrogramme : son premier jeton devient la requête, et le passage est joué.

lesson-says-timing = La plupart des têtes ne suivent pas le temps, mais quelques-unes le font : le checkpoint désigne { $count } têtes d’alignement (couche.tête { $heads }). Leur moyenne, ligne après ligne, avance dans le son au fil des mots ; un alignement temporel dynamique (DTW) le long de cette moyenne donne à chaque mot son début et sa fin.{ $span }
lesson-says-timing-span = {" "}« { $word } » a été prononcé de { $start } s à { $end } s.
lesson-label-listen-heads = têtes d’alignement
lesson-label-listen-words = mots situés dans le temps
lesson-try-timing = Choisissez une seule tête au lieu de la moyenne des têtes d’alignement : la plupart des têtes écoutent tout l’extrait.
