//! Any bytes as the `model.safetensors` of a small Llama folder (the tiny
//! test checkpoint's config and tokenizer): described, loaded, run. Never a
//! panic; a run the app accepts is valid attention.

use attnscope::checkpoint::{Checkpoint, Folder, TokenizerFiles};
use attnscope::formats::source::Bytes;

const CONFIG: &[u8] = include_bytes!("../../tests/fixtures/tiny/llama/config.json");
const TOKENIZER: &[u8] = include_bytes!("../../tests/fixtures/tiny/llama/tokenizer.json");

/// One input of the fuzz target `safetensors` (fuzz/fuzz_targets/safetensors.rs).
pub fn run(data: &[u8]) {
    let folder = Folder {
        name: "fuzz".into(),
        config: CONFIG.to_vec(),
        tokenizer: TokenizerFiles::Json(TOKENIZER.to_vec()),
        sentence_bert_config: None,
        weights: vec![Box::new(Bytes::new("model.safetensors", data))],
    };
    let checkpoint = Checkpoint::Folder(folder);
    if checkpoint.describe().is_err() {
        return;
    }
    if let Ok(model) = checkpoint.load("fuzz") {
        if let Ok(trace) = model.run("the cat sat") {
            super::assert_drawable(&trace);
        }
    }
}
