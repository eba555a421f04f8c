//! SmolLM2-135M in Rust against Hugging Face transformers on the same GGUF
//! (fixtures from scripts/reference/smollm2_reference.py): tokens, every
//! stored attention weight within 1e-3, Q and K in the reference layout, the
//! next-token distribution; and the key/value cache against full recompute.

use crate::common;

use attnscope::checkpoint::smollm2::{SmolLm2Session, MAX_TOKENS};
use attnscope::session::{FromWorker, ModelId, RunOptions, Session, ToWorker};
use attnscope::{Mask, ModelTrace};
use serde_json::Value;

const TOLERANCE: f32 = 1e-3;

use common::smollm2 as model;

/// The worker's session with SmolLM2 installed from the file's bytes, as the page does.
fn session_with_smollm2() -> Session {
    let mut s = Session::new();
    s.install(ModelId::SmolLm2, vec![common::smollm2_bytes().to_vec()]).unwrap();
    s
}

fn fixture(name: &str) -> Value {
    serde_json::from_str(&common::fixture_text(&format!("smollm2/{name}.json"))).unwrap()
}

fn floats(v: &Value) -> Vec<f32> {
    match v {
        Value::Array(a) => a.iter().flat_map(floats).collect(),
        Value::Number(n) => vec![n.as_f64().unwrap() as f32],
        other => panic!("not a number: {other}"),
    }
}

/// Checks one fixture; returns the largest attention-weight difference.
fn check(name: &str) -> f32 {
    let f = fixture(name);
    let text = f["text"].as_str().unwrap();
    let m = model();
    let trace = m.run(text).unwrap();

    let want_ids: Vec<u32> =
        f["token_ids"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as u32).collect();
    let want_tokens: Vec<&str> =
        f["tokens"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(trace.token_ids.as_deref(), Some(&want_ids[..]), "{name}: token ids");
    assert_eq!(trace.tokens, want_tokens, "{name}: tokens as shown");
    let n = want_ids.len();

    let mut worst = 0.0f32;
    for (i, layer) in f["layers"].as_array().unwrap().iter().enumerate() {
        let l = layer.as_u64().unwrap() as usize;
        for (h, want) in f["attentions"][i].as_array().unwrap().iter().enumerate() {
            let want = floats(want);
            let got = &trace.weights(l, h).unwrap().data;
            assert_eq!(got.len(), n * n, "{name}: layer {l} head {h} shape");
            for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                let d = (g - w).abs();
                worst = worst.max(d);
                assert!(
                    d <= TOLERANCE,
                    "{name}: A[layer {l}][head {h}][{}][{}] = {g}, reference {w}",
                    k / n,
                    k % n
                );
            }
        }
    }

    // Q and K after RoPE, in transformers' layout (halves rotated together).
    let att = &trace.layers[0].attention;
    for (key, got) in [("q_layer0_head0", &att.q[0]), ("k_layer0_head0", &att.k[0])] {
        let want = floats(&f[key]);
        assert_eq!(got.data.len(), want.len(), "{name}: {key} shape");
        for (g, w) in got.data.iter().zip(&want) {
            assert!(
                (g - w).abs() <= TOLERANCE * w.abs().max(1.0),
                "{name}: {key}: {g} vs reference {w}"
            );
        }
    }

    for (temp, want) in f["top_next"].as_object().unwrap() {
        let t: f32 = temp.parse().unwrap();
        let got = m.run_with_temperature(text, t).unwrap().top_next.unwrap();
        let want: Vec<(&str, f32)> = want
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e["token"].as_str().unwrap(), e["p"].as_f64().unwrap() as f32))
            .collect();
        assert_eq!(got.len(), want.len());
        for ((gt, gp), (wt, wp)) in got.iter().zip(&want) {
            assert_eq!(gt, wt, "{name}: next tokens at T={t}: {got:?} vs {want:?}");
            assert!(
                (gp - wp).abs() <= TOLERANCE,
                "{name}: p({gt}) at T={t} = {gp}, reference {wp}"
            );
        }
    }
    eprintln!("{name}: {n} tokens, largest attention-weight difference {worst:.2e}");
    worst
}

#[test]
fn capital_of_france_matches_transformers_and_predicts_paris() {
    check("capital");
    let top = model().run("The capital of France is").unwrap().top_next.unwrap();
    assert_eq!(top[0].0, " Paris");
    assert!((top[0].1 - 0.77).abs() < 0.01, "p(Paris) = {}", top[0].1);
}

#[test]
fn digits_and_typed_special_tokens_match_transformers() {
    check("digits_special");
}

#[test]
fn other_scripts_and_emoji_match_transformers() {
    check("scripts_emoji");
}

