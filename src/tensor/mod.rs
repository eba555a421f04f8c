//! A small row-major f32 matrix: just enough to write attention like the
//! formula.
//!
//! - this file: the [`Matrix`] type, its shape and its rows and columns;
//! - `product`: its matrix products, by the `gemm` crate natively and with
//!   simd128, and by a kernel of our own (`relaxed`) in the browsers with
//!   relaxed SIMD, for the fused multiply-add gemm's simd128 kernels lack;
//! - [`math`]: vector math that vectorizes (sum, dot, max, exp, log₂, erf),
//!   and the top k of a vocabulary;
//! - [`wire`]: how numbers cross between the page and its worker.
//!
//! (The models' weight products have kernels of their own, shaped for a few
//! tokens against weights that never change: `models::packed` and
//! `models::quant`.)

pub mod math;
mod product;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128", feature = "fma"))]
mod relaxed;
pub mod wire;

pub use math::{
    all_finite, dot, erf, exp, log2, loop_constants, max, sum, top_k, Erf, Exp, ERF, EXP,
};

use serde::{Deserialize, Serialize};

/// `rows × cols` numbers, stored row by row. In attention, rows are tokens.
///
/// Serialized (between the page and its worker) with the numbers as their
/// little-endian bytes ([`wire`]), beside the JSON or as base64 in it:
/// exact, ∞ included, and quick to print and parse. (The CLI's JSON export writes decimal
/// numbers of its own, in `export.rs`.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Matrix {
    pub rows: usize,
    pub cols: usize,
    #[serde(with = "wire")]
    pub data: Vec<f32>,
}

impl Matrix {
    pub fn zeros(rows: usize, cols: usize) -> Self {
        Self { rows, cols, data: vec![0.0; rows * cols] }
    }

    /// The element-wise mean of matrices of one shape (of attention weights:
    /// rows still sum to 1); None for none.
    pub fn mean_of(matrices: &[&Matrix]) -> Option<Matrix> {
        let first = matrices.first()?;
        let mut sum = Matrix::zeros(first.rows, first.cols);
        for m in matrices {
            sum.data.iter_mut().zip(&m.data).for_each(|(s, x)| *s += x);
        }
        let n = matrices.len() as f32;
        sum.data.iter_mut().for_each(|s| *s /= n);
        Some(sum)
    }

    /// Panics if `data.len() != rows * cols`: a shape bug, never user input.
    pub fn from_vec(rows: usize, cols: usize, data: Vec<f32>) -> Self {
        assert_eq!(
            data.len(),
            rows * cols,
            "Matrix::from_vec: {rows}×{cols} needs {} values",
            rows * cols
        );
        Self { rows, cols, data }
    }

    /// Builds a matrix from equal-length rows (handy for worked examples).
    pub fn from_rows<R: AsRef<[f32]>>(rows: &[R]) -> Self {
        let cols = rows.first().map_or(0, |r| r.as_ref().len());
        let mut data = Vec::with_capacity(rows.len() * cols);
        for r in rows {
            assert_eq!(r.as_ref().len(), cols, "Matrix::from_rows: ragged rows");
            data.extend_from_slice(r.as_ref());
        }
        Self { rows: rows.len(), cols, data }
    }

    pub fn identity(n: usize) -> Self {
        let mut m = Self::zeros(n, n);
        for i in 0..n {
            m[(i, i)] = 1.0;
        }
        m
    }

    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    pub fn row(&self, i: usize) -> &[f32] {
        &self.data[i * self.cols..(i + 1) * self.cols]
    }

    pub fn row_mut(&mut self, i: usize) -> &mut [f32] {
        &mut self.data[i * self.cols..(i + 1) * self.cols]
    }

    pub fn to_rows(&self) -> Vec<Vec<f32>> {
        (0..self.rows).map(|i| self.row(i).to_vec()).collect()
    }

    pub fn transpose(&self) -> Matrix {
        let mut t = Matrix::zeros(self.cols, self.rows);
        for i in 0..self.rows {
            for j in 0..self.cols {
                t[(j, i)] = self[(i, j)];
            }
        }
        t
    }

    pub fn map(&self, f: impl Fn(f32) -> f32) -> Matrix {
        Matrix { rows: self.rows, cols: self.cols, data: self.data.iter().map(|&x| f(x)).collect() }
    }

    pub fn add(&self, rhs: &Matrix) -> Matrix {
        assert_eq!(self.shape(), rhs.shape(), "add: shapes differ");
        let data = self.data.iter().zip(&rhs.data).map(|(a, b)| a + b).collect();
        Matrix { rows: self.rows, cols: self.cols, data }
    }

