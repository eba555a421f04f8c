//! Trace files written by the attnscope Python package, read by the Rust
//! reader: from numpy arrays (scripts/reference/tracefile_numpy_fixtures.py,
//! compared with the same arrays saved by the safetensors library), and from
//! tiny random transformers models (scripts/reference/tracefile_transformers.py),
//! whose stored queries and keys must give back the stored weights through
//! our own attention formula.

use attnscope::attention::{apply_mask, softmax_rows};
use attnscope::trace::{pool, THUMB_MAX};
use attnscope::tracefile::{MaskSpec, SeekSource, TraceReader};
use attnscope::Matrix;
use safetensors::SafeTensors;
use std::fs::File;
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    attnscope::testing::fixture_path(&format!("tracefile/{name}"))
}

fn open(name: &str) -> TraceReader<SeekSource<File>> {
    TraceReader::open_path(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The arrays the numpy fixtures were written from, read with the safetensors crate.
fn expected(name: &str) -> Vec<Matrix> {
    let bytes = std::fs::read(fixture("numpy_expected.safetensors")).unwrap();
    let all = SafeTensors::deserialize(&bytes).unwrap();
    let t = all.tensor(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    let (count, rows, cols) = (t.shape()[0], t.shape()[1], t.shape()[2]);
    let values: Vec<f32> =
        t.data().chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect();
    assert_eq!(values.len(), count * rows * cols);
    values.chunks_exact(rows * cols).map(|c| Matrix::from_vec(rows, cols, c.to_vec())).collect()
}

/// Thumbnails as the file holds them against our own pooling of the file's weights.
fn check_thumbnails(r: &mut TraceReader<SeekSource<File>>) {
    let thumbs = r.thumbnails().unwrap();
    for (l, layer) in thumbs.iter().enumerate() {
        for (h, thumb) in layer.iter().enumerate() {
            let ours =
                attnscope::trace::Thumbnail::new(&pool(&r.attention(l, h).unwrap(), THUMB_MAX));
            assert_eq!((thumb.rows, thumb.cols), (ours.rows, ours.cols));
            // Sums in another order (numpy's, ours) may round a half level apart.
            let worst = thumb
                .levels
                .iter()
                .zip(&ours.levels)
                .map(|(a, b)| (*a as i32 - *b as i32).abs())
                .max()
                .unwrap();
            assert!(worst <= 1, "layer {l} head {h}: levels {worst} apart");
        }
    }
}

#[test]
fn numpy_f32_trace_holds_exactly_the_arrays() {
    let mut r = open("numpy_f32.safetensors");
    let d = r.description().clone();
    assert_eq!((d.n_layers, d.n_heads, d.n_kv_heads), (3, 4, 2));
    assert_eq!(d.tokens, ["<s>", "The", " café", " 🐟", "<0xF0>"]);
    assert_eq!(d.token_ids.as_deref(), Some(&[1, 504, 40213, 9, 242][..]));
    assert_eq!(d.text.as_deref(), Some("The café 🐟"));
    assert_eq!(d.model.model_type.as_deref(), Some("none"));
    let masks: Vec<MaskSpec> = (0..3).map(|l| r.index().mask(l)).collect();
    assert_eq!(masks, [MaskSpec::Causal, MaskSpec::SlidingWindow { window: 2 }, MaskSpec::Causal]);
    assert_eq!(d.uniform_mask(), None);
    let qk = d.queries_keys.as_ref().unwrap();
    assert_eq!(
        (qk.scale, qk.positions.as_deref(), qk.max_abs_error),
        (1.0 / 3f32.sqrt(), Some("rope"), None)
    );
    let top = d.top_next.as_ref().unwrap();
    assert_eq!(
        (top[0].token.as_str(), top[0].id, top[0].probability),
        (" Paris", Some(7042), 0.75)
    );
    assert_eq!((top[1].token.as_str(), top[1].id), (" a", None));
    assert_eq!((0..4).map(|h| d.kv_head_of(h)).collect::<Vec<_>>(), [0, 0, 1, 1]);
    for l in 0..3 {
        assert_eq!(
            r.layer_attention(l).unwrap(),
            expected(&format!("f32/layers.{l}.attention")),
            "layer {l}"
        );
        let (a, q, k) = (
            expected(&format!("f32/layers.{l}.attention")),
            expected(&format!("f32/layers.{l}.queries")),
            expected(&format!("f32/layers.{l}.keys")),
        );
        assert_eq!((a.len(), q.len(), k.len()), (4, 4, 2));
        for (h, (a, q)) in a.iter().zip(&q).enumerate() {
            assert_eq!(&r.attention(l, h).unwrap(), a);
            assert_eq!(&r.queries(l, h).unwrap().unwrap(), q);
        }
        for (g, k) in k.iter().enumerate() {
            assert_eq!(&r.keys(l, g).unwrap().unwrap(), k);
        }
    }
    assert_eq!(r.index().thumbnail_size(), Some(5));
    check_thumbnails(&mut r);
}

#[test]
fn numpy_f16_trace_holds_the_arrays_rounded_once_and_pooled_thumbnails() {
    let mut r = open("numpy_f16.safetensors");
    assert_eq!(
        (r.index().n_layers(), r.index().n_heads(), r.index().n_kv_heads(), r.index().n_tokens()),
        (2, 3, 1, 53)
    );
    assert_eq!(r.index().mask(1), MaskSpec::None);
    assert!(
        !r.index().has_queries_keys(0)
            && r.queries(0, 0).unwrap().is_none()
            && r.keys(0, 0).unwrap().is_none()
    );
    for l in 0..2 {
        let want = expected(&format!("f16/layers.{l}.attention"));
        for (h, w) in want.iter().enumerate() {
            assert_eq!(
                r.attention(l, h).unwrap(),
                w.map(|x| half::f16::from_f32(x).to_f32()),
                "layer {l} head {h}"
            );
        }
    }
    assert_eq!(r.index().thumbnail_size(), Some(48));
    check_thumbnails(&mut r);
}

#[test]
fn a_trace_with_nothing_optional_still_opens_and_pools_its_own_thumbnails() {
    let mut r = open("numpy_bare.safetensors");
    let d = r.description().clone();
    assert_eq!(
        (d.token_ids, d.text, d.top_next, d.queries_keys, d.model.model_type),
        (None, None, None, None, None)
    );
    assert_eq!(r.index().thumbnail_size(), None);
    assert_eq!(r.attention(0, 0).unwrap(), Matrix::from_vec(1, 1, vec![1.0]));
    assert_eq!(r.thumbnails().unwrap()[0][0].levels, [65535]);
}

/// softmax(Q·Kᵀ·scale + M) of one head from the file's queries and keys.
fn recomputed(r: &mut TraceReader<SeekSource<File>>, layer: usize, head: usize) -> Matrix {
    let scale = r.description().queries_keys.as_ref().unwrap().scale;
    let g = r.description().kv_head_of(head);
    let (q, k) = (r.queries(layer, head).unwrap().unwrap(), r.keys(layer, g).unwrap().unwrap());
    let scaled = q.matmul_t(&k).map(|s| s * scale); //    S·scale     (n × n)
    let mask = r.index().mask(layer);
    let masked = match mask.core() {
        Some(m) => apply_mask(scaled, m), //                S·scale + M
        None => {
            let mut m = scaled;
            for i in 0..m.rows {
                for j in 0..m.cols {
                    if !mask.allows(i, j).unwrap() {
                        m[(i, j)] = f32::NEG_INFINITY;
                    }
                }
            }
            m
        }
    };
    softmax_rows(masked) //                                  A = softmax(…)
}

/// A transformers trace: its description as the report says, and its
/// weights given back by our formula from its queries and keys.
fn check_transformers(name: &str, architecture: &str, masks: &[MaskSpec], kv_heads: usize) {
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("transformers_roundtrip.json")).unwrap(),
    )
    .unwrap();
    let entry = &report["models"][name];
    assert!(
        entry["checks"].as_object().unwrap().values().all(|ok| ok == true),
        "{name}: {}",
        entry["checks"]
    );
    let mut r = open(&format!("{name}.safetensors"));
    let d = r.description().clone();
    assert_eq!(d.model.architecture, architecture);
    assert_eq!(d.n_kv_heads, kv_heads);
    assert_eq!(serde_json::to_value(&d.tokens).unwrap(), entry["tokens"]);
    assert_eq!((0..d.n_layers).map(|l| r.index().mask(l)).collect::<Vec<_>>(), masks);
    let mut worst = 0.0f32;
    for l in 0..d.n_layers {
        for h in 0..d.n_heads {
            let stored = r.attention(l, h).unwrap();
            for i in 0..stored.rows {
                let sum: f32 = stored.row(i).iter().sum();
                assert!(
                    (sum - 1.0).abs() < 1e-5,
                    "{name} layer {l} head {h} row {i} sums to {sum}"
                );
            }
            worst = worst.max(recomputed(&mut r, l, h).max_abs_diff(&stored));
        }
    }
    assert!(
        worst < 1e-5,
        "{name}: our formula on the stored Q and K is {worst} from the stored weights"
    );
    check_thumbnails(&mut r);
}

#[test]
fn tiny_bert_from_transformers() {
    check_transformers("tiny_bert", "BertModel", &[MaskSpec::None; 6], 4);
}

#[test]
fn tiny_llama_from_transformers() {
    check_transformers("tiny_llama", "LlamaForCausalLM", &[MaskSpec::Causal; 6], 2);
}

#[test]
fn tiny_gemma3_from_transformers_with_sliding_windows() {
    let w = MaskSpec::SlidingWindow { window: 4 };
    check_transformers("tiny_gemma3", "Gemma3ForCausalLM", &[w, w, w, w, w, MaskSpec::Causal], 1);
}
