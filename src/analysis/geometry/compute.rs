//! The Q·K space and the map of heads from a run (the eigendecompositions
//! are [`super::linalg`]'s).

use super::linalg;
use super::{
    average_linkage, HeadDistances, Nearest, QkSpace, SimilarHeads, ValueSpace, MAX_SIMILAR_TOKENS,
};
use crate::attention::Mask;
use crate::error::Error;
use crate::tensor::Matrix;
use crate::trace::ModelTrace;
use std::borrow::Cow;

/// The key of `candidates` with the largest `score`.
fn argmax(candidates: impl Iterator<Item = usize>, score: impl Fn(usize) -> f64) -> usize {
    candidates
        .map(|j| (j, score(j)))
        .fold((0, f64::NEG_INFINITY), |b, c| if c.1 > b.1 { c } else { b })
        .0
}

fn dot(a: &[f32], b: &[f32]) -> f64 {
    a.iter().zip(b).map(|(&x, &y)| x as f64 * y as f64).sum()
}

fn no_queries_keys() -> Error {
    Error::Invalid("this run has no queries and keys for the head: the Q·K space needs them (a model, or a trace file written with them)".into())
}

/// A head's Q·K space from its queries Q (n_q × d_k), keys K (n_k × d_k), its
/// weights A (n_q × n_k) and mask. `head` and `layer` only label the result.
pub fn qk_space_of(
    (layer, head, kv_head): (usize, usize, usize),
    q: &Matrix,
    k: &Matrix,
    weights: &Matrix,
    mask: Mask,
    translate: bool,
) -> Result<QkSpace, Error> {
    if q.cols == 0 || k.cols != q.cols || weights.shape() != (q.rows, k.rows) {
        return Err(no_queries_keys());
    }
    if q.rows < 2 {
        return Err(Error::Invalid(
            "one token: one query and one key are nothing to project; type a text of two tokens or more".into(),
        ));
    }
    let (placed, shift) =
        if translate { super::translate_keys(q, k) } else { (k.clone(), vec![0.0; k.cols]) };
    let points: Vec<&[f32]> =
        (0..q.rows).map(|i| q.row(i)).chain((0..k.rows).map(|j| placed.row(j))).collect();
    let (coords, shares) = linalg::principal_axes(&points, 2).ok_or_else(|| {
        Error::Invalid(
            "every query and key of this head is the same point: there is nothing to spread out"
                .into(),
        )
    })?;
    let xy = |c: &Vec<f64>| [c[0] as f32, c[1] as f32];
    let (queries, keys): (Vec<[f32; 2]>, Vec<[f32; 2]>) =
        (coords[..q.rows].iter().map(xy).collect(), coords[q.rows..].iter().map(xy).collect());
    let nearest = (0..q.rows)
        .map(|i| {
            let seen = || (0..k.rows).filter(move |&j| mask.allows(i, j, q.rows, k.rows));
            let norm = |j: usize| dot(placed.row(j), placed.row(j)).sqrt().max(f64::MIN_POSITIVE);
            let plane = |j: usize| {
                let (a, b) = (queries[i], keys[j]);
                -((a[0] - b[0]) as f64).hypot((a[1] - b[1]) as f64)
            };
            Nearest {
                weightiest: argmax(seen(), |j| weights[(i, j)] as f64),
                angle: argmax(seen(), |j| dot(q.row(i), placed.row(j)) / norm(j)),
                plane: argmax(seen(), plane),
            }
        })
        .collect();
    Ok(QkSpace {
        layer,
        head,
        kv_head,
        queries,
        keys,
        explained: [shares[0] as f32, shares[1] as f32],
        translated: translate,
        shift: dot(&shift, &shift).sqrt() as f32,
        nearest,
        values: None,
    })
}

/// The values V (n_k × d_v) of a head with weights A (n_q × n_k) on their own
/// principal axes, each output placed as Σ_j a_ij (the point of v_j); None
/// where there is nothing to spread (no values, or all one point).
pub fn value_space(v: &Matrix, weights: &Matrix) -> Option<ValueSpace> {
    if v.cols == 0 || v.rows < 2 || weights.cols != v.rows {
        return None;
    }
    let rows: Vec<&[f32]> = (0..v.rows).map(|j| v.row(j)).collect();
    let (coords, shares) = linalg::principal_axes(&rows, 2)?;
    let outputs = (0..weights.rows)
        .map(|i| {
            let a = weights.row(i);
            [0, 1].map(|axis| {
                a.iter().zip(&coords).map(|(&w, c)| w as f64 * c[axis]).sum::<f64>() as f32
            })
        })
        .collect();
    Some(ValueSpace {
        values: coords.iter().map(|c| [c[0] as f32, c[1] as f32]).collect(),
        outputs,
        explained: [shares[0] as f32, shares[1] as f32],
    })
}

