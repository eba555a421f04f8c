//! The teaching model's words: a text cut into words (emoji and kana one per
//! token, Chinese cut into words by the longest match in a small lexicon),
//! and each word's part of speech from small lexicons, or guessed from its
//! ending.
//!
//! Lexicons are looked up in a fixed order, and the first that knows a word
//! decides its class: English, then Portuguese, French, Spanish, German and
//! Chinese. English comes first so that English sentences read exactly as
//! they did before the other languages came: a word the English lexicon
//! knows keeps its English class even in a foreign sentence ("a", "no", "do",
//! "on", "an" stay determiner, determiner, verb, preposition, determiner),
//! and a foreign word that is also a common English word ("die", "den",
//! "war", "hat", "son", "sin", "pour", "par", "chat", "grand", …) is left out
//! of the foreign lexicons, so that it is still guessed as it was. Where two
//! foreign languages share a spelling, the earlier one wins ("le" is the
//! French article, not the Spanish pronoun; "es" the Spanish verb, not the
//! German pronoun; "du" the French contraction, not the German pronoun).

use super::{Token, ADJ, DET, NOUN, NUM, PRON, PUNCT, VERB};

const ADV: usize = 4;
const PREP: usize = 6;
const CONJ: usize = 7;

/// A lexicon: lists of words, each list with its part of speech.
type Lexicon = [(&'static [&'static str], usize)];

fn is_joiner(c: char) -> bool {
    // Zero-width joiner, variation selectors and skin-tone modifiers belong to
    // the symbol before them (👩‍🚀 is one token, not three).
    matches!(c, '\u{200D}' | '\u{FE00}'..='\u{FE0F}' | '\u{1F3FB}'..='\u{1F3FF}' | '\u{20E3}')
}

fn is_ideograph(c: char) -> bool {
    // Scripts written without spaces: one character per token.
    matches!(c, '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}')
}

fn is_han(c: char) -> bool {
    // Chinese characters (the ideographs of `is_ideograph` without kana):
    // cut into words by the Chinese lexicon.
    matches!(c, '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}')
}

fn is_cjk_punctuation(c: char) -> bool {
    // Ideographic punctuation (、。「」《》…) and full-width forms (，！？：；（）…).
    // “ ” ‘ ’ are shared with English typography and stay as they were.
    (('\u{3000}'..='\u{303F}').contains(&c) || ('\u{FF01}'..='\u{FF65}').contains(&c))
        && !c.is_alphanumeric()
        && !c.is_whitespace()
}

pub(super) fn split_words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut han = String::new(); // a run of Chinese characters, cut when it ends
    let mut glue_next = false; // after a zero-width joiner the next symbol joins the last token
    for c in text.chars() {
        if is_han(c) && !glue_next {
            if !word.is_empty() {
                push_word(&mut words, std::mem::take(&mut word));
            }
            han.push(c);
            continue;
        }
        if !han.is_empty() {
            segment_chinese(&mut words, &std::mem::take(&mut han));
        }
        if glue_next || is_joiner(c) {
            if !word.is_empty() {
                push_word(&mut words, std::mem::take(&mut word));
            }
            if let Some(last) = words.last_mut() {
                last.push(c);
            }
            glue_next = c == '\u{200D}';
            continue;
        }
        let continues_word =
            !word.is_empty() && (matches!(c, '\'' | '’') || ('\u{300}'..='\u{36F}').contains(&c));
        if (c.is_alphanumeric() && !is_ideograph(c)) || continues_word {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            push_word(&mut words, std::mem::take(&mut word));
        }
        if !c.is_whitespace() && !c.is_control() {
            words.push(c.to_string());
        }
    }
    if !han.is_empty() {
        segment_chinese(&mut words, &han);
    }
    if !word.is_empty() {
        push_word(&mut words, word);
    }
    words
}

