//! The real checkpoints of models-extra/ (`scripts/fetch_models.py --extra`) against transformers
//! (tests/fixtures/extra/, made by scripts/reference/extra_reference.py): Gemma 3 270M and Qwen2.5
//! Coder 0.5B Instruct from their Q4_K_M GGUFs, with tokenizers built from the files' own
//! vocabularies, and all-mpnet-base-v2 from its folder. Tokens and ids must be transformers'
//! exactly; the attention of the first and the last layer, every head, and the last query's in
//! every layer and head, within [`TOLERANCE`]; the most likely next token the same; Gemma's layers
//! masked as transformers masks them. Each test is skipped, saying so, when its files are absent.

mod common;

use attnscope::attention::Mask;
use attnscope::checkpoint::{Checkpoint, Model};
use attnscope::testing::fixture_path;
use serde::Deserialize;

/// transformers dequantizes a GGUF's blocks to the same f32 weights as
/// attnscope, so only the order of float operations differs.
const TOLERANCE: f32 = 1e-4;

#[derive(Deserialize)]
struct Reference {
    layers: Vec<usize>,
    n_layers: usize,
    #[serde(default)]
    layer_types: Option<Vec<String>>,
    #[serde(default)]
    sliding_window: Option<usize>,
    tokens: Vec<Tokens>,
    cases: Vec<Case>,
    /// The first case's last query in every layer and head: [layer][head][key].
    last_rows: Vec<Vec<Vec<f32>>>,
}

#[derive(Deserialize)]
struct Tokens {
    text: String,
    ids: Vec<u32>,
    tokens: Vec<String>,
}

#[derive(Deserialize)]
struct Case {
    text: String,
    ids: Vec<u32>,
    /// [the layers of `Reference::layers`][head][query][key].
    attention: Vec<Vec<Vec<Vec<f32>>>>,
    top_next_id: Option<u32>,
}

/// Loads `path`, checks it against `tests/fixtures/extra/<name>.json` and
/// returns the model, its reference and the largest difference in A.
fn check(name: &str, path: &std::path::Path) -> (Model, Reference, f32) {
    let reference: Reference = serde_json::from_slice(
        &std::fs::read(fixture_path(&format!("extra/{name}.json"))).unwrap(),
    )
    .unwrap();
    let checkpoint = Checkpoint::open(path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let model = checkpoint.load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(model.info().n_layers, reference.n_layers, "{name}: layers");
    for t in &reference.tokens {
        let (ids, pieces) = match &model {
            Model::Decoder(d) => {
                let t = d.tokenize(&t.text).unwrap();
                (t.ids, t.pieces)
            }
            Model::Encoder(e) => {
                let t = e.tokenize(&t.text).unwrap();
                (t.ids, t.pieces)
            }
        };
        assert_eq!(ids, t.ids, "{name}: ids of {:?}", t.text);
        assert_eq!(pieces, t.tokens, "{name}: tokens of {:?}", t.text);
    }
    let mut worst = 0f32;
    for (c, case) in reference.cases.iter().enumerate() {
        let trace =
            model.run(&case.text).unwrap_or_else(|e| panic!("{name} on {:?}: {e}", case.text));
        assert_eq!(
            trace.token_ids.as_deref(),
            Some(&case.ids[..]),
            "{name}: ids of {:?}",
            case.text
        );
        if c == 0 {
            assert_eq!(trace.layers.len(), reference.last_rows.len(), "{name}: layers");
            for (l, (layer, want_layer)) in
                trace.layers.iter().zip(&reference.last_rows).enumerate()
            {
                assert_eq!(
                    layer.attention.heads.len(),
                    want_layer.len(),
                    "{name}: heads of layer {l}"
                );
                for (h, (head, want)) in layer.attention.heads.iter().zip(want_layer).enumerate() {
                    let last = head.weights.row(head.weights.rows - 1);
                    assert_eq!(last.len(), want.len(), "{name}: layer {l} head {h} keys");
                    for (j, (&a, &w)) in last.iter().zip(want).enumerate() {
                        let d = (a - w).abs();
                        assert!(
                            d <= TOLERANCE,
                            "{name} on {:?}: layer {l} head {h} last row [{j}] = {a} vs {w}",
                            case.text
                        );
                        worst = worst.max(d);
                    }
                }
            }
        }
        for (&l, want_layer) in reference.layers.iter().zip(&case.attention) {
            let what = format!("{name} on {:?}", case.text);
            worst = worst.max(common::heads_within(
                &what,
                l,
                &trace.layers[l].attention.heads,
                want_layer,
                TOLERANCE,
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
    (model, reference, worst)
}

#[test]
fn gemma3_270m_q4_k_m() {
    let Some(path) = common::extra("gemma3-270m", "gemma-3-270m-q4_k_m.gguf") else { return };
    let (model, reference, _) = check("gemma3-270m", &path);
    let trace = model.run("The capital of France is").unwrap();
    let masks: Vec<Mask> = trace.layers.iter().map(|l| l.attention.heads[0].mask).collect();
    let window = reference.sliding_window.expect("Gemma 3 has a sliding window");
    let types = reference.layer_types.expect("transformers lists Gemma 3's layer types");
    let want: Vec<Mask> = types
        .iter()
        .map(|t| match t.as_str() {
            "sliding_attention" => Mask::SlidingWindow(window),
            "full_attention" => Mask::Causal,
            other => panic!("layer type {other}"),
        })
        .collect();
    assert_eq!(
        masks, want,
        "Gemma 3's local layers see a window of {window}, its global ones every earlier token"
    );
    assert_eq!(
        masks.iter().filter(|&&m| m == Mask::Causal).count(),
        3,
        "one layer in six of 18 is global"
    );
}

#[test]
fn qwen2_5_coder_0_5b_q4_k_m() {
    let Some(path) = common::extra("qwen2.5-0.5b", "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf")
    else {
        return;
    };
    let (model, _, _) = check("qwen2.5-0.5b", &path);
    let info = model.info();
    assert_eq!((info.n_layers, info.n_heads, info.n_kv_heads), (24, 14, 2));
}

#[test]
fn all_mpnet_base_v2() {
    let Some(weights) = common::extra("all-mpnet-base-v2", "model.safetensors") else { return };
    let (model, _, _) = check("all-mpnet-base-v2", weights.parent().unwrap());
    let trace = model.run("the quick fox").unwrap();
    assert!(
        trace.layers[0].attention.heads[0].bias.is_some(),
        "MPNet's heads carry their relative position bias"
    );
}
