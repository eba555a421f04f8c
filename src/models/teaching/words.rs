//! The teaching model's words: a text cut into words (emoji and ideographs
//! one per token), and each word's part of speech from a small lexicon, or
//! guessed from its ending.

use super::{Token, ADJ, DET, NOUN, NUM, PRON, PUNCT, VERB};

fn is_joiner(c: char) -> bool {
    // Zero-width joiner, variation selectors and skin-tone modifiers belong to
    // the symbol before them (👩‍🚀 is one token, not three).
    matches!(c, '\u{200D}' | '\u{FE00}'..='\u{FE0F}' | '\u{1F3FB}'..='\u{1F3FF}' | '\u{20E3}')
}

fn is_ideograph(c: char) -> bool {
    // Scripts written without spaces: one character per token.
    matches!(c, '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}')
}

pub(super) fn split_words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut glue_next = false; // after a zero-width joiner the next symbol joins the last token
    for c in text.chars() {
        if glue_next || is_joiner(c) {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
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
            words.push(std::mem::take(&mut word));
        }
        if !c.is_whitespace() && !c.is_control() {
            words.push(c.to_string());
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

pub(super) fn classify(word: &str) -> Token {
    let lower = word.to_lowercase();
    if let Some(p) = lexicon(&lower) {
        return Token { text: word.to_string(), part_of_speech: Some(p), guessed: false };
    }
    let first = word.chars().next().unwrap_or(' ');
    let (pos, guessed) = if word.chars().all(|c| c.is_ascii_digit() || c == '.' || c == ',')
        && first.is_ascii_digit()
    {
        (Some(NUM), false)
    } else if word.chars().count() == 1 && first.is_ascii_punctuation() {
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

fn lexicon(word: &str) -> Option<usize> {
    const WORDS: [(&[&str], usize); 8] = [
        (
            &[
                "a", "an", "the", "this", "that", "these", "those", "my", "your", "his", "her",
                "its", "our", "their", "every", "each", "some", "any", "no", "all", "another",
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
                "roamed", "is", "are", "was", "were", "be", "been", "am", "has", "have", "had",
                "do", "does", "did", "give", "gave", "came", "come", "go", "went", "see", "saw",
                "run", "ran", "jumps", "jumped", "walk", "walked", "eat", "ate", "sleeps", "slept",
                "sings", "sang", "reads", "read", "wrote", "write", "loves", "love", "likes",
                "like", "make", "made", "take", "took", "know", "knew", "think", "thought", "say",
                "said", "roam", "roams", "flew", "fly", "flies", "swam", "swim", "sat", "sit",
                "found", "find", "can", "will", "would", "could", "should", "may", "might", "must",
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
                "in", "on", "at", "over", "under", "through", "with", "without", "from", "to",
                "of", "by", "for", "into", "across", "near", "after", "before", "about", "between",
            ],
            6,
        ),
        (&["and", "or", "but", "so", "because", "while", "if", "when", "although", "yet"], 7),
    ];
    WORDS.iter().find(|(list, _)| list.contains(&word)).map(|&(_, p)| p)
}