/// French elision: "l'Afrique", "qu'il", "n'a" become "l'" "Afrique", "qu'"
/// "il", "n'" "a". Only these elided words are split off, and never before
/// an English ending ("D's", "didn't", "I'll" stay whole).
fn push_word(words: &mut Vec<String>, word: String) {
    const ELIDED: [&str; 12] =
        ["l", "d", "j", "m", "n", "s", "t", "c", "qu", "jusqu", "lorsqu", "puisqu"];
    const ENGLISH_ENDINGS: [&str; 7] = ["s", "t", "d", "ll", "re", "ve", "m"];
    const ENGLISH_WORDS: [&str; 5] = ["c'mon", "d'you", "d'ya", "s'pose", "m'lady"];
    let mut rest = word.as_str();
    while let Some(at) = rest.find(['\'', '’']) {
        let after = &rest[at + rest[at..].chars().next().map_or(1, char::len_utf8)..];
        let next = after.split(['\'', '’']).next().unwrap_or("").to_lowercase();
        let split = ELIDED.contains(&rest[..at].to_lowercase().as_str())
            && after.chars().next().is_some_and(char::is_alphabetic)
            && !ENGLISH_ENDINGS.contains(&next.as_str())
            && !ENGLISH_WORDS.contains(&rest.to_lowercase().replace('’', "'").as_str());
        if !split {
            break;
        }
        words.push(rest[..rest.len() - after.len()].to_string());
        rest = after;
    }
    words.push(rest.to_string());
}

/// Greedy longest match against the Chinese lexicon; a character that starts
/// no lexicon word is a token of its own.
fn segment_chinese(words: &mut Vec<String>, run: &str) {
    let chars: Vec<char> = run.chars().collect();
    let longest = CHINESE
        .iter()
        .flat_map(|(list, _)| list.iter())
        .map(|w| w.chars().count())
        .max()
        .unwrap_or(1);
    let mut i = 0;
    while i < chars.len() {
        let len = (2..=longest.min(chars.len() - i))
            .rev()
            .find(|&len| {
                let candidate: String = chars[i..i + len].iter().collect();
                in_lexicon(&CHINESE, &candidate).is_some()
            })
            .unwrap_or(1);
        words.push(chars[i..i + len].iter().collect());
        i += len;
    }
}

pub(super) fn classify(word: &str) -> Token {
    let lower = word.to_lowercase();
    if let Some(p) = lexicon(&lower.replace('’', "'"), word) {
        return Token { text: word.to_string(), part_of_speech: Some(p), guessed: false };
    }
    let first = word.chars().next().unwrap_or(' ');
    let (pos, guessed) = if word.chars().all(|c| c.is_ascii_digit() || c == '.' || c == ',')
        && first.is_ascii_digit()
    {
        (Some(NUM), false)
    } else if word.chars().count() == 1
        && (first.is_ascii_punctuation() || is_cjk_punctuation(first))
    {
        (Some(PUNCT), false)
    } else if !first.is_alphanumeric() {
        (None, false)
    } else {
        (Some(guess_from_ending(&lower, first.is_uppercase())), true)
    };
    Token { text: word.to_string(), part_of_speech: pos, guessed }
}

fn guess_from_ending(lower: &str, capitalised: bool) -> usize {
    const ADVERB: [&str; 1] = ["ly"];
    const VERB_ENDINGS: [&str; 4] = ["ing", "ed", "ize", "ise"];
    const ADJ_ENDINGS: [&str; 10] =
        ["ous", "ful", "ive", "less", "able", "ible", "ic", "ish", "ant", "ent"];
    let ends = |set: &[&str]| set.iter().any(|e| lower.len() > e.len() + 2 && lower.ends_with(e));
    if capitalised {
        NOUN // a name
    } else if ends(&ADVERB) {
        4
    } else if ends(&VERB_ENDINGS) {
        VERB
    } else if ends(&ADJ_ENDINGS) {
        ADJ
    } else {
        NOUN
    }
}

/// The lexicons in the order described at the top of this file. `word` is
/// in small letters; `original` as written. A word written in capitals (AI,
/// LA, MIT) is an English acronym and only looked up in English.
fn lexicon(word: &str, original: &str) -> Option<usize> {
    let acronym = original.chars().filter(|c| c.is_uppercase()).count() > 1
        && !original.chars().any(char::is_lowercase);
    let capitalised = original.chars().next().is_some_and(char::is_uppercase);
    in_lexicon(&ENGLISH, word).or_else(|| {
        if acronym {
            return None;
        }
        in_lexicon(&PORTUGUESE, word)
            .or_else(|| in_lexicon(&FRENCH, word))
            .or_else(|| in_lexicon(&SPANISH, word))
            .or_else(|| german(word, capitalised))
            .or_else(|| in_lexicon(&CHINESE, word))
    })
}

