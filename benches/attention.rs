//! One head of a long causal text, the work a long run repeats for every
//! head of every layer (SmolLM2 at 2,048 tokens: 270 heads): the formula
//! and the sums of its A (`attention::attend` + `HeadSummary::of`; before
//! the fused kernel a long run computed S and A over the keys each block of
//! queries sees, about as fast), against the fused kernel (`kernels::fused`). Beside them, this
//! CPU's multiply-add peak on one core, timed in the same run, so that each
//! figure is printed as a share of it (the roofline table, docs/performance.md).

use attnscope::attention::{attend, Attend, Mask, Scale};
use attnscope::kernels::fused::attend_summed;
use attnscope::testing::matrix;
use attnscope::trace::summary::HeadSummary;
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::time::Instant;

/// Multiply-adds of one causal head: Q Kᵀ and A V over the triangle.
fn causal_macs(n: usize, d: usize) -> f64 {
    2.0 * (n * (n + 1) / 2) as f64 * d as f64
}

/// Multiply-adds a second on one core: twelve independent chains of
/// eight-lane FMAs (AVX2), the most the CPU retires; a scalar loop elsewhere.
fn peak() -> f64 {
    const STEPS: usize = 20_000_000;
    let start = Instant::now();
    let lanes = chains(black_box(STEPS));
    let seconds = start.elapsed().as_secs_f64();
    black_box(lanes);
    (STEPS * 12 * 8) as f64 / seconds
}

#[cfg(target_arch = "x86_64")]
fn chains(steps: usize) -> f32 {
    if !(std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")) {
        return 0.0;
    }
    // SAFETY: AVX2 and FMA were just detected.
    unsafe { fma_chains(steps) }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn fma_chains(steps: usize) -> f32 {
    use std::arch::x86_64::*;
    let (a, b) = (_mm256_set1_ps(0.999_999), _mm256_set1_ps(1e-7));
    let mut acc = [_mm256_set1_ps(1.0); 12];
    for _ in 0..steps {
        for x in &mut acc {
            *x = _mm256_fmadd_ps(*x, a, b);
        }
    }
    let mut out = [0.0f32; 8];
    _mm256_storeu_ps(
        out.as_mut_ptr(),
        acc.iter().fold(_mm256_setzero_ps(), |s, x| _mm256_add_ps(s, *x)),
    );
    out.iter().sum()
}

#[cfg(not(target_arch = "x86_64"))]
fn chains(_steps: usize) -> f32 {
    0.0
}

fn cpu() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}

fn long_head(c: &mut Criterion) {
    let peak = peak();
    println!("CPU: {} — one-core FMA peak {:.1} G multiply-adds/s", cpu(), peak / 1e9);
    let mut rows = Vec::new();
    for n in [512, 2048] {
        let d = 64;
        let (q, k, v) = (matrix(n, d, 1), matrix(n, d, 2), matrix(n, d, 3));
        let scale = 1.0 / 8.0;
        let mut group = c.benchmark_group(format!("one causal head, {n} tokens, d 64"));
        group.sample_size(10);
        let formula = || {
            let t = attend(&q, &k, &v, Attend::new(Mask::Causal, Scale::Factor(scale)));
            (HeadSummary::of(&t.weights), t.output)
        };
        let fused = || {
            let mut s = HeadSummary::empty();
            let z = attend_summed(&q, &k, &v, Mask::Causal, scale, &mut s);
            (s, z)
        };
        group.bench_function("formula + sums", |b| b.iter(|| black_box(formula())));
        group.bench_function("fused", |b| b.iter(|| black_box(fused())));
        group.finish();
        for (name, f) in [("formula + sums", &formula as &dyn Fn() -> _), ("fused", &fused)] {
            let runs = if n > 1000 { 5 } else { 20 };
            let start = Instant::now();
            for _ in 0..runs {
                black_box(f());
            }
            let seconds = start.elapsed().as_secs_f64() / runs as f64;
            rows.push((format!("{name}, {n} tokens"), causal_macs(n, d), seconds));
        }
    }
    println!("| one head (d 64, causal) | multiply-adds | time | share of the one-core peak |");
    println!("|---|---|---|---|");
    for (name, macs, s) in rows {
        println!(
            "| {name} | {:.1} M | {:.2} ms | {:.0} % |",
            macs / 1e6,
            s * 1e3,
            100.0 * macs / s / peak
        );
    }
}

criterion_group!(benches, long_head);
criterion_main!(benches);
