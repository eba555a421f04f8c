//! The two eigendecompositions the geometry needs, in f64: principal axes of
//! a cloud of points (PCA) and classical multidimensional scaling of a
//! distance matrix, both from [`symmetric_eigen`].
//!
//! Written here rather than taken from nalgebra: nalgebra's `SymmetricEigen`
//! did the same within 1e-6 of numpy, but added 31 KB gzipped to the page's
//! wasm (the teaching model's Q·K space is computed in the page) and 17 KB to
//! the worker's, past the first visit's budget; these Jacobi rotations add a
//! few hundred bytes (docs/performance.md, session 31).

/// The eigenvalues of a symmetric n × n matrix `a` (row-major) and its
/// eigenvectors (the columns of the returned n × n matrix), by cyclic Jacobi
/// rotations: each rotation in the (p, q) plane sets a_pq to zero, and sweeps
/// over every pair until what is off the diagonal is rounding.
pub fn symmetric_eigen(mut a: Vec<f64>, n: usize) -> (Vec<f64>, Vec<f64>) {
    assert_eq!(a.len(), n * n, "a symmetric matrix of n × n entries");
    let mut v = vec![0.0; n * n];
    (0..n).for_each(|i| v[i * n + i] = 1.0);
    let total: f64 = a.iter().map(|x| x * x).sum();
    for _sweep in 0..64 {
        let off: f64 = (0..n)
            .flat_map(|p| (0..n).filter(move |&q| q != p).map(move |q| (p, q)))
            .map(|(p, q)| a[p * n + q].powi(2))
            .sum();
        if off <= 1e-30 * total {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = a[p * n + q];
                if apq == 0.0 {
                    continue;
                }
                // The angle that zeroes a_pq: t = tan φ, the smaller root of t² + 2θt − 1 = 0.
                let theta = (a[q * n + q] - a[p * n + p]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                let turn = |m: &mut [f64], x: usize, y: usize| {
                    let (mx, my) = (m[x], m[y]);
                    m[x] = c * mx - s * my;
                    m[y] = s * mx + c * my;
                };
                for k in 0..n {
                    turn(&mut a, k * n + p, k * n + q); // A J: columns p and q
                }
                for k in 0..n {
                    turn(&mut a, p * n + k, q * n + k); // Jᵀ (A J): rows p and q
                    turn(&mut v, k * n + p, k * n + q); // V J
                }
            }
        }
    }
    ((0..n).map(|i| a[i * n + i]).collect(), v)
}

/// The `k` eigenvectors of a symmetric n × n matrix with the largest
/// eigenvalues, largest first, each with its eigenvalue; each vector's sign is
/// chosen so that its largest component is positive (the decomposition leaves
/// it free).
pub(super) fn top_eigen(m: Vec<f64>, n: usize, k: usize) -> Vec<(f64, Vec<f64>)> {
    let (values, vectors) = symmetric_eigen(m, n);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
    order
        .into_iter()
        .take(k)
        .map(|i| {
            let mut v: Vec<f64> = (0..n).map(|r| vectors[r * n + i]).collect();
            let largest =
                v.iter().copied().fold(0.0, |a: f64, x| if x.abs() > a.abs() { x } else { a });
            if largest < 0.0 {
                v.iter_mut().for_each(|x| *x = -*x);
            }
            (values[i], v)
        })
        .collect()
}

