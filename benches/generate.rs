//! SmolLM2-135M writing, one thread, release build:
//! - `generate/write_step_after_10`: one greedy step after a 10-token
//!   prompt: choose from the logits, append the token, run it alone on top
//!   of the key/value cache (its row of A in every head kept);
//! - `generate/greedy_64`: 64 greedy tokens after the same prompt, the
//!   CLI's loop (`DecoderSession::generate`).
//!
//! Then the tokens per second of both, measured again outside criterion
//! (the median of a few runs), on one line each with the CPU, for
//! scripts/bench.sh's ratio to PyTorch's own greedy loop
//! (scripts/reference/smollm2_generate_timing.py).
//!
//! Run: `cargo bench --bench generate`. Needs the GGUF (`python3 scripts/fetch_models.py`).

use attnscope::checkpoint::smollm2::{SmolLm2, SmolLm2Session};
use attnscope::models::decoder::Sampling;
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
}

criterion_group!(benches, bench);
criterion_main!(benches);
