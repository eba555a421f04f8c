//! Head knockout: remove heads (zero their output before W_O, or replace it
//! with its mean over the positions) and run the model again from the
//! lowest layer touched; the layers below are reused.

use super::forward::run_from;
use super::{forward, log_sum_exp, top_tokens, Forward, TokenProb};
use crate::error::{Error, Result};
use crate::tensor::Matrix;
use crate::trace::layered::{Edit, Layered, Readout};
use crate::trace::LayerTrace;
use serde::{Deserialize, Serialize};

/// One line, for the page and the CLI's help.
pub const DEFINITION: &str = "head knockout: the head's output Z_h (before W_O) set to 0, or to its mean over the text's positions, and the model run again; effect: the next-token list before/after (decoders) or the cosine of the sentence embeddings before/after (encoders)";

/// One line for the importance map.
pub const IMPORTANCE_DEFINITION: &str = "importance map: every head knocked out alone; decoders: drop in the probability of the top next token, encoders: 1 − cosine of the sentence embeddings before/after";

/// How a head is removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ablation {
    /// Z_h = 0.
    Zero,
    /// Z_h replaced by its mean over the positions.
    Mean,
}

/// A head, by layer and index (from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct HeadRef {
    pub layer: usize,
    pub head: usize,
}

/// What removing the heads changed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Effect {
    NextToken {
        before: Vec<TokenProb>,
        after: Vec<TokenProb>,
        /// The token that was most likely before, its probability after and
        /// its rank after (1: still the most likely).
        previous_top: TokenProb,
        previous_top_p_after: f32,
        previous_top_rank_after: usize,
    },
    Embedding {
        /// Cosine between the sentence embeddings before and after.
        cosine: f32,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Knockout {
    pub tokens: Vec<String>,
    pub heads: Vec<HeadRef>,
    pub ablation: Ablation,
    pub effect: Effect,
    /// `attention_change[l][h]`: mean |ΔA| of head h in layer l (0 below the lowest layer knocked
    /// out).
    pub attention_change: Vec<Vec<f32>>,
}

/// Removes `heads` of one layer from the heads' outputs z (n × H·d_head).
fn remove(z: &mut Matrix, heads: &[usize], d_head: usize, ablation: Ablation) {
    for &h in heads {
        let cols = h * d_head..(h + 1) * d_head;
        let mut mean = vec![0.0f32; d_head];
        if ablation == Ablation::Mean {
            for i in 0..z.rows {
                mean.iter_mut()
                    .zip(&z.row(i)[cols.clone()])
                    .for_each(|(m, x)| *m += x / z.rows as f32);
            }
        }
        for i in 0..z.rows {
            z.row_mut(i)[cols.clone()].copy_from_slice(&mean);
        }
    }
}

fn check_heads(model: &dyn Layered, heads: &[HeadRef]) -> Result<()> {
    let info = model.info();
    if heads.is_empty() {
        return Err(Error::Invalid(
            "no head to knock out: name at least one, as layer.head".into(),
        ));
    }
    if let Some(h) = heads.iter().find(|h| h.layer >= info.n_layers || h.head >= info.n_heads) {
        return Err(Error::Invalid(format!(
            "head {}.{}: {} has layers 0–{} and heads 0–{}",
            h.layer,
            h.head,
            info.name,
            info.n_layers - 1,
            info.n_heads - 1
        )));
    }
    Ok(())
}

/// The last output of `run` with `heads` removed, and the traces of the layers from the lowest one
/// touched.
fn knocked(
    model: &dyn Layered,
    run: &Forward,
    heads: &[HeadRef],
    ablation: Ablation,
) -> Result<(Matrix, Vec<LayerTrace>, usize)> {
    let d_head = model.info().d_head;
    let from = heads.iter().map(|h| h.layer).min().unwrap_or(0);
    let per_layer: Vec<Vec<usize>> = (0..run.layers.len())
        .map(|l| heads.iter().filter(|h| h.layer == l).map(|h| h.head).collect())
        .collect();
    // One closure type for every layer, so they sit in one Vec unboxed.
    let edits: Vec<_> =
        per_layer.iter().map(|hs| move |z: &mut Matrix| remove(z, hs, d_head, ablation)).collect();
    let (out, traces) = run_from(model, from, &run.inputs[from], |l| {
        (!per_layer[l].is_empty()).then_some(&edits[l] as Edit)
    })?;
    Ok((out, traces, from))
}

/// What the model reads out of the last layer: decoders from the last row only.
fn readout(model: &dyn Layered, out: &Matrix) -> Readout {
    match model.info().mask {
        crate::Mask::None => model.readout(out),
        _ => model.readout(&out.rows_range(out.rows - 1, 1)),
    }
}

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| *x as f64 * *y as f64).sum();
    let norm = |v: &[f32]| v.iter().map(|x| (*x as f64).powi(2)).sum::<f64>().sqrt();
    (dot / (norm(a) * norm(b)).max(1e-30)) as f32
}

