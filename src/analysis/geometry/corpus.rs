//! The Q·K space over a corpus (AttentionViz's many sentences in one plot):
//! the built-in sentences (`assets/corpus/sentences.txt`) run through a
//! model one at a time, every query and key of every head kept until the
//! last sentence, then each head reduced to its points on its two principal
//! axes, plain and with the keys translated. What is kept afterwards is the
//! points (2 floats each) and the axes, not the vectors: a head's plot is then
//! a copy, and switching heads is immediate.
//!
//! The visitor's sentence is placed on the corpus's axes (its points are a
//! few among thousands: they would hardly move the axes, and the corpus does
//! not move under them as they type).
//!
//! Head distances over the corpus: the mean, over every query row of every
//! sentence, of √JS between two heads' rows (`SIMILAR_DEFINITION`), summed
//! sentence by sentence as the job goes.

use super::linalg;
use super::{average_linkage, HeadDistances, SimilarHeads};
use crate::error::{Error, Result};
use crate::tensor::Matrix;
use crate::trace::layered::Layered;
use crate::trace::LayerTrace;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// The built-in corpus, one sentence a line.
pub const SENTENCES: &str = include_str!("../../../assets/corpus/sentences.txt");

/// One line, for the page and the CLI's help.
pub const CORPUS_DEFINITION: &str = "every query and key of the head over the built-in corpus (a few hundred short sentences), placed on the corpus's two principal axes; the visitor's sentence placed on the same axes";

/// The corpus's sentences.
pub fn sentences() -> Vec<&'static str> {
    SENTENCES.lines().map(str::trim).filter(|l| !l.is_empty()).collect()
}

/// Σx and Σxxᵀ of a set of d-vectors (the upper triangle, row-major d × d).
#[derive(Clone)]
struct Moments {
    count: f64,
    sum: Vec<f64>,
    outer: Vec<f64>,
}

impl Moments {
    fn of(points: &[f32], d: usize) -> Self {
        let mut m = Moments { count: 0.0, sum: vec![0.0; d], outer: vec![0.0; d * d] };
        for p in points.chunks_exact(d) {
            m.count += 1.0;
            for i in 0..d {
                let x = p[i] as f64;
                m.sum[i] += x;
                let row = &mut m.outer[i * d..i * d + d];
                for j in i..d {
                    row[j] += x * p[j] as f64;
                }
            }
        }
        m
    }
}

/// A cloud's mean, its two principal axes and their shares of the variance.
type Axes = (Vec<f64>, [Vec<f64>; 2], [f64; 2]);

/// The principal axes of Q ∪ (K + c), from the two clouds' moments: with
/// n_K keys, Σ(k + c) = s_K + n_K c and Σ(k + c)(k + c)ᵀ = S_K + s_K cᵀ + c s_Kᵀ
/// + n_K c cᵀ. Returns the mean, the two axes and their shares of the variance.
fn axes_of(q: &Moments, k: &Moments, c: &[f64], d: usize) -> Option<Axes> {
    let n = q.count + k.count;
    let sum: Vec<f64> = (0..d).map(|i| q.sum[i] + k.sum[i] + k.count * c[i]).collect();
    let mean: Vec<f64> = sum.iter().map(|s| s / n).collect();
    let mut scatter = vec![0.0; d * d]; //                     Σ (x − μ)(x − μ)ᵀ = Σ x xᵀ − n μ μᵀ
    for i in 0..d {
        for j in i..d {
            let outer = q.outer[i * d + j]
                + k.outer[i * d + j]
                + k.sum[i] * c[j]
                + c[i] * k.sum[j]
                + k.count * c[i] * c[j];
            let v = outer - n * mean[i] * mean[j];
            scatter[i * d + j] = v;
            scatter[j * d + i] = v;
        }
    }
    let total: f64 = (0..d).map(|i| scatter[i * d + i]).sum();
    if total <= 1e-12 * n || !total.is_finite() {
        return None;
    }
    let top = linalg::top_eigen(scatter, d, 2.min(d));
    let axis = |a: usize| top.get(a).map_or(vec![0.0; d], |(_, v)| v.clone());
    let share = |a: usize| top.get(a).map_or(0.0, |(l, _)| l.max(0.0) / total);
    Some((mean, [axis(0), axis(1)], [share(0), share(1)]))
}

