//! Any bytes as a GGUF file: parsed, described, loaded and, when that
//! works, run on a short text. Never a panic or an allocation beyond
//! `-rss_limit_mb`; a run the app accepts is valid attention.

use attnscope::checkpoint::Checkpoint;
use attnscope::formats::gguf::Gguf;
use attnscope::formats::source::Bytes;

/// One input of the fuzz target `gguf` (fuzz/fuzz_targets/gguf.rs).
pub fn run(data: &[u8]) {
    if Gguf::parse(data).is_err() {
        return;
    }
    let checkpoint = Checkpoint::Gguf(Box::new(Bytes::new("fuzz.gguf", data)));
    if checkpoint.describe().is_err() {
        return;
    }
    if let Ok(model) = checkpoint.load("fuzz") {
        if let Ok(trace) = model.run("the cat sat") {
            super::assert_drawable(&trace);
        }
    }
}
