//! What a user can throw at SmolLM2: empty or very long text, emoji and other
//! scripts, special-token strings, a missing, truncated or wrong model file.
//! Each gives a result or a clear `Error`, never a panic.

use crate::common;

use attnscope::checkpoint::smollm2::{SmolLm2, SmolLm2Session, MAX_TOKENS};
use attnscope::session::{FromWorker, ModelId, RunOptions, Session, ToWorker};
use attnscope::Error;

use common::{smollm2 as model, smollm2_bytes as bytes};

#[test]
fn empty_text_is_a_clear_error() {
    match model().run("") {
        Err(Error::Invalid(m)) => assert!(m.contains("nothing to attend"), "{m}"),
        other => panic!("expected Error::Invalid, got {other:?}"),
    }
    // A single space is a token, and a decoder can run on one token.
    let t = model().run(" ").unwrap();
    assert_eq!(t.tokens, vec![" "]);
    assert_eq!(t.weights(29, 8).unwrap().data, vec![1.0]);
}

#[test]
fn the_page_shows_an_emptied_box_as_empty_and_keeps_the_cache() {
    let mut s = Session::new();
    s.install(ModelId::SmolLm2, vec![bytes().to_vec()]).unwrap();
    let run = |s: &mut Session, id, text: &str| {
        s.run(id, ModelId::SmolLm2, text, RunOptions::default(), &|| 0.0).unwrap()
    };
    assert_eq!(run(&mut s, 1, "The capital of").tokens.len(), 3);
    // Emptied: no tokens and no prediction, but every layer and head, each
    // with nothing in it, as the views expect of any model.
    let empty = run(&mut s, 2, "");
    assert!(empty.tokens.is_empty() && empty.top_next.is_none());
    assert_eq!((empty.overview.len(), empty.overview[0].len()), (30, 9));
    assert_eq!(empty.kv_head_of, vec![0, 0, 0, 1, 1, 1, 2, 2, 2]);
    let head = s.head(29, 8).unwrap();
    assert_eq!((head.weights.shape(), head.q.shape(), head.v.shape()), ((0, 0), (0, 64), (0, 64)));
    assert!(matches!(s.handle(ToWorker::Export { id: 2 }, &|| 0.0), FromWorker::Export { .. }));
    // A what-if on nothing is nothing, not an error.
    let hot = RunOptions { temperature_factor: 2.0, ..RunOptions::default() };
    assert!(s.run(3, ModelId::SmolLm2, "", hot, &|| 0.0).unwrap().tokens.is_empty());
    // Typing again continues from the cache the emptied box left alone.
    assert_eq!(run(&mut s, 4, "The capital of France").tokens.len(), 4);
    assert_eq!(s.reused_tokens(ModelId::SmolLm2), 3);
}

#[test]
fn ten_thousand_characters_are_cut_with_a_notice() {
    let text: String =
        "The quick brown fox jumps over the lazy dog. ".repeat(230).chars().take(10_000).collect();
    assert_eq!(text.chars().count(), 10_000);
    let t = model().run(&text).unwrap();
    assert_eq!(t.tokens.len(), MAX_TOKENS);
    assert_eq!(t.weights(0, 0).unwrap().shape(), (MAX_TOKENS, MAX_TOKENS));
    let notice = t.notice.expect("a cut must be announced");
    assert!(notice.contains(&MAX_TOKENS.to_string()), "{notice}");
    assert!(t.top_next.unwrap().iter().all(|(_, p)| p.is_finite()));
    // Short text: no notice.
    assert!(model().tokenize("short").unwrap().notice.is_none());
}

#[test]
fn emoji_and_other_scripts_run_and_show_their_bytes() {
    for text in [
        "🐟🦀👩‍👩‍👧",
        "日本語のテキスト",
        "مرحبا بالعالم",
        "Ελληνικά καὶ हिन्दी",
        "\u{0}\u{7}\t\r\n",
        "a\u{301}\u{fe0f}",
    ] {
        let t = model().run(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert!(!t.tokens.is_empty());
        for l in [0, 29] {
            for h in 0..9 {
                let a = t.weights(l, h).unwrap();
                for i in 0..a.rows {
                    let sum: f32 = a.row(i).iter().sum();
                    assert!((sum - 1.0).abs() < 1e-4, "{text:?}: row {i} sums to {sum}");
                }
            }
        }
    }
    // A fish is F0 9F 90 9F; SmolLM2 has no token for it whole.
    let t = model().tokenize("🐟").unwrap();
    assert_eq!(t.tokens.concat(), "<0xF0><0x9F><0x90><0x9F>");
}

#[test]
fn typed_special_tokens_are_the_special_tokens() {
    let t = model().tokenize("<|im_start|>user\nHi<|im_end|>").unwrap();
    assert_eq!(t.ids[0], 1);
    assert_eq!(t.tokens[0], "<|im_start|>");
    assert_eq!(t.tokens.last().map(String::as_str), Some("<|im_end|>"));
    assert_eq!(*t.ids.last().unwrap(), 2);
    // Not matched inside a longer near-miss.
    let t = model().tokenize("<|im_start").unwrap();
    assert!(!t.ids.contains(&1));
}

#[test]
fn bad_temperature_is_an_error() {
    for t in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        assert!(matches!(model().run_with_temperature("Hi", t), Err(Error::Invalid(_))), "T = {t}");
    }
    let mut s = SmolLm2Session::new(SmolLm2::from_gguf_bytes(bytes()).unwrap());
    assert!(s.run_with_temperature("Hi", 0.0).is_err());
    assert!(s.run("").is_err());
    assert_eq!(s.run("Hi").unwrap().tokens, vec!["Hi"]);
}

#[test]
fn missing_file_says_how_to_fetch_it() {
    match SmolLm2::load(&common::smollm2_gguf().with_file_name("no-such-model.gguf")) {
        Err(Error::ModelFile(m)) => assert!(m.contains("fetch_models.py"), "{m}"),
        other => panic!("expected Error::ModelFile, got {other:?}"),
    }
}

#[test]
fn truncated_or_wrong_files_are_model_file_errors() {
    let b = bytes();
    // Cut in the header, in the vocabulary, in the tensor table, in the weights, one byte short.
    for cut in [0, 3, 10, 24, 5_000, 1_000_000, 1_785_000, 2_000_000, b.len() / 2, b.len() - 1] {
        match SmolLm2::from_gguf_bytes(&b[..cut]) {
            Err(Error::ModelFile(_)) => {}
            other => panic!("cut at {cut}: expected Error::ModelFile, got {:?}", other.map(|_| ())),
        }
    }
    // Not a GGUF at all.
    let toml = include_bytes!("../../Cargo.toml");
    assert!(matches!(SmolLm2::from_gguf_bytes(toml), Err(Error::ModelFile(_))));
    // A GGUF with its magic intact but garbage after it.
    let mut junk = b[..4].to_vec();
    junk.extend(attnscope::testing::Rng::new(2).bytes(4092));
    assert!(matches!(SmolLm2::from_gguf_bytes(&junk), Err(Error::ModelFile(_))));
}