/// One head's corpus on its axes, in one of the two placements.
#[derive(Clone, Debug, PartialEq)]
struct Placed {
    mean: Vec<f64>,
    axes: [Vec<f64>; 2],
    /// The keys' shift c (zero when not translated).
    shift: Vec<f64>,
    explained: [f32; 2],
    /// x, y of every query, then of every key, of the corpus.
    queries: Vec<[f32; 2]>,
    keys: Vec<[f32; 2]>,
}

impl Placed {
    fn place(&self, p: &[f32], shifted: bool) -> [f32; 2] {
        self.axes.each_ref().map(|axis| {
            let mut s = 0.0;
            for i in 0..p.len() {
                let x = p[i] as f64 + if shifted { self.shift[i] } else { 0.0 };
                s += (x - self.mean[i]) * axis[i];
            }
            s as f32
        })
    }
}

/// A head over the corpus: plain, and with the keys translated.
#[derive(Clone, Debug, PartialEq)]
struct CorpusHead {
    kv_head: usize,
    plain: Placed,
    translated: Placed,
}

/// One head's corpus and the visitor's sentence on the corpus's axes, as the page draws it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CorpusSpace {
    pub layer: usize,
    pub head: usize,
    pub kv_head: usize,
    /// Every query and key of the corpus (token by token, sentence after sentence).
    pub queries: Vec<[f32; 2]>,
    pub keys: Vec<[f32; 2]>,
    /// The visitor's sentence's queries and keys, on the same axes (empty
    /// when the run has no queries and keys for this head).
    pub visitor_queries: Vec<[f32; 2]>,
    pub visitor_keys: Vec<[f32; 2]>,
    /// The share of the corpus's variance on each axis.
    pub explained: [f32; 2],
    pub translated: bool,
    /// |c|, the keys' shift, when translated.
    pub shift: f32,
}

/// A head's corpus pooled for the grid of every head.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PooledHead {
    pub queries: Vec<[f32; 2]>,
    pub keys: Vec<[f32; 2]>,
    pub explained: [f32; 2],
}

/// The corpus's tokens, sent once: which sentence each point is of, and its position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CorpusTokens {
    pub tokens: Vec<String>,
    /// Where each sentence's tokens start, and the total at the end.
    pub starts: Vec<usize>,
}

impl CorpusTokens {
    pub fn sentences(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// The position within its sentence of every point.
    pub fn positions(&self) -> Vec<usize> {
        self.starts.windows(2).flat_map(|w| 0..w[1] - w[0]).collect()
    }
}

/// A model's corpus computed: every head's points, the tokens and the head distances.
pub struct Corpus {
    pub tokens: CorpusTokens,
    /// heads[l][h].
    heads: Vec<Vec<CorpusHead>>,
    /// Head distances over the corpus, where the job kept them.
    pub similar: Option<SimilarHeads>,
}

impl Corpus {
    /// Head `head` of layer `layer` over the corpus, with `visitor` (its Q and
    /// K for the head, or None) on the same axes.
    pub fn space(
        &self,
        layer: usize,
        head: usize,
        translate: bool,
        visitor: Option<(&Matrix, &Matrix)>,
    ) -> Result<CorpusSpace> {
        let h = self
            .heads
            .get(layer)
            .and_then(|l| l.get(head))
            .ok_or_else(|| Error::Invalid(format!("no head {layer}.{head} in this model")))?;
        let placed = if translate { &h.translated } else { &h.plain };
        let d = placed.mean.len();
        let (mut vq, mut vk) = (Vec::new(), Vec::new());
        if let Some((q, k)) = visitor.filter(|(q, k)| q.cols == d && k.cols == d) {
            vq = (0..q.rows).map(|i| placed.place(q.row(i), false)).collect();
            vk = (0..k.rows).map(|j| placed.place(k.row(j), translate)).collect();
        }
        let shift = placed.shift.iter().map(|x| x * x).sum::<f64>().sqrt() as f32;
        Ok(CorpusSpace {
            layer,
            head,
            kv_head: h.kv_head,
            queries: placed.queries.clone(),
            keys: placed.keys.clone(),
            visitor_queries: vq,
            visitor_keys: vk,
            explained: placed.explained,
            translated: translate,
            shift,
        })
    }

