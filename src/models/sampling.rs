//! How a decoder picks the next token from its logits: greedy, or a draw
//! from softmax(logits / T) cut to the k most likely tokens (top-k) and to
//! the fewest whose probabilities add up to p (top-p), renormalized over
//! what is kept. The draw of step s depends only on the seed and s, so a
//! step can be replayed alone and the page and the CLI write the same text.
//!
//! ```text
//!   p      = softmax(logits / T)                  the bars the page draws
//!   kept   = top_k(p, k) ∩ smallest prefix with Σ p ≥ top_p
//!   p'     = p / Σ_kept p                         renormalized
//!   chosen = first kept token whose running Σ p' exceeds u(seed, s)
//! ```

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// The settings of a generation. `temperature` 0 (or `greedy`) takes the
/// most likely token; `top_k` 0 and `top_p` 1 keep every token.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sampling {
    pub greedy: bool,
    pub temperature: f32,
    pub top_k: usize,
    pub top_p: f32,
    pub seed: u64,
}

impl Default for Sampling {
    fn default() -> Self {
        Sampling { greedy: true, temperature: 1.0, top_k: 0, top_p: 1.0, seed: 0 }
    }
}

impl Sampling {
    /// Whether the most likely token is taken without a draw.
    pub fn is_greedy(&self) -> bool {
        self.greedy || self.temperature == 0.0
    }

    /// The temperature of the distribution shown: the settings' own, or 1
    /// when greedy decoding never divides by it.
    pub fn shown_temperature(&self) -> f32 {
        if self.is_greedy() {
            1.0
        } else {
            self.temperature
        }
    }

    /// Says what is wrong with settings no distribution can come from.
    pub fn check(&self) -> Result<()> {
        let t = self.temperature;
        if !t.is_finite() || t < 0.0 {
            return Err(Error::Invalid(format!(
                "the temperature must be 0 (greedy) or a positive number, not {t}"
            )));
        }
        if !(0.0..=1.0).contains(&self.top_p) {
            return Err(Error::Invalid(format!(
                "top-p must be between 0 and 1, not {}",
                self.top_p
            )));
        }
        Ok(())
    }
}

/// How many of the most likely tokens a step reports.
pub const SHOWN: usize = 10;

/// The most tokens one generation writes.
pub const MAX_WRITE: usize = 256;

/// One step of writing: the choice, the token, and why writing ends here.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Written {
    /// The step's number, from 0 (the draw of step s depends on s alone).
    pub step: u64,
    pub choice: Choice,
    /// How the chosen token and the candidates are shown.
    pub token: String,
    pub candidates: Vec<String>,
    /// Set when this token ends the generation (an end-of-text token).
    pub stop: Option<String>,
}

/// One token of the distribution shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub id: u32,
    /// Its probability after the temperature, before any cut.
    pub p: f32,
    /// Whether top-k and top-p kept it.
    pub kept: bool,
}

/// A step's choice and the distribution it came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    pub id: u32,
    /// The chosen token's probability after the temperature.
    pub p: f32,
    /// Its probability renormalized over the kept tokens: what the draw used.
    pub p_kept: f32,
    /// How many tokens the cut kept, and their probability in all.
    pub kept: usize,
    pub kept_mass: f32,
    /// The uniform number in [0, 1) the draw used (None when greedy).
    pub draw: Option<f64>,
    /// The most likely tokens, most likely first (as many as asked for).
    pub candidates: Vec<Candidate>,
}

