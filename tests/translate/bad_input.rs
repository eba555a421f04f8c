//! The translator on the issue's list of bad input: empty text, 10,000
//! characters, emoji, another script, a decoder that repeats itself, and
//! corrupted model and tokenizer files. Each is a clear error or a notice,
//! never a panic, and a model that loaded keeps working after another failed.

use crate::common;

use attnscope::models::marian::translate::MAX_SOURCE_TOKENS;
use attnscope::models::marian::{Direction, Stop, Translator};
use attnscope::Error;
use common::{translate_files, translator, TranslateFiles};

#[test]
fn empty_text_is_a_clear_error() {
    for text in ["", "   ", "\n\t "] {
        match translator(Direction::EnPt).translate(text) {
            Err(Error::Invalid(m)) => assert!(m.contains("nothing to translate"), "{m}"),
            other => panic!("{text:?}: {other:?}"),
        }
    }
}

#[test]
fn ten_thousand_characters_are_cut_with_a_notice() {
    let text = "The quick brown fox jumps over the lazy dog. ".repeat(230);
    assert!(text.chars().count() >= 10_000);
    let t = translator(Direction::EnPt).translate(&text).unwrap();
    assert_eq!(t.source_tokens.len(), MAX_SOURCE_TOKENS);
    assert!(t.notices.iter().any(|n| n.contains("cut")), "{:?}", t.notices);
    assert!(!t.text.is_empty());
    let x = translator(Direction::EnPt).translate(&"x".repeat(10_000)).unwrap();
    assert!(x.source_tokens.len() <= MAX_SOURCE_TOKENS);
    assert!(x.target_tokens.len() <= (2.5 * x.source_tokens.len() as f32).ceil() as usize);
}

