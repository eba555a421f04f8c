# attnscope, French: listening

## L'onglet Parole

speech-whisper-load-failed = Impossible de charger Whisper : { $message }
speech-which-head = couche { $layer } du décodeur, tête { $head }
speech-which-alignment = la moyenne des têtes d'alignement
speech-intro = Dites une phrase, ouvrez un fichier son ou choisissez un exemple. Whisper (tiny.en) écrit ce qu'il entend ; chaque jeton qu'il écrit a une requête qui regarde les clés du son : c'est son{" "}
speech-intro-cross = attention croisée
speech-intro-end = , softmax(qKᵀ/√d_k) sur des trames audio de 20 ms.
speech-facts = { $seconds } s de son, { $frames } trames de 20 ms ; { $tokens } jetons ; entendu en { $ms } ms{ $memory }.
speech-facts-memory = , mémoire du worker { $mb } Mo
speech-tokens-label = Les jetons de la transcription
speech-alignment-mean = Têtes d'alignement (moyenne)
speech-layer-head = Couche { $layer } · tête { $head }
speech-cross-of = Attention croisée de
speech-needs-secure = L'enregistrement demande une page sécurisée (https:// ou localhost) ; les fichiers et les exemples fonctionnent toujours.
speech-no-microphone = Ce navigateur ne donne accès à aucun micro ; les fichiers et les exemples fonctionnent toujours.
speech-microphone-refused = L'accès au micro a été refusé ({ $message }) ; les fichiers et les exemples fonctionnent toujours.
speech-microphone-failed = Aucun micro n'a pu être ouvert ({ $message }) ; les fichiers et les exemples fonctionnent toujours.
speech-nothing-recorded = Rien n'a été enregistré : le micro n'a envoyé aucun son.
speech-not-decodable = Ce fichier n'est pas un son que le navigateur sait décoder ({ $message }).
speech-file-unreadable = Impossible de lire le fichier : { $message }
speech-file-empty = Le fichier ne contient aucun son.
speech-recording = Enregistrement… { $seconds } s sur 30 s au plus. Appuyez sur Arrêter quand vous avez fini.
speech-reading = Lecture du son…
speech-downloading = Téléchargement de Whisper tiny.en : { $loaded } sur { $total } Mo (une seule fois ; le navigateur le garde)…
speech-listening = Whisper écoute…
speech-stop = ■ Arrêter
speech-record = ● Enregistrer
speech-open-file = Ouvrir un fichier son…
speech-example-title = Un extrait d'exemple, synthétisé par espeak-ng
speech-download-note = Whisper tiny.en est téléchargé la première fois (environ { $size } Mo) et gardé par le navigateur ; le son ne quitte jamais cette page.
speech-encoder-axis = clés : trames entendues →
speech-encoder-readout = Les requêtes de { $q0 }–{ $q1 } s donnent aux clés de { $k0 }–{ $k1 } s { $weight } de leur attention (en moyenne) ; { $stayed } % en reste sur l'extrait, le reste va au remplissage.
speech-encoder-hover = Survolez une case pour lire son poids.
speech-encoder-title = L'encodeur lit le son
speech-encoder-cell-frame = une trame de 20 ms de côté
speech-encoder-cell-block = un bloc de { $block } trames ({ $ms } ms) de côté, la moyenne de ses requêtes
speech-encoder-caption = Avant qu'aucun mot ne soit écrit, l'auto-attention de l'encodeur : chaque trame de son (une ligne) sur toutes les trames (colonnes), sans masque — l'encodeur entend tout l'extrait dans les deux sens. Chaque case est { $cell } ; chaque ligne est mise à l'échelle de son propre pic. Le silence de remplissage après l'extrait est laissé de côté.
speech-encoder-layer = Couche de l'encodeur
speech-encoder-head = tête
speech-encoder-aria = L'auto-attention de l'encodeur : les trames de son en lignes et en colonnes
speech-decoder-title = Le décodeur lit ses propres mots
speech-decoder-caption = Pendant qu'il écrit, l'auto-attention causale du décodeur : la requête de chaque jeton (une ligne) sur les clés des jetons déjà écrits (colonnes) ; chaque ligne fait 1 au total. Les cases au-dessus de la diagonale sont grises : le masque causal cache les jetons pas encore écrits.
speech-decoder-layer = Couche du décodeur
speech-decoder-head = tête
speech-decoder-aria = L'auto-attention causale du décodeur : les jetons de la transcription en lignes (requêtes) et en colonnes (clés)
speech-decoder-readout = « { $query } » → « { $key } » : { $weight }
speech-decoder-masked = « { $query } » → « { $key } » : caché par le masque causal (« { $key } » est écrit plus tard)
speech-decoder-hover = Survolez une case pour lire son poids.
speech-heatmap-pad = pad
speech-heatmap-caption = L'attention croisée de chaque jeton au fil du temps ({ $which }) : une ligne par jeton, chacune à l'échelle de son propre pic ; à droite, la part de la ligne partie dans le silence de remplissage après l'extrait (Whisper lit toujours 30 s).
speech-heatmap-aria = Attention croisée : les jetons de la transcription en lignes, le temps en colonnes
speech-spectrogram-caption = Le spectrogramme du son (le temps en largeur, les aigus en haut), l'attention croisée du jeton choisi par-dessus ({ $which }), et les instants des mots d'après les têtes d'alignement. Touchez un mot pour l'entendre.
speech-spectrogram-aria = Spectrogramme avec l'attention du jeton choisi au fil du temps et les intervalles des mots
speech-readout = « { $token } » (jeton { $index }) : les poids de sa requête culminent à { $peak } sur { $from }–{ $to } s ; { $clip } % tombent sur l'extrait, { $padding } % sur le silence de remplissage qui le suit.
speech-readout-none = Choisissez un jeton ou un mot pour voir où il a écouté.

