//! MPNet's relative position bias: each head adds B[i][j] = table[bucket(j − i)][head]
//! to its scaled scores, the same in every layer. Near offsets get a
//! bucket each; farther ones share buckets whose width grows
//! logarithmically up to `MAX_DISTANCE`; the two directions have their own
//! buckets (MPNet is bidirectional).

use crate::tensor::Matrix;

/// Offsets beyond this share the last bucket.
const MAX_DISTANCE: usize = 128;

/// The bucket of offset `relative` (key position − query position) among `buckets`.
pub fn bucket(relative: i64, buckets: usize) -> usize {
    let half = buckets / 2;
    let mut ret = if relative > 0 { half } else { 0 };
    let n = relative.unsigned_abs() as usize;
    let exact = half / 2;
    if n < exact {
        return ret + n;
    }
    // In f32, as transformers computes it, so that offsets on a bucket's edge fall the same way.
    let log = (n as f32 / exact as f32).ln() / ((MAX_DISTANCE as f64 / exact as f64).ln() as f32)
        * (half - exact) as f32;
    ret += (exact + log as usize).min(half - 1);
    ret
}

/// B for each head over `n` tokens, from `table` (buckets × heads).
pub fn bias(table: &Matrix, n: usize, heads: usize) -> Vec<Matrix> {
    let buckets: Vec<usize> =
        (0..n * n).map(|ij| bucket((ij % n) as i64 - (ij / n) as i64, table.rows)).collect();
    (0..heads)
        .map(|h| Matrix::from_vec(n, n, buckets.iter().map(|&b| table[(b, h)]).collect()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_exact_near_and_logarithmic_far() {
        // 32 buckets: offsets ≤ 0 in 0..16, > 0 in 16..32; the first 8 of each exact.
        assert_eq!((0..8).map(|d| bucket(-d, 32)).collect::<Vec<_>>(), (0..8).collect::<Vec<_>>());
        assert_eq!(bucket(3, 32), 19);
        assert_eq!(bucket(-16, 32), 10);
        assert_eq!(bucket(-1000, 32), 15);
        assert_eq!(bucket(1000, 32), 31);
        assert!((8..200).all(|d| bucket(-d, 32) <= bucket(-d - 1, 32)));
        // transformers' MPNetEncoder.relative_position_bucket for offsets 0, −1, …, −39.
        let torch = [
            0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 9, 9, 9, 9, 10, 10, 10, 10, 10, 10, 10, 11, 11, 11,
            11, 11, 11, 11, 11, 11, 12, 12, 12, 12, 12, 12, 12, 12,
        ];
        assert_eq!((0..40).map(|d| bucket(-d, 32)).collect::<Vec<_>>(), torch);
    }
}