fn in_lexicon(lexicon: &Lexicon, word: &str) -> Option<usize> {
    lexicon.iter().find(|(list, _)| list.contains(&word)).map(|&(_, p)| p)
}

const ENGLISH: [(&[&str], usize); 8] = [
    (
        &[
            "a", "an", "the", "this", "that", "these", "those", "my", "your", "his", "her", "its",
            "our", "their", "every", "each", "some", "any", "no", "all", "another",
        ],
        DET,
    ),
    (
        &[
            "fluffy",
            "blue",
            "verdant",
            "red",
            "green",
            "yellow",
            "black",
            "white",
            "big",
            "small",
            "little",
            "large",
            "tiny",
            "old",
            "young",
            "new",
            "good",
            "bad",
            "happy",
            "sad",
            "quick",
            "slow",
            "brown",
            "lazy",
            "bright",
            "dark",
            "tall",
            "short",
            "long",
            "warm",
            "cold",
            "hot",
            "soft",
            "hard",
            "quiet",
            "loud",
            "beautiful",
            "ancient",
            "gentle",
            "wild",
            "clever",
            "strange",
            "deep",
            "wide",
            "golden",
            "second",
            "first",
            "last",
            "great",
            "high",
            "low",
            "free",
            "full",
            "empty",
            "real",
            "true",
            "false",
            "sweet",
            "bitter",
            "calm",
        ],
        ADJ,
    ),
    (
        &[
            "creature",
            "forest",
            "cat",
            "dog",
            "fox",
            "bird",
            "tree",
            "river",
            "mountain",
            "sky",
            "sun",
            "moon",
            "house",
            "city",
            "child",
            "man",
            "woman",
            "people",
            "teacher",
            "student",
            "book",
            "word",
            "sentence",
            "model",
            "head",
            "attention",
            "time",
            "day",
            "night",
            "world",
            "water",
            "fire",
            "road",
            "car",
            "computer",
            "music",
            "song",
            "exam",
            "second",
            "minute",
            "hour",
            "year",
            "friend",
            "king",
            "queen",
            "garden",
            "flower",
            "sea",
            "ocean",
            "field",
            "village",
            "story",
            "question",
            "answer",
            "idea",
            "heart",
            "hand",
            "eye",
            "table",
            "chair",
            "door",
            "window",
            "school",
            "paris",
            "france",
            "capital",
            "language",
            "machine",
        ],
        NOUN,
    ),
    (
        &[
            "roamed", "is", "are", "was", "were", "be", "been", "am", "has", "have", "had", "do",
            "does", "did", "give", "gave", "came", "come", "go", "went", "see", "saw", "run",
            "ran", "jumps", "jumped", "walk", "walked", "eat", "ate", "sleeps", "slept", "sings",
            "sang", "reads", "read", "wrote", "write", "loves", "love", "likes", "like", "make",
            "made", "take", "took", "know", "knew", "think", "thought", "say", "said", "roam",
            "roams", "flew", "fly", "flies", "swam", "swim", "sat", "sit", "found", "find", "can",
            "will", "would", "could", "should", "may", "might", "must",
        ],
        VERB,
    ),
    (
        &[
            "very", "quickly", "slowly", "quietly", "often", "never", "always", "soon", "now",
            "then", "here", "there", "not", "too", "also", "still", "just",
        ],
        4,
    ),
    (
        &[
            "i",
            "you",
            "he",
            "she",
            "it",
            "we",
            "they",
            "me",
            "him",
            "us",
            "them",
            "who",
            "what",
            "which",
            "something",
            "someone",
        ],
        PRON,
    ),
    (
        &[
            "in", "on", "at", "over", "under", "through", "with", "without", "from", "to", "of",
            "by", "for", "into", "across", "near", "after", "before", "about", "between",
        ],
        6,
    ),
    (&["and", "or", "but", "so", "because", "while", "if", "when", "although", "yet"], 7),
];