#[test]
fn emoji_and_other_scripts_become_unk_with_a_notice() {
    for text in ["🐱🍕🎉", "東京タワーは高い", "I love 🐱 and 🍕!", "\u{200b}\u{7}ok"]
    {
        let t =
            translator(Direction::EnPt).translate(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert!(
            !t.target_tokens.contains(&"<unk>".to_string()),
            "{text:?}: <unk> is never produced"
        );
        for layer in &t.context {
            for head in &layer.attention.heads {
                assert!(
                    head.weights.data.iter().all(|w| w.is_finite()),
                    "{text:?}: a weight is not finite"
                );
            }
        }
        if t.source_ids.contains(&1) {
            assert!(t.notices.iter().any(|n| n.contains("<unk>")), "{text:?}: {:?}", t.notices);
        }
    }
}

#[test]
fn a_repetitive_text_ends_at_the_limit_with_a_notice() {
    let t = translator(Direction::EnPt).translate(&"no ".repeat(39)).unwrap();
    assert_eq!(t.stop, Stop::LengthLimit);
    assert!(t.notices.iter().any(|n| n.contains("stopped at 100 tokens")), "{:?}", t.notices);
}

#[test]
fn truncated_and_corrupted_model_files_are_errors() {
    let TranslateFiles { model, tokenizer, shortlist } = translate_files(Direction::EnPt);
    let load =
        |bytes: &[u8]| Translator::from_bytes(Direction::EnPt, bytes, tokenizer, Some(shortlist));
    for cut in [0, 7, 16, 100, 6_000, 12_544, 12_600, model.len() / 2, model.len() - 1] {
        match load(&model[..cut]) {
            Err(Error::ModelFile(m)) => {
                assert!(m.contains("Marian") || m.contains("truncated"), "{cut}: {m}")
            }
            other => panic!("{cut} bytes: {:?}", other.map(|_| ())),
        }
    }
    // Header fields overwritten with nonsense, one at a time.
    for at in (8..12_544).step_by(97) {
        let mut bad = model.clone();
        bad[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
        let _ = load(&bad).map(|t| t.translate("hello").map(|t| t.text));
    }
    // A bias that became NaN is caught at load, not shown as NaN.
    match load(&poison_first_f32(model, "decoder_ff_logit_out_b")) {
        Err(Error::ModelFile(m)) => assert!(m.contains("not a finite number"), "{m}"),
        other => panic!("a NaN bias loaded: {:?}", other.map(|_| ())),
    }
    assert!(load(tokenizer).is_err(), "tokenizer.json is not a model");
    assert!(load(b"\x01\0\0\0\0\0\0\0 nonsense").is_err());
}

#[test]
fn a_wrong_or_corrupted_tokenizer_is_an_error() {
    let TranslateFiles { model, tokenizer, .. } = translate_files(Direction::EnPt);
    assert!(matches!(
        Translator::from_bytes(Direction::EnPt, model, b"{not json", None),
        Err(Error::ModelFile(_))
    ));
    assert!(matches!(
        Translator::from_bytes(Direction::EnPt, model, &tokenizer[..tokenizer.len() / 2], None),
        Err(Error::ModelFile(_))
    ));
    let tiny = br#"{"version":"1.0","truncation":null,"padding":null,"added_tokens":[],"normalizer":null,"pre_tokenizer":null,
        "post_processor":null,"decoder":null,"model":{"type":"Unigram","unk_id":1,"vocab":[["</s>",0.0],["<unk>",0.0],["a",-1.0]]}}"#;
    match Translator::from_bytes(Direction::EnPt, model, tiny, None) {
        Err(Error::ModelFile(m)) => assert!(m.contains("do not belong together"), "{m}"),
        other => panic!("{:?}", other.map(|_| ())),
    }
}

#[test]
fn a_corrupted_or_foreign_shortlist_is_an_error() {
    let TranslateFiles { model, tokenizer, shortlist } = translate_files(Direction::EnPt);
    let load =
        |bytes: &[u8]| Translator::from_bytes(Direction::EnPt, model, tokenizer, Some(bytes));
    for cut in [0, 8, 30, 32_024, shortlist.len() / 2, shortlist.len() - 1] {
        assert!(matches!(load(&shortlist[..cut]), Err(Error::ModelFile(_))), "{cut} bytes");
    }
    // Marian's own shortlist format is not read (the fetch script converts it).
    assert!(load(&0xF11A_48D5_0134_17F5u64.to_le_bytes().repeat(8)).is_err());
    assert!(load(model).is_err());
}

#[test]
fn one_model_failing_leaves_the_other_working() {
    let TranslateFiles { model, tokenizer, shortlist } = translate_files(Direction::PtEn);
    assert!(Translator::from_bytes(Direction::PtEn, &model[..1000], tokenizer, Some(shortlist))
        .is_err());
    let pt_en = Translator::from_bytes(Direction::PtEn, model, tokenizer, Some(shortlist)).unwrap();
    assert_eq!(pt_en.translate("obrigado").unwrap().text, "Thank you");
    assert_eq!(translator(Direction::EnPt).translate("a").unwrap().text, "um");
}

/// The file with the first value of tensor `name` set to NaN, found by walking
/// the headers as Marian lays them out.
fn poison_first_f32(model: &[u8], name: &str) -> Vec<u8> {
    let u64_at = |at: usize| u64::from_le_bytes(model[at..at + 8].try_into().unwrap()) as usize;
    let n = u64_at(8);
    let headers: Vec<[usize; 4]> =
        (0..n).map(|i| [0, 1, 2, 3].map(|j| u64_at(16 + 32 * i + 8 * j))).collect();
    let mut at = 16 + 32 * n;
    let mut names = Vec::new();
    for h in &headers {
        names.push(String::from_utf8_lossy(&model[at..at + h[0] - 1]).into_owned());
        at += h[0];
    }
    at += headers.iter().map(|h| 4 * h[2]).sum::<usize>();
    at += 8 + u64_at(at);
    for (h, n) in headers.iter().zip(&names) {
        if n == name {
            let mut out = model.to_vec();
            out[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
            return out;
        }
        at += h[3];
    }
    panic!("no tensor {name}")
}
