//! How the rows and pieces are split between the two threads, and the shared
//! products and heads against the ones computed alone, bit for bit.

use super::*;
use crate::kernels::quant::QType;
use crate::kernels::testing::{q4_1_blocks, q8_0_blocks};

#[test]
fn own_rows_are_whole_tiles() {
    assert_eq!(own_rows(576), 288);
    assert_eq!(own_rows(192), 96);
    assert_eq!(own_rows(49152), 24576);
    assert_eq!(own_rows(1536), 768);
    assert_eq!(own_rows(40), 32);
    assert_eq!(own_rows(10), 10);
    assert_eq!(own_rows(3), 3);
}

#[test]
fn a_copy_of_rows_is_those_rows_with_the_matrix_settings() {
    // 6 rows of one Q8_0 block each.
    let whole = QMatrix::new(6, 32, QType::Q8_0, q8_0_blocks(6, 1)).unwrap().with_16_bit_inputs();
    let tail = whole.rows_copy(4..6);
    assert_eq!(tail.rows, 2);
    assert!(tail.has_16_bit_inputs());
    assert_eq!(tail.bytes(), &whole.bytes()[4 * 34..]);
    assert_eq!(tail.dequantize().data, whole.dequantize().data[4 * 32..]);
}

#[test]
fn a_shard_refuses_what_it_cannot_answer() {
    let shard = Shard {
        matrices: vec![ShardMatrix::Quant(
            QMatrix::new(8, 32, QType::F32, vec![0; 8 * 32 * 4]).unwrap(),
        )],
    };
    let pieces = shard.pieces(0, 1, 32).unwrap();
    assert_eq!(pieces, vec![Piece { matrix: 0, rows: 0..8 }]);
    assert_eq!(shard.product(0, &pieces[0], &Input::new(&Matrix::zeros(3, 32))).shape(), (3, 8));
    assert!(shard.pieces(1, 1, 32).is_none());
    assert!(shard.pieces(usize::MAX, 2, 32).is_none());
    assert!(shard.pieces(0, 1, 64).is_none());
}

#[test]
fn pieces_cover_each_row_once_in_whole_tiles() {
    // SmolLM2's shapes: q, k, v; then the output matrix's part; Qwen2.5
    // 0.5B's output matrix's part.
    let shapes = [
        vec![(288, 576), (96, 576), (96, 576)],
        vec![(24576, 576)],
        vec![(768, 576), (768, 576)],
        vec![(6, 32)],
        vec![(75968, 896)],
    ];
    for shapes in shapes {
        let pieces = pieces(&shapes);
        assert!(pieces.len() <= 32, "{} pieces", pieces.len());
        for (m, &(rows, cols)) in shapes.iter().enumerate() {
            let mine: Vec<&Piece> = pieces.iter().filter(|p| p.matrix == m).collect();
            assert_eq!(mine.first().unwrap().rows.start, 0);
            assert_eq!(mine.last().unwrap().rows.end, rows);
            for w in mine.windows(2) {
                assert_eq!(w[0].rows.end, w[1].rows.start);
                assert_eq!(w[0].rows.len() % TILE, 0);
                // Small where the two threads meet, large where the helper starts.
                assert!(w[0].rows.len() <= w[1].rows.len());
            }
            if rows * cols >= 4 * LEAST_PIECE_WEIGHTS {
                assert!(mine.len() >= 2, "{rows} × {cols} in one piece");
                assert!(mine[0].rows.len() * cols <= 2 * LEAST_PIECE_WEIGHTS.max(TILE * cols));
            }
        }
        assert!(pieces.windows(2).all(|w| w[0].matrix <= w[1].matrix));
    }
}

/// A helper in this thread: it "claims" the pieces from `from` on, and
/// has finished those at an even index; the others are left to the caller.
struct Lagging {
    shard: Shard,
    from: usize,
    request: std::cell::RefCell<(usize, usize, Matrix)>,
}

impl Helper for Lagging {
    fn begin(&self, first: usize, parts: &[(usize, usize)], x: &Matrix) {
        assert!(self.shard.holds(first, parts));
        *self.request.borrow_mut() = (first, parts.len(), x.clone());
    }
    fn claim(&self, i: usize) -> bool {
        i < self.from
    }
    fn collect(&self, i: usize, _: f64) -> Option<Matrix> {
        let (first, count, x) = &*self.request.borrow();
        let pieces = self.shard.pieces(*first, *count, x.cols)?;
        i.is_multiple_of(2).then(|| self.shard.product(*first, &pieces[i], &Input::new(x)))
    }
    fn now_ms(&self) -> f64 {
        0.0
    }
}

/// A helper in this thread for heads: it has claimed heads `from ..`
/// and finished those at an even index.
struct LaggingHeads {
    from: usize,
    request: std::cell::RefCell<Option<([Matrix; 3], usize, usize)>>,
}