/// Head `head` of layer `layer` of a run, in its Q·K space.
pub fn qk_space(
    trace: &ModelTrace,
    layer: usize,
    head: usize,
    translate: bool,
) -> Result<QkSpace, Error> {
    let at = &trace
        .layers
        .get(layer)
        .ok_or_else(|| {
            Error::Invalid(format!(
                "layer {layer} is not there: the model has {} layers (from 0)",
                trace.layers.len()
            ))
        })?
        .attention;
    if head >= at.heads.len() {
        return Err(Error::Invalid(format!(
            "head {head} is not there: layer {layer} has {} heads (from 0)",
            at.heads.len()
        )));
    }
    let kv = at.kv_head_of.get(head).copied().unwrap_or(usize::MAX);
    let (Some(q), Some(k)) = (at.q.get(head), at.k.get(kv)) else {
        return Err(no_queries_keys());
    };
    if q.cols == 0 || k.cols != q.cols {
        return Err(no_queries_keys());
    }
    let h = at.head(head);
    let mut space = qk_space_of((layer, head, kv), q, k, &h.weights, h.mask, translate)?;
    space.values = at.v.get(kv).and_then(|v| value_space(v, &h.weights));
    Ok(space)
}

/// Every head of a run compared with every other, mapped and clustered: a
/// job of [`HeadDistances`] steps (the worker advances it a slice at a time).
pub struct SimilarJob<'a> {
    labels: Vec<[usize; 2]>,
    distances: HeadDistances<'a>,
    clusters: usize,
    rows: usize,
}

impl<'a> SimilarJob<'a> {
    /// The heads of `trace` to compare, to be grouped into `clusters` clusters.
    pub fn start(trace: &'a ModelTrace, clusters: usize) -> Result<Self, Error> {
        let n = trace.tokens.len();
        if n > MAX_SIMILAR_TOKENS {
            return Err(Error::Invalid(format!(
                "similar heads compares every two heads row by row: texts up to {MAX_SIMILAR_TOKENS} tokens (this one has {n}); shorten it"
            )));
        }
        let mut labels = Vec::new();
        let mut weights = Vec::new();
        for (l, layer) in trace.layers.iter().enumerate() {
            let at = &layer.attention;
            for h in 0..at.heads.len() {
                labels.push([l, h]);
                // A head let go of is computed again from its Q and K, where the run has them.
                let kept = at.heads[h].weights.shape() == (n, n);
                let again = at.q.get(h).is_some_and(|q| q.rows == n && q.cols > 0)
                    && at.kv_head_of.get(h).is_some_and(|&kv| kv < at.k.len());
                weights.push(match kept || !again {
                    true => Cow::Borrowed(&at.heads[h].weights),
                    false => Cow::Owned(at.head(h).into_owned().weights),
                });
            }
        }
        Self::of(labels, weights, n, clusters)
    }

    /// The heads of a trace file, `layers[l][h]` each T × T, read from the file.
    pub fn of_heads(
        layers: Vec<Vec<Matrix>>,
        clusters: usize,
    ) -> Result<SimilarJob<'static>, Error> {
        let n = layers.first().and_then(|l| l.first()).map_or(0, |a| a.rows);
        if n > MAX_SIMILAR_TOKENS {
            return Err(Error::Invalid(format!(
                "similar heads compares every two heads row by row: texts up to {MAX_SIMILAR_TOKENS} tokens (this one has {n})"
            )));
        }
        let mut labels = Vec::new();
        let mut weights = Vec::new();
        for (l, heads) in layers.into_iter().enumerate() {
            for (h, a) in heads.into_iter().enumerate() {
                labels.push([l, h]);
                weights.push(Cow::Owned(a));
            }
        }
        SimilarJob::of(labels, weights, n, clusters)
    }

    fn of(
        labels: Vec<[usize; 2]>,
        weights: Vec<Cow<'a, Matrix>>,
        n: usize,
        clusters: usize,
    ) -> Result<Self, Error> {
        if n == 0 || weights.len() < 2 || weights.iter().any(|a| a.shape() != (n, n)) {
            return Err(Error::Invalid(
                "similar heads needs two heads or more, each with its weights over the text's tokens"
                    .into(),
            ));
        }
        Ok(Self { labels, distances: HeadDistances::new(weights), clusters, rows: n })
    }

    /// The same job, owning the weights it compares.
    pub fn into_owned(self) -> SimilarJob<'static> {
        SimilarJob { distances: self.distances.into_owned(), ..self }
    }

    /// Compares one more head with the later ones.
    pub fn step(&mut self) {
        self.distances.step()
    }

    /// Pairs of heads compared, of [`SimilarJob::total`].
    pub fn done(&self) -> usize {
        self.distances.done()
    }

    pub fn total(&self) -> usize {
        self.distances.total()
    }

    pub fn is_finished(&self) -> bool {
        self.distances.is_finished()
    }

    /// The distances, the map and the clusters.
    pub fn finish(self) -> SimilarHeads {
        let d = self.distances.finish();
        let map = linalg::classical_mds(&d, 2);
        SimilarHeads {
            heads: self.labels,
            distance: d.iter().map(|r| r.iter().map(|&x| x as f32).collect()).collect(),
            map: map.iter().map(|c| [c[0] as f32, c[1] as f32]).collect(),
            clusters: average_linkage(&d, self.clusters),
            rows: self.rows,
        }
    }
}