/// The uniform number in [0, 1) of step `step` under `seed` (SplitMix64,
/// 53 bits): a pure function, so any step is replayed alone.
pub fn uniform(seed: u64, step: u64) -> f64 {
    let mut z = seed ^ step.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// The token step `step` writes from `logits`, and the `shown` most likely
/// tokens with their probabilities. `forced` takes that token instead (a
/// token the visitor clicked), reported with the same distribution.
pub fn choose(
    logits: &[f32],
    s: &Sampling,
    step: u64,
    shown: usize,
    forced: Option<u32>,
) -> Result<Choice> {
    s.check()?;
    if logits.is_empty() {
        return Err(Error::Invalid("there are no logits to choose from".into()));
    }
    if let Some(bad) = logits.iter().find(|z| z.is_nan()) {
        return Err(Error::Invalid(format!("a logit is {bad}: the model's output is broken")));
    }
    let t = s.shown_temperature() as f64;
    // p in f64, so that a high temperature's tiny differences still order the tokens.
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max) as f64;
    let terms: Vec<f64> = logits.iter().map(|&z| ((z as f64 - max) / t).exp()).collect();
    let sum: f64 = terms.iter().sum();
    let p = |i: u32| terms[i as usize] / sum;
    let order = sorted_until(logits, s, &p);
    let kept = kept_count(&order, s, &p);
    let kept_mass: f64 = order[..kept].iter().map(|&i| p(i)).sum();
    let (id, draw) = match forced {
        Some(id) if id as usize >= logits.len() => {
            return Err(Error::Invalid(format!("token id {id} is outside the vocabulary")))
        }
        Some(id) => (id, None),
        None if s.is_greedy() => (order[0], None),
        None => {
            let u = uniform(s.seed, step);
            let target = u * kept_mass;
            let mut running = 0.0;
            // The last kept token catches what rounding leaves past the running sum.
            let id = order[..kept]
                .iter()
                .copied()
                .find(|&i| {
                    running += p(i);
                    running > target
                })
                .unwrap_or(order[kept - 1]);
            (id, Some(u))
        }
    };
    let in_kept = order[..kept].contains(&id);
    let candidates = order
        .iter()
        .chain(crate::tensor::top_k(logits, shown).iter().filter(|i| !order.contains(i)))
        .take(shown)
        .enumerate()
        .map(|(rank, &i)| Candidate { id: i, p: p(i) as f32, kept: rank < kept })
        .collect();
    Ok(Choice {
        id,
        p: p(id) as f32,
        p_kept: if in_kept { (p(id) / kept_mass) as f32 } else { 0.0 },
        kept,
        kept_mass: kept_mass as f32,
        draw,
        candidates,
    })
}

/// Token ids from most to least likely (ties by id), as far as the cut and
/// the draw need: the top k, or until the top-p mass is reached, or all.
fn sorted_until(logits: &[f32], s: &Sampling, p: &dyn Fn(u32) -> f64) -> Vec<u32> {
    let n = logits.len();
    if s.is_greedy() {
        return crate::tensor::top_k(logits, 1);
    }
    if s.top_k > 0 {
        return crate::tensor::top_k(logits, s.top_k.min(n));
    }
    // Widen the prefix until it holds top_p of the mass (a high temperature may need all).
    let mut k = 64.min(n);
    loop {
        let order = crate::tensor::top_k(logits, k);
        let mass: f64 = order.iter().map(|&i| p(i)).sum();
        if k == n || (s.top_p < 1.0 && mass >= s.top_p as f64) {
            return order;
        }
        k = (k * 8).min(n);
    }
}

