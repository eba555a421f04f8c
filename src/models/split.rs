//! One model on two threads: every weight matrix's rows cut in two, this
//! thread multiplying by the first part while a helper multiplies by the
//! second.
//!
//! Appending a token to SmolLM2's cache is one input row against all 135 M
//! weights, so the time goes into streaming the weights through the matrix
//! kernel, and each output row is one dot product, independent of the
//! others. Cut the rows in two and both halves run at once; joined, the
//! outputs are bit-for-bit those of the whole matrix (the same dot products
//! in the same order).
//!
//! The model only sees [`Helper`]: start the helper's part of a few products
//! of one input, do its own, collect the helper's. How the input and the
//! outputs travel is the helper's business (in the browser, a second Web
//! Worker and a `SharedArrayBuffer`: `src/worker/helper.rs`).

use crate::error::{Error, Result};
use crate::models::quant::QMatrix;
use crate::tensor::Matrix;

/// The other thread, holding a [`Shard`]: for each split matrix, in the
/// model's numbering, the rows after the ones this thread kept.
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

/// Rows a split matrix keeps on this thread: half, rounded to whole tiles
/// of four rows (wasm's kernel expands four at a time).
pub fn rows_kept(rows: usize) -> usize {
    (rows / 2).next_multiple_of(4).min(rows)
}

/// `[x Wᵀ for each of ws]`, with each matrix's rows `rows_kept..` on the
/// helper when there is one (shard matrices `first ..`), else all here.
pub fn products<const N: usize>(helper: Option<&dyn Helper>, first: usize, ws: [&QMatrix; N], x: &Matrix) -> Result<[Matrix; N]> {
    join(helper, first, x, || ws.map(|w| w.forward(x)))
}

/// `here()`'s products with the helper's columns (shard matrices `first ..
/// first + N`, of input `x`) after each, computed meanwhile; `here()` alone
/// without a helper.
pub fn join<const N: usize>(helper: Option<&dyn Helper>, first: usize, x: &Matrix, here: impl FnOnce() -> [Matrix; N]) -> Result<[Matrix; N]> {
    let Some(helper) = helper else {
        return Ok(here());
    };
    helper.begin(first, N, x);
    let mine = here();
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
    fn a_matrix_cut_and_joined_again_is_the_same() {
        // 6 rows of one Q8_0 block each, every byte different.
        let data: Vec<u8> = (0..6 * 34).map(|i| (i * 7 % 251) as u8).collect();
        let whole = QMatrix::new(6, 32, QType::Q8_0, data).unwrap().with_16_bit_inputs();
        let mut head = whole.clone();
        let tail = head.split_off(4);
        assert_eq!((head.rows, tail.rows), (4, 2));
        assert!(head.has_16_bit_inputs() && tail.has_16_bit_inputs(), "both parts keep the matrix's settings");
        assert_eq!(tail.bytes(), whole.rows_copy(4..6).bytes());
        head.append_rows(tail);
        assert_eq!(head.bytes(), whole.bytes());
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
