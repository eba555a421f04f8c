//! The analyses of src/analysis/ against Hugging Face transformers on the
//! real models (fixtures from scripts/reference/analysis_reference.py, which
//! computes each quantity on its own in PyTorch): value-weighted norms,
//! rollout and logit-lens probabilities within 1e-4 (MiniLM) and 1e-3
//! (SmolLM2); knockout probabilities within 1e-3; detector scores within
//! 1e-4. The model files are required: without them these tests fail.

#[path = "../common/mod.rs"]
mod common;
mod geometry;

use attnscope::analysis::detectors::{detectors, Prompt};
use attnscope::analysis::knockout::{
    importance, knockout, Ablation, Effect, HeadRef, ImportanceJob,
};
use attnscope::analysis::logit_lens::{logit_lens, logit_lens_of_trace};
use attnscope::analysis::patching::{patching, Fit, PatchJob, Site};
use attnscope::analysis::rollout::rollout;
use attnscope::analysis::value_norms::value_norms;
use attnscope::trace::layered::Layered;
use attnscope::ModelTrace;
use serde_json::Value;

const MINILM: f32 = 1e-4;
const SMOLLM2: f32 = 1e-3;
const KNOCKOUT: f32 = 1e-3;
const DETECTORS: f32 = 1e-4;
/// Raw logit differences of patched runs (the fixture has 5 decimals).
const PATCHING: f32 = 1e-3;

pub(crate) fn fixture(name: &str) -> Value {
    serde_json::from_str(&common::fixture_text(&format!("analysis/{name}.json"))).unwrap()
}

pub(crate) fn floats(v: &Value) -> Vec<f32> {
    match v {
        Value::Array(a) => a.iter().flat_map(floats).collect(),
        Value::Number(n) => vec![n.as_f64().unwrap() as f32],
        other => panic!("not a number: {other}"),
    }
}

pub(crate) fn ids(v: &Value) -> Vec<u32> {
    v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u32).collect()
}

/// Largest |a − b|, the lengths checked equal.
pub(crate) fn max_diff(what: &str, got: &[f32], want: &[f32]) -> f32 {
    assert_eq!(got.len(), want.len(), "{what}: sizes");
    got.iter().zip(want).map(|(g, w)| (g - w).abs()).fold(0.0, f32::max)
}

pub(crate) fn check(what: &str, diff: f32, tolerance: f32) {
    println!("{what}: max |ours − transformers| = {diff:.2e} (tolerance {tolerance:.0e})");
    assert!(diff <= tolerance, "{what}: differs by {diff} > {tolerance}");
}

fn trace_of(model: &dyn Layered, f: &Value, run: impl Fn(&str) -> ModelTrace) -> ModelTrace {
    let text = f["text"].as_str().unwrap();
    let trace = run(text);
    assert_eq!(trace.token_ids.as_deref(), Some(&ids(&f["token_ids"])[..]), "{text}: token ids");
    assert_eq!(model.tokens(text).unwrap().0, ids(&f["token_ids"]));
    trace
}

fn value_norms_and_rollout(
    name: &str,
    model: &dyn Layered,
    trace: &ModelTrace,
    f: &Value,
    tolerance: f32,
) {
    let layers: Vec<usize> = f["value_norm_layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_u64().unwrap() as usize)
        .collect();
    let norms = value_norms(trace, model, Some(&layers)).unwrap();
    let got: Vec<f32> = norms.layers.iter().flatten().flatten().flatten().copied().collect();
    check(
        &format!("{name} value norms"),
        max_diff(name, &got, &floats(&f["value_norms"])),
        tolerance,
    );

    let r = rollout(trace);
    for layer in &r.layers {
        for row in layer {
            assert!(
                (row.iter().sum::<f32>() - 1.0).abs() < 1e-5,
                "{name}: a rollout row sums to {}",
                row.iter().sum::<f32>()
            );
        }
    }
    let got: Vec<f32> = r.layers.iter().flatten().flatten().copied().collect();
    check(&format!("{name} rollout"), max_diff(name, &got, &floats(&f["rollout"])), tolerance);
}

fn heads(v: &Value) -> Vec<HeadRef> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| HeadRef {
            layer: p[0].as_u64().unwrap() as usize,
            head: p[1].as_u64().unwrap() as usize,
        })
        .collect()
}

