//! How one head's queries × keys lie on a picture's rows × columns: queries
//! down and keys across, or the transpose (3Blue1Brown's orientation, each
//! column a query). Cells are named by tokens: query token i + offset is row
//! i of A when keys outnumber queries.

use crate::canvas::Focus;
use crate::state::Cell;
use attnscope::attention::Mask;
use attnscope::Matrix;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axes {
    pub n_q: usize,
    pub n_k: usize,
    /// The token of query row 0.
    pub offset: usize,
    pub transposed: bool,
}

impl Axes {
    pub fn of(a: &Matrix, transposed: bool) -> Self {
        Self { n_q: a.rows, n_k: a.cols, offset: a.cols.saturating_sub(a.rows), transposed }
    }

    /// A matrix of queries × keys as the picture lays it out.
    pub fn orient(&self, m: &Matrix) -> Matrix {
        if self.transposed {
            m.transpose()
        } else {
            m.clone()
        }
    }

    /// The tokens of row 0 and of column 0.
    pub fn first_tokens(&self) -> (usize, usize) {
        if self.transposed {
            (0, self.offset)
        } else {
            (self.offset, 0)
        }
    }

    /// The labels of the rows and of the columns, a vision trace's patches
    /// given room for their pictures (`thumbs`).
    pub fn labels_with(
        &self,
        tokens: &[String],
        pictures: Option<crate::canvas::PatchPictures>,
    ) -> (Vec<String>, Vec<String>, Option<crate::canvas::Thumbs>) {
        let (mut rows, mut cols) = self.labels(tokens);
        let thumbs =
            pictures.map(|pictures| crate::canvas::Thumbs { pictures, first: self.first_tokens() });
        if let Some(t) = &thumbs {
            t.labels(&mut rows, &mut cols);
        }
        (rows, cols, thumbs)
    }

    /// The labels of the rows and of the columns.
    pub fn labels(&self, tokens: &[String]) -> (Vec<String>, Vec<String>) {
        let token = |t: usize| tokens.get(t).cloned().unwrap_or_default();
        let queries: Vec<String> = (0..self.n_q).map(|i| token(i + self.offset)).collect();
        let keys: Vec<String> = (0..self.n_k).map(token).collect();
        if self.transposed {
            (keys, queries)
        } else {
            (queries, keys)
        }
    }

    /// Token `t`'s query row and key column, as the picture's row and column.
    pub fn focus(&self, t: Option<usize>) -> Focus {
        let query = t.and_then(|t| t.checked_sub(self.offset)).filter(|&i| i < self.n_q);
        let key = t.filter(|&j| j < self.n_k);
        if self.transposed {
            Focus { row: key, col: query }
        } else {
            Focus { row: query, col: key }
        }
    }

    /// Where a cell lies in the picture.
    pub fn place(&self, c: &Cell) -> Option<(usize, usize)> {
        let i = c.query.checked_sub(self.offset).filter(|&i| i < self.n_q)?;
        let j = Some(c.key).filter(|&j| j < self.n_k)?;
        Some(if self.transposed { (j, i) } else { (i, j) })
    }

    /// Whether `mask` hides the key of the cell at row r, column c of the picture.
    pub fn hides(&self, mask: Mask, (r, c): (usize, usize)) -> bool {
        let (i, j) = if self.transposed { (c, r) } else { (r, c) };
        !mask.allows(i, j, self.n_q, self.n_k)
    }

    /// The cell at row r, column c of the picture (of the grid with `mask`).
    pub fn cell(&self, (r, c): (usize, usize), mask: Option<Mask>) -> Cell {
        let (i, j) = if self.transposed { (c, r) } else { (r, c) };
        Cell { query: i + self.offset, key: j, mask }
    }
}
