//! The teaching model end to end (tokenize → embed → every head, all
//! intermediates kept) on a 64-word text. Target: under 1 ms.

use attnscope::attention::{attend, Attend, Mask, Scale};
use attnscope::models::teaching::TeachingModel;
use attnscope::Matrix;
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn sixty_four_words() -> String {
    let sentence = "a fluffy blue creature roamed the verdant forest";
    let words: Vec<&str> = sentence.split(' ').cycle().take(64).collect();
    words.join(" ")
}

fn teaching(c: &mut Criterion) {
    let model = TeachingModel::new();
    let text = sixty_four_words();
    assert_eq!(model.run(&text).unwrap().tokens.len(), 64);
    c.bench_function("teaching model, 64 tokens", |b| {
        b.iter(|| model.run(black_box(&text)).unwrap())
    });
}

fn one_head(c: &mut Criterion) {
    let n = 128;
    let q =
        Matrix::from_vec(n, 64, (0..n * 64).map(|i| ((i * 7919) % 1000) as f32 / 1000.0).collect());
    c.bench_function("attend, 128 × 128, d_k 64", |b| {
        b.iter(|| attend(black_box(&q), &q, &q, Attend::new(Mask::Causal, Scale::InvSqrtDk)))
    });
}

criterion_group!(benches, teaching, one_head);
criterion_main!(benches);