fn ablation(v: &Value) -> Ablation {
    match v.as_str().unwrap() {
        "zero" => Ablation::Zero,
        _ => Ablation::Mean,
    }
}

fn minilm_case(name: &str) {
    let m = common::minilm();
    let model: &dyn Layered = &**m;
    let f = fixture(&format!("minilm_{name}"));
    let trace = trace_of(model, &f, |t| m.run(t).unwrap());
    value_norms_and_rollout(&format!("minilm {name}"), model, &trace, &f, MINILM);

    let text = f["text"].as_str().unwrap();
    let mut worst = 0.0f32;
    for k in f["knockouts"].as_array().unwrap() {
        let r = knockout(model, text, &heads(&k["heads"]), ablation(&k["mode"]), 5).unwrap();
        let Effect::Embedding { cosine } = r.effect else {
            panic!("an encoder's effect is on its embedding")
        };
        worst = worst.max((cosine - k["cosine"].as_f64().unwrap() as f32).abs());
    }
    check(&format!("minilm {name} knockout cosine"), worst, MINILM);

    let map = importance(model, text, Ablation::Zero, &mut |_, _| true).unwrap().unwrap();
    let got: Vec<f32> = map.scores.iter().flatten().copied().collect();
    check(
        &format!("minilm {name} importance (1 − cosine)"),
        max_diff(name, &got, &floats(&f["importance_zero"])),
        MINILM,
    );
}

#[test]
fn minilm_animal_matches_transformers() {
    minilm_case("animal");
}

#[test]
fn minilm_creature_matches_transformers() {
    minilm_case("creature");
}

fn smollm2_case(name: &str) {
    let m = common::smollm2();
    let model: &dyn Layered = &**m;
    let f = fixture(&format!("smollm2_{name}"));
    let trace = trace_of(model, &f, |t| m.run(t).unwrap());
    value_norms_and_rollout(&format!("smollm2 {name}"), model, &trace, &f, SMOLLM2);
    let text = f["text"].as_str().unwrap();

    let lens = logit_lens(model, text, None, 5, true).unwrap();
    let mut worst = 0.0f32;
    for (l, (got, want)) in lens.layers.iter().zip(f["lens_last"].as_array().unwrap()).enumerate() {
        for (g, w) in got.iter().zip(want.as_array().unwrap()) {
            let (wp, wid) = (w["p"].as_f64().unwrap() as f32, w["id"].as_u64().unwrap() as u32);
            // Near-ties may swap places; a different token must then be as likely.
            assert!(
                g.id == wid || (g.p - wp).abs() <= SMOLLM2,
                "{name}: layer {l}: {} ({}) where transformers has {wid} ({wp})",
                g.id,
                g.p
            );
            worst = worst.max((g.p - wp).abs());
        }
    }
    check(&format!("smollm2 {name} logit lens probabilities"), worst, SMOLLM2);
    // From the run's trace, as the page asks it: the same lens without a forward of its own.
    let kept = logit_lens_of_trace(model, &trace, None, 5)
        .unwrap()
        .expect("Llama finishes a layer from its trace");
    assert_eq!((kept.position, kept.layers.len()), (lens.position, lens.layers.len()));
    for (l, (a, b)) in kept.layers.iter().zip(&lens.layers).enumerate() {
        for (a, b) in a.iter().zip(b) {
            assert!(
                (a.p - b.p).abs() <= 1e-4 && (a.id == b.id || (a.p - b.p).abs() <= 1e-6),
                "{name}: layer {l}: {a:?} from the trace, {b:?} from a forward"
            );
        }
    }
    let grid = lens.grid.unwrap();
    let want_grid = f["lens_grid"].as_array().unwrap();
    let agree = grid
        .iter()
        .zip(want_grid)
        .flat_map(|(g, w)| g.iter().zip(ids(w)).map(|(g, w)| (g.id == w) as usize))
        .sum::<usize>();
    let cells = grid.iter().map(Vec::len).sum::<usize>();
    println!("smollm2 {name} logit lens grid: {agree} of {cells} top tokens as transformers");
    assert!(agree * 100 >= cells * 97, "{name}: only {agree} of {cells} grid cells agree");

    let mut worst = 0.0f32;
    for k in f["knockouts"].as_array().unwrap() {
        let r = knockout(model, text, &heads(&k["heads"]), ablation(&k["mode"]), 5).unwrap();
        let Effect::NextToken { after, previous_top_p_after, previous_top_rank_after, .. } =
            r.effect
        else {
            panic!("a decoder's effect is on its next token")
        };
        worst =
            worst.max((previous_top_p_after - k["previous_top_p"].as_f64().unwrap() as f32).abs());
        assert_eq!(
            previous_top_rank_after - 1,
            k["previous_top_rank"].as_u64().unwrap() as usize,
            "{name}: rank after {k}"
        );
        for (g, w) in after.iter().zip(k["top"].as_array().unwrap()) {
            let wp = w["p"].as_f64().unwrap() as f32;
            assert!(
                g.id == w["id"].as_u64().unwrap() as u32 || (g.p - wp).abs() <= KNOCKOUT,
                "{name}: after {k}: {g:?}"
            );
            worst = worst.max((g.p - wp).abs());
        }
    }
    check(&format!("smollm2 {name} knockout probabilities"), worst, KNOCKOUT);

    let map = importance(model, text, Ablation::Zero, &mut |_, _| true).unwrap().unwrap();
    let got: Vec<f32> = map.scores.iter().flatten().copied().collect();
    check(
        &format!("smollm2 {name} importance (drop of p(top))"),
        max_diff(name, &got, &floats(&f["importance_zero"])),
        KNOCKOUT,
    );
}

