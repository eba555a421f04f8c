//! The fused kernel's two products in plain Rust: the reference the
//! vector versions are checked against, and the path of other CPUs.

use super::{KeyTile, ScoreTile, ValueTile, PANEL};
use crate::tensor;

pub fn scores(t: &mut ScoreTile) {
    t.check();
    let (d, ls) = (t.d, t.ls);
    for (p, panel) in t.panels.chunks_exact(d * PANEL).enumerate() {
        for r in 0..t.rows {
            let q = &t.q[r * d..(r + 1) * d];
            let mut acc = [0.0f32; PANEL];
            for (line, &x) in panel.chunks_exact(PANEL).zip(q) {
                for (a, &k) in acc.iter_mut().zip(line) {
                    *a += x * k;
                }
            }
            let out = &mut t.s[r * ls + p * PANEL..r * ls + (p + 1) * PANEL];
            for (o, a) in out.iter_mut().zip(acc) {
                *o = a * t.scale;
            }
        }
    }
}

pub fn values(t: &mut ValueTile) {
    t.check();
    let dv = t.dv;
    for r in 0..t.rows {
        let z = &mut t.z[r * dv..(r + 1) * dv];
        z.fill(0.0);
        for (&e, v) in t.e[r * t.ls..r * t.ls + t.keys].iter().zip(t.v.chunks_exact(dv)) {
            for (z, &v) in z.iter_mut().zip(v) {
                *z += e * v;
            }
        }
        z.iter_mut().for_each(|z| *z *= t.inv_l[r]);
    }
}

pub fn keys_in_place(t: &mut KeyTile) {
    let keys = t.check();
    for r in 0..t.rows {
        let q = &t.q[r * t.d..(r + 1) * t.d];
        let out = &mut t.s[r * t.ls..(r + 1) * t.ls];
        for (j, s) in out.iter_mut().enumerate() {
            *s =
                if j < keys { tensor::dot(q, &t.k[j * t.d..(j + 1) * t.d]) * t.scale } else { 0.0 };
        }
    }
}
