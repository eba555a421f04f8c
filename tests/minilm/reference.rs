//! The Rust all-MiniLM-L6-v2 against Hugging Face: every attention weight of
//! every layer and head within 1e-4 of transformers (eager, float32), and the
//! sentence embedding within cosine 0.9999 of sentence-transformers.
//!
//! The reference numbers are in tests/fixtures/minilm/, written by
//! scripts/reference/minilm_reference.py; no Python runs here. The model
//! files are required: without them these tests fail (they never skip).

use crate::common;

use attnscope::checkpoint::minilm::MiniLm;
use attnscope::Mask;
use common::minilm as model;
use serde::Deserialize;

const ATTENTION_TOLERANCE: f32 = 1e-4;
const MIN_COSINE: f64 = 0.9999;

#[derive(Deserialize)]
struct Fixture {
    text: String,
    tokens: Vec<String>,
    token_ids: Vec<u32>,
    sentence_embedding: Vec<f32>,
    /// [layer][head][query][key]
    attentions: Option<Vec<Vec<Vec<Vec<f32>>>>>,
}

fn fixture(name: &str) -> Fixture {
    let name = format!("minilm/{name}.json");
    serde_json::from_str(&common::fixture_text(&name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| *x as f64 * *y as f64).sum();
    let na: f64 = a.iter().map(|x| (*x as f64).powi(2)).sum::<f64>().sqrt();
    let nb: f64 = b.iter().map(|x| (*x as f64).powi(2)).sum::<f64>().sqrt();
    dot / (na * nb)
}

/// Largest |ours − reference| over every layer, head, query and key.
fn max_attention_diff(model: &MiniLm, f: &Fixture) -> f32 {
    let trace = model.run(&f.text).expect("run");
    let reference = f.attentions.as_ref().expect("fixture has attentions");
    assert_eq!(trace.layers.len(), reference.len(), "layer count");
    let mut worst = 0.0f32;
    for (l, ref_layer) in reference.iter().enumerate() {
        assert_eq!(
            trace.layers[l].attention.heads.len(),
            ref_layer.len(),
            "head count in layer {l}"
        );
        for (h, ref_head) in ref_layer.iter().enumerate() {
            let ours = trace.weights(l, h).unwrap();
            assert_eq!(ours.shape(), (ref_head.len(), ref_head.len()), "layer {l} head {h} shape");
            for (i, ref_row) in ref_head.iter().enumerate() {
                for (j, want) in ref_row.iter().enumerate() {
                    worst = worst.max((ours[(i, j)] - want).abs());
                }
            }
        }
    }
    worst
}

fn check(name: &str) {
    let f = fixture(name);
    let model = model();
    let trace = model.run(&f.text).expect("run");
    assert_eq!(trace.tokens, f.tokens, "{name}: tokens");
    assert_eq!(trace.token_ids.as_deref(), Some(&f.token_ids[..]), "{name}: token ids");
    let cos = cosine(trace.sentence_embedding.as_ref().unwrap(), &f.sentence_embedding);
    println!("{name}: {} tokens, embedding cosine {cos:.9}", f.tokens.len());
    assert!(cos >= MIN_COSINE, "{name}: embedding cosine {cos} < {MIN_COSINE}");
    if f.attentions.is_some() {
        let diff = max_attention_diff(model, &f);
        println!("{name}: max |attention − transformers| = {diff:.3e}");
        assert!(
            diff <= ATTENTION_TOLERANCE,
            "{name}: attention differs by {diff} > {ATTENTION_TOLERANCE}"
        );
    }
}

#[test]
fn subword_sentence_matches_transformers() {
    check("subwords");
}

#[test]
fn punctuation_and_capitals_match_transformers() {
    check("punctuation");
}

#[test]
fn pronoun_sentence_matches_transformers() {
    check("pronoun");
}

#[test]
fn accents_emoji_cjk_and_control_characters_tokenize_like_python() {
    check("unusual");
}

#[test]
fn long_text_is_cut_to_256_tokens_like_sentence_transformers() {
    check("long");
    let trace = model().run(&fixture("long").text).unwrap();
    assert_eq!(trace.tokens.len(), 256);
    assert_eq!(trace.tokens.last().map(String::as_str), Some("[SEP]"));
    assert!(
        trace.notice.as_deref().is_some_and(|n| n.contains("256")),
        "notice: {:?}",
        trace.notice
    );
}

#[test]
fn info_describes_the_model() {
    let info = model().info();
    assert_eq!((info.id.as_str(), info.name.as_str()), ("minilm", "all-MiniLM-L6-v2"));
    assert_eq!(
        (info.n_layers, info.n_heads, info.n_kv_heads, info.d_model, info.d_head),
        (6, 12, 12, 384, 32)
    );
    assert_eq!((info.mask, info.max_tokens), (Mask::None, 256));
}

#[test]
fn layer_trace_holds_the_residual_stream() {
    let trace = model().run(&fixture("subwords").text).unwrap();
    for layer in &trace.layers {
        assert_eq!(layer.residual.max_abs_diff(&layer.input.add(&layer.delta)), 0.0);
        assert_eq!(layer.attention.concat.shape(), (13, 384));
    }
    // The first layer's input is the embedding LayerNorm's output: each row has mean ≈ 0.
    let e0 = &trace.layers[0].input;
    for i in 0..e0.rows {
        let mean: f32 = e0.row(i).iter().sum::<f32>() / e0.cols as f32;
        assert!(mean.abs() < 0.05, "row {i} mean {mean}");
    }
}

/// The page's default download: the f16 copy of the weights that
/// scripts/fetch_models.py makes and models/manifest.json pins (half the
/// bytes, widened to f32 as it loads). Every attention weight stays within
/// 2e-3 of the f32 model's and of transformers', on every fixture (the long
/// one at 256 tokens too); the embedding keeps cosine ≥ 0.99999.
#[test]
fn the_f16_copy_moves_attention_by_at_most_2e_3() {
    const F16_TOLERANCE: f32 = 2e-3;
    let files = common::minilm_files();
    let f16 = std::fs::read(common::minilm_dir().join("model.f16.safetensors"))
        .expect("model.f16.safetensors is missing: run `python3 scripts/fetch_models.py minilm`");
    assert!(
        f16.len() < files.weights.len() / 2 + 128 * 1024,
        "the copy is {} bytes, the f32 file {}",
        f16.len(),
        files.weights.len()
    );
    let half = MiniLm::from_bytes(&f16, &files.tokenizer, &files.config).unwrap();
    assert!(!half.exact() && model().exact());
    let (mut worst, mut worst_cos) = (0.0f32, 1.0f64);
    for name in ["subwords", "punctuation", "pronoun", "unusual", "long"] {
        let f = fixture(name);
        let (ours, exact) = (half.run(&f.text).unwrap(), model().run(&f.text).unwrap());
        assert_eq!(ours.tokens, exact.tokens, "{name}: tokens");
        let mut diff = 0.0f32;
        for l in 0..exact.layers.len() {
            for h in 0..exact.layers[l].attention.heads.len() {
                let (a, b) = (ours.weights(l, h).unwrap(), exact.weights(l, h).unwrap());
                diff = a.data.iter().zip(&b.data).fold(diff, |d, (x, y)| d.max((x - y).abs()));
            }
        }
        let cos = cosine(ours.sentence_embedding.as_ref().unwrap(), &f.sentence_embedding);
        let against_reference = f.attentions.as_ref().map(|_| max_attention_diff(&half, &f));
        let shown =
            against_reference.map_or("(no reference attention)".into(), |d| format!("{d:.3e}"));
        println!(
            "f16 copy, {name} ({} tokens): max |A − A(f32)| = {diff:.3e}, against transformers {shown}, embedding cosine {cos:.7}",
            f.tokens.len()
        );
        worst = worst.max(diff).max(against_reference.unwrap_or(0.0));
        worst_cos = worst_cos.min(cos);
    }
    assert!(worst > 0.0, "f16 rounding must change something: is the copy really f16?");
    assert!(worst <= F16_TOLERANCE, "the f16 copy moves attention by {worst} > {F16_TOLERANCE}");
    assert!(worst_cos >= 0.99999, "the f16 copy moves the embedding: cosine {worst_cos}");
}
