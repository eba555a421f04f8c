//! The built-in teaching model: always there, no download, every number
//! explainable.
//!
//! Its heads were **designed by hand, not learned**. Each token's embedding is
//! a short vector of named features:
//!
//! - 10 part-of-speech features (determiner, adjective, noun, …) from a small
//!   lexicon, with a guess from the word's ending for words it lacks;
//! - 6 "fingerprint" features, a fixed pseudo-random ±½ pattern per word, so
//!   that equal words have equal fingerprints;
//! - 8 positional features: sinusoidal positional encoding (Vaswani et al.),
//!   with base 100 instead of 10,000 because sentences here are short. They sit
//!   in their own columns (concatenated rather than added) so the named
//!   features stay readable; they can be switched off.
//!
//! W_Q and W_K of each head pick features so that q·k is large exactly for
//! the pairs the head is meant to link. Shifting a position is a rotation of
//! its sinusoidal code, and a rotation is linear, so "look one word back" is a
//! matrix inside W_Q too.

mod words;

use crate::attention::{multi_head, split_heads, AttendHeads, Mask, Scale};
use crate::error::Result;
use crate::tensor::Matrix;
use crate::trace::{LayerTrace, ModelInfo, ModelTrace};

/// Part-of-speech features, in embedding order.
pub const PARTS_OF_SPEECH: [&str; 10] = [
    "determiner",
    "adjective",
    "noun",
    "verb",
    "adverb",
    "pronoun",
    "preposition",
    "conjunction",
    "punctuation",
    "number",
];
const POS: usize = 10;
const FINGERPRINT: usize = 6;
const POSITIONAL: usize = 8;
const POSITIONAL_BASE: f32 = 100.0;
/// Width of a token's embedding.
pub const D_MODEL: usize = POS + FINGERPRINT + POSITIONAL;
/// Width of one head's queries, keys and values.
pub const D_HEAD: usize = 12;
/// Longest text in tokens; longer text is cut with a notice.
pub const MAX_TOKENS: usize = 256;

const DET: usize = 0;
const ADJ: usize = 1;
const NOUN: usize = 2;
const VERB: usize = 3;
const PRON: usize = 5;
const PUNCT: usize = 8;
const NUM: usize = 9;

/// Names of the embedding's columns, for views that show x.
pub fn feature_names() -> Vec<String> {
    let mut names: Vec<String> = PARTS_OF_SPEECH.iter().map(|s| s.to_string()).collect();
    names.extend((0..FINGERPRINT).map(|i| format!("fingerprint {}", i + 1)));
    for i in 0..POSITIONAL / 2 {
        names.push(format!("position sin ω{i}"));
        names.push(format!("position cos ω{i}"));
    }
    names
}

/// A word as the teaching model sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    /// Index into [`PARTS_OF_SPEECH`], or None for symbols such as emoji.
    pub part_of_speech: Option<usize>,
    /// True when the part of speech was guessed from the word's ending.
    pub guessed: bool,
}

/// One hand-designed head.
#[derive(Clone, Debug)]
pub struct DesignedHead {
    pub name: &'static str,
    /// What the head was built to do, in a sentence.
    pub behaviour: &'static str,
    pub w_q: Matrix, // D_MODEL × D_HEAD
    pub w_k: Matrix, // D_MODEL × D_HEAD
    pub w_v: Matrix, // D_MODEL × D_HEAD
}

/// Switches a lesson may flip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TeachingOptions {
    pub positional_encoding: bool,
    pub mask: Mask,
    pub scale: Scale,
}

impl Default for TeachingOptions {
    fn default() -> Self {
        Self { positional_encoding: true, mask: Mask::None, scale: Scale::InvSqrtDk }
    }
}

#[derive(Clone, Debug)]
pub struct TeachingModel {
    pub heads: Vec<DesignedHead>,
    /// Output projection W_O ((heads · D_HEAD) × D_MODEL).
    pub w_o: Matrix,
    pub options: TeachingOptions,
}