const PORTUGUESE: [(&[&str], usize); 8] = [
    (
        &[
            "o", "os", "um", "uma", "uns", "umas", "este", "esta", "estes", "estas", "esse",
            "essa", "esses", "essas", "aquele", "aquela", "meu", "minha", "meus", "minhas", "teu",
            "tua", "seu", "sua", "seus", "suas", "nosso", "nossa", "cada", "toda", "todos",
            "todas", "outro", "outra", "algum", "alguma", "nenhum", "nenhuma",
        ],
        DET,
    ),
    (
        &[
            "azul",
            "azuis",
            "fofa",
            "fofo",
            "fofas",
            "fofos",
            "verdejante",
            "verde",
            "verdes",
            "vermelho",
            "vermelha",
            "amarelo",
            "amarela",
            "preto",
            "preta",
            "pretos",
            "pretas",
            "branco",
            "branca",
            "grande",
            "grandes",
            "pequeno",
            "pequena",
            "pequenos",
            "cansado",
            "cansada",
            "feliz",
            "triste",
            "rápido",
            "rápida",
            "lento",
            "lenta",
            "velho",
            "velha",
            "novo",
            "bom",
            "má",
            "mau",
            "bonita",
            "baixo",
            "baixa",
            "quente",
            "frio",
            "fria",
            "escuro",
            "escura",
            "lindo",
            "selvagem",
            "inteligente",
            "doce",
            "calmo",
            "cheio",
            "vazio",
            "primeiro",
            "primeira",
            "último",
            "longo",
            "curto",
            "preguiçoso",
            "marrom",
        ],
        ADJ,
    ),
    (
        &[
            "criatura",
            "floresta",
            "cachorro",
            "cão",
            "gato",
            "gatos",
            "gata",
            "rua",
            "menina",
            "menino",
            "lado",
            "portugal",
            "animais",
            "pássaro",
            "árvore",
            "montanha",
            "céu",
            "lua",
            "casa",
            "cidade",
            "criança",
            "homem",
            "mulher",
            "pessoa",
            "aluno",
            "livro",
            "palavra",
            "frase",
            "modelo",
            "dia",
            "noite",
            "mundo",
            "água",
            "fogo",
            "estrada",
            "carro",
            "música",
            "amiga",
            "rei",
            "rainha",
            "jardim",
            "flor",
            "escola",
            "brasil",
            "lisboa",
            "robô",
            "raposa",
            "peixe",
            "cavalo",
            "porta",
            "janela",
            "ano",
            "hora",
            "país",
            "língua",
            "história",
            "pergunta",
            "resposta",
            "mãe",
            "pai",
            "capital",
            "rato",
            "coelho",
            "pato",
        ],
        NOUN,
    ),
    (
        &[
            "é",
            "são",
            "está",
            "estão",
            "estava",
            "estavam",
            "eram",
            "foi",
            "ser",
            "estar",
            "tem",
            "têm",
            "tinha",
            "há",
            "vagava",
            "vaga",
            "vagou",
            "atravessou",
            "atravessa",
            "mora",
            "morava",
            "adora",
            "adorava",
            "gosta",
            "gostava",
            "ama",
            "come",
            "comeu",
            "corre",
            "correu",
            "dorme",
            "dormiu",
            "canta",
            "lê",
            "escreve",
            "voa",
            "nada",
            "pode",
            "quer",
            "sabe",
            "faz",
            "vai",
            "vê",
            "viu",
            "diz",
            "disse",
            "pinta",
            "pintar",
            "caçou",
            "pegou",
            "coube",
            "cabia",
            "visita",
            "vive",
            "viveu",
        ],
        VERB,
    ),
    (
        &[
            "não",
            "muito",
            "demais",
            "sempre",
            "nunca",
            "já",
            "também",
            "aqui",
            "agora",
            "depois",
            "antes",
            "bem",
            "mal",
            "mais",
            "menos",
            "tão",
            "ainda",
            "devagar",
            "rapidamente",
        ],
        ADV,
    ),
    (
        &[
            "eu", "tu", "ele", "ela", "nós", "vós", "eles", "elas", "você", "vocês", "lhe", "lhes",
            "se", "que", "quem", "algo", "alguém", "isto", "isso",
        ],
        PRON,
    ),
    (
        &[
            "de", "da", "em", "na", "nas", "nos", "num", "numa", "pela", "pelo", "pelas", "pelos",
            "ao", "aos", "à", "às", "para", "por", "com", "sem", "sobre", "entre", "até", "perto",
            "dentro", "através",
        ],
        PREP,
    ),
    (&["e", "ou", "mas", "porque", "pois", "quando", "enquanto", "embora", "porém"], CONJ),
];

