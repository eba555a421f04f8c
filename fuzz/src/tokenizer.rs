//! Any text through the tokenizers of the real models (MiniLM's
//! tokenizer.json, SmolLM2's GGUF vocabulary, from www/models/) and through
//! the teaching model, after the app's own cut to `MAX_TEXT_CHARS`. Every id
//! is in the vocabulary, every token has a label, the teaching model's
//! attention is valid.

use attnscope::formats::gguf::Gguf;
use attnscope::formats::source::File;
use attnscope::formats::tokenizer::{self, TextTokenizer};
use attnscope::models::teaching::TeachingModel;
use attnscope::url_params::{cut_text, MAX_TEXT_CHARS};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// www/models/ at the repository's root: built as the fuzz crate (fuzz/) or as part of the main
/// crate's corpus replay test (the root itself).
fn models() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = if here.ends_with("fuzz") { here.join("..") } else { here.to_path_buf() };
    root.join("www/models")
}

fn minilm() -> &'static TextTokenizer {
    static T: OnceLock<TextTokenizer> = OnceLock::new();
    T.get_or_init(|| {
        let json = std::fs::read(models().join("minilm/tokenizer.json"))
            .expect("www/models/minilm (scripts/fetch_models.py)");
        TextTokenizer::from_json(&json, Some(256)).unwrap()
    })
}

fn smollm2() -> &'static TextTokenizer {
    static T: OnceLock<TextTokenizer> = OnceLock::new();
    T.get_or_init(|| {
        let src = File::open(&models().join("smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"))
            .expect("www/models/smollm2 (scripts/fetch_models.py)");
        tokenizer::gguf::build(&Gguf::read(&src).unwrap()).unwrap()
    })
}

fn check(t: &TextTokenizer, text: &str) {
    if let Ok(e) = t.encode(text) {
        assert_eq!(e.ids.len(), e.tokens.len());
        assert_eq!(e.ids.len(), e.pieces.len());
        let vocab = t.vocab_size();
        assert!(
            e.ids.iter().all(|&id| (id as usize) < vocab),
            "an id outside the vocabulary of {vocab}"
        );
    }
}

/// One input of the fuzz target `tokenizer` (fuzz/fuzz_targets/tokenizer.rs).
pub fn run(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (text, cut) = cut_text(&text);
    assert!(text.chars().count() <= MAX_TEXT_CHARS);
    assert_eq!(
        cut,
        data.len() > text.len() && String::from_utf8_lossy(data).chars().count() > MAX_TEXT_CHARS
    );
    check(minilm(), text);
    check(smollm2(), text);
    if let Ok(trace) = TeachingModel::new().run(text) {
        super::assert_finite_and_drawable(&trace);
    }
}