impl Default for TeachingModel {
    fn default() -> Self {
        Self::new()
    }
}

impl TeachingModel {
    pub fn new() -> Self {
        Self::with_options(TeachingOptions::default())
    }

    pub fn with_options(options: TeachingOptions) -> Self {
        let heads = vec![
            describes_head(),
            previous_token_head(),
            self_head(),
            verb_head(),
            determiner_head(),
        ];
        // Every head's value copies the part of speech of what it attends to;
        // W_O averages the heads and writes that back onto the same features.
        let mut w_o = Matrix::zeros(heads.len() * D_HEAD, D_MODEL);
        for h in 0..heads.len() {
            for f in 0..POS {
                w_o[(h * D_HEAD + f, f)] = 1.0 / heads.len() as f32;
            }
        }
        Self { heads, w_o, options }
    }

    pub fn info(&self) -> ModelInfo {
        ModelInfo {
            id: "teaching".into(),
            name: "Teaching model (hand-designed heads)".into(),
            n_layers: 1,
            n_heads: self.heads.len(),
            n_kv_heads: self.heads.len(),
            d_model: D_MODEL,
            d_head: D_HEAD,
            mask: self.options.mask,
            max_tokens: MAX_TOKENS,
        }
    }

    /// Words, numbers and single symbols; whitespace and control characters separate them.
    pub fn tokenize(&self, text: &str) -> Vec<Token> {
        words::split_words(text).into_iter().map(|w| words::classify(&w)).collect()
    }

    /// E: one row per token, the named features then the positional code.
    pub fn embed(&self, tokens: &[Token]) -> Matrix {
        let mut e = Matrix::zeros(tokens.len(), D_MODEL);
        for (i, t) in tokens.iter().enumerate() {
            let row = e.row_mut(i);
            if let Some(p) = t.part_of_speech {
                row[p] = 1.0;
            }
            row[POS..POS + FINGERPRINT].copy_from_slice(&fingerprint(&t.text.to_lowercase()));
            if self.options.positional_encoding {
                row[POS + FINGERPRINT..].copy_from_slice(&positional_encoding(i as f32));
            }
        }
        e
    }

    pub fn run(&self, text: &str) -> Result<ModelTrace> {
        let mut tokens = self.tokenize(text);
        let notice = (tokens.len() > MAX_TOKENS).then(|| {
            let n = tokens.len();
            tokens.truncate(MAX_TOKENS);
            format!("Text cut to {MAX_TOKENS} words (it had {n}).")
        });
        let e = self.embed(&tokens); //                            E (n × d_model)
        let w_q =
            Matrix::concat_cols(&self.heads.iter().map(|h| h.w_q.clone()).collect::<Vec<_>>());
        let w_k =
            Matrix::concat_cols(&self.heads.iter().map(|h| h.w_k.clone()).collect::<Vec<_>>());
        let w_v =
            Matrix::concat_cols(&self.heads.iter().map(|h| h.w_v.clone()).collect::<Vec<_>>());
        let (q, k, v) = (e.matmul(&w_q), e.matmul(&w_k), e.matmul(&w_v)); // n × H·d_head each
        let n_heads = self.heads.len();
        let (k, v) = (split_heads(&k, n_heads), split_heads(&v, n_heads)); // K_h, V_h (n × d_head)
        let attention =
            multi_head(&q, n_heads, k, v, AttendHeads::new(self.options.mask, self.options.scale));
        let delta = attention.concat.matmul(&self.w_o); //         ΔE = [Z_1 … Z_H] W_O
        let residual = e.add(&delta); //                           E' = E + ΔE
        Ok(ModelTrace {
            info: self.info(),
            tokens: tokens.iter().map(|t| t.text.clone()).collect(),
            token_ids: None,
            layers: vec![LayerTrace::new(e, attention, delta, residual)],
            notice,
            sentence_embedding: None,
            top_next: None,
        })
    }
}

// ---------------------------------------------------------------------------
// The heads. Each returns (W_Q, W_K, W_V); gains are chosen so that, after the
// 1/√d_head scaling, the intended key gets most of the weight.

