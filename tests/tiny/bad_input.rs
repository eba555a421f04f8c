//! A checkpoint that cannot run is refused with a message that names what
//! is wrong, at describe or at load, never a panic: the tiny checkpoints of
//! tests/fixtures/tiny/, copied and broken one way at a time.

use attnscope::checkpoint::Checkpoint;
use attnscope::testing::fixture_path;
use std::path::{Path, PathBuf};

/// A temporary folder, removed when dropped (even when the test fails).
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A copy of `tests/fixtures/tiny/<name>` in a fresh temporary folder.
fn copy_of(name: &str, case: &str) -> Scratch {
    let from = fixture_path(&format!("tiny/{name}"));
    let to =
        std::env::temp_dir().join(format!("attnscope-bad-{}-{name}-{case}", std::process::id()));
    let _ = std::fs::remove_dir_all(&to);
    std::fs::create_dir_all(&to).unwrap();
    for entry in std::fs::read_dir(&from).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
    }
    Scratch(to)
}

/// Edits config.json's `key` (None removes it).
fn set(dir: &Path, key: &str, value: Option<serde_json::Value>) {
    let path = dir.join("config.json");
    let mut config: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    match value {
        Some(v) => config.insert(key.to_string(), v),
        None => config.remove(key),
    };
    std::fs::write(&path, serde_json::to_vec(&config).unwrap()).unwrap();
}

/// The error of describing, else of loading, `dir`.
fn error_of(dir: &Path) -> String {
    let checkpoint = match Checkpoint::open(dir) {
        Ok(c) => c,
        Err(e) => return e.to_string(),
    };
    match checkpoint.describe().and_then(|_| checkpoint.load("bad").map(|_| ())) {
        Ok(()) => panic!("{} loaded", dir.display()),
        Err(e) => e.to_string(),
    }
}

fn assert_refused(dir: &Path, says: &[&str]) {
    let e = error_of(dir);
    for s in says {
        assert!(e.contains(s), "{}: {e:?} should say {s:?}", dir.display());
    }
}

#[test]
fn hyper_parameters_are_checked_and_named() {
    use serde_json::json;
    for (name, key, value, says) in [
        ("llama", "num_hidden_layers", json!(0), "num_hidden_layers"),
        ("llama", "num_attention_heads", json!(3), "num_attention_heads"),
        ("llama", "rms_norm_eps", json!(-1e-6), "rms_norm_eps"),
        ("qwen2", "num_key_value_heads", json!(3), "num_key_value_heads"),
        ("gemma3", "layer_types", json!(["sliding_attention"]), "layer_types"),
        ("gemma3", "head_dim", json!(-16), "head_dim"),
        ("bert", "layer_norm_eps", json!(-1.0), "layer_norm_eps"),
        ("gpt2", "n_head", json!(0), "n_head"),
    ] {
        let dir = copy_of(name, key);
        set(&dir, key, Some(value.clone()));
        assert_refused(&dir, &[says]);
    }
}

#[test]
fn weights_that_disagree_with_the_config_are_refused() {
    // Wider than the weights: the first tensor read has the wrong shape.
    for name in ["llama", "gemma3", "bert", "mpnet", "gpt2"] {
        let dir = copy_of(name, "wider");
        let key = if name == "gpt2" { "n_embd" } else { "hidden_size" };
        set(&dir, key, Some(serde_json::json!(64)));
        let e = error_of(&dir);
        assert!(e.contains("shape") || e.contains("64"), "{name}: {e}");
    }
}

#[test]
fn an_unknown_architecture_is_named_as_found() {
    let dir = copy_of("llama", "t5");
    set(&dir, "model_type", Some(serde_json::json!("t5")));
    assert_refused(&dir, &["\"t5\"", "Gemma 3"]);
}

#[test]
fn a_missing_tokenizer_or_weights_file_is_named() {
    let dir = copy_of("qwen2", "no-tokenizer");
    std::fs::remove_file(dir.join("tokenizer.json")).unwrap();
    assert_refused(&dir, &["tokenizer"]);
    let dir = copy_of("bert", "no-weights");
    std::fs::remove_file(dir.join("model.safetensors")).unwrap();
    assert_refused(&dir, &["model.safetensors"]);
}

#[test]
fn a_truncated_file_is_an_error() {
    let dir = copy_of("gemma3", "truncated");
    let path = dir.join("model.safetensors");
    let bytes = std::fs::read(&path).unwrap();
    for keep in [4, 100, bytes.len() / 2, bytes.len() - 1] {
        std::fs::write(&path, &bytes[..keep]).unwrap();
        error_of(&dir);
    }
    let gguf = fixture_path("tiny/gguf/qwen2-q8_0.gguf");
    let bytes = std::fs::read(&gguf).unwrap();
    let scratch =
        Scratch(std::env::temp_dir().join(format!("attnscope-bad-{}-cut", std::process::id())));
    std::fs::create_dir_all(&*scratch).unwrap();
    let cut = scratch.join("cut.gguf");
    for keep in [8, 64, bytes.len() / 3, bytes.len() - 1] {
        std::fs::write(&cut, &bytes[..keep]).unwrap();
        let e = Checkpoint::open(&cut).and_then(|c| c.load("cut").map(|_| ()));
        assert!(e.is_err(), "a GGUF cut at {keep} bytes loaded");
    }
}