/// Knocks out `heads` together on `text`.
pub fn knockout(
    model: &dyn Layered,
    text: &str,
    heads: &[HeadRef],
    ablation: Ablation,
    k: usize,
) -> Result<Knockout> {
    check_heads(model, heads)?;
    let (ids, tokens) = model.tokens(text)?;
    if ids.is_empty() {
        return Err(Error::Invalid("the text has no tokens: type some text".into()));
    }
    let run = forward(model, &ids, tokens)?;
    let (out, traces, from) = knocked(model, &run, heads, ablation)?;
    let effect = match (readout(model, &run.output), readout(model, &out)) {
        (Readout::Embedding(a), Readout::Embedding(b)) => {
            Effect::Embedding { cosine: cosine(&a, &b) }
        }
        (Readout::Logits(a), Readout::Logits(b)) => {
            let (a, b) = (a.row(0), b.row(0));
            let before = top_tokens(model, a, k);
            let previous_top = before[0].clone();
            let z = b[previous_top.id as usize];
            let p_after = ((z as f64) - log_sum_exp(b)).exp() as f32;
            let rank = 1 + b.iter().filter(|&&x| x > z).count();
            Effect::NextToken {
                before,
                after: top_tokens(model, b, k),
                previous_top,
                previous_top_p_after: p_after,
                previous_top_rank_after: rank,
            }
        }
        _ => unreachable!("one model reads out one kind"),
    };
    let mut attention_change = vec![vec![0.0; model.info().n_heads]; run.layers.len()];
    for (l, trace) in traces.iter().enumerate() {
        for (h, head) in trace.attention.heads.iter().enumerate() {
            let a = &run.layers[from + l].attention.heads[h].weights;
            attention_change[from + l][h] =
                a.data.iter().zip(&head.weights.data).map(|(x, y)| (x - y).abs()).sum::<f32>()
                    / a.data.len().max(1) as f32;
        }
    }
    let mut heads = heads.to_vec();
    heads.sort();
    heads.dedup();
    Ok(Knockout { tokens: run.tokens, heads, ablation, effect, attention_change })
}

/// Every head knocked out alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Importance {
    pub tokens: Vec<String>,
    pub ablation: Ablation,
    /// What `scores` measure (see [`IMPORTANCE_DEFINITION`]).
    pub measure: String,
    /// For decoders, the top next token before any knockout.
    pub top: Option<TokenProb>,
    /// `scores[l][h]`.
    pub scores: Vec<Vec<f32>>,
}

/// The importance map of `text` computed a head at a time, so that a caller
/// (the page's worker) can stop between heads, answer other messages, and go on.
pub struct ImportanceJob {
    run: Forward,
    base: Readout,
    ablation: Ablation,
    top: Option<TokenProb>,
    measure: &'static str,
    scores: Vec<Vec<f32>>,
    done: usize,
}

impl ImportanceJob {
    /// Runs `text` once, keeping every layer's input for the knockouts.
    pub fn start(model: &dyn Layered, text: &str, ablation: Ablation) -> Result<ImportanceJob> {
        let info = model.info();
        let (ids, tokens) = model.tokens(text)?;
        if ids.is_empty() {
            return Err(Error::Invalid("the text has no tokens: type some text".into()));
        }
        let run = forward(model, &ids, tokens)?;
        let base = readout(model, &run.output);
        let (top, measure) = match &base {
            Readout::Logits(z) => (
                Some(top_tokens(model, z.row(0), 1).remove(0)),
                "drop in the probability of the top next token",
            ),
            Readout::Embedding(_) => (None, "1 − cosine of the sentence embeddings"),
        };
        let scores = vec![vec![0.0f32; info.n_heads]; info.n_layers];
        Ok(ImportanceJob { run, base, ablation, top, measure, scores, done: 0 })
    }

    /// Heads knocked out so far.
    pub fn done(&self) -> usize {
        self.done
    }

    /// Every head of the model.
    pub fn total(&self) -> usize {
        self.scores.len() * self.scores.first().map_or(0, Vec::len)
    }

    pub fn is_finished(&self) -> bool {
        self.done >= self.total()
    }

    /// Knocks out the next heads: for a decoder, every head of the next
    /// layer at once (see [`ImportanceJob::step_layer`]), else the next head alone.
    pub fn step(&mut self, model: &dyn Layered) -> Result<()> {
        let n_heads = self.scores.first().map_or(1, Vec::len).max(1);
        if self.done.is_multiple_of(n_heads)
            && matches!(self.base, Readout::Logits(_))
            && self.step_layer(model, self.done / n_heads)?
        {
            return Ok(());
        }
        self.step_head(model)
    }