#[test]
fn info_and_trace_shape_follow_the_model() {
    let m = model();
    let info = m.info();
    assert_eq!((info.id.as_str(), info.name.as_str()), ("smollm2", "SmolLM2-135M"));
    assert_eq!(
        (info.n_layers, info.n_heads, info.n_kv_heads, info.d_model, info.d_head),
        (30, 9, 3, 576, 64)
    );
    assert_eq!((info.mask, info.max_tokens), (Mask::Causal, MAX_TOKENS));
    let t = m.run("Hello world").unwrap();
    assert_eq!(t.layers.len(), 30);
    let a = &t.layers[3].attention;
    assert_eq!(a.kv_head_of, vec![0, 0, 0, 1, 1, 1, 2, 2, 2]);
    assert_eq!((a.q.len(), a.k.len(), a.heads.len()), (9, 3, 9));
    assert_eq!(t.layers[3].input.shape(), (2, 576));
    assert_eq!(t.layers[3].delta.shape(), (2, 576));
    assert_eq!(t.layers[3].residual.shape(), (2, 576));
    // Causal: the first token sees only itself.
    assert_eq!(t.weights(0, 0).unwrap().row(0), &[1.0, 0.0]);
}

fn max_diff(a: &ModelTrace, b: &ModelTrace) -> f32 {
    assert_eq!(a.token_ids, b.token_ids);
    let mut worst = 0.0f32;
    for (la, lb) in a.layers.iter().zip(&b.layers) {
        for (x, y) in [
            (&la.input, &lb.input),
            (&la.delta, &lb.delta),
            (&la.residual, &lb.residual),
            (&la.attention.concat, &lb.attention.concat),
        ] {
            worst = worst.max(x.max_abs_diff(y));
        }
        for (x, y) in la
            .attention
            .k
            .iter()
            .zip(&lb.attention.k)
            .chain(la.attention.q.iter().zip(&lb.attention.q))
        {
            worst = worst.max(x.max_abs_diff(y));
        }
        for (ha, hb) in la.attention.heads.iter().zip(&lb.attention.heads) {
            worst = worst
                .max(ha.scores.max_abs_diff(&hb.scores))
                .max(ha.weights.max_abs_diff(&hb.weights))
                .max(ha.output.max_abs_diff(&hb.output));
        }
    }
    for ((ta, pa), (tb, pb)) in
        a.top_next.as_ref().unwrap().iter().zip(b.top_next.as_ref().unwrap())
    {
        assert_eq!(ta, tb);
        worst = worst.max((pa - pb).abs());
    }
    worst
}

#[test]
fn a_comparison_does_not_displace_the_typed_text_from_the_cache() {
    let mut s = session_with_smollm2();
    let options = RunOptions::default();
    s.run(1, ModelId::SmolLm2, "The capital of France", options, &|| 0.0).unwrap();
    let compare = ToWorker::Compare {
        id: 1,
        model: ModelId::SmolLm2,
        text: "A dog ran".into(),
        options,
        layer: 0,
        head: 0,
    };
    assert!(matches!(s.handle(compare, &|| 0.0), FromWorker::Compared { .. }));
    // Typing on: only " is" is computed, the comparison notwithstanding.
    let typed = s.run(2, ModelId::SmolLm2, "The capital of France is", options, &|| 0.0).unwrap();
    assert_eq!(s.reused_tokens(ModelId::SmolLm2), 4);
    assert_eq!(typed.tokens.len(), 5);
}

#[test]
fn a_what_if_scale_is_shown_but_the_cache_keeps_the_models_numbers() {
    let mut s = session_with_smollm2();
    let text = "The capital of France is";
    s.run(1, ModelId::SmolLm2, text, RunOptions::default(), &|| 0.0).unwrap();
    let own = s.head(3, 4).unwrap();
    s.run(
        2,
        ModelId::SmolLm2,
        text,
        RunOptions { temperature_factor: 2.0, ..Default::default() },
        &|| 0.0,
    )
    .unwrap();
    let hot = s.head(3, 4).unwrap();
    assert_eq!(hot.scale, 2.0 * own.scale);
    assert_ne!(hot.weights, own.weights);
    // Back to the model's own scale: the cache answers, with its numbers untouched.
    s.run(3, ModelId::SmolLm2, text, RunOptions::default(), &|| 0.0).unwrap();
    assert_eq!(s.reused_tokens(ModelId::SmolLm2), 5);
    assert_eq!(s.head(3, 4).unwrap().weights, own.weights);
}

