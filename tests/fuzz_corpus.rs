//! Every committed seed of every fuzz target (fuzz/corpus/<target>/), through the target's own
//! body (fuzz/src/<target>.rs, included here as it is), on the stable toolchain. Fuzzing proper
//! (libFuzzer, nightly, new inputs for minutes or hours) is scripts/fuzz.sh; this keeps the
//! targets compiling and every input that ever mattered passing, in the test command. A finding
//! of a fuzz run is added to its target's corpus folder and so becomes a case here.

#[path = "../fuzz/src/lib.rs"]
#[allow(dead_code)] // `assert_*` are used by some targets only
mod fuzz;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// Runs `run` on each file of fuzz/corpus/`target`/ and names every file that panicked.
fn replay(target: &str, run: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus").join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} holds no seed", dir.display());
    let failed: Vec<String> = files
        .iter()
        .filter(|path| {
            let data = std::fs::read(path).unwrap();
            catch_unwind(AssertUnwindSafe(|| run(&data))).is_err()
        })
        .map(|path| path.display().to_string())
        .collect();
    assert!(failed.is_empty(), "{target}: these seeds fail: {failed:?}");
}

#[test]
fn classroom_seeds() {
    replay("classroom", fuzz::classroom::run);
}

#[test]
fn ctranslate2_seeds() {
    replay("ctranslate2", fuzz::ctranslate2::run);
}

#[test]
fn exports_seeds() {
    replay("exports", fuzz::exports::run);
}

#[test]
fn gguf_seeds() {
    replay("gguf", fuzz::gguf::run);
}

#[test]
fn safetensors_seeds() {
    replay("safetensors", fuzz::safetensors::run);
}

#[test]
fn session_seeds() {
    replay("session", fuzz::session::run);
}

#[test]
fn tokenizer_seeds() {
    replay("tokenizer", fuzz::tokenizer::run);
}

#[test]
fn url_seeds() {
    replay("url", fuzz::url::run);
}

/// A target without seeds, or seeds without their test here, would never be replayed.
#[test]
fn every_target_is_replayed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let here = std::fs::read_to_string(root.join("tests/fuzz_corpus.rs")).unwrap();
    for entry in std::fs::read_dir(root.join("fuzz/fuzz_targets")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap();
        assert!(root.join("fuzz/corpus").join(name).is_dir(), "fuzz/corpus/{name}/ is missing");
        assert!(
            here.contains(&format!("fn {name}_seeds()")),
            "the fuzz target {name} has no test in tests/fuzz_corpus.rs"
        );
    }
}
