//! SmolLM2 writing, against Hugging Face transformers' greedy decoding on
//! the same GGUF (fixtures from scripts/reference/generate_reference.py):
//! the same tokens, up to a step where transformers' two best logits are
//! too close for the order of sums not to matter, and each written token's
//! attention row, taken at the step it was computed, within 1e-3 in every
//! layer and head. Then the worker's path (the session's Write steps) against
//! `DecoderSession::generate`, temperature 0 against greedy, and a seeded
//! sampled run against itself.

use crate::common;

use attnscope::checkpoint::smollm2::{SmolLm2, SmolLm2Session};
use attnscope::models::decoder::{sampling::uniform, Sampling, Written};
use attnscope::session::{FromWorker, ModelId, Session, ToWorker, WriteRequest};
use base64::Engine;
use serde_json::Value;

const TOLERANCE: f32 = 1e-3;

/// Below this gap between transformers' two best logits, the order of sums
/// (which differs between the two) may decide the token.
const NEAR_TIE: f64 = 0.05;

const GREEDY: Sampling = Sampling { greedy: true, temperature: 1.0, top_k: 0, top_p: 1.0, seed: 0 };

fn session() -> SmolLm2Session {
    SmolLm2Session::new(SmolLm2::from_gguf_bytes(common::smollm2_bytes()).unwrap())
}

fn fixture(name: &str) -> Value {
    serde_json::from_str(&common::fixture_text(&format!("smollm2/{name}.json"))).unwrap()
}

fn ids(steps: &[Written]) -> Vec<u32> {
    steps.iter().map(|w| w.choice.id).collect()
}

/// One step of the fixture.
struct Step {
    id: u32,
    token: String,
    p: f32,
    gap: f64,
    /// [layer][head][key], flattened.
    rows: Vec<f32>,
}

fn steps_of(f: &Value) -> Vec<Step> {
    let b64 = base64::engine::general_purpose::STANDARD;
    let steps = f["steps"].as_array().unwrap();
    steps
        .iter()
        .map(|s| Step {
            id: s["id"].as_u64().unwrap() as u32,
            token: s["token"].as_str().unwrap().to_string(),
            p: s["p"].as_f64().unwrap() as f32,
            gap: s["gap"].as_f64().unwrap(),
            rows: b64
                .decode(s["attention"].as_str().unwrap())
                .unwrap()
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
                .collect(),
        })
        .collect()
}

/// Writes greedily step by step after the fixture's prompt and checks each
/// step against transformers'; returns how many steps were compared.
fn check(name: &str) -> usize {
    let f = fixture(name);
    let prompt = f["prompt"].as_str().unwrap();
    let want_prompt: Vec<u32> =
        f["prompt_ids"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as u32).collect();
    let (n_layers, n_heads) =
        (f["n_layers"].as_u64().unwrap() as usize, f["n_heads"].as_u64().unwrap() as usize);
    let want = steps_of(&f);
    assert!(want.len() >= 16, "{name}: the fixture has {} steps", want.len());
    let tie = want.iter().position(|s| s.gap < NEAR_TIE);
    let tie_note = match tie {
        Some(t) => format!("transformers' first near tie (gap < {NEAR_TIE}) is at step {t}"),
        None => format!("transformers' gaps are all at least {NEAR_TIE}"),
    };

    let mut s = session();
    assert_eq!(s.model().prompt_ids(prompt).unwrap(), want_prompt, "{name}: the prompt's ids");
    s.run_ids(&want_prompt, 1.0).unwrap();
    let (n0, mut got, mut worst) = (want_prompt.len(), Vec::new(), 0.0f32);
    let mut compared = 0;
    for (step, w) in want.iter().enumerate() {
        let written = s.write_step(&GREEDY, step as u64, None).unwrap();
        got.push(written.choice.id);
        if written.choice.id != w.id {
            assert!(
                w.gap < NEAR_TIE,
                "{name}: step {step}: Rust wrote {:?} ({}), transformers {:?} ({}) with a gap \
                 of {:.4} between its two best logits; {tie_note}. Rust {got:?}",
                written.token,
                written.choice.id,
                w.token,
                w.id,
                w.gap,
            );
            eprintln!(
                "{name}: the tokens part at step {step}, a near tie (gap {:.4}): not compared further",
                w.gap
            );
            break;
        }
        assert_eq!(written.token, w.token, "{name}: step {step}: the token as shown");
        assert!(
            (written.choice.p - w.p).abs() <= TOLERANCE,
            "{name}: step {step}: p({:?}) = {}, transformers {}",
            w.token,
            written.choice.p,
            w.p
        );
        // The written token's row, as this step computed it.
        let trace = s.latest().unwrap();
        let (pos, keys) = (n0 + step, n0 + step + 1);
        assert_eq!(trace.tokens.len(), keys, "{name}: step {step}: the text's length");
        assert_eq!(w.rows.len(), n_layers * n_heads * keys, "{name}: step {step}: fixture rows");
        for l in 0..n_layers {
            for h in 0..n_heads {
                let a = trace.weights(l, h).unwrap();
                let row = a.row(pos);
                let reference = &w.rows[(l * n_heads + h) * keys..][..keys];
                for (k, (g, r)) in row.iter().zip(reference).enumerate() {
                    let d = (g - r).abs();
                    worst = worst.max(d);
                    assert!(
                        d <= TOLERANCE,
                        "{name}: step {step} ({:?}): A[layer {l}][head {h}][{pos}][{k}] = {g}, \
                         transformers {r}",
                        w.token
                    );
                }
            }
        }
        compared += 1;
    }

    // The CLI's loop writes the same tokens as the steps above.
    let mut fresh = session();
    let generated = fresh.generate(prompt, want.len(), &GREEDY).unwrap();
    assert_eq!(ids(&generated), got, "{name}: generate against write_step");
    eprintln!(
        "{name}: {compared} of {} steps equal transformers' ({tie_note}), largest attention \
         difference {worst:.2e}",
        want.len()
    );
    compared
}