const FRENCH: [(&[&str], usize); 8] = [
    (
        &[
            "l'", "le", "la", "les", "un", "une", "ce", "cet", "cette", "ces", "mon", "sa", "mes",
            "tes", "ses", "notre", "votre", "nos", "vos", "leur", "leurs", "chaque", "toute",
            "tous", "toutes", "aucun", "aucune", "quelques",
        ],
        DET,
    ),
    (
        &[
            "bleue",
            "bleu",
            "bleus",
            "bleues",
            "duveteuse",
            "duveteux",
            "duveteuses",
            "verdoyante",
            "verdoyant",
            "verdoyantes",
            "vert",
            "verte",
            "verts",
            "jaune",
            "noir",
            "noire",
            "noirs",
            "noires",
            "blanc",
            "grande",
            "grandes",
            "petit",
            "petits",
            "fatigué",
            "fatiguée",
            "fatigués",
            "heureux",
            "heureuse",
            "triste",
            "rapide",
            "lente",
            "vieux",
            "vieille",
            "nouveau",
            "nouvelle",
            "bon",
            "bonne",
            "mauvais",
            "chaud",
            "chaude",
            "froid",
            "froide",
            "doux",
            "douce",
            "calme",
            "sauvage",
            "gentil",
            "gentille",
            "joli",
            "jolie",
            "haut",
            "haute",
            "plein",
            "pleine",
            "vide",
            "dernier",
            "dernière",
            "seul",
            "seule",
            "paresseux",
            "marron",
        ],
        ADJ,
    ),
    (
        &[
            "créature",
            "forêt",
            "chien",
            "chiens",
            "capitale",
            "afrique",
            "septembre",
            "oiseau",
            "arbre",
            "rivière",
            "montagne",
            "ciel",
            "soleil",
            "lune",
            "maison",
            "ville",
            "enfant",
            "homme",
            "femme",
            "personne",
            "professeur",
            "élève",
            "modèle",
            "jour",
            "nuit",
            "monde",
            "eau",
            "feu",
            "voiture",
            "musique",
            "ami",
            "amie",
            "roi",
            "reine",
            "jardin",
            "fleur",
            "mer",
            "école",
            "renard",
            "poisson",
            "cheval",
            "porte",
            "fenêtre",
            "année",
            "heure",
            "langue",
            "histoire",
            "réponse",
            "mère",
            "père",
            "fille",
            "garçon",
            "souris",
            "lapin",
            "tasse",
            "trophée",
        ],
        NOUN,
    ),
    (
        &[
            "est",
            "sont",
            "était",
            "étaient",
            "être",
            "ai",
            "ont",
            "avait",
            "avaient",
            "avoir",
            "vais",
            "vont",
            "aller",
            "fait",
            "faire",
            "peut",
            "veut",
            "sait",
            "voit",
            "aime",
            "adorait",
            "dort",
            "chante",
            "écrit",
            "nage",
            "errait",
            "erre",
            "visite",
            "visitait",
            "traversé",
            "traversait",
            "attrapé",
            "attrape",
            "habite",
            "marche",
            "regarde",
            "trouve",
            "pense",
            "parle",
            "joue",
            "peint",
            "dessine",
            "rentrait",
            "entrait",
        ],
        VERB,
    ),
    (
        &[
            "n'",
            "ne",
            "pas",
            "très",
            "trop",
            "bien",
            "mal",
            "toujours",
            "jamais",
            "souvent",
            "déjà",
            "aussi",
            "ici",
            "là",
            "maintenant",
            "puis",
            "moins",
            "vite",
            "beaucoup",
            "peu",
            "ensuite",
            "hier",
            "demain",
            "aujourd'hui",
            "oui",
        ],
        ADV,
    ),
    (
        &[
            "je",
            "j'",
            "tu",
            "il",
            "elle",
            "nous",
            "vous",
            "ils",
            "elles",
            "me",
            "m'",
            "te",
            "t'",
            "se",
            "s'",
            "lui",
            "eux",
            "qui",
            "quoi",
            "c'",
            "ça",
            "cela",
            "quelqu'un",
        ],
        PRON,
    ),
    (
        &[
            "d'", "de", "du", "des", "au", "aux", "à", "en", "dans", "sur", "avec", "sans", "sous",
            "chez", "vers", "entre", "après", "avant", "depuis", "contre", "jusqu'", "près",
        ],
        PREP,
    ),
    (
        &[
            "qu'", "que", "et", "ou", "mais", "donc", "parce", "quand", "si", "comme", "puisque",
            "lorsque", "lorsqu'", "puisqu'",
        ],
        CONJ,
    ),
];