## Pas à pas sur le son

speech-step-title = Pas à pas : la requête d'un jeton sur le son
speech-step-caption = « { $token } » (jeton { $index }) dans la couche { $layer } du décodeur, tête { $head } : q vient du jeton du décodeur, k et v de la sortie de l'encodeur pour chaque trame de son de 20 ms.
speech-step-alignment = La moyenne des têtes d'alignement n'est pas une seule tête : ce pas à pas suit la première d'entre elles, couche { $layer }, tête { $head }.
speech-step-query = La requête du jeton ({ $count } nombres) :
speech-step-table-caption = Les { $count } trames de l'extrait auxquelles cette requête donne le plus de poids, la plus forte d'abord : la clé k de chaque trame, le produit scalaire q·k, ce score multiplié par l'échelle, et son poids a après le softmax sur les { $keys } trames.
speech-step-time = Temps (s)
speech-step-key = Clé k (premiers nombres)
speech-step-weight = Poids a = softmax
speech-step-padding = Les { $frames } trames de l'extrait prennent ensemble { $clip } du poids ; les { $pad } trames du silence de remplissage qui le suit prennent { $padding }.
speech-step-output = La sortie de la tête pour ce jeton ({ $count } nombres) :
speech-step-waiting = Calcul du pas à pas…
speech-step-failed = Le pas à pas n'a pas pu être calculé : { $message }

## L'onglet Traduction

translation-which-head = couche { $layer } du décodeur, tête { $head }
translation-which-layer = couche { $layer } du décodeur, moyenne de ses têtes
translation-which-head-mean = tête { $head }, moyenne sur les couches du décodeur
translation-which-mean = moyenne de toutes les couches et têtes du décodeur
translation-svg-title =
    { $model } : { $translation }
    attention croisée, { $which }
