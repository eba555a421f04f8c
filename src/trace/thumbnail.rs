//! The overview of a run: every head's attention pooled to a thumbnail.

use crate::tensor::Matrix;
use serde::{Deserialize, Serialize};

/// Longest side of an overview thumbnail, in cells.
pub const THUMB_MAX: usize = 48;

/// Average-pools `a` to at most `max × max` cells, so a long text's head
/// still fits a thumbnail (and a message) while keeping its pattern.
pub fn pool(a: &Matrix, max: usize) -> Matrix {
    if a.rows <= max && a.cols <= max {
        return a.clone();
    }
    // Row i falls in cell row i·r / rows, column j in cell column j·c / cols.
    let (r, c) = (a.rows.min(max), a.cols.min(max));
    // Cell column pj spans columns starts[pj] .. starts[pj + 1].
    let starts: Vec<usize> = (0..=c).map(|pj| (pj * a.cols).div_ceil(c)).collect();
    let mut row_count = vec![0.0f32; r];
    let mut out = Matrix::zeros(r, c);
    for i in 0..a.rows {
        let pi = i * r / a.rows;
        row_count[pi] += 1.0;
        let row = a.row(i);
        for (o, span) in out.row_mut(pi).iter_mut().zip(starts.windows(2)) {
            *o += row[span[0]..span[1]].iter().sum::<f32>();
        }
    }
    for (pi, cells) in out.data.chunks_exact_mut(c).enumerate() {
        for (o, span) in cells.iter_mut().zip(starts.windows(2)) {
            *o /= (row_count[pi] * (span[1] - span[0]) as f32).max(1.0);
        }
    }
    out
}

/// One head's pooled attention for the overview, as 16-bit levels
/// (weight ≈ level / 65535). A thumbnail only picks a colour, and a step of
/// 1/65535 is far finer than a colour can show. As base64 levels a long
/// text's hundreds of thumbnails are a third of their size as decimal
/// floats, with no float to print in the worker or parse on the page's main
/// thread on every keystroke.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Thumbnail {
    pub rows: usize,
    pub cols: usize,
    /// Row-major, `rows × cols` of them.
    #[serde(with = "crate::tensor::wire")]
    pub levels: Vec<u16>,
}

impl Thumbnail {
    /// The level of a weight of 1.
    pub const ONE: f32 = 65535.0;

    /// Weights outside [0, 1] (none come from a softmax) are clamped; NaN is 0.
    pub fn new(a: &Matrix) -> Self {
        let levels =
            a.data.iter().map(|&w| (w.clamp(0.0, 1.0) * Self::ONE).round() as u16).collect();
        Self { rows: a.rows, cols: a.cols, levels }
    }

    /// The weight cell (i, j) stands for, or None outside the thumbnail.
    pub fn weight(&self, i: usize, j: usize) -> Option<f32> {
        (i < self.rows && j < self.cols)
            .then(|| self.levels.get(i * self.cols + j))
            .flatten()
            .map(|&l| l as f32 / Self::ONE)
    }

    /// The rows of levels (never more than the levels hold, whatever a
    /// message claimed its shape was).
    pub fn rows(&self) -> impl Iterator<Item = &[u16]> {
        self.levels.chunks_exact(self.cols.max(1)).take(self.rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pooling_keeps_short_texts_exact_and_averages_long_ones() {
        let a = Matrix::identity(4);
        assert_eq!(pool(&a, 48), a);
        let big = Matrix::from_vec(100, 100, vec![0.01; 10_000]);
        let p = pool(&big, 48);
        assert_eq!(p.shape(), (48, 48));
        assert!(p.data.iter().all(|x| (x - 0.01).abs() < 1e-6));
        // Each cell is the mean of the entries that fall in it.
        let ramp =
            Matrix::from_vec(100, 70, (0..7000).map(|k| (k / 70 * 1000 + k % 70) as f32).collect());
        let p = pool(&ramp, 48);
        assert_eq!(p.shape(), (48, 48));
        let ramp = &ramp;
        for (pi, pj) in [(0, 0), (5, 31), (47, 47)] {
            let members: Vec<f32> = (0..100)
                .filter(|i| i * 48 / 100 == pi)
                .flat_map(|i| (0..70).filter(move |j| j * 48 / 70 == pj).map(move |j| ramp[(i, j)]))
                .collect();
            let mean = members.iter().sum::<f32>() / members.len() as f32;
            assert!((p[(pi, pj)] - mean).abs() <= 1e-6 * mean, "{pi} {pj}");
        }
    }

    #[test]
    fn thumbnails_cross_as_levels_within_half_a_step() {
        // A causal softmax-like matrix: rows sum to 1, zeros above the diagonal.
        let n = 7;
        let a = Matrix::from_vec(
            n,
            n,
            (0..n * n)
                .map(|k| if k % n <= k / n { 1.0 / (k / n + 1) as f32 } else { 0.0 })
                .collect(),
        );
        let t = Thumbnail::new(&a);
        let text = serde_json::to_string(&t).unwrap();
        let back: Thumbnail = serde_json::from_str(&text).unwrap();
        assert_eq!(back, t);
        for i in 0..n {
            for j in 0..n {
                let w = back.weight(i, j).unwrap();
                assert!((w - a[(i, j)]).abs() <= 0.5 / Thumbnail::ONE, "{i} {j}: {w}");
            }
        }
        // A weight of exactly 1 or 0 stays exact.
        assert_eq!((back.weight(0, 0), back.weight(0, 1)), (Some(1.0), Some(0.0)));
        assert_eq!(back.weight(n, 0), None);
        // Out-of-range weights are clamped, NaN becomes 0.
        assert_eq!(
            Thumbnail::new(&Matrix::from_vec(1, 3, vec![-0.5, 2.0, f32::NAN])).levels,
            vec![0, 65535, 0]
        );
        // A message whose shape claims more than its levels hold draws only what is there.
        let short: Thumbnail =
            serde_json::from_str(r#"{"rows":3,"cols":2,"levels":"AAD//w=="}"#).unwrap();
        assert_eq!(short.rows().collect::<Vec<_>>(), vec![&[0u16, 65535][..]]);
        assert_eq!(short.weight(2, 1), None);
        assert!(serde_json::from_str::<Thumbnail>(r#"{"rows":1,"cols":1,"levels":"AAA"}"#).is_err());
        assert!(
            serde_json::from_str::<Thumbnail>(r#"{"rows":1,"cols":1,"levels":"AA=="}"#).is_err()
        );
    }
}
