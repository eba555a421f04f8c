//! The two eigendecompositions the geometry needs, by nalgebra's symmetric
//! eigensolver, in f64: principal axes of a cloud of points (PCA) and
//! classical multidimensional scaling of a distance matrix.

use nalgebra::{DMatrix, SymmetricEigen};

/// The `k` eigenvectors of a symmetric matrix with the largest eigenvalues,
/// largest first, each with its eigenvalue; each vector's sign is chosen so
/// that its largest component is positive (the decomposition leaves it free).
fn top_eigen(m: DMatrix<f64>, k: usize) -> Vec<(f64, Vec<f64>)> {
    let eig = SymmetricEigen::new(m);
    let mut order: Vec<usize> = (0..eig.eigenvalues.len()).collect();
    order.sort_by(|&a, &b| eig.eigenvalues[b].total_cmp(&eig.eigenvalues[a]));
    order
        .into_iter()
        .take(k)
        .map(|i| {
            let mut v: Vec<f64> = eig.eigenvectors.column(i).iter().copied().collect();
            let largest =
                v.iter().copied().fold(0.0, |a: f64, x| if x.abs() > a.abs() { x } else { a });
            if largest < 0.0 {
                v.iter_mut().for_each(|x| *x = -*x);
            }
            (eig.eigenvalues[i], v)
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
    let x = DMatrix::from_fn(m, d, |i, j| points[i][j] as f64 - mean[j]); // X       (m × d)
    let total: f64 = x.iter().map(|v| v * v).sum(); //                           tr(XᵀX)
    if total <= 0.0 || !total.is_finite() {
        return None;
    }
    let axes = top_eigen(x.transpose() * &x, k.min(d)); //                        XᵀX     (d × d)
    let coords = (0..m)
        .map(|i| {
            let row = x.row(i);
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
    let sq = DMatrix::from_fn(n, n, |i, j| d[i][j] * d[i][j]); //       D⁽²⁾     (n × n)
    let row_mean: Vec<f64> = (0..n).map(|i| sq.row(i).sum() / n as f64).collect();
    let grand = row_mean.iter().sum::<f64>() / n.max(1) as f64;
    let b = DMatrix::from_fn(n, n, |i, j| -0.5 * (sq[(i, j)] - row_mean[i] - row_mean[j] + grand));
    let axes = top_eigen(b, k.min(n));
    (0..n)
        .map(|i| {
            let mut c: Vec<f64> = axes.iter().map(|(l, v)| v[i] * l.max(0.0).sqrt()).collect();
            c.resize(k, 0.0);
            c
        })
        .collect()
}
