//! Every architecture read from a Hugging Face folder against transformers:
//! tiny randomly initialized checkpoints (tests/fixtures/tiny/, made by
//! scripts/reference/tiny_reference.py) with the attention of every layer and
//! head that transformers computes (eager, float32), the tokens and ids of the
//! `tokenizers` library and, for decoders, the most likely next token.

use crate::common;

use attnscope::attention::Mask;
use attnscope::checkpoint::{Checkpoint, Model};
use attnscope::testing::fixture_path;
use serde::Deserialize;

/// transformers' attention and ours, float32 on both sides.
const TOLERANCE: f32 = 1e-4;
/// The same for quantized weights (transformers dequantizes them to float32).
const QUANTIZED_TOLERANCE: f32 = 1e-3;

#[derive(Deserialize)]
struct Reference {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    text: String,
    tokens: Vec<String>,
    ids: Vec<u32>,
    /// [layer][head][query][key].
    attention: Vec<Vec<Vec<Vec<f32>>>>,
    top_next_id: Option<u32>,
}

/// Loads `tests/fixtures/tiny/<name>`, checks it against its reference and
/// returns the model with the largest difference found.
fn check(name: &str) -> (Model, f32) {
    let dir = fixture_path(&format!("tiny/{name}"));
    check_path(name, &dir, &dir.join("reference.json"), TOLERANCE)
}

/// `path` (a folder or a GGUF file) against the reference in `reference`.
fn check_path(
    name: &str,
    path: &std::path::Path,
    reference: &std::path::Path,
    tolerance: f32,
) -> (Model, f32) {
    let reference: Reference = serde_json::from_slice(&std::fs::read(reference).unwrap()).unwrap();
    let checkpoint = Checkpoint::open(path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let description = checkpoint.describe().unwrap_or_else(|e| panic!("{name}: {e}"));
    let model = checkpoint.load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    let info = model.info();
    assert_eq!(
        (description.n_layers, description.n_heads, description.n_kv_heads),
        (info.n_layers, info.n_heads, info.n_kv_heads)
    );
    let mut worst = 0f32;
    for case in &reference.cases {
        let trace =
            model.run(&case.text).unwrap_or_else(|e| panic!("{name} on {:?}: {e}", case.text));
        assert_eq!(
            trace.token_ids.as_deref(),
            Some(&case.ids[..]),
            "{name}: ids of {:?}",
            case.text
        );
        if let Model::Encoder(_) = model {
            assert_eq!(trace.tokens, case.tokens, "{name}: tokens of {:?}", case.text);
        }
        assert_eq!(trace.layers.len(), case.attention.len(), "{name}: layers");
        for (l, (layer, want_layer)) in trace.layers.iter().zip(&case.attention).enumerate() {
            let what = format!("{name} on {:?}", case.text);
            worst = worst.max(common::heads_within(
                &what,
                l,
                &layer.attention.heads,
                want_layer,
                tolerance,
            ));
        }
        if let (Some(want), Model::Decoder(d)) = (case.top_next_id, &model) {
            let top = &trace.top_next.as_ref().expect("a decoder predicts the next token")[0].0;
            assert_eq!(
                Some(top),
                d.token_text(want).as_ref(),
                "{name}: next token after {:?}",
                case.text
            );
        }
    }
    println!("{name}: largest difference in A {worst:e}");
    (model, worst)
}

/// The mask of each layer (its first head's) on `text`.
fn masks(model: &Model, text: &str) -> Vec<Mask> {
    model.run(text).unwrap().layers.iter().map(|l| l.attention.heads[0].mask).collect()
}

#[test]
fn bert() {
    check("bert");
}

#[test]
fn roberta() {
    check("roberta");
}

#[test]
fn distilbert() {
    check("distilbert");
}

#[test]
fn mpnet_with_its_relative_position_bias() {
    let (model, _) = check("mpnet");
    let trace = model.run("the quick fox").unwrap();
    assert!(
        trace.layers[0].attention.heads[0].bias.is_some(),
        "MPNet's heads carry their position bias"
    );
}

#[test]
fn llama_from_f16() {
    check("llama");
}

#[test]
fn qwen2_with_qkv_bias_from_bf16() {
    check("qwen2");
}

#[test]
fn mistral_with_its_window() {
    let (model, _) = check("mistral");
    assert!(masks(&model, "the quick fox").iter().all(|&m| m == Mask::SlidingWindow(5)));
}

#[test]
fn gpt2_from_shards() {
    check("gpt2");
}

#[test]
fn gemma3_local_and_global_layers() {
    let (model, _) = check("gemma3");
    assert_eq!(
        masks(&model, "the quick fox"),
        [Mask::SlidingWindow(4), Mask::SlidingWindow(4), Mask::Causal]
    );
}

#[test]
fn qwen2_from_gguf_with_its_own_vocabulary() {
    for (file, tolerance) in [("qwen2-f32", TOLERANCE), ("qwen2-q8_0", QUANTIZED_TOLERANCE)] {
        let dir = fixture_path("tiny/gguf");
        let (model, _) = check_path(
            file,
            &dir.join(format!("{file}.gguf")),
            &dir.join(format!("{file}.json")),
            tolerance,
        );
        assert_eq!(model.info().n_kv_heads, 2);
    }
}
