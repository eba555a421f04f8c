//! The packed product in plain Rust, on every target.

use super::{groups, Span, GROUP, NR};

pub fn span(b: &mut Span) {
    let (x, ldx, ldy, w, first, bias) = (b.x, b.ldx, b.ldy, b.w, b.first, b.bias);
    for (t, tokens, _) in groups(b.tokens, b.next) {
        let mut acc = [[0.0f32; NR]; GROUP];
        if !first {
            for (c, a) in acc.iter_mut().enumerate().take(tokens) {
                a.copy_from_slice(&b.y[(t + c) * ldy..][..NR]);
            }
        }
        for (k, line) in w.iter().enumerate() {
            for (c, a) in acc.iter_mut().enumerate().take(tokens) {
                let xv = x[(t + c) * ldx + k];
                for (a, w) in a.iter_mut().zip(&line.0) {
                    *a += xv * w;
                }
            }
        }
        for (c, a) in acc.iter().enumerate().take(tokens) {
            for (l, y) in b.y[(t + c) * ldy..][..NR].iter_mut().enumerate() {
                *y = a[l] + bias.map_or(0.0, |b| b[l]);
            }
        }
    }
}