#[test]
fn key_value_cache_equals_full_recompute() {
    let m = model();
    let mut s = SmolLm2Session::new(common::smollm2_owned());
    s.run("The capital of France").unwrap();
    assert_eq!(s.reused_tokens(), 0);
    // Typing at the end: only " is" is computed.
    let full = m.run("The capital of France is").unwrap();
    let d = max_diff(s.run("The capital of France is").unwrap(), &full);
    assert_eq!(s.reused_tokens(), 4);
    eprintln!("appended one token: largest difference from full recompute {d:.2e}");
    assert!(d < 1e-5, "{d}");
    // An edit in the middle recomputes from the edit on.
    assert!(
        max_diff(
            s.run("The capital of Spain is").unwrap(),
            &m.run("The capital of Spain is").unwrap()
        ) < 1e-5
    );
    assert_eq!(s.reused_tokens(), 3);
    // Deleting at the end: the kept prefix, its last token recomputed for the prediction.
    assert!(max_diff(s.run("The capital of").unwrap(), &m.run("The capital of").unwrap()) < 1e-5);
    assert_eq!(s.reused_tokens(), 2);
    // Same tokens, another temperature: nothing recomputed, only the prediction.
    assert!(
        max_diff(
            s.run_with_temperature("The capital of", 0.5).unwrap(),
            &m.run_with_temperature("The capital of", 0.5).unwrap()
        ) < 1e-5
    );
    assert_eq!(s.reused_tokens(), 3);
    // Several tokens at once after a cached prefix.
    assert!(
        max_diff(
            s.run("The capital of France is Paris, and of Italy").unwrap(),
            &m.run("The capital of France is Paris, and of Italy").unwrap()
        ) < 1e-5
    );
    assert_eq!(s.reused_tokens(), 3);
    // Typed word by word (each run appends to every cached layer in place),
    // then the last word letter by letter (each run first drops the
    // unfinished word's token, also in place).
    let text = "The capital of France is Paris, and the capital of Italy is Rome.";
    let cut = text.rfind(' ').unwrap();
    let words = text[..cut].split(' ').scan(0, |end, w| {
        *end += w.len() + 1;
        Some(*end - 1)
    });
    for end in words.chain(cut + 2..=text.len()) {
        s.run(&text[..end]).unwrap();
    }
    // The last letter, ".", is a token of its own: only it was computed.
    assert_eq!(s.reused_tokens(), m.tokenize(text).unwrap().ids.len() - 1);
    // Computed at once, these 15 tokens take the batched kernels, so the
    // residual stream (values in the hundreds) differs in its last bits
    // (about 1e-4); the attention weights and the prediction still agree.
    let (typed, full) = (s.latest().unwrap(), m.run(text).unwrap());
    let weights = typed.layers.iter().zip(&full.layers).flat_map(|(a, b)| {
        a.attention
            .heads
            .iter()
            .zip(&b.attention.heads)
            .map(|(x, y)| x.weights.max_abs_diff(&y.weights))
    });
    let top = typed
        .top_next
        .iter()
        .flatten()
        .zip(full.top_next.iter().flatten())
        .map(|(x, y)| (x.1 - y.1).abs());
    let worst = weights.chain(top).fold(0.0f32, f32::max);
    assert!(worst < 1e-5, "{worst}");
}

#[test]
fn warming_up_at_load_changes_no_result() {
    let mut cold = session_with_smollm2();
    let mut warm = session_with_smollm2();
    // A clock 40 ms on at each reading: the warm-up ends on time, as in a browser.
    let clock = std::cell::Cell::new(0.0);
    let rounds = warm.warm_up(ModelId::SmolLm2, &attnscope::session::warm::BUILT_IN, &|| {
        clock.set(clock.get() + 40.0);
        clock.get()
    });
    assert!((1..10).contains(&rounds), "{rounds} rounds");
    // "The" is also the warm-up text's first token: the cache answers it.
    for (id, text) in [(1, "The capital of France is"), (2, "The capital of France is Paris")] {
        let (a, b) = (
            cold.run(id, ModelId::SmolLm2, text, RunOptions::default(), &|| 0.0),
            warm.run(id, ModelId::SmolLm2, text, RunOptions::default(), &|| 0.0),
        );
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!(a.tokens, b.tokens);
        for ((ta, pa), (tb, pb)) in a.top_next.unwrap().iter().zip(&b.top_next.unwrap()) {
            assert!(ta == tb && (pa - pb).abs() <= 1e-5, "{text}: {ta} {pa} against {tb} {pb}");
        }
        for (l, h) in [(0, 0), (14, 5), (29, 8)] {
            let (ha, hb) = (cold.head(l, h).unwrap(), warm.head(l, h).unwrap());
            assert!(ha.weights.max_abs_diff(&hb.weights) <= 1e-6, "{text}: layer {l} head {h}");
        }
    }
    assert_eq!(warm.reused_tokens(ModelId::SmolLm2), 5);
}