translation-export-aria = Exporter l'attention croisée
translation-export = Exporter
translation-export-json-title = Toutes les couches et têtes du décodeur, avec les jetons et la traduction
translation-heatmap-caption = Attention croisée, { $which } : chaque ligne est un mot cible, chaque colonne un mot source ; chaque ligne a pour somme 1.
translation-heatmap-aria = Attention croisée : les mots cibles en lignes, les mots sources en colonnes
translation-readout = « { $target } » → « { $source } » : { $weight } ({ $which })
translation-readout-none = Pointez une case, ou touchez-la, pour lire son poids.
translation-lines-aria = L'attention croisée en traits reliant chaque mot cible (en bas) aux mots sources (en haut)
translation-lines-caption = Traits, { $which } : la source en haut, la traduction en bas ; cliquez sur un mot cible pour suivre ses traits.
translation-target-word = Mot cible
translation-step-caption = « { $word } », couche { $layer } du décodeur, tête { $head } : q vient du décodeur (ce mot, après sa SSRU), k et v de la sortie de l'encodeur pour chaque mot source.
translation-step-caption-mean = « { $word } », couche { $layer } du décodeur, tête { $head } (le pas à pas suit une seule tête : choisissez une couche et une tête plus haut) : q vient du décodeur (ce mot, après sa SSRU), k et v de la sortie de l'encodeur pour chaque mot source.
translation-step-source = mot source j
translation-step-sum = Σ a_j = { $sum } (pas de masque : chaque mot source est visible par chaque mot cible).
translation-model-note = Le petit modèle de traduction de Bergamot : 6 couches d'auto-attention dans l'encodeur (les onglets Carte de chaleur, Grille de points et Toutes les têtes les montrent) et 2 couches dans le décodeur, dont les mots cibles portent leur attention sur les mots sources (l'onglet Traduction).
translation-empty = Choisissez un modèle de traduction (Traduire : anglais → portugais, ou portugais → anglais) pour voir l'attention croisée.
translation-layer = Couche
translation-mean-layers = Moyenne des couches
translation-decoder-layer = Couche { $layer } du décodeur
translation-head = Tête
translation-mean-heads = Moyenne des têtes
translation-head-n = Tête { $head }
translation-parts-aria = Les images de l'attention croisée
translation-part-heatmap = Carte de chaleur
translation-part-lines = Traits
translation-part-step = Un mot, pas à pas
translation-generate = ▶ Générer pas à pas
translation-candidate = { $token } { $percent } %
translation-generating = Étape { $step } sur { $total } : le modèle a choisi « { $token } » — parmi { $others }. Sa ligne ci-dessous montre où ce mot a regardé dans la source.
translation-no-self-attention = Pas d'auto-attention dans ce décodeur.{" "}
translation-no-self-attention-why = Ce décodeur n'a pas d'auto-attention. Pour être assez petite et rapide pour un navigateur, chacune de ses 2 couches remplace l'auto-attention sur les mots cibles précédents par une SSRU (une unité récurrente simple simplifiée) : un seul résumé courant des mots produits jusque-là, mis à jour par une porte d'oubli, au lieu de poids d'attention sur chacun d'eux. La seule attention du décodeur est donc l'attention croisée montrée ici : les requêtes viennent de la cible, les clés et les valeurs de la sortie de l'encodeur pour la source.
translation-provenance = D'où vient le modèle · licence : { $license }

## L'onglet Image

image-patch = patch { $row },{ $col }
image-none = L'onglet Image montre l'attention d'un modèle de vision sur son image. Ouvrez une trace de vision : une trace écrite par attnscope.trace_image (Python) à partir d'un modèle ViT, DeiT, DINOv2 ou CLIP.
image-rollout-computing = Rollout : calcul à travers toutes les couches…
image-rollout-caption = Rollout après les { $layers } couches, toutes les têtes moyennées : la part de l'entrée de chaque patch qui atteint { $query }, par l'attention et le chemin résiduel ; de 0 au plus grand, { $top } ; { $share } % vient des { $patches } patchs, le reste { $specials ->
        [one] du jeton spécial
       *[other] des { $specials } jetons spéciaux
    }.
image-layer-head = Couche { $layer } · tête { $head }
image-head-reading = { $head } : lecture des poids de la tête…
image-head-caption = { $head } : où regarde { $query }. Chaque patch est teinté par le poids que la requête lui donne, de 0 au plus grand, { $top } ; { $share } % de son poids va aux { $patches } patchs, le reste { $specials ->
        [one] au jeton spécial
       *[other] aux { $specials } jetons spéciaux
    }.
image-readout-most = Poids le plus fort : { $patch } ({ $weight })
image-readout-under = sous le pointeur : { $patch }, { $weight } (rang { $rank } sur { $count })
image-queries-aria = Jeton de la requête
image-hint = ou cliquez sur un patch (les flèches le déplacent)
image-show = Afficher
image-source-head = la tête choisie
image-source-rollout = le rollout à travers toutes les couches
image-tint = Teinte
image-overlay-aria = L'image découpée en { $rows } × { $cols } patchs, teintée par l'attention de { $query }
image-heads-tile = tête { $head }
image-heads-summary = Toutes les têtes de la couche { $layer } côte à côte
image-heads-caption = La même requête dans chaque tête, chacune teintée de 0 à son propre plus grand poids ; un clic choisit une tête.
image-heads-aria = Les têtes de la couche { $layer } côte à côte
image-steps-aria = Requête, clés et un poids
image-step-query-label = Requête :{" "}
image-step-keys-label = Clés :{" "}
image-step-weight-label = Poids :{" "}
image-step-query = { $query } : son vecteur q, de { $dims } nombres, demande ce que ce jeton cherche.
image-step-query-none = { $query } (la trace ne contient ni requêtes ni clés).
image-step-keys = les { $n } jetons, les { $patches } patchs et { $specials } spéciaux : chacun offre un vecteur k.
image-step-weight = la clé à laquelle elle donne le plus de poids est { $key } : q·k = { $score }, × { $scale } (1/√{ $dims }) = { $scaled } ; le softmax sur les { $n } scores lui donne { $weight }, la teinte de son patch.
image-step-weight-plain = la clé à laquelle elle donne le plus de poids est { $key }, avec { $weight }.

# The axes of the exported cross-attention heatmap (PNG, SVG).
translation-axis-keys = clés →
translation-axis-queries = requêtes ↓
