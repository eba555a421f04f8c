# attnscope, French: presets

preset-picker-label = Exemple
preset-choose = Choisissez une phrase…
preset-english-group = Phrases en anglais

preset-pair = « { $query } » → « { $key } » est le plus fort dans la couche { $layer }, tête { $head } : poids { $weight }
preset-measure = « { $measure } » le plus fort : couche { $layer }, tête { $head } ({ $value })
preset-induction = Induction la plus forte : couche { $layer }, tête { $head } (poids moyen { $value })
preset-switch = Mieux avec { $model } ({ $size } MB à télécharger) — changer
preset-multilingual = MiniLM et SmolLM2 ont été entraînés sur des textes anglais : pour cette phrase, ouvrez depuis vos fichiers un modèle multilingue comme Qwen2.5 ou Gemma 3.

# Phrases anglaises : les mots cités restent en anglais.
preset-fluffy-label = La créature bleue et duveteuse
preset-fluffy-note = Les noms rassemblent leurs adjectifs : suivez « creature » et voyez à quels mots il prête attention.
preset-animal-label = Qui est « it » ? (l'animal)
preset-animal-note = À quoi « it » prête-t-il attention ? Remplacez « tired » par « wide » et regardez à nouveau.
preset-trophy-label = Qui est « it » ? (le trophée)
preset-trophy-note = La même question, avec une variante : remplacez « big » par « small » — « it » passe-t-il à « suitcase » ?
preset-capital-label = La capitale de la France est …
preset-capital-note = Un décodeur devine le jeton suivant : SmolLM2 place «  Paris » en tête. Quelles têtes amènent « France » jusqu'au dernier jeton ?
preset-repeat-label = Une suite aléatoire, répétée
preset-repeat-note = Les têtes du jeton précédent éclairent la ligne juste sous la diagonale ; les têtes d'induction font regarder à chaque mot de la seconde copie le mot qui le suivait la première fois.
preset-sink-label = Le puits du premier jeton
preset-sink-note = Les têtes qui n'ont rien à faire posent leur poids sur le premier jeton, le « puits d'attention » : cherchez une première colonne claire.

preset-pt-criatura-label = Portugais : la créature bleue et duveteuse
preset-pt-criatura-note = En portugais, les adjectifs suivent le nom : suivez « criatura » et voyez à quels mots elle prête attention. Traduits en anglais, ils passent devant : regardez l'attention croisée.
preset-pt-cachorro-label = Portugais : qui est « ele » ? (le chien)
preset-pt-cachorro-note = « ele » prête-t-il attention à « cachorro » ? Remplacez « ele estava muito cansado » par « ela era estreita demais » : le pronom féminin renvoie maintenant à « rua ».
preset-pt-gatos-label = Portugais : chats noirs (traduction)
preset-pt-gatos-note = « gatos pretos » devient « black cats » : dans l'attention croisée, les mots anglais regardent les mots portugais dans l'ordre inverse. À quels mots « gatos » prête-t-il attention ?
preset-pt-capital-label = Portugais : la capitale du Portugal est …
preset-pt-capital-note = Un décodeur devine le jeton suivant : «  Lisboa » figure-t-il parmi les choix de SmolLM2 ? Quelles têtes amènent « Portugal » jusqu'au dernier jeton ?
preset-pt-sequencia-label = Portugais : une suite aléatoire, répétée
preset-pt-sequencia-note = Des mots sans lien, qu'un modèle entraîné sur l'anglais recopie tout aussi bien : les têtes du jeton précédent éclairent la ligne sous la diagonale ; les têtes d'induction font regarder à chaque mot de la seconde copie le mot qui le suivait la première fois.

preset-es-criatura-label = Espagnol : la créature bleue et duveteuse
preset-es-criatura-note = En espagnol, les adjectifs suivent le nom : un encodeur laisse « criatura » les regarder en avant, là où le masque causal d'un décodeur les cacherait. À quels mots « criatura » prête-t-elle attention ?
preset-es-perro-label = Espagnol : qui était fatigué ? (le chien)
preset-es-perro-note = L'espagnol omet le pronom : à quoi « cansado » prête-t-il attention ? Remplacez-le par « ancha » : la terminaison féminine renvoie maintenant à « calle ».
preset-es-capital-label = Espagnol : la capitale de l'Espagne est …
preset-es-capital-note = Un décodeur devine le jeton suivant : «  Madrid » figure-t-il parmi les choix de SmolLM2 ? Quelles têtes amènent « España » jusqu'au dernier jeton ?
preset-es-secuencia-label = Espagnol : une suite aléatoire, répétée
preset-es-secuencia-note = Des mots sans lien, qu'un modèle entraîné sur l'anglais recopie tout aussi bien : les têtes du jeton précédent éclairent la ligne sous la diagonale ; les têtes d'induction font regarder à chaque mot de la seconde copie le mot qui le suivait la première fois.
preset-es-sumidero-label = Espagnol : le puits du premier jeton
preset-es-sumidero-note = Dans toutes les langues, les têtes qui n'ont rien à faire posent leur poids sur le premier jeton, le « puits d'attention » : cherchez une première colonne claire.

preset-fr-creature-label = La créature bleue et duveteuse
preset-fr-creature-note = En français, l'adjectif suit souvent le nom : un encodeur laisse « créature » regarder en avant, là où le masque causal d'un décodeur le cacherait. À quels mots « créature » prête-t-elle attention ?
preset-fr-jane-label = Jane visite l'Afrique
preset-fr-jane-note = L'exemple du cours : la représentation de « l'Afrique » se construit à partir des mots qui l'entourent. « Afrique » prête-t-il attention à « visite », à « septembre » ?
preset-fr-chat-label = Qui est « il » ? (le chat)
preset-fr-chat-note = « il » prête-t-il attention à « chat » ? Remplacez « qu'il était trop fatigué » par « qu'elle était trop large » : le pronom féminin renvoie maintenant à « rue ».
preset-fr-capitale-label = La capitale de la France est …
preset-fr-capitale-note = Un décodeur devine le jeton suivant : «  Paris » figure-t-il parmi les choix de SmolLM2 ? Quelles têtes amènent « France » jusqu'au dernier jeton ?
preset-fr-sequence-label = Une suite aléatoire, répétée
preset-fr-sequence-note = Des mots sans lien, qu'un modèle entraîné sur l'anglais recopie tout aussi bien : les têtes du jeton précédent éclairent la ligne sous la diagonale ; les têtes d'induction font regarder à chaque mot de la seconde copie le mot qui le suivait la première fois.

preset-de-wesen-label = Allemand : la créature bleue et duveteuse
preset-de-wesen-note = Comme en anglais, les adjectifs précèdent le nom, et leurs terminaisons s'accordent avec lui : suivez « Wesen » et voyez à quels mots il prête attention.
preset-de-vogel-label = Allemand : qui est « er » ? (l'oiseau)
preset-de-vogel-note = « er » est masculin comme « Vogel », alors que « Katze » est féminin : « er » prête-t-il attention à « Vogel » ? Remplacez « er zu schnell » par « sie zu langsam » et regardez à nouveau.
preset-de-pokal-label = Allemand : qui est « er » ? (le trophée)
preset-de-pokal-note = Ici, le genre n'aide pas : « Pokal » et « Koffer » sont tous deux masculins. Remplacez « groß » par « klein » : « er » passe-t-il à « Koffer » ?
preset-de-hauptstadt-label = Allemand : la capitale de l'Allemagne est …
preset-de-hauptstadt-note = Un décodeur devine le jeton suivant : «  Berlin » figure-t-il parmi les choix de SmolLM2 ? Quelles têtes amènent « Deutschland » jusqu'au dernier jeton ?
preset-de-folge-label = Allemand : une suite aléatoire, répétée
preset-de-folge-note = Des mots sans lien, qu'un modèle entraîné sur l'anglais recopie tout aussi bien : les têtes du jeton précédent éclairent la ligne sous la diagonale ; les têtes d'induction font regarder à chaque mot de la seconde copie le mot qui le suivait la première fois.

preset-zh-shengwu-label = Chinois : la créature bleue et duveteuse
preset-zh-shengwu-note = Comme en anglais, les adjectifs précèdent le nom, reliés par « 的 » : suivez « 生物 » et voyez à quels mots il prête attention.
preset-zh-xiaomao-label = Chinois : qui est « 它 » ? (le chaton)
preset-zh-xiaomao-note = « 它 » prête-t-il attention à « 小猫 » ? Remplacez « 太累了 » par « 太宽了 » et regardez à nouveau.
preset-zh-shoudu-label = Chinois : la capitale de la Chine est …
preset-zh-shoudu-note = Un décodeur devine le jeton suivant : « 北京 » figure-t-il parmi ses choix ? Quelles têtes amènent « 中国 » jusqu'au dernier jeton ?
preset-zh-xulie-label = Chinois : une suite aléatoire, répétée
preset-zh-xulie-note = Des mots sans lien, qu'un modèle entraîné sur l'anglais recopie tout aussi bien, octet par octet : les têtes du jeton précédent éclairent la ligne sous la diagonale ; les têtes d'induction font regarder à chaque jeton de la seconde copie le jeton qui le suivait la première fois.
