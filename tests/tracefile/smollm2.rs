//! The trace of SmolLM2-135M written by the attnscope Python package, with
//! transformers on the same GGUF (scripts/reference/tracefile_smollm2.py),
//! against the attention attnscope computes for the same text: the same
//! tokens, every weight within 1e-3, the same queries and keys, the same
//! next tokens. Then our own writer's trace of the same text, read back.

use crate::common;

use attnscope::tracefile::{
    write_model_trace, Element, MaskSpec, SeekSource, TraceReader, WriteOptions,
};
use common::{fixture_path, smollm2};
use std::fs::File;

const TOLERANCE: f32 = 1e-3;

fn python_trace() -> TraceReader<SeekSource<File>> {
    let path = fixture_path("tracefile/smollm2_capital.safetensors");
    TraceReader::open_path(&path)
        .unwrap_or_else(|e| panic!("{e} (make it with scripts/reference/tracefile_smollm2.py)"))
}

#[test]
fn the_python_trace_of_smollm2_is_what_attnscope_computes() {
    let mut file = python_trace();
    let d = file.description().clone();
    let ours = smollm2().run(d.text.as_deref().unwrap()).unwrap();
    assert_eq!(
        (d.model.architecture.as_str(), d.model.model_type.as_deref()),
        ("LlamaForCausalLM", Some("llama"))
    );
    assert_eq!((d.n_layers, d.n_heads, d.n_kv_heads), (30, 9, 3));
    assert_eq!(d.uniform_mask(), Some(MaskSpec::Causal));
    assert_eq!(d.token_ids, ours.token_ids);
    assert_eq!(d.tokens, ours.tokens);

    let mut worst = 0.0f32;
    for (l, layer) in ours.layers.iter().enumerate() {
        let att = &layer.attention;
        for (h, head) in att.heads.iter().enumerate() {
            let stored = file.attention(l, h).unwrap();
            let diff = stored.max_abs_diff(&head.weights);
            assert!(diff <= TOLERANCE, "layer {l} head {h}: weights {diff} apart");
            worst = worst.max(diff);
        }
        // Queries and keys after RoPE, in transformers' layout as ours are,
        // stored in f16 (2⁻¹¹ relative) on top of the two models' difference.
        let near =
            |a: f32, b: f32| (a - b).abs() <= TOLERANCE * a.abs().max(1.0) + a.abs() / 2048.0;
        for (h, q) in att.q.iter().enumerate() {
            let stored = file.queries(l, h).unwrap().unwrap();
            assert!(
                stored.data.iter().zip(&q.data).all(|(a, b)| near(*a, *b)),
                "layer {l} query head {h}"
            );
        }
        for (g, k) in att.k.iter().enumerate() {
            let stored = file.keys(l, g).unwrap().unwrap();
            assert!(
                stored.data.iter().zip(&k.data).all(|(a, b)| near(*a, *b)),
                "layer {l} key head {g}"
            );
        }
    }
    let qk = d.queries_keys.as_ref().unwrap();
    assert_eq!((qk.scale, qk.positions.as_deref()), (0.125, Some("rope")));
    assert!(qk.max_abs_error.unwrap() < 1e-5, "{qk:?}");

    let (theirs, mine) = (d.top_next.as_ref().unwrap(), ours.top_next.as_ref().unwrap());
    for (t, (token, p)) in theirs.iter().zip(mine) {
        assert_eq!(&t.token, token);
        assert!((t.probability - p).abs() <= TOLERANCE, "p({token}): {} vs {p}", t.probability);
    }
    assert_eq!(mine[0].0, " Paris");
    eprintln!("{} tokens, largest weight difference {worst:.2e}", d.tokens.len());
}

#[test]
fn our_own_trace_of_smollm2_agrees_with_the_python_one() {
    let mut python = python_trace();
    let text = python.description().text.clone().unwrap();
    let ours = smollm2().run(&text).unwrap();
    let path =
        std::env::temp_dir().join(format!("attnscope-smollm2-{}.safetensors", std::process::id()));
    let options = WriteOptions {
        element: Element::F32,
        text: Some(text),
        positions: Some("rope".into()),
        ..Default::default()
    };
    write_model_trace(&ours, &options, &path).unwrap();
    let mut mine = TraceReader::open_path(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    let (a, b) = (python.description().clone(), mine.description().clone());
    assert_eq!(
        (a.n_layers, a.n_heads, a.n_kv_heads, &a.tokens, &a.token_ids),
        (b.n_layers, b.n_heads, b.n_kv_heads, &b.tokens, &b.token_ids)
    );
    assert_eq!((b.mask, b.model.architecture.as_str()), (a.mask, "LlamaForCausalLM"));
    assert!(b.queries_keys.unwrap().max_abs_error.unwrap() < 1e-5);
    for l in 0..a.n_layers {
        for (x, y) in
            python.layer_attention(l).unwrap().iter().zip(mine.layer_attention(l).unwrap())
        {
            assert!(x.max_abs_diff(&y) <= TOLERANCE, "layer {l}");
        }
    }
    let (t1, t2) = (python.thumbnails().unwrap(), mine.thumbnails().unwrap());
    let apart = t1
        .iter()
        .flatten()
        .zip(t2.iter().flatten())
        .flat_map(|(x, y)| x.levels.iter().zip(&y.levels))
        .map(|(p, q)| p.abs_diff(*q))
        .max();
    // 1e-3 of a weight is 66 levels.
    assert!(apart.unwrap() <= 66, "{apart:?}");
}