/// [`SimilarJob`] run to the end; `progress(pairs done, pairs)` after each
/// step, false to stop (then None).
pub fn similar_heads(
    trace: &ModelTrace,
    clusters: usize,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Option<SimilarHeads>, Error> {
    let mut job = SimilarJob::start(trace, clusters)?;
    while !job.is_finished() {
        job.step();
        if !progress(job.done(), job.total()) {
            return Ok(None);
        }
    }
    Ok(Some(job.finish()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_token_and_one_point_are_refused_with_a_reason() {
        let one = Matrix::from_rows(&[[1.0, 2.0]]);
        let a = Matrix::from_rows(&[[1.0]]);
        let e = qk_space_of((0, 0, 0), &one, &one, &a, Mask::None, false).unwrap_err();
        assert!(e.to_string().contains("one token"), "{e}");
        let same = Matrix::from_rows(&[[1.0, 2.0], [1.0, 2.0]]);
        let a = Matrix::from_rows(&[[0.5, 0.5], [0.5, 0.5]]);
        let e = qk_space_of((0, 0, 0), &same, &same, &a, Mask::None, false).unwrap_err();
        assert!(e.to_string().contains("same point"), "{e}");
    }

    #[test]
    fn points_on_a_line_are_all_on_the_first_axis() {
        let q = Matrix::from_rows(&[[1.0, 1.0], [2.0, 2.0]]);
        let k = Matrix::from_rows(&[[3.0, 3.0], [4.0, 4.0]]);
        let a = Matrix::from_rows(&[[1.0, 0.0], [0.5, 0.5]]);
        let s = qk_space_of((0, 0, 0), &q, &k, &a, Mask::Causal, false).unwrap();
        assert!(
            (s.explained[0] - 1.0).abs() < 1e-6 && s.explained[1].abs() < 1e-6,
            "{:?}",
            s.explained
        );
        let x: Vec<f32> = s.queries.iter().chain(&s.keys).map(|p| p[0]).collect();
        let step = 2f32.sqrt();
        for (got, want) in x.iter().zip([-1.5 * step, -0.5 * step, 0.5 * step, 1.5 * step]) {
            assert!((got - want).abs() < 1e-5, "{x:?}");
        }
        assert_eq!(s.nearest[0], Nearest { weightiest: 0, angle: 0, plane: 0 });
    }

    #[test]
    fn an_output_sits_at_the_weighted_mean_of_the_values_points() {
        // Values in a plane already: the two axes keep all of it, distances as they are.
        let v = Matrix::from_rows(&[[0.0, 0.0, 1.0], [4.0, 0.0, 1.0], [0.0, 3.0, 1.0]]);
        let a = Matrix::from_rows(&[[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.2, 0.3, 0.5]]);
        let s = value_space(&v, &a).unwrap();
        assert!((s.explained[0] + s.explained[1] - 1.0).abs() < 1e-6, "{:?}", s.explained);
        let dist = |p: [f32; 2], q: [f32; 2]| (p[0] - q[0]).hypot(p[1] - q[1]);
        assert!((dist(s.values[0], s.values[1]) - 4.0).abs() < 1e-5);
        assert!((dist(s.values[1], s.values[2]) - 5.0).abs() < 1e-5);
        for i in 0..3 {
            // o_i = Σ_j a_ij v_j, placed on the same axes, is the weighted mean of the points.
            let o = (0..3).fold([0.0f32; 2], |o, j| {
                [o[0] + a[(i, j)] * s.values[j][0], o[1] + a[(i, j)] * s.values[j][1]]
            });
            assert!(dist(o, s.outputs[i]) < 1e-5, "{i}: {o:?} against {:?}", s.outputs[i]);
        }
        assert_eq!(s.outputs[0], s.values[0]);
        // Nothing to spread: no plane.
        let same = Matrix::from_rows(&[[1.0, 2.0], [1.0, 2.0]]);
        assert!(value_space(&same, &Matrix::from_rows(&[[1.0, 0.0], [0.5, 0.5]])).is_none());
    }
}