    /// Every head's corpus pooled to at most `per_head` queries and as many
    /// keys (the same tokens, evenly spaced through the corpus), on each head's
    /// own axes: AttentionViz's matrix view, small enough to draw every head.
    pub fn pooled(&self, translate: bool, per_head: usize) -> Vec<Vec<PooledHead>> {
        let pick = |points: &[[f32; 2]]| -> Vec<[f32; 2]> {
            let stride = points.len().div_ceil(per_head.max(1)).max(1);
            points.iter().step_by(stride).copied().collect()
        };
        self.heads
            .iter()
            .map(|layer| {
                layer
                    .iter()
                    .map(|h| {
                        let placed = if translate { &h.translated } else { &h.plain };
                        PooledHead {
                            queries: pick(&placed.queries),
                            keys: pick(&placed.keys),
                            explained: placed.explained,
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// Layers and heads per layer.
    pub fn shape(&self) -> (usize, usize) {
        (self.heads.len(), self.heads.first().map_or(0, Vec::len))
    }

    /// Bytes held (the points and the axes), for the performance notes.
    pub fn bytes(&self) -> usize {
        let placed = |p: &Placed| 8 * (p.queries.len() + p.keys.len()) + 8 * (p.mean.len() * 4);
        self.heads.iter().flatten().map(|h| placed(&h.plain) + placed(&h.translated)).sum()
    }
}

/// The vectors of one layer's heads over the sentences run so far, row after row.
struct LayerVectors {
    /// q[h]: every query of head h (rows of d floats).
    q: Vec<Vec<f32>>,
    /// k[g]: every key of key/value head g.
    k: Vec<Vec<f32>>,
    kv_head_of: Vec<usize>,
}

/// The corpus run a sentence at a time (`step`), then reduced a head at a
/// time; the worker advances it a slice at a time, with progress.
pub struct CorpusJob {
    sentences: Vec<String>,
    next: usize,
    d: usize,
    layers: Vec<LayerVectors>,
    tokens: CorpusTokens,
    /// Σ over rows of √JS for every two heads, and the rows summed (None: not asked).
    distances: Option<(Vec<Vec<f64>>, usize)>,
    clusters: usize,
    /// The heads reduced so far (the second phase), in layer-major order.
    reduced: Vec<CorpusHead>,
}

impl CorpusJob {
    /// The built-in corpus, or `sentences` when given; `distances`: also the
    /// head distances (H² row comparisons a sentence), grouped into `clusters`.
    pub fn start(
        model: &dyn Layered,
        sentences: Option<Vec<String>>,
        distances: bool,
        clusters: usize,
    ) -> Result<Self> {
        let info = model.info();
        let sentences =
            sentences.unwrap_or_else(|| self::sentences().into_iter().map(String::from).collect());
        if sentences.is_empty() || info.n_layers == 0 || info.n_heads == 0 {
            return Err(Error::Invalid("the corpus needs sentences and a model with heads".into()));
        }
        let count = info.n_layers * info.n_heads;
        Ok(Self {
            sentences,
            next: 0,
            d: 0,
            layers: Vec::new(),
            tokens: CorpusTokens { tokens: Vec::new(), starts: vec![0] },
            distances: distances.then(|| (vec![vec![0.0; count]; count], 0)),
            clusters,
            reduced: Vec::new(),
        })
    }

    fn heads(&self) -> usize {
        self.layers.iter().map(|l| l.q.len()).sum()
    }

    /// Sentences run, then heads reduced, of [`CorpusJob::total`].
    pub fn done(&self) -> usize {
        self.next + self.reduced.len()
    }

    /// The sentences and the heads (known after the first sentence).
    pub fn total(&self) -> usize {
        self.sentences.len() + self.heads()
    }

    /// Sentences run so far, and the corpus's sentences.
    pub fn sentences_done(&self) -> (usize, usize) {
        (self.next, self.sentences.len())
    }

    pub fn is_finished(&self) -> bool {
        self.next >= self.sentences.len() && self.reduced.len() >= self.heads()
    }

    /// Runs the next sentence, or reduces the next head once every sentence is run.
    pub fn step(&mut self, model: &dyn Layered) -> Result<()> {
        if self.next < self.sentences.len() {
            let text = &self.sentences[self.next];
            self.next += 1;
            return self.run(model, text.clone());
        }
        if let Some(head) = self.reduce_next()? {
            self.reduced.push(head);
        }
        Ok(())
    }

    fn run(&mut self, model: &dyn Layered, text: String) -> Result<()> {
        let (ids, tokens) = model.tokens(&text)?;
        if ids.len() < 2 {
            return Ok(()); // one token: no row to compare, nothing to spread
        }
        let n_layers = model.info().n_layers;
        let mut h = model.embed(&ids)?;
        let mut traces: Vec<LayerTrace> = Vec::with_capacity(n_layers);
        for l in 0..n_layers {
            let (trace, out) = model.layer(l, &h, None)?;
            h = out;
            traces.push(trace);
        }
        self.keep(&traces)?;
        if let Some((sums, rows)) = &mut self.distances {
            let heads: Vec<Cow<'_, Matrix>> = traces
                .iter()
                .flat_map(|t| {
                    let at = &t.attention;
                    (0..at.heads.len()).map(move |h| Cow::Owned(at.head(h).into_owned().weights))
                })
                .collect();
            let n = heads.first().map_or(0, |a| a.rows);
            let d = HeadDistances::new(heads).finish();
            for (s, r) in sums.iter_mut().zip(&d) {
                s.iter_mut().zip(r).for_each(|(s, x)| *s += x * n as f64);
            }
            *rows += n;
        }
        self.tokens.tokens.extend(tokens);
        self.tokens.starts.push(self.tokens.tokens.len());
        Ok(())
    }

    /// Appends a sentence's queries and keys.
    fn keep(&mut self, traces: &[LayerTrace]) -> Result<()> {
        let missing = || {
            Error::Invalid(
                "this model's runs have no queries and keys: the corpus's Q·K space needs them"
                    .into(),
            )
        };
        if self.layers.is_empty() {
            let at = &traces.first().ok_or_else(missing)?.attention;
            self.d = at.q.first().map_or(0, |q| q.cols);
            self.layers = traces
                .iter()
                .map(|t| LayerVectors {
                    q: vec![Vec::new(); t.attention.q.len()],
                    k: vec![Vec::new(); t.attention.k.len()],
                    kv_head_of: t.attention.kv_head_of.clone(),
                })
                .collect();
        }
        for (kept, t) in self.layers.iter_mut().zip(traces) {
            let at = &t.attention;
            if self.d == 0 || at.q.len() != kept.q.len() || at.k.len() != kept.k.len() {
                return Err(missing());
            }
            for (to, m) in kept.q.iter_mut().zip(&at.q).chain(kept.k.iter_mut().zip(&at.k)) {
                if m.cols != self.d {
                    return Err(missing());
                }
                to.extend_from_slice(&m.data);
            }
        }
        Ok(())
    }

    /// The next head's points on its axes, plain and translated.
    fn reduce_next(&mut self) -> Result<Option<CorpusHead>> {
        let at = self.reduced.len();
        let (d, heads) = (self.d, self.layers.first().map_or(0, |l| l.q.len()));
        if heads == 0 || at >= self.heads() {
            return Ok(None);
        }
        let (l, h) = (at / heads, at % heads);
        let layer = &self.layers[l];
        let kv = layer.kv_head_of[h];
        let (q, k) = (&layer.q[h], &layer.k[kv]);
        let (mq, mk) = (Moments::of(q, d), Moments::of(k, d));
        let one_point = || {
            Error::Invalid(format!(
                "head {l}.{h}: every query and key over the corpus is the same point"
            ))
        };
        let place = |c: Vec<f64>| -> Result<Placed> {
            let (mean, axes, shares) = axes_of(&mq, &mk, &c, d).ok_or_else(one_point)?;
            let mut placed = Placed {
                mean,
                axes,
                shift: c,
                explained: shares.map(|s| s as f32),
                queries: Vec::new(),
                keys: Vec::new(),
            };
            placed.queries = q.chunks_exact(d).map(|p| placed.place(p, false)).collect();
            placed.keys = k.chunks_exact(d).map(|p| placed.place(p, true)).collect();
            Ok(placed)
        };
        let c: Vec<f64> =
            (0..d).map(|i| mq.sum[i] / mq.count.max(1.0) - mk.sum[i] / mk.count.max(1.0)).collect();
        let head = CorpusHead { kv_head: kv, plain: place(vec![0.0; d])?, translated: place(c)? };
        // The last query head of a layer lets go of the layer's vectors.
        if h + 1 == heads {
            let layer = &mut self.layers[l];
            (layer.q, layer.k) = (vec![Vec::new(); layer.q.len()], vec![Vec::new(); layer.k.len()]);
        }
        Ok(Some(head))
    }

    /// The corpus, every step left taken first.
    pub fn finish(mut self, model: &dyn Layered) -> Result<Corpus> {
        while !self.is_finished() {
            self.step(model)?;
        }
        if self.tokens.tokens.is_empty() {
            return Err(Error::Invalid("no sentence of the corpus had two tokens or more".into()));
        }
        let heads = self.layers.first().map_or(1, |l| l.q.len()).max(1);
        let mut by_layer: Vec<Vec<CorpusHead>> = Vec::new();
        for (i, h) in self.reduced.into_iter().enumerate() {
            if i % heads == 0 {
                by_layer.push(Vec::new());
            }
            by_layer.last_mut().expect("a layer pushed").push(h);
        }
        let similar = self.distances.map(|(sums, rows)| {
            let d: Vec<Vec<f64>> =
                sums.iter().map(|r| r.iter().map(|s| s / rows.max(1) as f64).collect()).collect();
            let map = linalg::classical_mds(&d, 2);
            SimilarHeads {
                heads: (0..d.len()).map(|i| [i / heads, i % heads]).collect(),
                distance: d.iter().map(|r| r.iter().map(|&x| x as f32).collect()).collect(),
                map: map.iter().map(|c| [c[0] as f32, c[1] as f32]).collect(),
                clusters: average_linkage(&d, self.clusters),
                rows,
            }
        });
        Ok(Corpus { tokens: self.tokens, heads: by_layer, similar })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corpus_has_a_few_hundred_distinct_sentences() {
        let s = sentences();
        assert!((250..=400).contains(&s.len()), "{}", s.len());
        let mut seen = std::collections::HashSet::new();
        assert!(s.iter().all(|l| seen.insert(*l)), "a sentence twice");
    }

    #[test]
    fn axes_from_moments_match_the_principal_axes_of_the_stacked_points() {
        // Q ∪ (K + c) by moments against the same cloud stacked and decomposed.
        let q = [1.0f32, 2.0, 0.5, -1.0, 3.0, 1.5, 0.0, 0.0, 2.0, 2.5, -0.5, 1.0];
        let k = [0.5f32, 0.0, 1.0, 2.0, 1.0, -1.0, -2.0, 0.5, 0.5];
        let d = 3;
        let (mq, mk) = (Moments::of(&q, d), Moments::of(&k, d));
        let c = [0.3, -0.7, 1.1];
        let (mean, axes, shares) = axes_of(&mq, &mk, &c, d).unwrap();
        let moved: Vec<f32> =
            k.chunks(3).flat_map(|p| (0..3).map(move |i| p[i] + c[i] as f32)).collect();
        let points: Vec<&[f32]> = q.chunks(3).chain(moved.chunks(3)).collect();
        let (coords, want) = linalg::principal_axes(&points, 2).unwrap();
        assert!(
            (shares[0] - want[0]).abs() < 1e-6 && (shares[1] - want[1]).abs() < 1e-6,
            "{shares:?} against {want:?}"
        );
        for (p, c) in points.iter().zip(&coords) {
            for a in 0..2 {
                let got: f64 = (0..3).map(|i| (p[i] as f64 - mean[i]) * axes[a][i]).sum::<f64>();
                assert!((got - c[a]).abs() < 1e-5, "{got} against {}", c[a]);
            }
        }
        // One point repeated: nothing to spread.
        let same = Moments::of(&[1.0, 1.0, 1.0, 1.0], 2);
        assert!(axes_of(&same, &same, &[0.0, 0.0], 2).is_none());
    }
}
