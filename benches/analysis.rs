//! The analyses of src/analysis/ on the real models, each beside the plain
//! forward pass it is built from (the peer its time is stated against):
//! the importance map over all 72 MiniLM heads at 16 tokens, and the logit
//! lens at one position through SmolLM2's 30 layers (from a forward of its
//! own and from the run's trace), and SmolLM2's importance map at 8 tokens a
//! layer at a time against a head at a time. Needs
//! `python3 scripts/fetch_models.py`.
//!
//!     cargo bench --bench analysis

use attnscope::analysis::knockout::{importance, Ablation, ImportanceJob};
use attnscope::analysis::logit_lens::{logit_lens, logit_lens_of_trace};
use attnscope::checkpoint::minilm::MiniLm;
use attnscope::checkpoint::smollm2::SmolLm2;
use attnscope::trace::layered::Layered;
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::time::Duration;

/// Plain English words until the tokenizer counts exactly `n` tokens.
fn text_of(model: &dyn Layered, n: usize) -> String {
    let words = "the quick brown fox jumps over the lazy dog while attention weighs every word against every other word".split(' ');
    let mut text = String::new();
    for word in words.cycle() {
        let longer = if text.is_empty() { word.to_string() } else { format!("{text} {word}") };
        if model.tokens(&longer).unwrap().0.len() > n {
            break;
        }
        text = longer;
    }
    assert_eq!(model.tokens(&text).unwrap().0.len(), n, "could not make a text of {n} tokens");
    text
}

fn minilm_importance(c: &mut Criterion) {
    let model =
        MiniLm::load_dir(&attnscope::testing::minilm_dir()).unwrap_or_else(|e| panic!("{e}"));
    let text = text_of(&*model, 16);
    let mut group = c.benchmark_group("analysis_minilm_16_tokens");
    group.bench_function("forward", |b| b.iter(|| model.run(black_box(&text)).unwrap()));
    group.bench_function("importance_72_heads", |b| {
        b.iter(|| importance(&*model, black_box(&text), Ablation::Zero, &mut |_, _| true).unwrap())
    });
    group.finish();
}

fn smollm2_logit_lens(c: &mut Criterion) {
    let model =
        SmolLm2::load(&attnscope::testing::smollm2_gguf()).unwrap_or_else(|e| panic!("{e}"));
    let text = text_of(&*model, 16);
    let mut group = c.benchmark_group("analysis_smollm2_16_tokens");
    group.bench_function("forward", |b| b.iter(|| model.run(black_box(&text)).unwrap()));
    group.bench_function("logit_lens_one_position", |b| {
        b.iter(|| logit_lens(&*model, black_box(&text), None, 5, false).unwrap())
    });
    let trace = model.run(&text).unwrap();
    group.bench_function("logit_lens_one_position_from_trace", |b| {
        b.iter(|| logit_lens_of_trace(&*model, black_box(&trace), None, 5).unwrap().unwrap())
    });
    group.finish();
}

fn smollm2_importance(c: &mut Criterion) {
    let model =
        SmolLm2::load(&attnscope::testing::smollm2_gguf()).unwrap_or_else(|e| panic!("{e}"));
    let text = text_of(&*model, 8);
    let mut group = c.benchmark_group("analysis_smollm2_8_tokens");
    group.bench_function("importance_270_heads_a_layer_at_a_time", |b| {
        b.iter(|| importance(&*model, black_box(&text), Ablation::Zero, &mut |_, _| true).unwrap())
    });
    group.bench_function("importance_270_heads_a_head_at_a_time", |b| {
        b.iter(|| {
            let mut job = ImportanceJob::start(&*model, black_box(&text), Ablation::Zero).unwrap();
            while !job.is_finished() {
                job.step_head(&*model).unwrap();
            }
            job.finish()
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(8));
    targets = minilm_importance, smollm2_logit_lens, smollm2_importance
}
criterion_main!(benches);