/// Columns POS+FINGERPRINT.. of a row hold the positional code.
const PE0: usize = POS + FINGERPRINT;

/// Puts `gain · R(shift)` into rows PE0.. of `w`, columns `col0..`: then
/// q·k over those columns is gain · Σ cos(ω (i + shift − j)), largest when
/// key j sits `shift` positions after query i (shift < 0: before).
fn positional_block(w: &mut Matrix, col0: usize, shift: f32, gain: f32) {
    for pair in 0..POSITIONAL / 2 {
        let angle = frequency(pair) * shift;
        let (s, c) = angle.sin_cos();
        let (r_sin, r_cos) = (PE0 + 2 * pair, PE0 + 2 * pair + 1);
        let (c_sin, c_cos) = (col0 + 2 * pair, col0 + 2 * pair + 1);
        // [sin ω(p+δ), cos ω(p+δ)] = [sin ωp cos ωδ + cos ωp sin ωδ, cos ωp cos ωδ − sin ωp sin ωδ]
        w[(r_sin, c_sin)] = gain * c;
        w[(r_cos, c_sin)] = gain * s;
        w[(r_sin, c_cos)] = -gain * s;
        w[(r_cos, c_cos)] = gain * c;
    }
}

fn identity_positional(w: &mut Matrix, col0: usize) {
    positional_block(w, col0, 0.0, 1.0);
}

/// V copies the part-of-speech features.
fn copy_pos_values() -> Matrix {
    let mut w_v = Matrix::zeros(D_MODEL, D_HEAD);
    for f in 0..POS {
        w_v[(f, f)] = 1.0;
    }
    w_v
}

fn describes_head() -> DesignedHead {
    let (mut w_q, mut w_k) = (Matrix::zeros(D_MODEL, D_HEAD), Matrix::zeros(D_MODEL, D_HEAD));
    // Nouns look for adjectives: q·k gains 9 when the query is a noun and the key an adjective…
    w_q[(NOUN, 0)] = 3.0;
    w_k[(ADJ, 0)] = 3.0;
    // …and prefers words just before the query, so "creature" picks its own
    // adjectives rather than those of a later noun.
    positional_block(&mut w_q, 4, -1.5, 3.0);
    identity_positional(&mut w_k, 4);
    DesignedHead {
        name: "describes",
        behaviour: "Nouns attend to adjectives, preferring those just before them (creature → fluffy, blue).",
        w_q,
        w_k,
        w_v: copy_pos_values(),
    }
}

fn previous_token_head() -> DesignedHead {
    let (mut w_q, mut w_k) = (Matrix::zeros(D_MODEL, D_HEAD), Matrix::zeros(D_MODEL, D_HEAD));
    positional_block(&mut w_q, 4, -1.0, 12.0);
    identity_positional(&mut w_k, 4);
    DesignedHead {
        name: "previous word",
        behaviour: "Every word attends to the word before it.",
        w_q,
        w_k,
        w_v: copy_pos_values(),
    }
}

fn self_head() -> DesignedHead {
    let (mut w_q, mut w_k) = (Matrix::zeros(D_MODEL, D_HEAD), Matrix::zeros(D_MODEL, D_HEAD));
    // Equal fingerprints (the same word) and equal positions both raise q·k.
    for f in 0..FINGERPRINT.min(4) {
        w_q[(POS + f, f)] = 4.0;
        w_k[(POS + f, f)] = 1.0;
    }
    positional_block(&mut w_q, 4, 0.0, 6.0);
    identity_positional(&mut w_k, 4);
    DesignedHead {
        name: "self",
        behaviour: "Every word attends to itself (and to repeats of itself).",
        w_q,
        w_k,
        w_v: copy_pos_values(),
    }
}

