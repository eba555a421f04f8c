//! SmolLM2-135M writing, one thread, release build:
//! - `generate/write_step_after_10`: one greedy step after a 10-token
//!   prompt: choose from the logits, append the token, run it alone on top
//!   of the key/value cache (its row of A in every head kept);
//! - `generate/greedy_64`: 64 greedy tokens after the same prompt, the
//!   CLI's loop (`DecoderSession::generate`).
//!
//! - the worker's loop as the page drives it (not criterion): each step a
//!   `ToWorker::Write` through the session, its reply encoded as the worker
//!   posts it, then the shown head's detail asked and encoded; the median
//!   of each part over 64 tokens, so the time a step spends beside the
//!   model is in view.
//!
//! Then the tokens per second of both, measured again outside criterion
//! (the median of a few runs), on one line each with the CPU, for
//! scripts/bench.sh's ratio to PyTorch's own greedy loop
//! (scripts/reference/smollm2_generate_timing.py).
//!
//! Run: `cargo bench --bench generate`. Needs the GGUF (`python3 scripts/fetch_models.py`).

use attnscope::checkpoint::smollm2::{SmolLm2, SmolLm2Session};
use attnscope::models::decoder::Sampling;
use attnscope::session::{FromWorker, ModelId, Session, ToWorker, WriteRequest};
use criterion::{criterion_group, criterion_main, Criterion};
use std::time::{Duration, Instant};

const PROMPT: &str = "Once upon a time, there was a little girl";
const PROMPT_TOKENS: usize = 10;
const WRITE: usize = 64;

fn cpu() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = info.lines().find_map(|l| l.strip_prefix("model name")?.split(':').nth(1));
    model.map_or("unknown CPU".into(), |m| m.trim().to_string())
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn bench(c: &mut Criterion) {
    let model = SmolLm2::load(&attnscope::testing::smollm2_gguf())
        .unwrap_or_else(|e| panic!("{e}: run `python3 scripts/fetch_models.py`"));
    let mut s = SmolLm2Session::new(model);
    let greedy = Sampling::default();
    let prompt = s.model().prompt_ids(PROMPT).unwrap();
    assert_eq!(prompt.len(), PROMPT_TOKENS, "the benchmark prompt's tokens");
    let written = s.generate(PROMPT, WRITE, &greedy).unwrap();
    assert_eq!(written.len(), WRITE, "SmolLM2 ended its text before {WRITE} tokens");
    // Printed to be read beside PyTorch's: the same 64 tokens.
    let ids: Vec<u32> = written.iter().map(|w| w.choice.id).collect();
    let text = s.model().decode(&ids).unwrap();

    // Back to the prompt (its last token recomputed, as the cache keeps only
    // the last position's logits), then one step timed.
    let step = |s: &mut SmolLm2Session| {
        s.run_ids(&prompt, 1.0).unwrap();
        let t0 = Instant::now();
        s.write_step(&greedy, 0, None).unwrap();
        t0.elapsed()
    };
    let mut g = c.benchmark_group("generate");
    g.sample_size(20);
    g.bench_function("write_step_after_10", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| step(&mut s)).sum())
    });
    g.sample_size(10);
    g.bench_function("greedy_64", |b| b.iter(|| s.generate(PROMPT, WRITE, &greedy).unwrap()));
    g.finish();

    let one = median((0..30).map(|_| step(&mut s)).collect());
    let whole = median(
        (0..5)
            .map(|_| {
                let t0 = Instant::now();
                s.generate(PROMPT, WRITE, &greedy).unwrap();
                t0.elapsed()
            })
            .collect(),
    );
    println!(
        "attnscope natively, one thread, SmolLM2-135M (Q4_1 GGUF), CPU: {}\n  \
         one write step after {PROMPT_TOKENS} tokens: {:.2} ms ({:.1} tokens/s)\n  \
         {WRITE} greedy tokens after {PROMPT_TOKENS}: {:.0} ms ({:.1} tokens/s, the prompt's run included)\n  \
         text: {text:?}",
        cpu(),
        one.as_secs_f64() * 1e3,
        1.0 / one.as_secs_f64(),
        whole.as_secs_f64() * 1e3,
        WRITE as f64 / whole.as_secs_f64()
    );
    println!("{{\"attnscope_generate_tokens_per_s\": {:.2}}}", WRITE as f64 / whole.as_secs_f64());
    page_loop(&greedy);
}

/// Milliseconds since `t0`.
fn ms(t0: Instant) -> f64 {
    t0.elapsed().as_secs_f64() * 1e3
}

/// An encoded message's size: its JSON and the buffers posted beside it.
fn encoded(msg: &FromWorker) -> usize {
    let beside = std::rc::Rc::new(std::cell::Cell::new(0));
    let count = beside.clone();
    let json = attnscope::tensor::wire::to_json_sending_buffers(msg, move |b| {
        count.set(count.get() + b.len())
    })
    .unwrap();
    json.len() + beside.get()
}

/// The worker's loop as the page drives it, timed by part (see the top).
fn page_loop(greedy: &Sampling) {
    let gguf = std::fs::read(attnscope::testing::smollm2_gguf()).unwrap();
    let mut s = Session::new();
    s.install(ModelId::SmolLm2, vec![gguf]).unwrap();
    let clock = Instant::now();
    let now = || clock.elapsed().as_secs_f64() * 1e3;
    let (mut ids, mut prompt_tokens) = (Vec::new(), 0);
    let mut parts: [Vec<f64>; 5] = Default::default();
    let mut sizes = (0, 0);
    for step in 0..WRITE as u64 {
        let request = WriteRequest {
            ids: ids.clone(),
            prompt: PROMPT.into(),
            prompt_tokens,
            settings: *greedy,
            step,
            pick: None,
            follow: None,
        };
        let t0 = Instant::now();
        let reply =
            s.handle(ToWorker::Write { id: step + 1, model: ModelId::SmolLm2, request }, &now);
        let handled = ms(t0);
        let t1 = Instant::now();
        sizes.0 = encoded(&reply);
        let encode = ms(t1);
        let FromWorker::Result(summary) = reply else { panic!("step {step}: {reply:?}") };
        let t2 = Instant::now();
        let head =
            s.handle(ToWorker::Head { id: step + 1, layer: 0, head: 0, with_layer: false }, &now);
        sizes.1 = encoded(&head);
        let detail = ms(t2);
        let written = summary.written.unwrap();
        (ids, prompt_tokens) = (summary.token_ids.unwrap(), written.prompt_tokens);
        if step > 0 {
            let model = summary.compute_ms;
            for (part, x) in parts.iter_mut().zip([model, handled - model, encode, detail, ms(t0)])
            {
                part.push(x);
            }
        }
    }
    let med = |xs: &mut Vec<f64>| {
        xs.sort_by(f64::total_cmp);
        xs[xs.len() / 2]
    };
    let [mut model, mut summary, mut encode, mut detail, mut whole] = parts;
    println!(
        "the worker's loop as the page drives it, natively ({WRITE} greedy tokens after {PROMPT_TOKENS}; medians a step; CPU: {}):\n  \
         the step (choose, run on the cache, decode): {:.2} ms; the summary: {:.2} ms; its encoding: {:.2} ms ({} bytes at the end); \
         the head's detail asked and encoded: {:.2} ms ({} bytes); in all {:.2} ms",
        cpu(),
        med(&mut model),
        med(&mut summary),
        med(&mut encode),
        sizes.0,
        med(&mut detail),
        sizes.1,
        med(&mut whole),
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