/// How many of `order` the cut keeps: all of a top-k prefix, then the
/// fewest whose mass reaches top_p (at least one).
fn kept_count(order: &[u32], s: &Sampling, p: &dyn Fn(u32) -> f64) -> usize {
    if s.is_greedy() {
        return 1;
    }
    if s.top_p >= 1.0 {
        return order.len();
    }
    // top-p renormalizes over what top-k kept first, as transformers' warpers do.
    let total: f64 = order.iter().map(|&i| p(i)).sum();
    let mut running = 0.0;
    for (n, &i) in order.iter().enumerate() {
        running += p(i) / total;
        if running >= s.top_p as f64 {
            return n + 1;
        }
    }
    order.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(t: f32, k: usize, p: f32, seed: u64) -> Sampling {
        Sampling { greedy: false, temperature: t, top_k: k, top_p: p, seed }
    }

    #[test]
    fn greedy_and_temperature_zero_take_the_largest() {
        let logits = [0.5, 3.0, 3.0, -1.0];
        let g = choose(&logits, &Sampling::default(), 0, 4, None).unwrap();
        // Ties go to the lower id, as tensor::top_k orders them.
        assert_eq!((g.id, g.kept, g.draw), (1, 1, None));
        let cold = choose(&logits, &sample(0.0, 0, 1.0, 9), 3, 4, None).unwrap();
        assert_eq!(cold.id, 1);
        assert!((g.candidates.iter().map(|c| c.p).sum::<f32>() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn top_k_and_top_p_renormalize_over_what_they_keep() {
        let logits = [2.0f32, 1.0, 0.0, -1.0, -2.0];
        let c = choose(&logits, &sample(1.0, 2, 1.0, 1), 0, 5, None).unwrap();
        assert_eq!(c.kept, 2);
        let (p0, p1) = (c.candidates[0].p as f64, c.candidates[1].p as f64);
        assert!((c.kept_mass as f64 - (p0 + p1)).abs() < 1e-6);
        assert!(c.id < 2);
        assert!((c.p_kept as f64 - c.p as f64 / (p0 + p1)).abs() < 1e-6);
        assert_eq!(c.candidates.iter().filter(|x| x.kept).count(), 2);
        // Over many seeds the two kept tokens come in the ratio of their probabilities.
        let first = (0..4000)
            .filter(|&s| choose(&logits, &sample(1.0, 2, 1.0, s), 0, 2, None).unwrap().id == 0)
            .count() as f64;
        assert!((first / 4000.0 - p0 / (p0 + p1)).abs() < 0.03);
        // top-p 0 keeps one token; a top-p just above the largest keeps two.
        assert_eq!(choose(&logits, &sample(1.0, 0, 0.0, 1), 0, 5, None).unwrap().kept, 1);
        let just = choose(&logits, &sample(1.0, 0, (p0 + 1e-3) as f32, 1), 0, 5, None).unwrap();
        assert_eq!(just.kept, 2);
        // top-p 1 and top-k past the vocabulary keep everything.
        assert_eq!(choose(&logits, &sample(1.0, 0, 1.0, 1), 0, 5, None).unwrap().kept, 5);
        assert_eq!(choose(&logits, &sample(1.0, 99, 1.0, 1), 0, 5, None).unwrap().kept, 5);
    }

    #[test]
    fn ties_and_extreme_temperatures_stay_finite() {
        let flat = [1.0f32; 6];
        let c = choose(&flat, &sample(1.0, 3, 1.0, 5), 2, 6, None).unwrap();
        assert_eq!(c.kept, 3);
        assert!(c.id < 3, "ties keep the lower ids");
        for t in [1e-3, 100.0] {
            let c = choose(&[0.0, 50.0, -50.0], &sample(t, 0, 0.9, 3), 0, 3, None).unwrap();
            assert!(c.candidates.iter().all(|x| x.p.is_finite()) && c.p_kept.is_finite());
        }
        assert!(choose(&flat, &sample(-1.0, 0, 1.0, 0), 0, 3, None).is_err());
        assert!(choose(&flat, &sample(1.0, 0, 1.5, 0), 0, 3, None).is_err());
        assert!(choose(&[f32::NAN, 1.0], &sample(1.0, 0, 1.0, 0), 0, 3, None).is_err());
        assert!(choose(&flat, &Sampling::default(), 0, 3, Some(6)).is_err());
    }

    #[test]
    fn a_draw_depends_on_the_seed_and_the_step_alone() {
        assert_eq!(uniform(7, 3), uniform(7, 3));
        assert_ne!(uniform(7, 3), uniform(7, 4));
        assert_ne!(uniform(7, 3), uniform(8, 3));
        let us: Vec<f64> = (0..1000).map(|s| uniform(42, s)).collect();
        assert!(us.iter().all(|u| (0.0..1.0).contains(u)));
        let mean = us.iter().sum::<f64>() / 1000.0;
        assert!((mean - 0.5).abs() < 0.05);
        // A forced token is reported with the distribution it was not drawn from.
        let c = choose(&[0.0, 1.0], &sample(1.0, 1, 1.0, 0), 0, 2, Some(0)).unwrap();
        assert_eq!((c.id, c.p_kept, c.draw), (0, 0.0, None));
    }
}