    /// Knocks out the next head alone, from its layer's cached input.
    pub fn step_head(&mut self, model: &dyn Layered) -> Result<()> {
        let n_heads = self.scores.first().map_or(1, Vec::len).max(1);
        let (l, h) = (self.done / n_heads, self.done % n_heads);
        if l >= self.scores.len() {
            return Ok(());
        }
        let (out, _, _) =
            knocked(model, &self.run, &[HeadRef { layer: l, head: h }], self.ablation)?;
        self.scores[l][h] = match (&self.base, readout(model, &out)) {
            (Readout::Embedding(a), Readout::Embedding(b)) => 1.0 - cosine(a, &b),
            (Readout::Logits(_), Readout::Logits(b)) => self.top_drop(b.row(0)),
            _ => unreachable!("one model reads out one kind"),
        };
        self.done += 1;
        Ok(())
    }

    /// Knocks out each head of decoder layer `l` alone, all of them in one
    /// pass: the variants' rows stacked through layers l.. (each weight read
    /// once for all), attention within each variant, and only each variant's
    /// last row through the last layer's feed-forward. False if the model
    /// cannot run layers on stacked variants.
    fn step_layer(&mut self, model: &dyn Layered, l: usize) -> Result<bool> {
        let (n_layers, info) = (self.scores.len(), model.info());
        if l >= n_layers {
            return Ok(false);
        }
        let (n, d_head, ablation) = (self.run.inputs[l].rows, info.d_head, self.ablation);
        let heads: Vec<[usize; 1]> = (0..info.n_heads).map(|h| [h]).collect();
        let removals: Vec<_> =
            heads.iter().map(|hs| move |z: &mut Matrix| remove(z, hs, d_head, ablation)).collect();
        let edits: Vec<Edit> = removals.iter().map(|e| e as Edit).collect();
        let Some(h) = model.layer_runs(l, &self.run.inputs[l], n, &edits, l + 1 == n_layers) else {
            return Ok(false);
        };
        let mut h = h?; // (heads·n, d_model), or (heads, d_model) after the last layer
        for m in l + 1..n_layers {
            let unbatched =
                || Err(Error::Invalid(format!("layer {m} cannot run on stacked variants")));
            h = model.layer_runs(m, &h, n, &[], m + 1 == n_layers).unwrap_or_else(unbatched)?;
        }
        let Readout::Logits(z) = model.readout(&h) else {
            unreachable!("one model reads out one kind")
        };
        self.scores[l] = (0..info.n_heads).map(|head| self.top_drop(z.row(head))).collect();
        self.done += info.n_heads;
        Ok(true)
    }

    /// The drop in the probability of the top token, given the logits after a knockout.
    fn top_drop(&self, logits: &[f32]) -> f32 {
        let t = self.top.as_ref().expect("decoders have a top token");
        t.p - ((logits[t.id as usize] as f64) - log_sum_exp(logits)).exp() as f32
    }

    /// The map (heads not yet knocked out score 0).
    pub fn finish(self) -> Importance {
        Importance {
            tokens: self.run.tokens,
            ablation: self.ablation,
            measure: self.measure.into(),
            top: self.top,
            scores: self.scores,
        }
    }
}

/// The importance map of `text`: each head knocked out in turn, from its
/// layer's cached input. `progress(done, total)` is called after each head;
/// returning false cancels (the result is then None).
pub fn importance(
    model: &dyn Layered,
    text: &str,
    ablation: Ablation,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Option<Importance>> {
    let mut job = ImportanceJob::start(model, text, ablation)?;
    while !job.is_finished() {
        job.step(model)?;
        if !progress(job.done(), job.total()) {
            return Ok(None);
        }
    }
    Ok(Some(job.finish()))
}

/// Parses "3.1,5.0" (layer.head, from 0).
pub fn parse_heads(s: &str) -> Result<Vec<HeadRef>> {
    s.split(',')
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            let bad = || {
                Error::Invalid(format!("{p:?} is not a head: write layer.head, from 0, e.g. 3.1"))
            };
            let (l, h) = p.trim().split_once('.').ok_or_else(bad)?;
            Ok(HeadRef {
                layer: l.parse().map_err(|_| bad())?,
                head: h.parse().map_err(|_| bad())?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_and_mean_replace_only_the_heads_columns() {
        let mut z = Matrix::from_rows(&[[1.0, 2.0, 3.0, 4.0], [3.0, 4.0, 5.0, 6.0]]);
        remove(&mut z, &[1], 2, Ablation::Mean);
        assert_eq!(z.to_rows(), vec![vec![1.0, 2.0, 4.0, 5.0], vec![3.0, 4.0, 4.0, 5.0]]);
        remove(&mut z, &[0], 2, Ablation::Zero);
        assert_eq!(z.row(0), &[0.0, 0.0, 4.0, 5.0]);
        assert_eq!(
            parse_heads("3.1, 0.0").unwrap(),
            vec![HeadRef { layer: 3, head: 1 }, HeadRef { layer: 0, head: 0 }]
        );
        assert!(parse_heads("3").is_err() && parse_heads("a.b").is_err());
    }
}
