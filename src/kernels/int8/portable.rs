//! Plain Rust: the reference the other kernels are tested against.

use super::{finish, Product, LANES};

pub fn product(p: &Product, y: &mut [f32]) {
    drive!(p, y, 4, dots)
}

#[inline(always)]
pub fn dots<const T: usize>(xs: [&[f32]; T], w: &[i8]) -> [f32; T] {
    let whole = w.len() / LANES * LANES;
    let mut lanes = [[0.0f32; LANES]; T];
    for k in (0..whole).step_by(LANES) {
        let wf: [f32; LANES] = std::array::from_fn(|l| w[k + l] as f32);
        for (lanes, x) in lanes.iter_mut().zip(&xs) {
            for ((lane, x), w) in lanes.iter_mut().zip(&x[k..k + LANES]).zip(&wf) {
                *lane += x * w;
            }
        }
    }
    std::array::from_fn(|t| finish(lanes[t], &xs[t][whole..], &w[whole..]))
}
