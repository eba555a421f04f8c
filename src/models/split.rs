//! One model on two threads: every weight matrix's rows cut in two, this
//! thread multiplying by the first part while a helper, which holds a copy
//! of the second, multiplies by that.
//!
//! SmolLM2's time goes into streaming its weights through the matrix
//! kernel, and each output row is one dot product, independent of the
//! others. Cut the rows in two and both halves run at once; joined, the
//! outputs are bit-for-bit those of the whole matrix (the same dot products
//! in the same order). Which runs are worth sharing is the model's choice
//! (`SmolLm2::set_helper`).
//!
//! The model only sees [`Helper`]: start the helper's part of a few products
//! of one input, do its own, collect the helper's. How the input and the
//! outputs travel is the helper's business (in the browser, a second Web
//! Worker and a `SharedArrayBuffer`: `src/worker/helper.rs`).

use crate::error::{Error, Result};
use crate::models::quant::QMatrix;
use crate::tensor::Matrix;

/// The other thread, holding a [`Shard`]: for each split matrix, in the
/// model's numbering, the rows after [`rows_kept`].
pub trait Helper {
    /// Starts x Wᵀ for the helper's rows of shard matrices `first ..
    /// first + count`, which all take the same input `x`.
    fn begin(&self, first: usize, count: usize, x: &Matrix);

    /// Waits for the products begun last: `x.rows × rows` for each of the
    /// `count` matrices, in order.
    fn end(&self) -> Result<Vec<Matrix>>;
}

/// A helper as the model keeps it. Natively the model stays `Send + Sync`
/// (tests share one across threads), so its helper must be too; a wasm
/// instance has one thread, and the browser's helper holds JavaScript
/// objects, which are neither.
#[cfg(not(target_arch = "wasm32"))]
pub type BoxedHelper = Box<dyn Helper + Send + Sync>;
#[cfg(target_arch = "wasm32")]
pub type BoxedHelper = Box<dyn Helper>;

/// The helper's part of the weights.
#[derive(Clone, Debug, Default)]
pub struct Shard {
    pub matrices: Vec<QMatrix>,
}

impl Shard {
    /// x Wᵀ for matrices `first .. first + count`, as [`Helper::end`]
    /// returns it. A request the shard cannot answer (a matrix it does not
    /// have, an input of the wrong width) is an error, not a panic: it
    /// crosses from another thread's memory.
    pub fn products(&self, first: usize, count: usize, x: &Matrix) -> Result<Vec<Matrix>> {
        let ws = first.checked_add(count).and_then(|end| self.matrices.get(first..end)).ok_or_else(|| Error::Invalid(format!("the helper holds {} matrices, not {first}..{first}+{count}", self.matrices.len())))?;
        if let Some(w) = ws.iter().find(|w| w.cols != x.cols) {
            return Err(Error::Invalid(format!("the helper got {} inputs for a matrix of {} columns", x.cols, w.cols)));
        }
        Ok(ws.iter().map(|w| w.forward(x)).collect())
    }
}

/// Rows of a split matrix this thread multiplies by: half, rounded to whole
/// tiles of four rows (wasm's kernel expands four at a time).
pub fn rows_kept(rows: usize) -> usize {
    (rows / 2).next_multiple_of(4).min(rows)
}

/// `[x Wᵀ for each of ws]`: with a helper (whose shard matrices `first ..
/// first + N` are the rows of `ws` after [`rows_kept`]) split between the
/// two threads, else all here.
pub fn products<const N: usize>(helper: Option<&dyn Helper>, first: usize, ws: [&QMatrix; N], x: &Matrix) -> Result<[Matrix; N]> {
    let Some(helper) = helper else {
        return Ok(ws.map(|w| w.forward(x)));
    };
    helper.begin(first, N, x);
    let mine = ws.map(|w| w.forward_rows(x, 0..rows_kept(w.rows)));
    let theirs = helper.end()?;
    if theirs.len() != N || theirs.iter().any(|t| t.rows != x.rows) {
        return Err(Error::Invalid(format!("the helper answered {} products for {N}", theirs.len())));
    }
    let mut theirs = theirs.into_iter();
    Ok(mine.map(|m| Matrix::concat_cols(&[m, theirs.next().expect("N products, checked")])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::quant::QType;

    #[test]
    fn rows_kept_are_whole_tiles() {
        assert_eq!(rows_kept(576), 288);
        assert_eq!(rows_kept(192), 96);
        assert_eq!(rows_kept(49152), 24576);
        assert_eq!(rows_kept(10), 8);
        assert_eq!(rows_kept(3), 3);
    }

    #[test]
    fn a_copy_of_rows_is_those_rows_with_the_matrix_settings() {
        // 6 rows of one Q8_0 block each, every byte different.
        let data: Vec<u8> = (0..6 * 34).map(|i| (i * 7 % 251) as u8).collect();
        let whole = QMatrix::new(6, 32, QType::Q8_0, data).unwrap().with_16_bit_inputs();
        let tail = whole.rows_copy(4..6);
        assert_eq!(tail.rows, 2);
        assert!(tail.has_16_bit_inputs());
        assert_eq!(tail.bytes(), &whole.bytes()[4 * 34..]);
        assert_eq!(tail.dequantize().data, whole.dequantize().data[4 * 32..]);
    }

    #[test]
    fn a_shard_refuses_what_it_cannot_answer() {
        let shard = Shard { matrices: vec![QMatrix::new(2, 32, QType::F32, vec![0; 2 * 32 * 4]).unwrap()] };
        assert_eq!(shard.products(0, 1, &Matrix::zeros(3, 32)).unwrap()[0].shape(), (3, 2));
        assert!(shard.products(1, 1, &Matrix::zeros(3, 32)).is_err());
        assert!(shard.products(usize::MAX, 2, &Matrix::zeros(3, 32)).is_err());
        assert!(shard.products(0, 1, &Matrix::zeros(3, 64)).is_err());
    }
}
