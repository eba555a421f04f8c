//! How a vision model's tokens tile its picture: a grid of patches, row
//! after row, among a few special tokens (a class token, registers). Vision
//! traces carry it (docs/trace-format.md, "Vision traces"), and the page's
//! Image tab draws a query's weights on it.

use crate::tensor::Matrix;
use serde::{Deserialize, Serialize};

/// How a vision model's tokens tile its image: `rows × cols`
/// patches, row after row, from token `first_patch` on; every other token
/// (a class token, registers) is special.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PatchGrid {
    pub rows: usize,
    pub cols: usize,
    /// The token of the top-left patch.
    pub first_patch: usize,
    /// A patch's side in the model's input, in pixels (for people).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patch_size: Option<u32>,
}

impl PatchGrid {
    pub fn patches(&self) -> usize {
        self.rows * self.cols
    }

    /// The token of patch (`row`, `col`), when the grid has that patch.
    pub fn token(&self, row: usize, col: usize) -> Option<usize> {
        (row < self.rows && col < self.cols).then(|| self.first_patch + row * self.cols + col)
    }

    /// The patch token `t` stands for, or None for a special token.
    pub fn patch_of(&self, t: usize) -> Option<(usize, usize)> {
        let p = t.checked_sub(self.first_patch).filter(|&p| p < self.patches())?;
        Some((p / self.cols, p % self.cols))
    }

    /// One row of A (a query's weights over every token) laid out on the
    /// grid: cell (r, c) is the weight of patch (r, c)'s token. The special
    /// tokens' weights are left out, so the cells sum to less than 1.
    /// None when `row` is shorter than the grid needs.
    pub fn over_patches(&self, row: &[f32]) -> Option<Matrix> {
        let patches = row.get(self.first_patch..self.first_patch + self.patches())?; // [rows·cols]
        Some(Matrix::from_vec(self.rows, self.cols, patches.to_vec()))
    }

    /// The grid's rules against the trace's token count, as a sentence when one is broken.
    pub fn check(&self, n_tokens: usize) -> Result<(), String> {
        let (r, c, f) = (self.rows, self.cols, self.first_patch);
        if r == 0 || c == 0 {
            return Err(format!("its patch grid is {r} × {c}; each side must be at least 1"));
        }
        let end = r.checked_mul(c).and_then(|p| p.checked_add(f));
        if end.is_none_or(|end| end > n_tokens) {
            return Err(format!(
                "its patch grid of {r} × {c} from token {f} on needs more than its {n_tokens} tokens"
            ));
        }
        Ok(())
    }
}
