//! SmolLM2-135M forward pass, one thread, release build:
//! - `smollm2/16_tokens`: a 16-token text from scratch (all 30 layers, every
//!   head's A kept, top-5 next tokens), the page's cost for a fresh text;
//! - `smollm2/append_1_to_16`: one more token with the first 16 in the key/value
//!   cache, the cost of typing at the end of the text.
//!
//! Run: `cargo bench --bench smollm2`. Needs the GGUF (`python3 scripts/fetch_models.py`).

use attnscope::checkpoint::smollm2::SmolLm2;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};

const TEXT: &str =
    "The quick brown fox jumps over the lazy dog while the cat sleeps in the warm sun";

fn bench(c: &mut Criterion) {
    let model = SmolLm2::load(&attnscope::testing::smollm2_gguf())
        .unwrap_or_else(|e| panic!("{e}: run `python3 scripts/fetch_models.py`"));
    let ids = model.tokenize(TEXT).unwrap().ids;
    assert!(ids.len() >= 17, "the benchmark text needs at least 17 tokens");
    let (first16, first17) = (&ids[..16], &ids[..17]);
    let (past16, _) = model.forward(first16, Vec::new(), 0).unwrap();

    let mut g = c.benchmark_group("smollm2");
    g.sample_size(20);
    g.bench_function("16_tokens", |b| {
        b.iter(|| {
            let (layers, logits) = model.forward(first16, Vec::new(), 0).unwrap();
            (layers, model.top_next(&logits, 1.0, 5))
        })
    });
    g.bench_function("append_1_to_16", |b| {
        b.iter_batched(
            || past16.clone(),
            |past| {
                let (layers, logits) = model.forward(first17, past, 0).unwrap();
                (layers, model.top_next(&logits, 1.0, 5))
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