#[test]
fn greedy_capital_of_france_matches_transformers() {
    assert!(check("generate_capital") >= 8);
}

#[test]
fn greedy_story_matches_transformers() {
    assert!(check("generate_story") >= 8);
}

#[test]
fn greedy_code_matches_transformers() {
    assert!(check("generate_code") >= 8);
}

/// Writes `n` tokens through the session's messages, as the page's worker
/// does (each step sends the ids shown so far); returns the steps and the
/// text of the last reply.
fn write_in_session(prompt: &str, n: usize, settings: Sampling) -> (Vec<Written>, String) {
    write_following(prompt, n, settings, &[])
}

/// The same, each step following the token `follow` holds for it (a class's student's page
/// writing its teacher's tokens).
fn write_following(
    prompt: &str,
    n: usize,
    settings: Sampling,
    follow: &[u32],
) -> (Vec<Written>, String) {
    let mut s = Session::new();
    s.install(ModelId::SmolLm2, vec![common::smollm2_bytes().to_vec()]).unwrap();
    let (mut ids, mut prompt_tokens, mut steps, mut text) = (Vec::new(), 0, Vec::new(), None);
    for step in 0..n as u64 {
        let request = WriteRequest {
            ids: ids.clone(),
            prompt: prompt.into(),
            prompt_tokens,
            settings,
            step,
            pick: None,
            follow: follow.get(step as usize).copied(),
        };
        let reply =
            s.handle(ToWorker::Write { id: step + 1, model: ModelId::SmolLm2, request }, &|| 0.0);
        let FromWorker::Result(summary) = reply else {
            panic!("step {step}: {reply:?}");
        };
        let written = summary.written.expect("a Write is answered with what it wrote");
        let all = summary.token_ids.expect("SmolLM2's ids");
        assert_eq!(all.len(), written.prompt_tokens + step as usize + 1, "step {step}: ids");
        assert_eq!(all.last(), Some(&written.written.choice.id), "step {step}: the id appended");
        assert_eq!(summary.tokens.len(), all.len(), "step {step}: the tokens shown");
        (ids, prompt_tokens) = (all, written.prompt_tokens);
        text = Some(written.text);
        steps.push(written.written);
    }
    (steps, text.unwrap())
}

/// A student's page given its teacher's tokens writes them with the same draws and
/// distributions; a token its own draw would not give (a near tie on other arithmetic, here
/// made up) is taken as it is, and the steps after it go on from it.
#[test]
fn a_page_following_another_writes_its_tokens() {
    let prompt = "The capital of France is";
    let sampled = Sampling { greedy: false, temperature: 0.8, top_k: 40, top_p: 0.9, seed: 7 };
    let (teacher, text) = write_in_session(prompt, 6, sampled);
    let (student, followed) = write_following(prompt, 6, sampled, &ids(&teacher));
    assert_eq!((&student, &followed), (&teacher, &text), "the same steps, draws included");
    assert!(student.iter().all(|w| w.choice.draw.is_some()), "each token drawn, not forced");
    // Step 3 follows the second most likely token instead of the one drawn.
    let mut other = ids(&teacher);
    let second = teacher[3].choice.candidates.iter().map(|c| c.id).find(|&id| id != other[3]);
    other[3] = second.expect("a second candidate");
    let (student, _) = write_following(prompt, 6, sampled, &other);
    assert_eq!(ids(&student), other);
    assert_eq!(student[..3], teacher[..3]);
    assert_eq!(student[3].choice.draw, None, "taken as it is");
    assert_eq!(student[3].choice.candidates, teacher[3].choice.candidates, "the same distribution");
}

