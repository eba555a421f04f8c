//! Not a check: one long head timed in Chromium, the fused kernel beside the
//! formula and its sums, against this CPU's wasm multiply-add peak measured
//! in the same run (the attention part of the roofline). It prints and
//! asserts nothing; `scripts/bench.sh long` runs it in release:
//! `cargo test --release --target wasm32-unknown-unknown --lib --features fma -- --ignored --nocapture fused::timing`.

use crate::attention::{attend, Attend, Mask, Scale};
use crate::kernels::fused::attend_summed;
use crate::kernels::simd::wasm::madd;
use crate::testing::matrix;
use crate::trace::summary::HeadSummary;
use core::arch::wasm32::*;
use std::hint::black_box;

/// Milliseconds of `f`, the best of `runs`.
fn best_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    (0..runs)
        .map(|_| {
            let t = js_sys::Date::now();
            f();
            js_sys::Date::now() - t
        })
        .fold(f64::INFINITY, f64::min)
}

/// Twelve independent chains of four-lane multiply-adds (relaxed SIMD's
/// fused one in the `fma` build): billions of multiply-adds a second.
fn peak_gmacs() -> f64 {
    const STEPS: usize = 20_000_000;
    // SAFETY: the fma build runs only where relaxed SIMD is (the runner's Chromium has it).
    let ms = best_ms(3, || {
        black_box(unsafe { chains(black_box(STEPS)) });
    });
    (STEPS * 12 * 4) as f64 / ms / 1e6
}

/// The chains, compiled with relaxed SIMD so that each multiply-add is one instruction.
#[cfg_attr(feature = "fma", target_feature(enable = "relaxed-simd"))]
unsafe fn chains(steps: usize) -> f32 {
    let (a, b) = (f32x4_splat(0.999_999), f32x4_splat(1e-7));
    let mut acc = [f32x4_splat(1.0); 12];
    for _ in 0..steps {
        for x in &mut acc {
            *x = madd(*x, a, b);
        }
    }
    f32x4_extract_lane::<0>(acc.iter().fold(f32x4_splat(0.0), |s, x| f32x4_add(s, *x)))
}

#[wasm_bindgen_test::wasm_bindgen_test]
#[ignore = "a timing: scripts/bench.sh long runs it in release"]
fn time_one_long_causal_head() {
    let peak = peak_gmacs();
    let d = 64;
    web_sys::console::log_1(&format!("wasm multiply-add peak, one core: {peak:.1} G/s").into());
    for n in [1024, 2048] {
        let (q, k, v) = (matrix(n, d, 1), matrix(n, d, 2), matrix(n, d, 3));
        let macs = 2.0 * (n * (n + 1) / 2) as f64 * d as f64;
        let fused = best_ms(5, || {
            let mut sums = HeadSummary::empty();
            black_box(attend_summed(&q, &k, &v, Mask::Causal, 0.125, &mut sums));
        });
        let formula = best_ms(3, || {
            let t = attend(&q, &k, &v, Attend::new(Mask::Causal, Scale::Factor(0.125)));
            black_box((HeadSummary::of(&t.weights), t.output));
        });
        for (what, ms) in [("fused kernel", fused), ("formula + sums", formula)] {
            web_sys::console::log_1(
                &format!(
                    "one causal head, {n} tokens, d 64, {what}: {ms:.1} ms, {:.1} G multiply-adds/s, {:.0} % of the peak",
                    macs / ms / 1e6,
                    100.0 * macs / ms / 1e6 / peak
                )
                .into(),
            );
        }
    }
}