const SPANISH: [(&[&str], usize); 8] = [
    (
        &[
            "el", "una", "los", "las", "unos", "unas", "estos", "ese", "esa", "esos", "esas",
            "aquel", "aquella", "mi", "mis", "tus", "su", "sus", "nuestro", "nuestra", "ningún",
            "ninguna", "algún", "otros", "otras",
        ],
        DET,
    ),
    (
        &[
            "esponjosa",
            "esponjoso",
            "frondoso",
            "frondosa",
            "rojo",
            "roja",
            "amarilla",
            "negra",
            "pequeño",
            "pequeña",
            "pequeños",
            "rápido",
            "viejo",
            "vieja",
            "nuevo",
            "nueva",
            "bueno",
            "buena",
            "malo",
            "bajo",
            "caliente",
            "frío",
            "oscuro",
            "hermoso",
            "hermosa",
            "azules",
            "tranquilo",
            "lleno",
            "vacío",
            "primero",
            "corto",
            "perezoso",
            "alegre",
            "bonita",
            "feliz",
        ],
        ADJ,
    ),
    (
        &[
            "criatura",
            "bosque",
            "perro",
            "perros",
            "gatos",
            "calle",
            "españa",
            "vez",
            "pájaro",
            "árbol",
            "río",
            "montaña",
            "cielo",
            "luna",
            "ciudad",
            "niño",
            "niña",
            "hombre",
            "mujer",
            "libro",
            "palabra",
            "tiempo",
            "día",
            "noche",
            "mundo",
            "agua",
            "fuego",
            "camino",
            "coche",
            "música",
            "rey",
            "reina",
            "jardín",
            "escuela",
            "zorro",
            "pez",
            "caballo",
            "puerta",
            "ventana",
            "año",
            "país",
            "idioma",
            "historia",
            "pregunta",
            "respuesta",
            "madre",
            "conejo",
            "ratón",
            "maleta",
            "trofeo",
        ],
        NOUN,
    ),
    (
        &[
            "es",
            "está",
            "están",
            "estaba",
            "estaban",
            "fue",
            "fueron",
            "ser",
            "estar",
            "había",
            "tiene",
            "tienen",
            "tenía",
            "recorría",
            "recorre",
            "cruzó",
            "cruza",
            "encantaba",
            "encanta",
            "pintar",
            "vive",
            "vivía",
            "gusta",
            "gustaba",
            "corre",
            "correr",
            "camina",
            "duerme",
            "dormir",
            "canta",
            "escribe",
            "vuela",
            "puede",
            "quiere",
            "sabe",
            "hace",
            "va",
            "ir",
            "ve",
            "ver",
            "vio",
            "llegó",
            "atrapó",
            "persiguió",
            "cabía",
            "visita",
        ],
        VERB,
    ),
    (
        &[
            "muy",
            "demasiado",
            "siempre",
            "nunca",
            "ya",
            "también",
            "aquí",
            "allí",
            "ahora",
            "después",
            "antes",
            "bien",
            "más",
            "menos",
            "todavía",
            "rápidamente",
            "lentamente",
            "sí",
        ],
        ADV,
    ),
    (
        &[
            "tú", "él", "ella", "nosotros", "ellos", "ellas", "usted", "lo", "que", "quien", "qué",
            "algo", "alguien",
        ],
        PRON,
    ),
    (
        &[
            "del", "al", "en", "desde", "hacia", "hasta", "para", "por", "sobre", "entre", "bajo",
            "cerca", "dentro",
        ],
        PREP,
    ),
    (&["y", "o", "pero", "porque", "cuando", "aunque", "mientras", "si", "pues"], CONJ),
];