#[test]
fn the_workers_write_steps_write_what_generate_writes() {
    let prompt = "The capital of France is";
    let sampled = Sampling { greedy: false, temperature: 0.8, top_k: 40, top_p: 0.9, seed: 2024 };
    for settings in [GREEDY, sampled] {
        let mut s = session();
        let generated = s.generate(prompt, 12, &settings).unwrap();
        assert_eq!(generated.len(), 12, "{settings:?}: no end-of-text token this early");
        let (steps, text) = write_in_session(prompt, 12, settings);
        assert_eq!(ids(&steps), ids(&generated), "{settings:?}: the worker's steps");
        assert_eq!(steps, generated, "{settings:?}: the choices and the distributions");
        let all = s.latest().unwrap().token_ids.clone().unwrap();
        let n0 = all.len() - generated.len();
        let continuation = s.model().decode(&all[n0..]).unwrap();
        assert_eq!(text, format!("{prompt}{continuation}"), "{settings:?}: the text written");
    }
}

#[test]
fn temperature_zero_in_sampling_mode_is_greedy() {
    let prompt = "Once upon a time, there was a";
    let greedy = session().generate(prompt, 12, &GREEDY).unwrap();
    let zero = Sampling { greedy: false, temperature: 0.0, top_k: 5, top_p: 0.5, seed: 99 };
    let cold = session().generate(prompt, 12, &zero).unwrap();
    assert_eq!(ids(&cold), ids(&greedy));
    assert!(cold.iter().all(|w| w.choice.draw.is_none()), "temperature 0 draws nothing");
    // The same prompt at temperature 1 with the same seed draws, and writes otherwise.
    let warm = Sampling { temperature: 1.0, top_k: 0, top_p: 1.0, ..zero };
    let drawn = session().generate(prompt, 12, &warm).unwrap();
    assert!(drawn.iter().all(|w| w.choice.draw.is_some()));
    assert_ne!(ids(&drawn), ids(&greedy), "a draw at temperature 1 wrote the greedy text");
}

#[test]
fn a_sampled_run_with_a_seed_is_reproducible() {
    let prompt = "Once upon a time, there was a";
    let settings = Sampling { greedy: false, temperature: 1.0, top_k: 40, top_p: 0.95, seed: 42 };
    let mut s = session();
    let first = s.generate(prompt, 16, &settings).unwrap();
    // The same session again (the cache holds the last text) and a new one.
    let again = s.generate(prompt, 16, &settings).unwrap();
    let fresh = session().generate(prompt, 16, &settings).unwrap();
    assert_eq!(first.len(), 16);
    assert_eq!(again, first, "the same session, the same seed");
    assert_eq!(fresh, first, "a new session, the same seed");
    for w in &first {
        assert_eq!(w.choice.draw, Some(uniform(42, w.step)), "step {}: the draw", w.step);
        assert!(w.choice.kept <= 40 && w.choice.p_kept > 0.0, "step {}: {:?}", w.step, w.choice);
    }
    // Step 9 replayed alone, from the text as it was before it. That text
    // is computed at once rather than a token at a time, which sums in
    // another order: the same token and draw, probabilities to the last bits.
    let mut replay = session();
    let before: Vec<u32> =
        s.model().prompt_ids(prompt).unwrap().into_iter().chain(ids(&first[..9])).collect();
    replay.run_ids(&before, settings.temperature).unwrap();
    let (again, once) = (replay.write_step(&settings, 9, None).unwrap(), &first[9]);
    assert_eq!((again.choice.id, again.choice.draw), (once.choice.id, once.choice.draw));
    assert_eq!((again.choice.kept, &again.candidates), (once.choice.kept, &once.candidates));
    assert!((again.choice.p - once.choice.p).abs() < 1e-5, "step 9 replayed: {again:?}");
    // Another seed writes another text.
    let other = session().generate(prompt, 16, &Sampling { seed: 43, ..settings }).unwrap();
    assert_ne!(ids(&other), ids(&first), "seeds 42 and 43 wrote the same 16 tokens");
}