#[test]
fn smollm2_capital_matches_transformers() {
    smollm2_case("capital");
}

#[test]
fn smollm2_cat_matches_transformers() {
    smollm2_case("cat");
}

fn detectors_case(name: &str, model: &dyn Layered) {
    let f = fixture(name);
    let prompt = Prompt {
        ids: ids(&f["token_ids"]),
        prefix: f["prefix"].as_u64().unwrap() as usize,
        period: f["period"].as_u64().unwrap() as usize,
    };
    let d = detectors(model, &prompt).unwrap();
    for (what, got) in [
        ("induction", &d.induction),
        ("duplicate_token", &d.duplicate_token),
        ("previous_token", &d.previous_token),
        ("first_token", &d.first_token),
    ] {
        let got: Vec<f32> = got.iter().flatten().copied().collect();
        check(&format!("{name} {what}"), max_diff(what, &got, &floats(&f[what])), DETECTORS);
    }
}

#[test]
fn minilm_detectors_match_transformers() {
    detectors_case("minilm_detectors", &**common::minilm());
}

#[test]
fn smollm2_detectors_match_transformers() {
    detectors_case("smollm2_detectors", &**common::smollm2());
}

#[test]
fn bad_input_gets_a_clear_message() {
    let model: &dyn Layered = &**common::smollm2();
    let none = knockout(model, "The cat", &[], Ablation::Zero, 5).unwrap_err().to_string();
    assert!(none.contains("no head"), "{none}");
    let outside = knockout(model, "The cat", &[HeadRef { layer: 30, head: 0 }], Ablation::Zero, 5)
        .unwrap_err()
        .to_string();
    assert!(outside.contains("layers 0–29"), "{outside}");
    assert!(knockout(model, "", &[HeadRef { layer: 0, head: 0 }], Ablation::Zero, 5).is_err());
    let long = Prompt::random(model, 200, 1).unwrap();
    let e = detectors(model, &long).unwrap_err().to_string();
    assert!(e.contains("at most 256"), "{e}");
    assert!(logit_lens(model, "The cat", Some(9), 5, false)
        .unwrap_err()
        .to_string()
        .contains("position 9"));
    let encoder: &dyn Layered = &**common::minilm();
    assert!(logit_lens(encoder, "The cat", None, 5, false)
        .unwrap_err()
        .to_string()
        .contains("encoder"));
    // Every head removed, cancelled half way: a result, and then none.
    let info = model.info();
    let all: Vec<HeadRef> = (0..info.n_layers)
        .flat_map(|layer| (0..info.n_heads).map(move |head| HeadRef { layer, head }))
        .collect();
    let r = knockout(model, "The cat", &all, Ablation::Mean, 5).unwrap();
    assert_eq!(r.heads.len(), 270);
    let mut calls = 0;
    assert!(importance(model, "The cat", Ablation::Zero, &mut |done, _| {
        calls += 1;
        done < 10
    })
    .unwrap()
    .is_none());
    // A decoder's map steps a layer (its 9 heads) at a time: 9, then 18 stops it.
    assert_eq!(calls, 2);
}