/// German adjectives by stem, matched with any of the endings -e, -en, -er,
/// -es, -em (forms that are English words are left out below).
const GERMAN_ADJECTIVE_STEMS: [&str; 40] = [
    "flauschig",
    "blau",
    "grün",
    "gelb",
    "schwarz",
    "weiß",
    "braun",
    "klein",
    "groß",
    "alt",
    "jung",
    "neu",
    "gut",
    "schlecht",
    "glücklich",
    "traurig",
    "müde",
    "schnell",
    "langsam",
    "schön",
    "kalt",
    "heiß",
    "dunkel",
    "ruhig",
    "laut",
    "leise",
    "süß",
    "klug",
    "lieb",
    "dick",
    "dünn",
    "voll",
    "leer",
    "erst",
    "letzt",
    "hell",
    "faul",
    "grau",
    "wild",
    "lang",
];
/// Inflected forms of those stems that are English words.
const GERMAN_NOT_ADJECTIVES: [&str; 13] = [
    "gut", "alter", "dick", "leer", "hell", "laut", "lange", "lang", "alt", "kluge", "kluges",
    "dicker", "wilder",
];

const GERMAN: [(&[&str], usize); 7] = [
    (
        &[
            "der", "das", "dem", "des", "ein", "eine", "einen", "einem", "einer", "eines", "kein",
            "keine", "keinen", "dieser", "diese", "dieses", "diesen", "jeder", "jede", "jedes",
            "mein", "meine", "dein", "deine", "sein", "ihr", "ihre", "unser", "unsere", "alle",
            "viele",
        ],
        DET,
    ),
    (
        &[
            "wesen",
            "wald",
            "katze",
            "katzen",
            "vogel",
            "pokal",
            "koffer",
            "hauptstadt",
            "deutschland",
            "hund",
            "hunde",
            "straße",
            "baum",
            "fluss",
            "himmel",
            "sonne",
            "mond",
            "haus",
            "stadt",
            "mann",
            "frau",
            "buch",
            "wort",
            "satz",
            "modell",
            "zeit",
            "nacht",
            "wasser",
            "feuer",
            "musik",
            "freund",
            "könig",
            "königin",
            "garten",
            "blume",
            "meer",
            "schule",
            "fuchs",
            "fisch",
            "pferd",
            "tisch",
            "tür",
            "fenster",
            "jahr",
            "stunde",
            "sprache",
            "frage",
            "antwort",
            "vater",
            "mädchen",
            "junge",
            "maus",
            "tiere",
            "berlin",
        ],
        NOUN,
    ),
    (
        &[
            "ist",
            "sind",
            "waren",
            "haben",
            "hatte",
            "hatten",
            "wird",
            "werden",
            "kann",
            "können",
            "soll",
            "streifte",
            "streift",
            "fing",
            "fängt",
            "passte",
            "passt",
            "liebt",
            "mag",
            "geht",
            "ging",
            "kommt",
            "kam",
            "läuft",
            "sieht",
            "sah",
            "isst",
            "aß",
            "schläft",
            "schlief",
            "singt",
            "liest",
            "schreibt",
            "fliegt",
            "schwimmt",
            "gibt",
            "wohnt",
            "lebt",
            "spielt",
            "jagt",
            "überquerte",
            "trägt",
            "wollte",
            "konnte",
        ],
        VERB,
    ),
    (
        &[
            "nicht", "sehr", "zu", "auch", "immer", "nie", "schon", "noch", "hier", "dort",
            "jetzt", "heute", "dann", "gern", "gerne", "wieder", "nur", "ganz", "ja", "nein",
        ],
        ADV,
    ),
    (
        &[
            "ich", "du", "er", "sie", "wir", "mich", "dich", "sich", "ihn", "ihm", "ihnen", "uns",
            "euch", "wer", "etwas", "jemand", "nichts", "niemand",
        ],
        PRON,
    ),
    (
        &[
            "durch", "auf", "aus", "bei", "mit", "nach", "von", "vor", "zum", "zur", "im", "ans",
            "vom", "beim", "über", "unter", "neben", "zwischen", "hinter", "ohne", "für", "gegen",
            "seit", "bis",
        ],
        PREP,
    ),
    (
        &[
            "und", "oder", "aber", "weil", "dass", "wenn", "als", "ob", "denn", "sondern",
            "obwohl", "damit", "während",
        ],
        CONJ,
    ),
];