    /// Adds `bias` (length `cols`) to every row.
    pub fn add_row_vector(&mut self, bias: &[f32]) {
        assert_eq!(bias.len(), self.cols, "add_row_vector: length differs");
        for i in 0..self.rows {
            for (x, b) in self.row_mut(i).iter_mut().zip(bias) {
                *x += b;
            }
        }
    }

    /// Columns `start .. start + width`: one head's slice of a projection.
    pub fn cols_range(&self, start: usize, width: usize) -> Matrix {
        assert!(start + width <= self.cols, "cols_range out of bounds");
        let mut out = Matrix::zeros(self.rows, width);
        for i in 0..self.rows {
            out.row_mut(i).copy_from_slice(&self.row(i)[start..start + width]);
        }
        out
    }

    /// Rows `start .. start + count`.
    pub fn rows_range(&self, start: usize, count: usize) -> Matrix {
        assert!(start + count <= self.rows, "rows_range out of bounds");
        Matrix::from_vec(
            count,
            self.cols,
            self.data[start * self.cols..(start + count) * self.cols].to_vec(),
        )
    }

    /// Side by side: [A | B | …], all with the same number of rows.
    pub fn concat_cols(parts: &[Matrix]) -> Matrix {
        let rows = parts.first().map_or(0, |p| p.rows);
        let cols = parts.iter().map(|p| p.cols).sum();
        let mut out = Matrix::zeros(rows, cols);
        for i in 0..rows {
            let mut at = 0;
            for p in parts {
                assert_eq!(p.rows, rows, "concat_cols: row counts differ");
                out.row_mut(i)[at..at + p.cols].copy_from_slice(p.row(i));
                at += p.cols;
            }
        }
        out
    }

    /// One above the other: [A; B], all with the same number of columns.
    pub fn concat_rows(parts: &[Matrix]) -> Matrix {
        let cols = parts.first().map_or(0, |p| p.cols);
        let mut data = Vec::new();
        for p in parts {
            assert_eq!(p.cols, cols, "concat_rows: column counts differ");
            data.extend_from_slice(&p.data);
        }
        Matrix::from_vec(data.len() / cols.max(1), cols, data)
    }

    /// [self; below], in place: the rows already here are not copied (their
    /// storage grows as a `Vec` does, so appending row by row stays cheap).
    pub fn push_rows(&mut self, below: &Matrix) {
        if self.rows == 0 {
            self.cols = below.cols;
        }
        assert!(below.cols == self.cols || below.rows == 0, "push_rows: column counts differ");
        self.data.extend_from_slice(&below.data);
        self.rows += below.rows;
    }

    /// [self | right], in place. Each row moves once to its wider place,
    /// last row first, so no row is overwritten before it has moved.
    pub fn push_cols(&mut self, right: &Matrix) {
        assert_eq!(right.rows, self.rows, "push_cols: row counts differ");
        let (old, wide) = (self.cols, self.cols + right.cols);
        self.data.resize(self.rows * wide, 0.0);
        for i in (0..self.rows).rev() {
            self.data.copy_within(i * old..(i + 1) * old, i * wide);
            self.data[i * wide + old..(i + 1) * wide].copy_from_slice(right.row(i));
        }
        self.cols = wide;
    }

    /// Room to grow by `rows` rows and `cols` columns without moving the
    /// storage (see [`Matrix::push_rows`], [`Matrix::push_cols`]), unless
    /// it has room for one more row (and column, if `cols` > 0) already:
    /// called after every append, it moves the storage once every `rows`
    /// appends. Exactly that room, not twice the storage as a `Vec` grows.
    pub fn reserve(&mut self, rows: usize, cols: usize) {
        let next = (self.rows + rows.min(1)) * (self.cols + cols.min(1));
        if self.data.capacity() >= next {
            return;
        }
        let wanted = (self.rows + rows) * (self.cols + cols);
        self.data.reserve_exact(wanted.saturating_sub(self.data.len()));
    }

    /// Storage for `rows` more rows and `cols` more columns; if the storage
    /// must move for them, with `room` more of each (a `Vec` would double).
    pub fn fit(&mut self, rows: usize, cols: usize, room: usize) {
        let grow = |by: usize| if by > 0 { by + room } else { 0 };
        if self.data.capacity() < (self.rows + rows) * (self.cols + cols) {
            let wanted = (self.rows + grow(rows)) * (self.cols + grow(cols));
            self.data.reserve_exact(wanted.saturating_sub(self.data.len()));
        }
    }

