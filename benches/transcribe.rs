//! Whisper tiny.en, one thread, release build, on a 5-second clip (the
//! committed fox.wav and attention.wav one after the other, cut at 5 s):
//! - `transcribe/mel`: the log-mel spectrogram (30 s, padded);
//! - `transcribe/encode`: the encoder over it (four layers of 1,500 frames);
//! - `transcribe/clip_5s`: the whole path the page will run when a
//!   recording ends: spectrogram, encoder, greedy decoding, the transcript's
//!   attention in every layer and head, and the words' times.
//!
//! Then the whole path's median over a few runs, on one line with the CPU,
//! for scripts/bench.sh's ratio to CTranslate2 on the same clip
//! (scripts/reference/whisper_timing.py).
//!
//! Run: `cargo bench --bench transcribe`. Needs www/models/whisper-tiny-en
//! (`python3 scripts/fetch_models.py --extra`).

use attnscope::formats::source::File;
use attnscope::models::whisper::transcribe::Speech;
use attnscope::models::whisper::{mel, wav};
use criterion::{criterion_group, criterion_main, Criterion};
use std::path::Path;
use std::time::{Duration, Instant};

/// 5 s at 16 kHz.
const SAMPLES: usize = 80_000;

fn cpu() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = info.lines().find_map(|l| l.strip_prefix("model name")?.split(':').nth(1));
    model.map_or("unknown CPU".into(), |m| m.trim().to_string())
}

/// The benchmark's clip, as whisper_timing.py builds it.
fn clip() -> Vec<f32> {
    let read = |name: &str| {
        let bytes = std::fs::read(attnscope::testing::fixture_path(&format!("whisper/{name}")));
        wav::read(&bytes.unwrap()).unwrap().samples
    };
    let mut audio = read("fox.wav");
    audio.extend(read("attention.wav"));
    assert!(audio.len() >= SAMPLES, "the two clips make {} samples", audio.len());
    audio.truncate(SAMPLES);
    audio
}

fn speech() -> Speech {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("www/models/whisper-tiny-en");
    let model = File::open(&dir.join("model.bin"))
        .unwrap_or_else(|e| panic!("{e}: run `python3 scripts/fetch_models.py --extra`"));
    let read = |f: &str| std::fs::read(dir.join(f)).unwrap();
    Speech::load(&model, &read("config.json"), &read("tokenizer.json")).unwrap()
}

fn bench(c: &mut Criterion) {
    let speech = speech();
    let audio = clip();
    let whole = |audio: &[f32]| {
        let t = speech.transcribe(audio).unwrap();
        let words = speech.word_times(&t).unwrap();
        (t, words)
    };
    let (t, words) = whole(&audio);
    let mut g = c.benchmark_group("transcribe");
    g.sample_size(10);
    g.bench_function("mel", |b| b.iter(|| mel::log_mel(&audio)));
    let spectrogram = mel::log_mel(&audio);
    g.bench_function("encode", |b| b.iter(|| speech.model.encode(&spectrogram)));
    g.bench_function("clip_5s", |b| b.iter(|| whole(&audio)));
    g.finish();

    let mut runs: Vec<Duration> = (0..5)
        .map(|_| {
            let t0 = Instant::now();
            whole(&audio);
            t0.elapsed()
        })
        .collect();
    runs.sort();
    let median = runs[runs.len() / 2].as_secs_f64() * 1e3;
    println!(
        "attnscope natively, one thread, Whisper tiny.en (float16 weights, f32 arithmetic), CPU: {}\n  \
         a 5 s clip to its transcript, every head's attention and {} words' times: {median:.0} ms\n  \
         text: {:?} ({} tokens)",
        cpu(),
        words.len(),
        t.text,
        t.ids.len()
    );
    println!("{{\"attnscope_transcribe_5s_ms\": {median:.1}}}");
}

criterion_group!(benches, bench);
criterion_main!(benches);
