//! Vector math written so that a loop over a slice vectorizes: no branches,
//! no library calls, reductions in eight interleaved lanes.

/// Σ xs. A single running total is a chain of dependent additions, one
/// rounding and one add latency per element, which the compiler may not
/// reorder; eight interleaved totals let each step be one vector add (and
/// round less, being a partial pairwise sum).
#[inline]
pub fn sum(xs: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let chunks = xs.chunks_exact(8);
    let tail: f32 = chunks.remainder().iter().sum();
    for chunk in chunks {
        for (lane, x) in lanes.iter_mut().zip(chunk) {
            *lane += x;
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// Σ aᵢbᵢ, in eight interleaved lanes like [`sum`].
#[inline]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len(), "dot: lengths differ");
    let mut lanes = [0.0f32; 8];
    let (chunks_a, chunks_b) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = chunks_a.remainder().iter().zip(chunks_b.remainder()).map(|(x, y)| x * y).sum();
    for (ca, cb) in chunks_a.zip(chunks_b) {
        for ((lane, x), y) in lanes.iter_mut().zip(ca).zip(cb) {
            *lane += x * y;
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// The largest of xs (−∞ for none), in eight interleaved lanes like [`sum`].
/// NaN is passed over, as `f32::max` does.
#[inline]
pub fn max(xs: &[f32]) -> f32 {
    // A compare and select rather than `f32::max`, which in wasm is a call.
    let bigger = |m: f32, x: f32| if x > m { x } else { m };
    let mut lanes = [f32::NEG_INFINITY; 8];
    let chunks = xs.chunks_exact(8);
    let tail = chunks.remainder().iter().copied().fold(f32::NEG_INFINITY, bigger);
    for chunk in chunks {
        for (lane, &x) in lanes.iter_mut().zip(chunk) {
            *lane = bigger(*lane, x);
        }
    }
    lanes.into_iter().fold(tail, bigger)
}

/// Are all xs finite? x − x is 0 for a finite x and NaN for ±∞ or NaN, so
/// the sum of eight interleaved lanes of it is 0 exactly when every x is
/// finite: a vector loop with no branch, fast enough to run on every trace.
#[inline]
#[allow(clippy::eq_op)] // x − x is the point: it is not 0 for ±∞ and NaN
pub fn all_finite(xs: &[f32]) -> bool {
    let mut lanes = [0.0f32; 8];
    let chunks = xs.chunks_exact(8);
    let tail: f32 = chunks.remainder().iter().map(|x| x - x).sum();
    for chunk in chunks {
        for (lane, x) in lanes.iter_mut().zip(chunk) {
            *lane += x - x;
        }
    }
    lanes.iter().sum::<f32>() + tail == 0.0
}

/// `constants`, hidden from the optimiser, for a vector loop with many of
/// them (a polynomial's coefficients): it then computes each once, before
/// the loop, rather than writing it into the loop as a constant. Chromium's
/// wasm compiler, short of registers, rebuilds such a vector constant at every
/// use, in three or four instructions, where a value computed before the loop
/// is reloaded in one. The arithmetic is the same. Natively it is the
/// identity: there LLVM keeps such constants in registers or folds them into
/// the instructions, and hiding them is slower (docs/performance.md).
#[inline(always)]
pub fn loop_constants<T>(constants: T) -> T {
    #[cfg(target_arch = "wasm32")]
    return std::hint::black_box(constants);
    #[cfg(not(target_arch = "wasm32"))]
    constants
}

/// The numbers [`exp`] is made of (see there), for loops that take them
/// through [`loop_constants`]: `let e = loop_constants(EXP);` then `e.exp(x)`.
#[derive(Clone, Copy, Debug)]
pub struct Exp {
    lowest: f32,
    highest: f32,
    log2_e: f32,
    round: f32,
    ln2_hi: f32,
    ln2_lo: f32,
    /// Cephes' expf coefficients, highest power first.
    c: [f32; 6],
    one: f32,
    biased_round: f32,
}

// eˣ = 2ⁿ · eʳ with n = round(x / ln 2) and |r| ≤ ln 2 / 2; ln 2 is split in
// two (LN2_HI + LN2_LO) so that r = x − n·ln 2 keeps all its bits (Cody and
// Waite). Adding and removing 1.5·2²³ (ROUND) rounds to the nearest integer
// (ties to even) in plain arithmetic; `round_ties_even` would be a call to
// libm's `rintf` on x86-64 without SSE4.1.
pub const EXP: Exp = Exp {
    lowest: -87.3,
    highest: 88.7,
    log2_e: std::f32::consts::LOG2_E,
    round: 12_582_912.0,
    ln2_hi: 0.693_359_4,
    ln2_lo: -2.121_944_4e-4,
    c: [1.987_569_2e-4, 1.398_2e-3, 8.333_452e-3, 4.166_579_6e-2, 1.666_666_5e-1, 0.5],
    one: 1.0,
    biased_round: 12_582_912.0 + 127.0,
};

impl Exp {
    /// eˣ: see [`exp`].
    #[inline(always)]
    pub fn exp(&self, x: f32) -> f32 {
        let clamped = x.clamp(self.lowest, self.highest);
        let n = (clamped * self.log2_e + self.round) - self.round;
        let r = clamped - n * self.ln2_hi - n * self.ln2_lo;
        // The Taylor series of eʳ − 1 − r with minimax-adjusted coefficients
        // (Cephes' expf), by Estrin's scheme rather than Horner's: three short
        // products side by side instead of one chain of five, so that a
        // vector's exp waits less for itself.
        let c = &self.c;
        let r2 = r * r;
        let p = ((c[0] * r + c[1]) * r2 + (c[2] * r + c[3])) * r2 + (c[4] * r + c[5]);
        let er = p * r2 + (r + self.one);
        // 2ⁿ from its bits: n + 127 is the biased exponent (1 ..= 255 after
        // the clamp). Added to 1.5·2²³ it lands in the low mantissa bits, and
        // the shift moves it into the exponent field. An `as i32` cast would
        // do the same, but saturates, which SSE2 cannot do four lanes at a time.
        let two_n = f32::from_bits((n + self.biased_round).to_bits() << 23);
        let y = er * two_n;
        // Above the clamp n is 128, whose biased exponent (255) makes 2ⁿ and
        // so y infinite: overflow needs no test of its own, only underflow.
        if x < self.lowest {
            0.0
        } else {
            y
        }
    }
}

/// eˣ in f32, within 2 ulp of the exact value, written so that a loop over a
/// slice vectorizes: no branches and no library call (`f32::exp` is a call
/// to libm's `expf`, in wasm a scalar, branchy function). Below −87.3, where eˣ leaves the
/// normal f32 range, it gives 0, so a masked score (−∞) still weighs exactly 0.
/// A loop over many values is faster in the browser with [`Exp::exp`] on
/// [`loop_constants`]`(EXP)`.
#[inline]
pub fn exp(x: f32) -> f32 {
    EXP.exp(x)
}

/// log₂ x in f32 for x > 0, within 2 ulp of the exact value outside [½, 2)
/// (within 2.4e-7 inside it), written like [`exp`] so that a loop over a
/// slice vectorizes: a head's entropy takes one per weight, where libm's
/// `log2f` would be a call each.
/// Subnormal x (below 1.2e-38) come out wrong, by at most 23 (their
/// mantissa's leading zeros), harmless to p · log₂ p; x ≤ 0 gives garbage
/// (callers skip it).
#[inline]
pub fn log2(x: f32) -> f32 {
    // x = 2ᵉ · m with m in [√½, √2), so that ln m is near 0 where the series
    // is good. Measured from √½'s bits, the exponent field is e and the
    // mantissa field, put back on √½, is m (musl's way: integer steps only,
    // no branch, so four lanes at a time).
    const SQRT_HALF: u32 = 0x3f35_04f3;
    let t = x.to_bits().wrapping_sub(SQRT_HALF);
    let e = (t as i32) >> 23;
    let m = f32::from_bits((t & 0x007f_ffff) + SQRT_HALF);
    // ln(1 + f) = f − f²/2 + f³·P(f), with Cephes' logf coefficients.
    let f = m - 1.0;
    let z = f * f;
    let poly = ((((((((7.037_683_6e-2 * f - 1.151_461e-1) * f + 1.167_699_9e-1) * f
        - 1.242_014_1e-1)
        * f
        + 1.424_932_3e-1)
        * f
        - 1.666_805_8e-1)
        * f
        + 2.000_071_4e-1)
        * f
        - 2.499_999_4e-1)
        * f
        + 3.333_333e-1)
        * f
        * z;
    let ln_m = f - 0.5 * z + poly;
    e as f32 + ln_m * std::f32::consts::LOG2_E
}

/// erf(x) ≈ x·P(x²)/Q(x²) on |x| ≤ 4; beyond, erf is ±1 to f32 precision.
/// The coefficients are a minimax fit (linearised least squares with Lawson
/// reweighting, in f64) to erf on [0, 4]: 5e-8 in exact arithmetic, within
/// 4e-7 of the true erf once evaluated in f32 (the test below holds it to
/// libm's `erff`). Unlike `erff`, which branches and calls `exp`, this has no
/// branch, so GELU's loop over a 1536-wide feed-forward row vectorises.
#[derive(Clone, Copy, Debug)]
pub struct Erf {
    p: [f32; 7],
    q: [f32; 5],
    /// erf is ±1 to f32 precision beyond ±`edge`.
    edge: f32,
    one: f32,
    half: f32,
    inv_sqrt_2: f32,
}

pub const ERF: Erf = Erf {
    p: [
        1.128_378_6,
        0.213_946_18,
        0.052_433_662,
        0.004_293_114_4,
        0.000_155_538_19,
        -1.990_323_2e-6,
        1.921_710_6e-8,
    ],
    q: [1.0, 0.522_932_5, 0.120_800_23, 0.015_551_215, 0.001_098_052_6],
    edge: 4.0,
    one: 1.0,
    half: 0.5,
    inv_sqrt_2: std::f32::consts::FRAC_1_SQRT_2,
};

impl Erf {
    #[inline(always)]
    pub fn erf(&self, x: f32) -> f32 {
        let (p, q) = (&self.p, &self.q);
        let x = x.clamp(-self.edge, self.edge);
        let z = x * x;
        // Estrin's scheme: pairs side by side, then powers of z², rather than
        // Horner's one chain of six multiply-adds: in wasm, latency, not
        // arithmetic, bounds a vector's erf.
        let (z2, z4) = (z * z, (z * z) * (z * z));
        let num = (p[0] + p[1] * z) + (p[2] + p[3] * z) * z2 + ((p[4] + p[5] * z) + p[6] * z2) * z4;
        let den = (q[0] + q[1] * z) + (q[2] + q[3] * z) * z2 + q[4] * z4;
        // The fit overshoots 1 by an ulp near the ends; erf never does.
        (x * num / den).clamp(-self.one, self.one)
    }

    /// GELU with erf, as BERT's `hidden_act: "gelu"` means (not the tanh approximation).
    #[inline(always)]
    pub fn gelu(&self, x: f32) -> f32 {
        self.half * x * (self.one + self.erf(x * self.inv_sqrt_2))
    }
}

/// erf(x) in f32, within 4e-7 of the exact value: see [`Erf`]. A loop over
/// many values is faster in the browser with [`Erf::erf`] on
/// [`loop_constants`]`(ERF)`.
#[inline]
pub fn erf(x: f32) -> f32 {
    ERF.erf(x)
}

/// Above this many, [`top_k`] selects and then sorts.
const TOP_K_IN_ONE_PASS: usize = 64;

/// The ids of the `k` largest of `scores` (a vocabulary's logits or
/// probabilities), the largest first and, among equal scores, the lower id
/// first (by `total_cmp`). A few are kept in one pass, in order: most scores
/// lose their first comparison, where selecting among all the ids, then
/// sorting, touches each several times. More are selected, then sorted; the
/// ids and their order are the same either way.
pub fn top_k(scores: &[f32], k: usize) -> Vec<u32> {
    let k = k.min(scores.len());
    if k > TOP_K_IN_ONE_PASS {
        let first =
            |a: &u32, b: &u32| scores[*b as usize].total_cmp(&scores[*a as usize]).then(a.cmp(b));
        let mut order: Vec<u32> = (0..scores.len() as u32).collect();
        order.select_nth_unstable_by(k - 1, first);
        order.truncate(k);
        order.sort_by(first);
        return order;
    }
    let mut best: Vec<u32> = Vec::with_capacity(k + 1);
    for (i, z) in scores.iter().enumerate() {
        let beats = |&j: &u32| z.total_cmp(&scores[j as usize]) == std::cmp::Ordering::Greater;
        if best.len() == k && !best.last().is_some_and(beats) {
            continue;
        }
        let at = best.iter().position(beats).unwrap_or(best.len());
        best.insert(at, i as u32);
        best.truncate(k);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_sum_dot_and_max_equal_the_plain_ones() {
        for n in [0, 1, 7, 8, 9, 16, 31, 128, 1000] {
            let xs: Vec<f32> = (0..n).map(|i| ((i * 37) % 101) as f32 / 7.0 - 6.0).collect();
            let plain: f64 = xs.iter().map(|&x| x as f64).sum();
            assert!((sum(&xs) as f64 - plain).abs() < 1e-4 * (1.0 + plain.abs()), "sum of {n}");
            assert_eq!(
                max(&xs),
                xs.iter().copied().fold(f32::NEG_INFINITY, f32::max),
                "max of {n}"
            );
            let squares: f64 = xs.iter().map(|&x| x as f64 * x as f64).sum();
            assert!((dot(&xs, &xs) as f64 - squares).abs() < 1e-4 * (1.0 + squares), "dot of {n}");
        }
        assert_eq!(max(&[f32::NAN, 2.0, f32::NEG_INFINITY]), 2.0);
        assert_eq!(max(&[f32::NEG_INFINITY; 9]), f32::NEG_INFINITY);
    }

    #[test]
    fn log2_is_within_two_ulp_of_libm_away_from_one() {
        let (mut worst_ulp, mut worst_abs) = (0u32, 0.0f32);
        for i in 0..=2_000_000 {
            // 1e-37 to 1e4, evenly in the exponent.
            let x = 10f32.powf(-37.0 + 41.0 * i as f32 / 2_000_000.0);
            let (got, want) = (log2(x), x.log2());
            if (0.5..2.0).contains(&x) {
                worst_abs = worst_abs.max((got - want).abs());
            } else {
                worst_ulp = worst_ulp.max(got.to_bits().abs_diff(want.to_bits()));
            }
        }
        assert!(worst_ulp <= 2, "{worst_ulp} ulp");
        assert!(worst_abs < 2.4e-7, "{worst_abs}"); // 2 ulp of 1
        assert_eq!((log2(1.0), log2(2.0), log2(0.25)), (0.0, 1.0, -2.0));
    }

    #[test]
    fn exp_is_within_two_ulp_of_libm_and_exact_at_the_ends() {
        let mut worst = 0u32;
        for i in 0..=2_000_000 {
            let x = -87.0 + 175.0 * i as f32 / 2_000_000.0;
            let (got, want) = (exp(x), x.exp());
            worst = worst.max(got.to_bits().abs_diff(want.to_bits()));
        }
        assert!(worst <= 2, "{worst} ulp");
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp(-100.0), 0.0);
        assert_eq!(exp(f32::INFINITY), f32::INFINITY);
        assert!(exp(f32::NAN).is_nan());
    }

    #[test]
    fn exp_with_loop_constants_is_exp() {
        let e = loop_constants(EXP);
        for i in 0..=200_000 {
            let x = -100.0 + 200.0 * i as f32 / 200_000.0;
            assert_eq!(e.exp(x).to_bits(), exp(x).to_bits(), "exp({x})");
        }
        assert_eq!(e.exp(f32::NEG_INFINITY), 0.0);
    }

    #[test]
    fn erf_matches_libm_everywhere() {
        let mut worst = 0.0f32;
        for i in -1_000_000..=1_000_000 {
            let x = i as f32 * 1e-5; // [-10, 10]
            worst = worst.max((erf(x) - libm::erff(x)).abs());
        }
        assert!(worst < 5e-7, "erf off by {worst}");
        assert_eq!((erf(0.0), erf(100.0), erf(-100.0), erf(f32::INFINITY)), (0.0, 1.0, -1.0, 1.0));
        let odd = erf(-0.3) + erf(0.3);
        assert_eq!(odd, 0.0);
    }

    #[test]
    fn the_top_k_in_one_pass_is_the_top_k_selected() {
        // Ties (twenty of each value) and a NaN; k on both sides of the one pass.
        let mut scores: Vec<f32> = (0..1000).map(|i| ((i * 7919) % 50) as f32 / 10.0).collect();
        scores[500] = f32::NAN;
        let mut order: Vec<u32> = (0..1000).collect();
        order.sort_by(|&a, &b| scores[b as usize].total_cmp(&scores[a as usize]).then(a.cmp(&b)));
        for k in [0, 1, 5, TOP_K_IN_ONE_PASS, TOP_K_IN_ONE_PASS + 1, 300, 1000, 2000] {
            assert_eq!(top_k(&scores, k), order[..k.min(1000)], "k = {k}");
        }
    }
}