    /// Keeps the first `n` rows, in place.
    pub fn truncate_rows(&mut self, n: usize) {
        self.rows = self.rows.min(n);
        self.data.truncate(self.rows * self.cols);
    }

    /// Keeps the first `n` columns, in place: each row moves once to its
    /// narrower place, first row first.
    pub fn truncate_cols(&mut self, n: usize) {
        if n >= self.cols {
            return;
        }
        for i in 1..self.rows {
            self.data.copy_within(i * self.cols..i * self.cols + n, i * n);
        }
        self.data.truncate(self.rows * n);
        self.cols = n;
    }

    /// Permutes rows: row `i` of the result is row `order[i]` of `self`.
    pub fn select_rows(&self, order: &[usize]) -> Matrix {
        let mut out = Matrix::zeros(order.len(), self.cols);
        for (i, &src) in order.iter().enumerate() {
            out.row_mut(i).copy_from_slice(self.row(src));
        }
        out
    }

    pub fn max_abs_diff(&self, other: &Matrix) -> f32 {
        assert_eq!(self.shape(), other.shape(), "max_abs_diff: shapes differ");
        self.data
            .iter()
            .zip(&other.data)
            .map(|(a, b)| if a == b { 0.0 } else { (a - b).abs() })
            .fold(0.0, f32::max)
    }
}

impl std::ops::Index<(usize, usize)> for Matrix {
    type Output = f32;
    fn index(&self, (i, j): (usize, usize)) -> &f32 {
        &self.data[i * self.cols + j]
    }
}

impl std::ops::IndexMut<(usize, usize)> for Matrix {
    fn index_mut(&mut self, (i, j): (usize, usize)) -> &mut f32 {
        &mut self.data[i * self.cols + j]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_room_is_exact_and_taken_again_only_when_used_up() {
        let mut m = Matrix::zeros(10, 4);
        m.reserve(3, 0);
        assert_eq!(m.data.capacity(), 13 * 4, "the room asked for, not twice the storage");
        let storage = m.data.as_ptr();
        for _ in 0..2 {
            m.push_rows(&Matrix::zeros(1, 4));
            m.reserve(3, 0); // room for one more row: nothing moves
            assert_eq!(m.data.as_ptr(), storage);
        }
        m.push_rows(&Matrix::zeros(1, 4));
        assert_eq!((m.rows, m.data.as_ptr(), m.data.capacity()), (13, storage, 13 * 4));
        m.reserve(3, 0); // the room used up: exactly as much again
        assert_eq!(m.data.capacity(), 16 * 4);
        // A square grows by rows and columns.
        let mut s = Matrix::zeros(5, 5);
        s.reserve(2, 2);
        assert_eq!(s.data.capacity(), 7 * 7);
        s.push_cols(&Matrix::zeros(5, 1));
        s.push_rows(&Matrix::zeros(1, 6));
        s.reserve(2, 2);
        assert_eq!(s.data.capacity(), 7 * 7);
    }

    #[test]
    fn fitting_many_rows_takes_them_and_the_room_not_twice_the_storage() {
        let mut m = Matrix::zeros(10, 4);
        m.reserve(3, 0);
        let storage = m.data.as_ptr();
        m.fit(2, 0, 5); // they fit: nothing moves
        assert_eq!((m.data.as_ptr(), m.data.capacity()), (storage, 13 * 4));
        m.fit(20, 0, 5); // twenty more rows, and the room beyond them
        assert_eq!(m.data.capacity(), 35 * 4);
        m.push_rows(&Matrix::zeros(20, 4));
        assert_eq!(m.data.capacity(), 35 * 4);
        let mut s = Matrix::zeros(5, 5);
        s.fit(3, 3, 1);
        assert_eq!(s.data.capacity(), 9 * 9);
    }

    #[test]
    fn growing_and_shrinking_in_place_equal_copying() {
        let m = |r: usize, c: usize, s: f32| {
            Matrix::from_vec(r, c, (0..r * c).map(|i| i as f32 + s).collect())
        };
        let (a, right, below) = (m(3, 2, 0.0), m(3, 4, 100.0), m(2, 6, 200.0));
        let mut grown = a.clone();
        grown.push_cols(&right);
        grown.push_rows(&below);
        assert_eq!(grown, Matrix::concat_rows(&[Matrix::concat_cols(&[a, right]), below]));
        grown.truncate_cols(2);
        grown.truncate_rows(3);
        assert_eq!(grown, m(3, 2, 0.0));
        let mut empty = Matrix::zeros(0, 0);
        empty.push_rows(&m(1, 3, 0.0));
        assert_eq!(empty, m(1, 3, 0.0));
    }
}