/// The points' coordinates on their `k` principal axes (largest variance
/// first) and the share of the total variance on each axis; None when the
/// points are all one point (no variance to share).
///
/// X is the points less their mean (m × d); the axes are the eigenvectors of
/// XᵀX (d × d), so a cloud of any size costs one d × d decomposition.
pub fn principal_axes(points: &[&[f32]], k: usize) -> Option<(Vec<Vec<f64>>, Vec<f64>)> {
    let (m, d) = (points.len(), points.first().map_or(0, |p| p.len()));
    let mut mean = vec![0.0f64; d];
    for p in points {
        mean.iter_mut().zip(*p).for_each(|(a, &x)| *a += x as f64 / m as f64);
    }
    let x: Vec<Vec<f64>> = points
        .iter()
        .map(|p| p.iter().zip(&mean).map(|(&v, mu)| v as f64 - mu).collect())
        .collect(); // X (m × d)
    let total: f64 = x.iter().flatten().map(|v| v * v).sum(); //                                     tr(XᵀX)
    if total <= 0.0 || !total.is_finite() {
        return None;
    }
    let mut xtx = vec![0.0; d * d]; //                                                                XᵀX (d × d)
    for row in &x {
        for i in 0..d {
            for j in 0..d {
                xtx[i * d + j] += row[i] * row[j];
            }
        }
    }
    let axes = top_eigen(xtx, d, k.min(d));
    let coords = x
        .iter()
        .map(|row| {
            let mut c: Vec<f64> =
                axes.iter().map(|(_, v)| row.iter().zip(v).map(|(a, b)| a * b).sum()).collect();
            c.resize(k, 0.0);
            c
        })
        .collect();
    let mut shares: Vec<f64> = axes.iter().map(|(l, _)| l.max(0.0) / total).collect();
    shares.resize(k, 0.0);
    Some((coords, shares))
}

/// Classical (Torgerson) multidimensional scaling: points in `k` dimensions
/// whose distances approach `d` (n × n, symmetric, zero diagonal).
///
/// B = −½ J D⁽²⁾ J, J = I − 11ᵀ/n; the coordinates are the top eigenvectors of
/// B, each times the square root of its eigenvalue (negative ones count as 0).
pub fn classical_mds(d: &[Vec<f64>], k: usize) -> Vec<Vec<f64>> {
    let n = d.len();
    let sq = |i: usize, j: usize| d[i][j] * d[i][j]; //                  D⁽²⁾ (n × n)
    let row_mean: Vec<f64> =
        (0..n).map(|i| (0..n).map(|j| sq(i, j)).sum::<f64>() / n as f64).collect();
    let grand = row_mean.iter().sum::<f64>() / n.max(1) as f64;
    let b = (0..n * n).map(|ij| {
        let (i, j) = (ij / n, ij % n);
        -0.5 * (sq(i, j) - row_mean[i] - row_mean[j] + grand)
    });
    let axes = top_eigen(b.collect(), n, k.min(n));
    (0..n)
        .map(|i| {
            let mut c: Vec<f64> = axes.iter().map(|(l, v)| v[i] * l.max(0.0).sqrt()).collect();
            c.resize(k, 0.0);
            c
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jacobi_finds_the_eigenpairs_of_a_symmetric_matrix() {
        // A = [[2, 1, 0], [1, 2, 0], [0, 0, 5]]: eigenvalues 1, 3 and 5.
        let a = vec![2.0, 1.0, 0.0, 1.0, 2.0, 0.0, 0.0, 0.0, 5.0];
        let (values, vectors) = symmetric_eigen(a.clone(), 3);
        let mut sorted = values.clone();
        sorted.sort_by(f64::total_cmp);
        for (got, want) in sorted.iter().zip([1.0, 3.0, 5.0]) {
            assert!((got - want).abs() < 1e-12, "{values:?}");
        }
        // A v = λ v for every column, and the columns are orthonormal.
        for c in 0..3 {
            for r in 0..3 {
                let av: f64 = (0..3).map(|k| a[r * 3 + k] * vectors[k * 3 + c]).sum();
                assert!((av - values[c] * vectors[r * 3 + c]).abs() < 1e-12);
            }
            for c2 in 0..3 {
                let dot: f64 = (0..3).map(|k| vectors[k * 3 + c] * vectors[k * 3 + c2]).sum();
                assert!((dot - f64::from(c == c2)).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn mds_of_points_on_a_line_puts_them_back_on_a_line() {
        let at = [0.0, 1.0, 3.0, 7.0];
        let d: Vec<Vec<f64>> =
            at.iter().map(|a| at.iter().map(|b| f64::abs(a - b)).collect()).collect();
        let map = classical_mds(&d, 2);
        for i in 0..4 {
            for j in 0..4 {
                let got =
                    ((map[i][0] - map[j][0]).powi(2) + (map[i][1] - map[j][1]).powi(2)).sqrt();
                assert!((got - d[i][j]).abs() < 1e-9, "{map:?}");
            }
        }
    }
}