/// German adjectives are written in small letters, so a capitalised form
/// (a name such as Klein or Wilde) is not taken for one.
fn german(word: &str, capitalised: bool) -> Option<usize> {
    in_lexicon(&GERMAN, word).or_else(|| {
        let adjective = !capitalised
            && GERMAN_ADJECTIVE_STEMS.iter().any(|stem| {
                word.strip_prefix(stem)
                    .is_some_and(|end| ["", "e", "en", "er", "es", "em"].contains(&end))
            });
        (adjective && !GERMAN_NOT_ADJECTIVES.contains(&word)).then_some(ADJ)
    })
}

const CHINESE: [(&[&str], usize); 9] = [
    (
        &[
            "一只", "一个", "一些", "这", "那", "这个", "那个", "这只", "那只", "每", "每个", "些",
            "所有",
        ],
        DET,
    ),
    (
        &[
            "毛茸茸",
            "蓝色",
            "小",
            "葱郁",
            "大",
            "红色",
            "绿色",
            "黄色",
            "黑色",
            "白色",
            "蓝",
            "红",
            "绿",
            "黑",
            "白",
            "快",
            "慢",
            "累",
            "高兴",
            "美丽",
            "漂亮",
            "新",
            "旧",
            "老",
            "好",
            "坏",
            "冷",
            "热",
            "长",
            "短",
            "高",
            "安静",
            "聪明",
            "可爱",
            "快乐",
            "饿",
            "懒",
        ],
        ADJ,
    ),
    (
        &[
            "生物",
            "森林",
            "猫",
            "小猫",
            "狗",
            "小狗",
            "马路",
            "路",
            "街",
            "街道",
            "首都",
            "中国",
            "北京",
            "动物",
            "鸟",
            "小鸟",
            "树",
            "河",
            "山",
            "天空",
            "太阳",
            "月亮",
            "房子",
            "城市",
            "孩子",
            "人",
            "老师",
            "学生",
            "书",
            "词",
            "句子",
            "模型",
            "注意力",
            "水",
            "火",
            "车",
            "朋友",
            "花",
            "海",
            "世界",
            "时间",
            "法国",
            "巴黎",
            "德国",
            "柏林",
            "机器人",
            "机器",
            "语言",
            "女孩",
            "男孩",
            "狐狸",
            "鱼",
            "马",
            "老鼠",
            "箱子",
            "奖杯",
            "家",
        ],
        NOUN,
    ),
    (
        &[
            "漫步", "是", "有", "过", "走", "跑", "吃", "睡觉", "喜欢", "爱", "看", "说", "去",
            "来", "住", "画", "画画", "唱", "读", "写", "飞", "游泳", "知道", "想", "会", "能",
            "要", "抓", "追", "坐", "做", "玩", "叫", "穿过", "抓住", "放", "装",
        ],
        VERB,
    ),
    (
        &[
            "没有", "没", "不", "太", "很", "非常", "也", "都", "还", "就", "才", "已经", "真",
            "最", "更", "又", "常常", "总是", "再", "了", "着", "地", "得", "吗", "呢", "吧",
        ],
        ADV,
    ),
    (
        &[
            "它", "他", "她", "我", "你", "我们", "你们", "他们", "她们", "它们", "谁", "什么",
            "自己",
        ],
        PRON,
    ),
    (&["在", "里", "的", "之", "从", "到", "向", "对", "给", "上", "下", "把", "被", "往"], PREP),
    (&["因为", "所以", "但是", "但", "和", "而且", "或者", "如果", "虽然", "可是", "跟"], CONJ),
    (&["一", "二", "三", "两", "十", "百", "千"], NUM),
];