#[test]
fn smollm2_importance_a_layer_at_a_time_equals_a_head_at_a_time() {
    let model: &dyn Layered = &**common::smollm2();
    let text = "The cat sat on the mat because it was";
    for ablation in [Ablation::Zero, Ablation::Mean] {
        let (mut batched, mut single) = (
            ImportanceJob::start(model, text, ablation).unwrap(),
            ImportanceJob::start(model, text, ablation).unwrap(),
        );
        while !batched.is_finished() {
            let before = batched.done();
            batched.step(model).unwrap();
            assert_eq!(batched.done(), before + 9, "a decoder's step is a whole layer");
        }
        while !single.is_finished() {
            single.step_head(model).unwrap();
        }
        let (a, b) = (batched.finish().scores, single.finish().scores);
        let (a, b): (Vec<f32>, Vec<f32>) = (a.concat(), b.concat());
        assert!(b.iter().any(|x| x.abs() > 1e-3), "{ablation:?}: some head must matter");
        let diff = max_diff(&format!("{ablation:?}"), &a, &b);
        assert!(
            diff <= 1e-5,
            "{ablation:?}: a layer at a time differs from a head at a time by {diff}"
        );
    }
}

#[test]
fn cli_writes_each_analysis_as_json_and_explains_bad_input() {
    let models = attnscope::testing::models_dir();
    let dir = models.to_str().unwrap();
    let run = |args: &[&str]| {
        let out = common::attnscope(&[&["analyze", "--models-dir", dir], args].concat());
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (ok, json, err) =
        run(&["--model", "minilm", "--what", "rollout", "--text", "The cat sat", "--json", "-"]);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["what"], "rollout");
    assert!(v["definition"].as_str().unwrap().contains("Abnar"));
    let last = v["result"]["layers"].as_array().unwrap().last().unwrap().clone();
    for row in last.as_array().unwrap() {
        assert!((floats(row).iter().sum::<f32>() - 1.0).abs() < 1e-5);
    }

    let (ok, json, err) = run(&[
        "--model",
        "smollm2",
        "--what",
        "knockout",
        "--heads",
        "0.3,5.1",
        "--ablation",
        "mean",
        "--text",
        "The capital of France is",
    ]);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["result"]["effect"]["kind"], "next_token");
    assert_eq!(v["result"]["heads"].as_array().unwrap().len(), 2);

    let (ok, _, err) = run(&["--model", "smollm2", "--what", "knockout", "--text", "The cat"]);
    assert!(!ok && err.contains("no head to knock out"), "{err}");
    let (ok, _, err) = run(&["--model", "minilm", "--what", "logit-lens", "--text", "The cat"]);
    assert!(!ok && err.contains("encoder"), "{err}");
    let (ok, _, err) = run(&["--model", "smollm2", "--what", "detectors", "--period", "500"]);
    assert!(!ok && err.contains("at most 256"), "{err}");
    let (ok, json, err) =
        run(&["--model", "minilm", "--what", "detectors", "--prompt-text", "the owl hoots"]);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(&json).unwrap();
    let (got, t) = (
        ids(&v["result"]["prompt"]["ids"]),
        v["result"]["prompt"]["period"].as_u64().unwrap() as usize,
    );
    assert_eq!(got.len(), 2 * t + 2);
    assert_eq!(got[1..1 + t], got[1 + t..1 + 2 * t]);
    let (ok, _, err) = run(&["--model", "smollm2", "--what", "detectors", "--prompt-text", " "]);
    assert!(!ok && err.contains("empty"), "{err}");
    let (ok, help, _) = run(&["--help"]);
    assert!(ok && help.contains("Kobayashi") && help.contains("Olsson"), "{help}");
}