fn verb_head() -> DesignedHead {
    let (mut w_q, mut w_k) = (Matrix::zeros(D_MODEL, D_HEAD), Matrix::zeros(D_MODEL, D_HEAD));
    // Verbs look for the nouns and pronouns that do or undergo the action.
    w_q[(VERB, 0)] = 3.0;
    w_k[(NOUN, 0)] = 3.0;
    w_k[(PRON, 0)] = 3.0;
    positional_block(&mut w_q, 4, 0.0, 1.0);
    identity_positional(&mut w_k, 4);
    DesignedHead {
        name: "who did what",
        behaviour: "Verbs attend to nearby nouns and pronouns (roamed → creature, forest).",
        w_q,
        w_k,
        w_v: copy_pos_values(),
    }
}

fn determiner_head() -> DesignedHead {
    let (mut w_q, mut w_k) = (Matrix::zeros(D_MODEL, D_HEAD), Matrix::zeros(D_MODEL, D_HEAD));
    // A determiner looks ahead to the noun it introduces: possible only
    // without a causal mask, which is why encoders can do it and decoders cannot.
    w_q[(DET, 0)] = 3.0;
    w_k[(NOUN, 0)] = 3.0;
    positional_block(&mut w_q, 4, 2.0, 2.0);
    identity_positional(&mut w_k, 4);
    DesignedHead {
        name: "introduces",
        behaviour: "Determiners attend forward to the noun they introduce (a → creature).",
        w_q,
        w_k,
        w_v: copy_pos_values(),
    }
}

// ---------------------------------------------------------------------------
// Embedding pieces (the words and their parts of speech: `words.rs`).

fn frequency(pair: usize) -> f32 {
    POSITIONAL_BASE.powf(-(2.0 * pair as f32) / POSITIONAL as f32)
}

/// PE(p) = [sin(ω_0 p), cos(ω_0 p), sin(ω_1 p), cos(ω_1 p), …].
pub fn positional_encoding(position: f32) -> [f32; POSITIONAL] {
    let mut pe = [0.0; POSITIONAL];
    for pair in 0..POSITIONAL / 2 {
        let (s, c) = (frequency(pair) * position).sin_cos();
        pe[2 * pair] = s;
        pe[2 * pair + 1] = c;
    }
    pe
}

