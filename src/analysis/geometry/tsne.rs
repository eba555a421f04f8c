//! t-SNE (van der Maaten and Hinton, 2008), exact: a projection that keeps
//! each point's neighbours rather than the spread, for when points are many and
//! the two principal axes crowd them. Distances in the picture then mean
//! little beyond "near" and "far"; the page says so beside it.
//!
//! Exact means every pair each iteration (m² work): meant for a few hundred to
//! a couple of thousand points, which is what a sentence's queries and keys or
//! a pooled corpus are. Written here (about a hundred lines), as the
//! eigensolver was (`linalg`); no t-SNE crate is in the build's lock file or
//! the packages at hand (Barnes–Hut's tree, for tens of thousands of points,
//! is left for later).
//!
//! 1. p_{j|i} ∝ exp(−β_i ‖x_i − x_j‖²), each β_i found by bisection so that
//!    the row's entropy is ln(perplexity); P = (p_{j|i} + p_{i|j}) / 2m.
//! 2. q_ij ∝ 1 / (1 + ‖y_i − y_j‖²) (Student-t with one degree of freedom).
//! 3. Gradient descent on KL(P‖Q): ∂/∂y_i = 4 Σ_j (p_ij − q_ij)(y_i − y_j)/(1 + ‖y_i − y_j‖²),
//!    with P exaggerated ×12 for the first quarter of the iterations, momentum
//!    and per-coordinate gains.

use crate::error::{Error, Result};

/// The options of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tsne {
    pub perplexity: f64,
    pub iterations: usize,
    pub seed: u64,
}

impl Default for Tsne {
    fn default() -> Self {
        Tsne { perplexity: 30.0, iterations: 500, seed: 1 }
    }
}

/// At most this many points (m² pairs each iteration).
pub const MAX_TSNE_POINTS: usize = 3000;

/// A uniform number in [0, 1) from a splitmix64 state.
fn uniform(state: &mut u64) -> f64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
}

/// The row p_{j|i} for squared distances `d` (d[i] itself excluded) with entropy ln(perplexity).
fn conditional_row(d: &[f64], i: usize, perplexity: f64) -> Vec<f64> {
    let target = perplexity.ln();
    let (mut beta, mut lo, mut hi) = (1.0f64, 0.0f64, f64::INFINITY);
    // Distances shifted by the row's smallest, so that exp never underflows to all zeros.
    let least = d
        .iter()
        .enumerate()
        .filter(|&(j, _)| j != i)
        .map(|(_, &x)| x)
        .fold(f64::INFINITY, f64::min);
    let mut row = vec![0.0; d.len()];
    for _ in 0..64 {
        let mut sum = 0.0;
        for (j, (&dj, r)) in d.iter().zip(row.iter_mut()).enumerate() {
            *r = if j == i { 0.0 } else { (-(dj - least) * beta).exp() };
            sum += *r;
        }
        // H = ln Σ + β Σ p_j d_j (with the shifted distances).
        let weighted: f64 = d.iter().zip(&row).map(|(&dj, &r)| r * (dj - least)).sum::<f64>() / sum;
        let entropy = sum.ln() + beta * weighted;
        row.iter_mut().for_each(|r| *r /= sum);
        if (entropy - target).abs() < 1e-5 {
            break;
        }
        if entropy > target {
            lo = beta;
            beta = if hi.is_finite() { (beta + hi) / 2.0 } else { beta * 2.0 };
        } else {
            hi = beta;
            beta = (beta + lo) / 2.0;
        }
    }
    row
}

