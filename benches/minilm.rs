//! all-MiniLM-L6-v2 forward pass, every attention weight kept, on one thread
//! and on two (a helper thread sharing the weight products,
//! `models::helper::thread`). Target: 16 tokens in ≤ 5 ms natively. Needs
//! `python3 scripts/fetch_models.py`.
//!
//!     cargo bench --bench minilm

use attnscope::checkpoint::minilm::MiniLm;
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::time::Duration;

/// Plain English words until the tokenizer counts exactly `n` tokens
/// ([CLS] and [SEP] included).
fn text_of(model: &MiniLm, n: usize) -> String {
    let words =
        "the quick brown fox jumps over the lazy dog while attention weighs every word against every other word in the sentence".split(' ');
    let mut text = String::new();
    for word in words.cycle() {
        let longer = if text.is_empty() { word.to_string() } else { format!("{text} {word}") };
        if model.tokenize(&longer).unwrap().ids.len() > n {
            break;
        }
        text = longer;
    }
    assert_eq!(model.tokenize(&text).unwrap().ids.len(), n, "could not make a text of {n} tokens");
    text
}

fn forward(c: &mut Criterion) {
    let load =
        || MiniLm::load_dir(&attnscope::testing::minilm_dir()).unwrap_or_else(|e| panic!("{e}"));
    let (model, mut two) = (load(), load());
    attnscope::models::two_threads::thread::share(&mut *two);
    let mut group = c.benchmark_group("minilm");
    for n in [16, 128] {
        let text = text_of(&model, n);
        group.bench_function(format!("forward_{n}_tokens"), |b| {
            b.iter(|| model.run(black_box(&text)).unwrap())
        });
        group.bench_function(format!("forward_{n}_tokens_two_threads"), |b| {
            b.iter(|| two.run(black_box(&text)).unwrap())
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(6));
    targets = forward
}
criterion_main!(benches);
