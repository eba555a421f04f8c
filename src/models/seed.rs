//! The worked example of seed 003: three inputs of width 4 and hand-picked
//! 4×3 projections. Its write-up divides the scores by √4 (the width of the
//! inputs), where Vaswani et al. divide by √d_k = √3; both are offered.

use crate::attention::{attend, Attend, HeadTrace, Mask, Scale};
use crate::tensor::Matrix;
use serde::{Deserialize, Serialize};

/// X and the three projection matrices of one head.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkedExample {
    pub x: Matrix,
    pub w_q: Matrix,
    pub w_k: Matrix,
    pub w_v: Matrix,
}

/// Every step for one head, from X to Z.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WorkedTrace {
    pub x: Matrix,
    pub q: Matrix,
    pub k: Matrix,
    pub v: Matrix,
    pub head: HeadTrace,
}

impl WorkedExample {
    pub fn seed_3x4() -> Self {
        Self {
            x: Matrix::from_rows(&[
                [1.0, 0.0, 1.0, 0.0],
                [0.0, 2.0, 0.0, 2.0],
                [1.0, 1.0, 1.0, 1.0],
            ]),
            w_q: Matrix::from_rows(&[
                [1.0, 0.0, 1.0],
                [1.0, 0.0, 0.0],
                [0.0, 0.0, 1.0],
                [0.0, 1.0, 1.0],
            ]),
            w_k: Matrix::from_rows(&[
                [0.0, 0.0, 1.0],
                [1.0, 1.0, 0.0],
                [0.0, 1.0, 0.0],
                [1.0, 1.0, 0.0],
            ]),
            w_v: Matrix::from_rows(&[
                [0.0, 2.0, 0.0],
                [0.0, 3.0, 0.0],
                [1.0, 0.0, 3.0],
                [1.0, 1.0, 0.0],
            ]),
        }
    }

    /// The seed's own scaling: divide by the square root of the input width.
    pub fn seed_scale(&self) -> Scale {
        Scale::InvSqrtOf(self.x.cols)
    }

    pub fn run(&self, mask: Mask, scale: Scale) -> WorkedTrace {
        let q = self.x.matmul(&self.w_q); // Q = X W_Q  (n × d_k)
        let k = self.x.matmul(&self.w_k); // K = X W_K  (n × d_k)
        let v = self.x.matmul(&self.w_v); // V = X W_V  (n × d_v)
        let head = attend(&q, &k, &v, Attend::new(mask, scale));
        WorkedTrace { x: self.x.clone(), q, k, v, head }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproduces_the_seed_exactly() {
        let t = WorkedExample::seed_3x4().run(Mask::None, Scale::InvSqrtOf(4));
        assert_eq!(t.q, Matrix::from_rows(&[[1.0, 0.0, 2.0], [2.0, 2.0, 2.0], [2.0, 1.0, 3.0]]));
        assert_eq!(t.k, Matrix::from_rows(&[[0.0, 1.0, 1.0], [4.0, 4.0, 0.0], [2.0, 3.0, 1.0]]));
        assert_eq!(t.v, Matrix::from_rows(&[[1.0, 2.0, 3.0], [2.0, 8.0, 0.0], [2.0, 6.0, 3.0]]));
        // S = Q Kᵀ, by hand: row 1 is q1·k_j = [2, 4, 4].
        assert_eq!(
            t.head.scores,
            Matrix::from_rows(&[[2.0, 4.0, 4.0], [4.0, 16.0, 12.0], [4.0, 12.0, 10.0]])
        );
        assert_eq!(
            t.head.scaled(),
            Matrix::from_rows(&[[1.0, 2.0, 2.0], [2.0, 8.0, 6.0], [2.0, 6.0, 5.0]])
        );
    }
}