/// The points (each of the same length) placed in the plane by t-SNE.
pub fn tsne(points: &[&[f32]], options: Tsne) -> Result<Vec<[f32; 2]>> {
    let m = points.len();
    if m < 3 {
        return Err(Error::Invalid("t-SNE needs three points or more".into()));
    }
    if m > MAX_TSNE_POINTS {
        return Err(Error::Invalid(format!(
            "t-SNE compares every two points: at most {MAX_TSNE_POINTS} (here {m})"
        )));
    }
    let sq = |a: &[f32], b: &[f32]| -> f64 {
        a.iter().zip(b).map(|(&x, &y)| (x as f64 - y as f64).powi(2)).sum()
    };
    // The perplexity cannot exceed the neighbours there are.
    let perplexity = options.perplexity.clamp(1.0, (m - 1) as f64 / 3.0).max(1.0);
    let mut p = vec![0.0f64; m * m];
    for i in 0..m {
        let d: Vec<f64> = (0..m).map(|j| sq(points[i], points[j])).collect();
        let row = conditional_row(&d, i, perplexity);
        p[i * m..(i + 1) * m].copy_from_slice(&row);
    }
    for i in 0..m {
        for j in i + 1..m {
            let s = ((p[i * m + j] + p[j * m + i]) / (2.0 * m as f64)).max(1e-12);
            p[i * m + j] = s;
            p[j * m + i] = s;
        }
        p[i * m + i] = 0.0;
    }
    let mut state = options.seed;
    let mut y: Vec<[f64; 2]> = (0..m)
        .map(|_| {
            // Box–Muller: two normal numbers, scaled small.
            let (u, v) = (uniform(&mut state).max(1e-300), uniform(&mut state));
            let r = (-2.0 * u.ln()).sqrt() * 1e-4;
            let t = std::f64::consts::TAU * v;
            [r * t.cos(), r * t.sin()]
        })
        .collect();
    let (mut step, mut gains) = (vec![[0.0f64; 2]; m], vec![[1.0f64; 2]; m]);
    let rate = (m as f64 / 12.0).max(50.0);
    let exaggerated = options.iterations / 4;
    let mut num = vec![0.0f64; m * m];
    for it in 0..options.iterations {
        let exaggeration = if it < exaggerated { 12.0 } else { 1.0 };
        let momentum = if it < exaggerated { 0.5 } else { 0.8 };
        let mut total = 0.0;
        for i in 0..m {
            for j in i + 1..m {
                let (dx, dy) = (y[i][0] - y[j][0], y[i][1] - y[j][1]);
                let t = 1.0 / (1.0 + dx * dx + dy * dy);
                num[i * m + j] = t;
                num[j * m + i] = t;
                total += 2.0 * t;
            }
        }
        for i in 0..m {
            let mut grad = [0.0f64; 2];
            for j in (0..m).filter(|&j| j != i) {
                let t = num[i * m + j];
                let f = (exaggeration * p[i * m + j] - t / total) * t;
                grad[0] += 4.0 * f * (y[i][0] - y[j][0]);
                grad[1] += 4.0 * f * (y[i][1] - y[j][1]);
            }
            for a in 0..2 {
                // The gain grows where the gradient keeps its direction against the step.
                gains[i][a] = if (grad[a] > 0.0) != (step[i][a] > 0.0) {
                    gains[i][a] + 0.2
                } else {
                    (gains[i][a] * 0.8).max(0.01)
                };
                step[i][a] = momentum * step[i][a] - rate * gains[i][a] * grad[a];
            }
        }
        for (yi, s) in y.iter_mut().zip(&step) {
            yi[0] += s[0];
            yi[1] += s[1];
        }
        let mean = y.iter().fold([0.0; 2], |a, p| [a[0] + p[0] / m as f64, a[1] + p[1] / m as f64]);
        y.iter_mut().for_each(|p| *p = [p[0] - mean[0], p[1] - mean[1]]);
    }
    if y.iter().flatten().any(|v| !v.is_finite()) {
        return Err(Error::Invalid("t-SNE did not settle on these points".into()));
    }
    Ok(y.into_iter().map(|p| [p[0] as f32, p[1] as f32]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two clouds of 30 points in 8 dimensions, far apart.
    fn two_clouds() -> Vec<Vec<f32>> {
        let mut state = 7u64;
        (0..60)
            .map(|i| {
                let centre = if i < 30 { 0.0 } else { 20.0 };
                (0..8).map(|_| centre + uniform(&mut state) as f32).collect()
            })
            .collect()
    }

    #[test]
    fn two_far_clouds_stay_apart_and_a_seed_gives_the_same_picture() {
        let clouds = two_clouds();
        let points: Vec<&[f32]> = clouds.iter().map(Vec::as_slice).collect();
        let options = Tsne { perplexity: 10.0, iterations: 300, seed: 3 };
        let y = tsne(&points, options).unwrap();
        // Every point's nearest neighbour in the plane is of its own cloud.
        for i in 0..60 {
            let nearest = (0..60)
                .filter(|&j| j != i)
                .min_by(|&a, &b| {
                    let d = |j: usize| (y[i][0] - y[j][0]).hypot(y[i][1] - y[j][1]);
                    d(a).total_cmp(&d(b))
                })
                .unwrap();
            assert_eq!(i < 30, nearest < 30, "point {i}'s nearest is {nearest}");
        }
        assert_eq!(y, tsne(&points, options).unwrap());
        assert_ne!(y, tsne(&points, Tsne { seed: 4, ..options }).unwrap());
    }

    #[test]
    fn identical_points_and_too_few_are_answered_without_nan() {
        let same = [[1.0f32, 2.0]; 5];
        let points: Vec<&[f32]> = same.iter().map(|p| p.as_slice()).collect();
        let y = tsne(&points, Tsne::default()).unwrap();
        assert!(y.iter().flatten().all(|v| v.is_finite()));
        let e = tsne(&points[..2], Tsne::default()).unwrap_err();
        assert!(e.to_string().contains("three points"), "{e}");
    }

    #[test]
    fn a_row_has_the_perplexity_asked_for() {
        let d: Vec<f64> = (0..50).map(|j| (j as f64 * 0.37).powi(2)).collect();
        let row = conditional_row(&d, 0, 8.0);
        assert_eq!(row[0], 0.0);
        assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let entropy: f64 = -row.iter().filter(|&&p| p > 0.0).map(|p| p * p.ln()).sum::<f64>();
        assert!((entropy.exp() - 8.0).abs() < 1e-3, "{}", entropy.exp());
    }
}