/// A typed detector prompt: transformers' ids of the fixture text (its
/// `specials` = [CLS]/[SEP] counts taken off) twice between the same
/// specials, and induction scores equal to the mean read straight off each
/// head's A on those ids, run layer by layer.
fn text_prompt_case(name: &str, model: &dyn Layered, specials: (usize, usize)) {
    let f = fixture(name);
    let text = f["text"].as_str().unwrap();
    let hf = ids(&f["token_ids"]);
    let (pre, body, suf) =
        (&hf[..specials.0], &hf[specials.0..hf.len() - specials.1], &hf[hf.len() - specials.1..]);
    let p = Prompt::from_text(model, text).unwrap();
    assert_eq!(p.ids, [pre, body, body, suf].concat(), "{name}: ids of the text prompt");
    assert_eq!((p.prefix, p.period), (pre.len(), body.len()));
    let d = detectors(model, &p).unwrap();
    let mut h = model.embed(&p.ids).unwrap();
    let mut worst = 0.0f32;
    for (l, row) in d.induction.iter().enumerate() {
        let (trace, next) = model.layer(l, &h, None).unwrap();
        for (head, &got) in row.iter().enumerate() {
            let a = &trace.attention.heads[head].weights;
            let t = p.period;
            let want =
                (0..t).map(|i| a[(p.prefix + t + i, p.prefix + i + 1)]).sum::<f32>() / t as f32;
            assert!(got.is_finite() && (0.0..=1.0).contains(&got), "{name} L{l}H{head}: {got}");
            worst = worst.max((got - want).abs());
        }
        h = next;
    }
    assert_eq!(d.induction.len(), model.info().n_layers);
    check(&format!("{name} text prompt induction vs its A"), worst, 1e-6);
}

#[test]
fn a_typed_detector_prompt_is_its_tokens_twice() {
    text_prompt_case("minilm_animal", &**common::minilm(), (1, 1));
    text_prompt_case("smollm2_capital", &**common::smollm2(), (0, 0));
    for model in [&**common::minilm() as &dyn Layered, &**common::smollm2()] {
        let info = model.info();
        // Emoji and other scripts: tokens of their own, repeated as typed.
        let p = Prompt::from_text(model, "Olá 🙂 猫が好き").unwrap();
        assert_eq!(
            p.ids[p.prefix..p.prefix + p.period],
            p.ids[p.prefix + p.period..p.prefix + 2 * p.period]
        );
        detectors(model, &p).unwrap();
        let empty = Prompt::from_text(model, "  ").unwrap_err().to_string();
        assert!(empty.contains("empty"), "{empty}");
        let long =
            Prompt::from_text(model, &"word ".repeat(info.max_tokens)).unwrap_err().to_string();
        assert!(long.contains(&format!("at most {}", info.max_tokens)), "{long}");
        let one = Prompt::from_text(model, "cat").unwrap_err().to_string();
        assert!(one.contains("at least 2 tokens"), "{one}");
    }
}