impl Helper for LaggingHeads {
    fn begin(&self, _: usize, _: &[(usize, usize)], _: &Matrix) {}
    fn begin_heads(&self, h: &Heads) -> bool {
        *self.request.borrow_mut() =
            Some(([h.q.clone(), h.k.clone(), h.v.clone()], h.n_heads, h.n_kv_heads));
        true
    }
    fn claim(&self, i: usize) -> bool {
        i < self.from
    }
    fn collect(&self, i: usize, _: f64) -> Option<Matrix> {
        let request = self.request.borrow();
        let ([q, k, v], n_heads, n_kv_heads) = request.as_ref()?;
        let p = Projections { q, k, v, n_heads: *n_heads, n_kv_heads: *n_kv_heads };
        let heads = Heads { p, mask: Mask::Causal, scale: 0.125 };
        i.is_multiple_of(2)
            .then(|| Matrix::from_vec(1, heads.result_len(), heads.to_floats(&heads.head(i))))
    }
    fn now_ms(&self) -> f64 {
        0.0
    }
}

#[test]
fn shared_heads_equal_the_ones_computed_alone_bit_for_bit() {
    // 6 query heads over 2 key/value heads of 64, 70 tokens.
    let (q, k, v) = (
        crate::testing::matrix(70, 384, 1),
        crate::testing::matrix(70, 128, 2),
        crate::testing::matrix(70, 128, 3),
    );
    let heads = Heads {
        p: Projections { q: &q, k: &k, v: &v, n_heads: 6, n_kv_heads: 2 },
        mask: Mask::Causal,
        scale: 0.125,
    };
    assert!(heads.is_whole());
    let (qs, ks, vs) = (
        crate::attention::split_heads(&q, 6),
        crate::attention::split_heads(&k, 2),
        crate::attention::split_heads(&v, 2),
    );
    let alone: Vec<_> = (0..6).map(|h| heads.attend(&qs[h], &ks[h / 3], &vs[h / 3])).collect();
    for from in [0, 1, 4, 6] {
        let helper = LaggingHeads { from, request: Default::default() };
        let shared = shared_heads(&helper, &heads, &qs, &ks, &vs).unwrap();
        for (h, ((t, s), (t0, s0))) in shared.iter().zip(&alone).enumerate() {
            assert_eq!(
                (&t.output.data, s, t.scale),
                (&t0.output.data, s0, t0.scale),
                "head {h}, helper from {from}"
            );
        }
    }
    // A result of other floats is refused: the head is computed here.
    assert!(heads.read_result(&[0.0; 5]).is_none());
    let wrong = Heads {
        p: Projections { q: &q, k: &k, v: &v, n_heads: 5, n_kv_heads: 2 },
        mask: Mask::Causal,
        scale: 0.125,
    };
    assert!(!wrong.is_whole());
}

#[test]
fn shared_products_equal_the_whole_ones_bit_for_bit() {
    let matrix = |rows: usize, seed: u32| {
        QMatrix::new(rows, 96, QType::Q4_1, q4_1_blocks(rows * 3, seed)).unwrap()
    };
    let (a, b, c) = (matrix(600, 1), matrix(200, 2), matrix(1000, 3));
    let shard =
        Shard { matrices: [&a, &b, &c].map(|m| SharedRef::Quant(m).helper_part()).to_vec() };
    let x = crate::testing::matrix(2, 96, 4);
    for from in [0, 1, 3, 100] {
        let helper = Lagging {
            shard: shard.clone(),
            from,
            request: std::cell::RefCell::new((0, 0, Matrix::zeros(0, 0))),
        };
        let [pa, pb] = products(Some(&helper), 0, [&a, &b], &x);
        assert_eq!(
            (pa.data, pb.data),
            (a.forward(&x).data, b.forward(&x).data),
            "helper from piece {from}"
        );
        let [pc] = products(Some(&helper), 2, [&c], &x);
        assert_eq!(pc.data, c.forward(&x).data, "helper from piece {from}");
    }
}

#[test]
fn shared_packed_products_equal_the_whole_ones_bit_for_bit() {
    // MiniLM's shapes: q, k, v (384 × 384), the feed-forward's 1536 × 384; and an odd one.
    let linear = |rows: usize, cols: usize, seed: u32| {
        PackedLinear::new(
            &crate::testing::matrix(rows, cols, seed),
            &(0..rows).map(|i| i as f32 / 100.0).collect::<Vec<_>>(),
        )
    };
    let ws = [linear(384, 384, 1), linear(384, 384, 2), linear(1536, 384, 3), linear(40, 384, 4)];
    let shard = Shard { matrices: ws.iter().map(|m| SharedRef::Packed(m).helper_part()).collect() };
    let x = crate::testing::matrix(9, 384, 5);
    for from in [0, 1, 3, 100] {
        let helper = Lagging {
            shard: shard.clone(),
            from,
            request: std::cell::RefCell::new((0, 0, Matrix::zeros(0, 0))),
        };
        let [a, b] = products(Some(&helper), 0, [&ws[0], &ws[1]], &x);
        assert_eq!(
            (a.data, b.data),
            (ws[0].forward(&x).data, ws[1].forward(&x).data),
            "helper from piece {from}"
        );
        let [c, d] = products(Some(&helper), 2, [&ws[2], &ws[3]], &x);
        assert_eq!(
            (c.data, d.data),
            (ws[2].forward(&x).data, ws[3].forward(&x).data),
            "helper from piece {from}"
        );
    }
}