/// A fixed ±½ pattern from the word's FNV-1a hash: equal words, equal patterns.
fn fingerprint(word: &str) -> [f32; FINGERPRINT] {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in word.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    let mut f = [0.0; FINGERPRINT];
    for (i, x) in f.iter_mut().enumerate() {
        *x = if (h >> (7 * i + 3)) & 1 == 1 { 0.5 } else { -0.5 };
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLUFFY: &str = "a fluffy blue creature roamed the verdant forest";

    fn argmax(row: &[f32]) -> usize {
        row.iter().enumerate().fold(0, |best, (j, &w)| if w > row[best] { j } else { best })
    }

    #[test]
    fn designed_heads_do_what_they_say_on_the_default_sentence() {
        let t = TeachingModel::new().run(FLUFFY).unwrap();
        assert_eq!(t.tokens, FLUFFY.split(' ').collect::<Vec<_>>());
        let a = |h: usize| &t.layers[0].attention.heads[h].weights;
        // describes: creature (3) → fluffy (1) and blue (2) on top; forest (7) → verdant (6).
        let creature = a(0).row(3);
        let mut order: Vec<usize> = (0..8).collect();
        order.sort_by(|&x, &y| creature[y].total_cmp(&creature[x]));
        assert_eq!(
            &order[..2].iter().copied().collect::<std::collections::BTreeSet<_>>(),
            &[1, 2].into()
        );
        assert!(
            creature[1] + creature[2] > 0.6,
            "creature → fluffy+blue = {}",
            creature[1] + creature[2]
        );
        assert_eq!(argmax(a(0).row(7)), 6);
        // previous word and self.
        for i in 1..8 {
            assert_eq!(argmax(a(1).row(i)), i - 1, "previous-word head, row {i}");
        }
        for i in 0..8 {
            assert_eq!(argmax(a(2).row(i)), i, "self head, row {i}");
        }
        // who did what: roamed (4) → a noun; introduces: a (0) → creature (3), the (5) → forest
        // (7).
        assert!([3, 7].contains(&argmax(a(3).row(4))));
        assert_eq!(argmax(a(4).row(0)), 3);
        assert_eq!(argmax(a(4).row(5)), 7);
    }

    #[test]
    fn rows_sum_to_one_and_residual_is_e_plus_delta() {
        let t = TeachingModel::new().run("The quick brown fox jumps over the lazy dog.").unwrap();
        let layer = &t.layers[0];
        for head in &layer.attention.heads {
            for i in 0..head.weights.rows {
                assert!((head.weights.row(i).iter().sum::<f32>() - 1.0).abs() < 1e-5);
            }
        }
        assert!(layer.residual.max_abs_diff(&layer.input.add(&layer.delta)) == 0.0);
    }

    #[test]
    fn any_text_works() {
        let m = TeachingModel::new();
        for text in [
            "",
            "   ",
            "zorbling glimpified quuxes",
            "👩‍🚀 visits 東京 ✨!",
            "a\u{0}b\u{7}c",
            "<script>alert(1)</script>",
        ] {
            let t = m.run(text).unwrap();
            assert_eq!(t.layers[0].attention.heads[0].weights.rows, t.tokens.len());
            assert!(t.layers[0].attention.heads.iter().all(|h| h
                .weights
                .data
                .iter()
                .all(|x| x.is_finite())));
        }
        assert_eq!(
            m.tokenize("👩‍🚀 visits 東京").iter().map(|t| t.text.as_str()).collect::<Vec<_>>(),
            ["👩‍🚀", "visits", "東", "京"]
        );
        let long = "word ".repeat(10_000);
        let t = m.run(&long).unwrap();
        assert_eq!(t.tokens.len(), MAX_TOKENS);
        assert!(t.notice.as_deref().unwrap().contains("256"));
    }

    #[test]
    fn unknown_words_get_a_guessed_part_of_speech() {
        let m = TeachingModel::new();
        let tokens = m.tokenize("the glorpy snibbled quickly");
        assert_eq!(tokens[2].part_of_speech, Some(VERB));
        assert!(tokens[2].guessed);
        assert_eq!(tokens[3].part_of_speech, Some(4));
        assert!(!tokens[0].guessed);
    }

    #[test]
    fn without_positions_permuting_words_permutes_attention() {
        let opts = TeachingOptions { positional_encoding: false, ..Default::default() };
        let model = TeachingModel::with_options(opts);
        let words: Vec<&str> = FLUFFY.split(' ').collect();
        let order = [7, 2, 5, 0, 3, 6, 1, 4];
        let shuffled: Vec<&str> = order.iter().map(|&i| words[i]).collect();
        let a = model.run(FLUFFY).unwrap();
        let b = model.run(&shuffled.join(" ")).unwrap();
        for h in 0..a.info.n_heads {
            let wa = &a.layers[0].attention.heads[h].weights;
            let wb = &b.layers[0].attention.heads[h].weights;
            let permuted = wa.select_rows(&order).transpose().select_rows(&order).transpose();
            assert!(permuted.max_abs_diff(wb) < 1e-6, "head {h}");
        }
        // With positions the same check fails for a positional head.
        let model = TeachingModel::new();
        let a = model.run(FLUFFY).unwrap();
        let b = model.run(&shuffled.join(" ")).unwrap();
        let wa = &a.layers[0].attention.heads[1].weights;
        let permuted = wa.select_rows(&order).transpose().select_rows(&order).transpose();
        assert!(permuted.max_abs_diff(&b.layers[0].attention.heads[1].weights) > 0.1);
    }

    #[test]
    fn causal_what_if_zeros_the_future() {
        let model = TeachingModel::with_options(TeachingOptions {
            mask: Mask::Causal,
            ..Default::default()
        });
        let t = model.run(FLUFFY).unwrap();
        for head in &t.layers[0].attention.heads {
            let masked = head.masked();
            for i in 0..8 {
                for j in i + 1..8 {
                    assert_eq!(head.weights[(i, j)], 0.0);
                    assert_eq!(masked[(i, j)], f32::NEG_INFINITY);
                }
            }
        }
    }

    /// `ModelTrace::check_finite` (crate::trace) on a real trace.
    #[test]
    fn a_finite_trace_passes_and_one_nan_anywhere_is_named() {
        let mut t = TeachingModel::new().run("the cat sat on the mat").unwrap();
        t.check_finite().unwrap();
        t.layers[0].attention.heads[1].weights.data[3] = f32::NAN;
        let e = t.check_finite().unwrap_err().to_string();
        assert!(e.contains("layer 0, head 1"), "{e}");
        t.layers[0].attention.heads[1].weights.data[3] = 0.0;
        assert!(t.check_finite().unwrap_err().to_string().contains("layer 0, head 1, row 0"));
        t.layers[0].attention.heads[1].weights =
            crate::attention::softmax_rows(t.layers[0].attention.heads[1].masked());
        let last = t.layers.len() - 1;
        t.layers[last].residual.data[0] = f32::INFINITY;
        assert!(t.check_finite().unwrap_err().to_string().contains(&format!("after layer {last}")));
        // From row 1 on, the bad number in row 0 (checked before) is not looked at.
        t.check_finite_from(1).unwrap();
        let cols = t.layers[last].residual.cols;
        t.layers[last].residual.data[cols] = f32::NAN;
        assert!(t.check_finite_from(1).is_err());
    }

    fn texts(tokens: &[Token]) -> Vec<&str> {
        tokens.iter().map(|t| t.text.as_str()).collect()
    }

    #[test]
    fn other_languages_get_their_parts_of_speech() {
        let m = TeachingModel::new();
        let known = |t: &Token, p: usize| t.part_of_speech == Some(p) && !t.guessed;
        let fr = m.tokenize("une créature bleue et duveteuse errait dans la forêt verdoyante");
        assert!(known(&fr[1], NOUN) && known(&fr[2], ADJ) && known(&fr[4], ADJ), "{fr:?}");
        assert!(known(&fr[0], DET) && known(&fr[5], VERB) && known(&fr[9], ADJ), "{fr:?}");
        let de = m.tokenize("ein flauschiges blaues Wesen streifte durch den grünen Wald");
        assert!(known(&de[3], NOUN) && known(&de[1], ADJ) && known(&de[2], ADJ), "{de:?}");
        assert!(known(&de[7], ADJ) && known(&de[4], VERB), "{de:?}");
        let es = m.tokenize("una criatura azul y esponjosa recorría el bosque frondoso");
        assert!(known(&es[1], NOUN) && known(&es[2], ADJ) && known(&es[4], ADJ), "{es:?}");
        let pt = m.tokenize("uma criatura azul e fofa vagava pela floresta verdejante");
        assert!(known(&pt[1], NOUN) && known(&pt[4], ADJ) && known(&pt[6], 6), "{pt:?}");
        let zh = m.tokenize("一只毛茸茸的蓝色小生物在葱郁的森林里漫步");
        assert_eq!(
            texts(&zh),
            [
                "一只",
                "毛茸茸",
                "的",
                "蓝色",
                "小",
                "生物",
                "在",
                "葱郁",
                "的",
                "森林",
                "里",
                "漫步"
            ]
        );
        assert!(known(&zh[5], NOUN) && known(&zh[1], ADJ) && known(&zh[3], ADJ), "{zh:?}");
        assert!(known(&zh[0], DET) && known(&zh[11], VERB), "{zh:?}");
        let zh = m.tokenize("小猫没有过马路，因为它太累了");
        assert_eq!(
            texts(&zh),
            ["小猫", "没有", "过", "马路", "，", "因为", "它", "太", "累", "了"]
        );
        assert!(known(&zh[4], PUNCT) && known(&zh[6], PRON) && known(&zh[5], 7), "{zh:?}");
        assert_eq!(texts(&m.tokenize("中国的首都是")), ["中国", "的", "首都", "是"]);
        // Mixed scripts; characters in no lexicon word stay one per token.
        assert_eq!(
            texts(&m.tokenize("The cat (小猫) sat in 東京.")),
            ["The", "cat", "(", "小猫", ")", "sat", "in", "東", "京", "."]
        );
    }

    #[test]
    fn french_elision_splits_but_english_contractions_stay_whole() {
        let m = TeachingModel::new();
        let fr = m.tokenize("Le chat n'a pas traversé la rue parce qu'il était trop fatigué");
        assert_eq!(
            texts(&fr),
            [
                "Le",
                "chat",
                "n'",
                "a",
                "pas",
                "traversé",
                "la",
                "rue",
                "parce",
                "qu'",
                "il",
                "était",
                "trop",
                "fatigué"
            ]
        );
        assert_eq!((fr[2].part_of_speech, fr[9].part_of_speech), (Some(4), Some(7)));
        let fr = m.tokenize("Jane visite l’Afrique en septembre");
        assert_eq!(texts(&fr), ["Jane", "visite", "l’", "Afrique", "en", "septembre"]);
        assert_eq!(fr[2].part_of_speech, Some(DET));
        let en = "I didn't think they'd come, c'mon, it's D's and L's o'clock";
        let split: Vec<&str> = en.split([' ', ',']).filter(|w| !w.is_empty()).collect::<Vec<_>>();
        let tokens = m.tokenize(en);
        assert_eq!(texts(&tokens).into_iter().filter(|t| *t != ",").collect::<Vec<_>>(), split);
    }

    #[test]
    fn english_words_keep_their_english_class() {
        let m = TeachingModel::new();
        // Words that are also foreign function words ("die", "den", "war", "son",
        // "pour", "a", "no", "do") are read as before: lexicon or guess.
        let tokens = m.tokenize("Die the den of war, a son can pour no tea. AI in LA do");
        let classes: Vec<Option<usize>> = tokens.iter().map(|t| t.part_of_speech).collect();
        assert_eq!(
            classes,
            [
                NOUN, DET, NOUN, 6, NOUN, PUNCT, DET, NOUN, VERB, NOUN, DET, NOUN, PUNCT, NOUN, 6,
                NOUN, VERB
            ]
            .map(Some)
        );
        assert!(tokens[0].guessed && tokens[2].guessed && tokens[13].guessed);
    }

    /// The describes head links a noun to its adjectives whether they come
    /// before it (English, German, Chinese) or after it (French, Spanish,
    /// Portuguese).
    #[test]
    fn describes_head_links_nouns_to_adjectives_in_every_language() {
        let model = TeachingModel::new();
        for (text, noun, adjectives) in [
            (FLUFFY, 3, &[1, 2][..]),
            ("une créature bleue et duveteuse errait dans la forêt verdoyante", 1, &[2, 4]),
            ("ein flauschiges blaues Wesen streifte durch den grünen Wald", 3, &[1, 2]),
            ("una criatura azul y esponjosa recorría el bosque frondoso", 1, &[2, 4]),
            ("uma criatura azul e fofa vagava pela floresta verdejante", 1, &[2, 4]),
            ("一只毛茸茸的蓝色小生物在葱郁的森林里漫步", 5, &[1, 3, 4]),
        ] {
            let t = model.run(text).unwrap();
            let row = t.layers[0].attention.heads[0].weights.row(noun);
            let mut order: Vec<usize> = (0..row.len()).collect();
            order.sort_by(|&x, &y| row[y].total_cmp(&row[x]));
            let top: std::collections::BTreeSet<usize> =
                order[..adjectives.len()].iter().copied().collect();
            assert_eq!(top, adjectives.iter().copied().collect(), "{text}: {row:?}");
            let sum: f32 = adjectives.iter().map(|&j| row[j]).sum();
            assert!(sum > 0.6, "{text}: {} → adjectives = {sum}", t.tokens[noun]);
        }
    }
}