#[test]
fn smollm2_patching_matches_transformers() {
    let model: &dyn Layered = &**common::smollm2();
    let f = fixture("smollm2_patching");
    let s = |k: &str| f[k].as_str().unwrap();
    assert_eq!(model.tokens(s("clean")).unwrap().0, ids(&f["clean_ids"]));
    assert_eq!(model.tokens(s("corrupt")).unwrap().0, ids(&f["corrupt_ids"]));
    let sites = [Site::Residual, Site::Heads, Site::Attention, Site::FeedForward];
    let run = |sites: &[Site], last_only| {
        let prompts = (s("clean"), s("corrupt"));
        patching(
            model,
            prompts,
            (s("right"), s("wrong")),
            sites,
            last_only,
            Fit::Exact,
            &mut |_, _| true,
        )
        .unwrap()
        .unwrap()
    };
    let (r, last) = (run(&sites, false), run(&[Site::Heads], true));
    assert_eq!(
        (r.right.id as u64, r.wrong.id as u64),
        (f["right_id"].as_u64().unwrap(), f["wrong_id"].as_u64().unwrap())
    );
    assert_eq!(r.differ_at, vec![9]);
    let gap = r.clean_logit_diff - r.corrupt_logit_diff;
    check(
        "patching: clean and corrupted d",
        max_diff(
            "d",
            &[r.clean_logit_diff, r.corrupt_logit_diff],
            &floats(&f["clean_logit_diff"])
                .into_iter()
                .chain(floats(&f["corrupt_logit_diff"]))
                .collect::<Vec<_>>(),
        ),
        PATCHING,
    );
    let maps = [
        ("residual", &r.maps[0]),
        ("heads", &r.maps[1]),
        ("heads_last", &last.maps[0]),
        ("attention", &r.maps[2]),
        ("feed_forward", &r.maps[3]),
    ];
    for (name, map) in maps {
        let got: Vec<f32> = map.logit_diff.iter().flatten().copied().collect();
        check(&format!("patching {name}"), max_diff(name, &got, &floats(&f[name])), PATCHING);
        // The effect is the normalized d, 0 for the corrupted run and 1 for the clean.
        for (e, d) in map.effect.iter().flatten().zip(&got) {
            assert!((e - (d - r.corrupt_logit_diff) / gap).abs() < 1e-5);
        }
    }
    // Patching the residual at the differing position of layer 0 is the clean run.
    assert!((r.maps[0].effect[0][9] - 1.0).abs() < 1e-4, "{}", r.maps[0].effect[0][9]);
}

#[test]
fn patching_bad_input_gets_a_clear_message() {
    let model: &dyn Layered = &**common::smollm2();
    let start = |clean, corrupt, right, wrong| {
        PatchJob::start(
            model,
            (clean, corrupt),
            (right, wrong),
            &[Site::Residual],
            false,
            Fit::Exact,
        )
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default()
    };
    let e = start("The cat sat", "The big cat sat", " on", " in");
    assert!(e.contains("3 tokens") && e.contains("4") && e.contains("position 1"), "{e}");
    let e = start("The cat sat", "The cat sat", " on", " in");
    assert!(e.contains("the same"), "{e}");
    let e = start("The cat sat", "The dog sat", " on", " on");
    assert!(e.contains("same token"), "{e}");
    let e = start("The cat sat", "The dog sat", "", " on");
    assert!(e.contains("no tokens"), "{e}");
    let e = start("", "", " on", " in");
    assert!(e.contains("no tokens"), "{e}");
    let encoder: &dyn Layered = &**common::minilm();
    let e = PatchJob::start(
        encoder,
        ("a cat", "a dog"),
        ("x", "y"),
        &[Site::Residual],
        false,
        Fit::Exact,
    )
    .err()
    .unwrap()
    .to_string();
    assert!(e.contains("encoder"), "{e}");
    // An answer of several tokens: its first, with a note.
    let job = PatchJob::start(
        model,
        ("The cat sat on the", "The dog sat on the"),
        (" mat of doom", " floor"),
        &[Site::Residual],
        false,
        Fit::Exact,
    )
    .unwrap();
    let r = job.finish();
    assert_eq!(r.right.token, " mat");
    assert!(r.right.note.as_deref().unwrap_or_default().contains("first"), "{:?}", r.right);
    assert!(r.wrong.note.is_none());
    // Cancelled after the first step: no result.
    let mut calls = 0;
    let prompts = ("The cat sat on the", "The dog sat on the");
    let cancelled = patching(
        model,
        prompts,
        (" mat", " floor"),
        &[Site::Heads],
        false,
        Fit::Exact,
        &mut |_, _| {
            calls += 1;
            false
        },
    );
    assert!(cancelled.unwrap().is_none() && calls == 1);
}
