//! Activation patching: run a clean prompt and a corrupted one of the same
//! length, copy one activation of the clean run into the corrupted run, run
//! the rest of the model, and measure how much of the clean answer comes back.
//!
//! ```text
//!   d(run)  = logit[right] − logit[wrong]          at the last position
//!   effect  = (d(patched) − d(corrupt)) / (d(clean) − d(corrupt))
//! ```
//!
//! 0 means the patch restored nothing, 1 that it restored the clean answer
//! fully. The sites are those of TransformerLens' `patching` module: the
//! residual stream entering a layer at one position, one head's output at
//! every position (or at the last), and the attention block's or the
//! feed-forward block's output at one position. Each patched run starts at
//! its layer from the corrupted run's kept input ([`Forward`]), and a layer's
//! variants run together ([`Layered::layer_runs`]) where the model can.

use super::forward::{forward, run_from, Forward};
use crate::error::{Error, Result};
use crate::tensor::Matrix;
use crate::trace::layered::{Edit, Layered, Readout};
use crate::trace::LayerTrace;
use serde::{Deserialize, Serialize};

/// One line, for the page and the CLI's help.
pub const DEFINITION: &str = "activation patching: one activation of the clean run copied into the corrupted run and the rest run again; effect = (d − d_corrupt) / (d_clean − d_corrupt), d = logit(right) − logit(wrong) at the last position (0: nothing restored, 1: the clean answer restored)";

/// What is copied from the clean run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Site {
    /// The residual stream entering layer l at position p (layers × positions).
    Residual,
    /// Head h's output Z_h (before W_O) of layer l (layers × heads), at every
    /// position or at the last only ([`PatchJob::start`]'s `last_only`).
    Heads,
    /// The attention block's output of layer l at position p (layers × positions).
    Attention,
    /// The feed-forward block's output of layer l at position p (layers × positions).
    FeedForward,
}

impl Site {
    pub fn name(self) -> &'static str {
        match self {
            Site::Residual => "residual stream",
            Site::Heads => "heads' outputs",
            Site::Attention => "attention block",
            Site::FeedForward => "feed-forward block",
        }
    }
}

/// What is done with two prompts of different token lengths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fit {
    /// Nothing: they must have the same length (else a message saying where they part).
    #[default]
    Exact,
    /// The shorter one gets filler tokens (a space) where its differing words end, so the words
    /// after them line up.
    Pad,
    /// The longer one's differing words lose their last tokens.
    Trim,
}

/// An answer token, as asked for and as the model reads it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub id: u32,
    pub token: String,
    /// Set when the text asked for is more than one token: the first is used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One site's map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PatchMap {
    pub site: Site,
    /// What the columns are: "position" or "head".
    pub columns: String,
    /// `effect[l][c]`, normalized (0: corrupted, 1: clean).
    pub effect: Vec<Vec<f32>>,
    /// `logit_diff[l][c]`: d of the patched run, raw.
    pub logit_diff: Vec<Vec<f32>>,
}

/// Every map asked for, with the two runs' figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Patching {
    pub clean_tokens: Vec<String>,
    pub corrupt_tokens: Vec<String>,
    /// Positions where the two prompts' tokens differ.
    pub differ_at: Vec<usize>,
    pub right: Answer,
    pub wrong: Answer,
    /// d of the clean and of the corrupted run.
    pub clean_logit_diff: f32,
    pub corrupt_logit_diff: f32,
    /// Heads patched at the last position only (else at every position).
    pub heads_last_only: bool,
    /// What padding or trimming made the lengths equal, if any did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fitted: Option<String>,
    pub maps: Vec<PatchMap>,
}

/// One cell's patched run, whole: the corrupted run's layers below the
/// patched one, then the layers run again with the patch.
#[derive(Clone, Debug)]
pub struct PatchedRun {
    pub tokens: Vec<String>,
    /// `layers[l]`: layer l's trace in the patched run.
    pub layers: Vec<LayerTrace>,
    /// d of the patched run and its effect (the map's cell).
    pub logit_diff: f32,
    pub effect: f32,
}

/// Variants run together at most: 64 runs of a 256-token text are 16,384
/// rows, about 150 MB of SmolLM2's feed-forward activations at a time.
const MAX_ROWS: usize = 16_384;

/// The answer `text` as one token of `model`: its first (after any token
/// the tokenizer puts before every text), with a note when there are more.
pub fn answer(model: &dyn Layered, text: &str, which: &str) -> Result<Answer> {
    if text.is_empty() {
        return Err(Error::Invalid(format!("the {which} answer has no tokens: type a word")));
    }
    let (ids, tokens) = model.tokens(text)?;
    let skip = model.special_ids()?.0.len().min(ids.len());
    let (ids, tokens) = (&ids[skip..], &tokens[skip..]);
    let (Some(&id), Some(token)) = (ids.first(), tokens.first()) else {
        return Err(Error::Invalid(format!("the {which} answer has no tokens: type a word")));
    };
    let note = (ids.len() > 1).then(|| {
        format!(
            "the {which} answer {text:?} is {} tokens; its first, {token:?}, is used",
            ids.len()
        )
    });
    Ok(Answer { id, token: token.clone(), note })
}

/// The positions where two token lists differ, or why they cannot be patched.
pub fn differences(clean: &[String], corrupt: &[String]) -> Result<Vec<usize>> {
    if clean.len() != corrupt.len() {
        let first = clean.iter().zip(corrupt).position(|(a, b)| a != b);
        let from = first.unwrap_or(clean.len().min(corrupt.len()));
        return Err(Error::Invalid(format!(
            "the clean prompt has {} tokens and the corrupted one {}; they differ from position \
             {from} on: patching needs the same number of tokens (pad or trim one of them)",
            clean.len(),
            corrupt.len()
        )));
    }
    let at: Vec<usize> = (0..clean.len()).filter(|&i| clean[i] != corrupt[i]).collect();
    if at.is_empty() {
        return Err(Error::Invalid(
            "the two prompts are the same: the effect is undefined (change a word of the corrupted one)"
                .into(),
        ));
    }
    Ok(at)
}

/// A prompt's token ids and their tokens.
pub type Tokens = (Vec<u32>, Vec<String>);

/// Token lists (ids with their tokens) made the same length as `fit` says:
/// the two lists, and a sentence on what was changed (None when nothing).
/// The change is made where the differing tokens end (after the longest
/// common start and end), so the shared words after them keep their
/// positions.
pub fn fit_lengths(
    clean: Tokens,
    corrupt: Tokens,
    fit: Fit,
    filler: Option<(u32, String)>,
) -> Result<(Tokens, Tokens, Option<String>)> {
    let (n_clean, n_corrupt) = (clean.0.len(), corrupt.0.len());
    if n_clean == n_corrupt || fit == Fit::Exact {
        return Ok((clean, corrupt, None));
    }
    let clean_is_short = n_clean < n_corrupt;
    let (mut short, mut long) = if clean_is_short { (clean, corrupt) } else { (corrupt, clean) };
    let (ns, nl) = (short.0.len(), long.0.len());
    let k = nl - ns;
    let start = (0..ns).take_while(|&i| short.0[i] == long.0[i]).count();
    let end = (0..ns - start).take_while(|&i| short.0[ns - 1 - i] == long.0[nl - 1 - i]).count();
    let (short_name, long_name) =
        if clean_is_short { ("clean", "corrupted") } else { ("corrupted", "clean") };
    let plural = |k: usize| if k == 1 { "token" } else { "tokens" };
    let note = match fit {
        Fit::Pad => {
            let Some((id, token)) = filler else {
                return Err(Error::Invalid(
                    "this tokenizer has no one-token filler to pad with: trim instead".into(),
                ));
            };
            let at = ns - end;
            short.0.splice(at..at, std::iter::repeat_n(id, k));
            short.1.splice(at..at, std::iter::repeat_n(token.clone(), k));
            format!(
                "{k} filler {} {token:?} put into the {short_name} prompt at position {at}, so both have {nl} tokens",
                plural(k)
            )
        }
        Fit::Trim => {
            let cut = nl - end - k..nl - end;
            let gone: Vec<String> = long.1.drain(cut.clone()).collect();
            long.0.drain(cut.clone());
            format!(
                "the {long_name} prompt's {k} {} at position {} ({}) left out, so both have {ns} tokens",
                plural(k),
                cut.start,
                gone.iter().map(|t| format!("{t:?}")).collect::<Vec<_>>().join(", ")
            )
        }
        Fit::Exact => unreachable!("returned above"),
    };
    let (clean, corrupt) = if clean_is_short { (short, long) } else { (long, short) };
    Ok((clean, corrupt, Some(note)))
}

/// The token a prompt is padded with: a space, where it is one token.
fn filler(model: &dyn Layered) -> Result<Option<(u32, String)>> {
    let (ids, tokens) = model.tokens(" ")?;
    let (before, after) = model.special_ids()?;
    let from = before.len().min(ids.len());
    let to = ids.len().saturating_sub(after.len()).max(from);
    Ok((to == from + 1).then(|| (ids[from], tokens[from].clone())))
}

/// The maps of a prompt pair computed a layer (or a part of one) at a time,
/// so that the page's worker can report progress and stop between steps.
pub struct PatchJob {
    clean: Forward,
    corrupt: Forward,
    differ_at: Vec<usize>,
    right: Answer,
    wrong: Answer,
    clean_diff: f32,
    corrupt_diff: f32,
    heads_last_only: bool,
    fitted: Option<String>,
    maps: Vec<PatchMap>,
    /// The steps, each a site, a layer and the columns it runs.
    steps: Vec<(usize, usize, std::ops::Range<usize>)>,
    done: usize,
}

impl PatchJob {
    /// Runs both prompts once (made the same length as `fit` says), keeping
    /// each layer's input, and plans the maps of `sites`.
    pub fn start(
        model: &dyn Layered,
        (clean, corrupt): (&str, &str),
        (right, wrong): (&str, &str),
        sites: &[Site],
        heads_last_only: bool,
        fit: Fit,
    ) -> Result<PatchJob> {
        let info = model.info();
        if info.mask == crate::Mask::None {
            return Err(Error::Invalid(format!(
                "{}: patching measures a next token's logits, which an encoder does not give",
                info.name
            )));
        }
        if sites.is_empty() {
            return Err(Error::Invalid("no site to patch".into()));
        }
        if clean.is_empty() || corrupt.is_empty() {
            return Err(Error::Invalid("a prompt has no tokens: type some text".into()));
        }
        let (clean, corrupt) = (model.tokens(clean)?, model.tokens(corrupt)?);
        if clean.0.is_empty() || corrupt.0.is_empty() {
            return Err(Error::Invalid("a prompt has no tokens: type some text".into()));
        }
        let filler = if fit == Fit::Pad { filler(model)? } else { None };
        let ((clean_ids, clean_tokens), (corrupt_ids, corrupt_tokens), fitted) =
            fit_lengths(clean, corrupt, fit, filler)?;
        if clean_ids.len() > info.max_tokens {
            return Err(Error::Invalid(format!(
                "padded, the prompts have {} tokens; {} reads at most {}",
                clean_ids.len(),
                info.name,
                info.max_tokens
            )));
        }
        let differ_at = differences(&clean_tokens, &corrupt_tokens)?;
        let (right, wrong) = (answer(model, right, "right")?, answer(model, wrong, "wrong")?);
        if right.id == wrong.id {
            return Err(Error::Invalid(format!(
                "the right and the wrong answer are the same token, {:?}: the logit difference is 0",
                right.token
            )));
        }
        let clean = forward(model, &clean_ids, clean_tokens)?;
        let corrupt = forward(model, &corrupt_ids, corrupt_tokens)?;
        let diff = |run: &Forward| -> Result<f32> {
            let last = run.output.rows_range(run.output.rows - 1, 1);
            Ok(logit_diffs(model, &last, &right, &wrong)?[0])
        };
        let (clean_diff, corrupt_diff) = (diff(&clean)?, diff(&corrupt)?);
        if !(clean_diff - corrupt_diff).is_normal() || (clean_diff - corrupt_diff).abs() < 1e-4 {
            return Err(Error::Invalid(format!(
                "the logit difference is {clean_diff:.4} on the clean prompt and {corrupt_diff:.4} on the \
                 corrupted one: with no gap between them the effect is undefined (choose answers the two \
                 prompts disagree on)"
            )));
        }
        let (n, n_layers) = (clean_ids.len(), info.n_layers);
        let chunk = (MAX_ROWS / n).max(1);
        let mut steps = Vec::new();
        let mut maps = Vec::new();
        for (s, &site) in sites.iter().enumerate() {
            let (columns, width) =
                if site == Site::Heads { ("head", info.n_heads) } else { ("position", n) };
            for l in 0..n_layers {
                for c in (0..width).step_by(chunk) {
                    steps.push((s, l, c..(c + chunk).min(width)));
                }
            }
            maps.push(PatchMap {
                site,
                columns: columns.into(),
                effect: vec![vec![0.0; width]; n_layers],
                logit_diff: vec![vec![corrupt_diff; width]; n_layers],
            });
        }
        Ok(PatchJob {
            clean,
            corrupt,
            differ_at,
            right,
            wrong,
            clean_diff,
            corrupt_diff,
            heads_last_only,
            fitted,
            maps,
            steps,
            done: 0,
        })
    }

    pub fn done(&self) -> usize {
        self.done
    }

    pub fn total(&self) -> usize {
        self.steps.len()
    }

    pub fn is_finished(&self) -> bool {
        self.done >= self.steps.len()
    }

    /// Runs the next step: one site's variants of one layer.
    pub fn step(&mut self, model: &dyn Layered) -> Result<()> {
        let Some((s, l, cols)) = self.steps.get(self.done).cloned() else {
            return Ok(());
        };
        let site = self.maps[s].site;
        // Where the clean activation is the corrupted one bit for bit (every
        // position before the first difference, under a causal mask), the
        // patched run is the corrupted run: its d is d_corrupt, not run again.
        let cols: Vec<usize> = cols.filter(|&c| !self.same(site, l, c)).collect();
        if !cols.is_empty() {
            let last = match site {
                Site::Residual => self.residual(model, l, &cols)?,
                Site::Heads => self.heads(model, l, &cols)?,
                Site::Attention => self.attention(model, l, &cols)?,
                Site::FeedForward => self.feed_forward(model, l, &cols)?,
            };
            let diffs = logit_diffs(model, &last, &self.right, &self.wrong)?;
            let map = &mut self.maps[s];
            for (&c, d) in cols.iter().zip(diffs) {
                map.logit_diff[l][c] = d;
                map.effect[l][c] = (d - self.corrupt_diff) / (self.clean_diff - self.corrupt_diff);
            }
        }
        self.done += 1;
        Ok(())
    }

    /// Whether the clean run's activation at (`site`, layer `l`, column `c`)
    /// equals the corrupted run's bit for bit.
    fn same(&self, site: Site, l: usize, c: usize) -> bool {
        let (clean, corrupt) = (&self.clean, &self.corrupt);
        fn concat(run: &Forward, l: usize) -> &Matrix {
            &run.layers[l].attention.concat
        }
        match site {
            Site::Residual => clean.inputs[l].row(c) == corrupt.inputs[l].row(c),
            Site::Heads => {
                let d_head = concat(clean, l).cols / clean.layers[l].attention.heads.len();
                let cols = c * d_head..(c + 1) * d_head;
                (0..concat(clean, l).rows).all(|i| {
                    concat(clean, l).row(i)[cols.clone()] == concat(corrupt, l).row(i)[cols.clone()]
                })
            }
            Site::Attention => concat(clean, l).row(c) == concat(corrupt, l).row(c),
            Site::FeedForward => {
                clean.layers[l].residual.row(c) == corrupt.layers[l].residual.row(c)
                    && clean.after(l).row(c) == corrupt.after(l).row(c)
            }
        }
    }

    /// The corrupted residual entering layer `l` with row `p` taken from the
    /// clean run.
    fn residual_patched(&self, l: usize, p: usize) -> Matrix {
        with_row(&self.corrupt.inputs[l], p, self.clean.inputs[l].row(p))
    }

    /// Copies head h's Z_h of layer `l` from the clean run (at every position,
    /// or at the last) into a run's [Z_1 | … | Z_H] (n × H·d_head).
    fn head_patch(&self, l: usize, h: usize) -> impl Fn(&mut Matrix) + '_ {
        let clean = &self.clean.layers[l].attention.concat;
        let d_head = clean.cols / self.clean.layers[l].attention.heads.len();
        let rows = if self.heads_last_only { clean.rows - 1..clean.rows } else { 0..clean.rows };
        let cols = h * d_head..(h + 1) * d_head;
        move |z: &mut Matrix| {
            for i in rows.clone() {
                z.row_mut(i)[cols.clone()].copy_from_slice(&clean.row(i)[cols.clone()]);
            }
        }
    }

    /// Copies every head's output at position p of layer `l` from the clean
    /// run (so the attention block's output there is the clean run's: W_O
    /// acts on each row alone).
    fn attention_patch(&self, l: usize, p: usize) -> impl Fn(&mut Matrix) + '_ {
        let clean = &self.clean.layers[l].attention.concat;
        move |z: &mut Matrix| z.row_mut(p).copy_from_slice(clean.row(p))
    }

    /// The corrupted residual leaving layer `l` with the feed-forward's output
    /// at position p taken from the clean run. A decoder's layer leaves
    /// h + ΔE + f(h + ΔE), each row alone, so the patched row is the corrupted
    /// h + ΔE plus the clean f.
    fn feed_forward_patched(&self, l: usize, p: usize) -> Matrix {
        let (clean, corrupt) = (&self.clean, &self.corrupt);
        let (clean_mid, corrupt_mid) = (&clean.layers[l].residual, &corrupt.layers[l].residual);
        let (clean_out, corrupt_out) = (clean.after(l), corrupt.after(l));
        let row: Vec<f32> = (0..corrupt_out.cols)
            .map(|j| corrupt_mid[(p, j)] + (clean_out[(p, j)] - clean_mid[(p, j)]))
            .collect();
        with_row(corrupt_out, p, &row)
    }

    /// The residual map's runs of layer `l`: the last rows.
    fn residual(&self, model: &dyn Layered, l: usize, positions: &[usize]) -> Result<Matrix> {
        let runs: Vec<Matrix> = positions.iter().map(|&p| self.residual_patched(l, p)).collect();
        last_rows_from(model, l, &Matrix::concat_rows(&runs), self.corrupt.inputs[l].rows)
    }

    /// The heads map's runs of layer `l`: the last rows.
    fn heads(&self, model: &dyn Layered, l: usize, heads: &[usize]) -> Result<Matrix> {
        let patches: Vec<_> = heads.iter().map(|&h| self.head_patch(l, h)).collect();
        let edits: Vec<Edit> = patches.iter().map(|e| e as Edit).collect();
        edited_from(model, l, &self.corrupt.inputs[l], &edits)
    }

    /// The attention block's runs of layer `l`: the last rows.
    fn attention(&self, model: &dyn Layered, l: usize, positions: &[usize]) -> Result<Matrix> {
        let patches: Vec<_> = positions.iter().map(|&p| self.attention_patch(l, p)).collect();
        let edits: Vec<Edit> = patches.iter().map(|e| e as Edit).collect();
        edited_from(model, l, &self.corrupt.inputs[l], &edits)
    }

    /// The feed-forward block's runs of layer `l`: the last rows.
    fn feed_forward(&self, model: &dyn Layered, l: usize, positions: &[usize]) -> Result<Matrix> {
        let runs: Vec<Matrix> =
            positions.iter().map(|&p| self.feed_forward_patched(l, p)).collect();
        last_rows_from(model, l + 1, &Matrix::concat_rows(&runs), self.corrupt.inputs[l].rows)
    }

    /// The run of one cell of a map (`site`, layer `l`, column `c`), every
    /// layer kept: what the page draws beside the clean run.
    pub fn patched_run(
        &self,
        model: &dyn Layered,
        site: Site,
        l: usize,
        c: usize,
    ) -> Result<PatchedRun> {
        let info = model.info();
        let width = if site == Site::Heads { info.n_heads } else { self.corrupt.tokens.len() };
        if l >= info.n_layers || c >= width {
            return Err(Error::Invalid(format!("no cell ({l}, {c}) in the {} map", site.name())));
        }
        let head = self.head_patch(l, c);
        let block = self.attention_patch(l, c);
        let (from, input, edit): (usize, Matrix, Option<Edit>) = match site {
            Site::Residual => (l, self.residual_patched(l, c), None),
            Site::Heads => (l, self.corrupt.inputs[l].clone(), Some(&head)),
            Site::Attention => (l, self.corrupt.inputs[l].clone(), Some(&block)),
            Site::FeedForward => (l + 1, self.feed_forward_patched(l, c), None),
        };
        let (out, above) = run_from(model, from, &input, |m| if m == l { edit } else { None })?;
        let last = out.rows_range(out.rows - 1, 1);
        let logit_diff = logit_diffs(model, &last, &self.right, &self.wrong)?[0];
        let mut layers = self.corrupt.layers[..from].to_vec();
        layers.extend(above);
        Ok(PatchedRun {
            tokens: self.corrupt.tokens.clone(),
            layers,
            logit_diff,
            effect: (logit_diff - self.corrupt_diff) / (self.clean_diff - self.corrupt_diff),
        })
    }

    /// The maps so far (steps not yet run are 0).
    pub fn finish(self) -> Patching {
        Patching {
            clean_tokens: self.clean.tokens,
            corrupt_tokens: self.corrupt.tokens,
            differ_at: self.differ_at,
            right: self.right,
            wrong: self.wrong,
            clean_logit_diff: self.clean_diff,
            corrupt_logit_diff: self.corrupt_diff,
            heads_last_only: self.heads_last_only,
            fitted: self.fitted,
            maps: self.maps,
        }
    }
}

/// `m` with row `i` replaced by `row`.
fn with_row(m: &Matrix, i: usize, row: &[f32]) -> Matrix {
    let mut m = m.clone();
    m.row_mut(i).copy_from_slice(row);
    m
}

/// logit[right] − logit[wrong] of each row of `h` (the last layer's output
/// at the last position of each run).
fn logit_diffs(
    model: &dyn Layered,
    h: &Matrix,
    right: &Answer,
    wrong: &Answer,
) -> Result<Vec<f32>> {
    let Readout::Logits(z) = model.readout(h) else {
        return Err(Error::Invalid("patching needs a model that reads out logits".into()));
    };
    let d: Vec<f32> =
        (0..z.rows).map(|i| z[(i, right.id as usize)] - z[(i, wrong.id as usize)]).collect();
    if d.iter().any(|x| !x.is_finite()) {
        return Err(Error::Invalid("a patched run gave a logit that is not a number".into()));
    }
    Ok(d)
}

/// Runs of `n` rows of `h` entering layer `from`, through the last layer:
/// the last row of each run (runs × d_model).
fn last_rows_from(model: &dyn Layered, from: usize, h: &Matrix, n: usize) -> Result<Matrix> {
    let n_layers = model.info().n_layers;
    let last_rows = |h: &Matrix| h.select_rows(&(n - 1..h.rows).step_by(n).collect::<Vec<_>>());
    if from >= n_layers {
        return Ok(last_rows(h));
    }
    let mut batched = Some(h.clone());
    for m in from..n_layers {
        let Some(x) = batched.take() else { break };
        match model.layer_runs(m, &x, n, &[], m + 1 == n_layers) {
            Some(out) => batched = Some(out?),
            // Not batched: each run on its own, from the start.
            None => return one_by_one(model, from, h, n),
        }
    }
    Ok(batched.expect("every layer ran"))
}

/// [`last_rows_from`] a run at a time, for a model without batched layers.
fn one_by_one(model: &dyn Layered, from: usize, h: &Matrix, n: usize) -> Result<Matrix> {
    let mut last = Vec::new();
    for s in (0..h.rows).step_by(n) {
        let (out, _) = super::forward::run_from(model, from, &h.rows_range(s, n), |_| None)?;
        last.push(out.rows_range(n - 1, 1));
    }
    Ok(Matrix::concat_rows(&last))
}

/// Layer `l` on the run `h`, once per edit of its heads' outputs, then the
/// layers above: the last row of each edited run (edits × d_model).
fn edited_from(model: &dyn Layered, l: usize, h: &Matrix, edits: &[Edit]) -> Result<Matrix> {
    let n = h.rows;
    let last = l + 1 == model.info().n_layers;
    if let Some(out) = model.layer_runs(l, h, n, edits, last) {
        let out = out?;
        return if last { Ok(out) } else { last_rows_from(model, l + 1, &out, n) };
    }
    let mut rows = Vec::new();
    for &edit in edits {
        let (out, _) = super::forward::run_from(model, l, h, |m| (m == l).then_some(edit))?;
        rows.push(out.rows_range(n - 1, 1));
    }
    Ok(Matrix::concat_rows(&rows))
}

/// Every map of `sites` for the pair; `progress(done, total)` after each
/// step, returning false to cancel (the result is then None).
pub fn patching(
    model: &dyn Layered,
    prompts: (&str, &str),
    answers: (&str, &str),
    sites: &[Site],
    heads_last_only: bool,
    fit: Fit,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Option<Patching>> {
    let mut job = PatchJob::start(model, prompts, answers, sites, heads_last_only, fit)?;
    while !job.is_finished() {
        job.step(model)?;
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
    fn prompts_must_differ_and_match_in_length() {
        let t = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(differences(&t("a b c"), &t("a x c")).unwrap(), vec![1]);
        let e = differences(&t("a b c"), &t("a b")).unwrap_err().to_string();
        assert!(e.contains("3 tokens") && e.contains("2") && e.contains("position 2"), "{e}");
        let e = differences(&t("a b"), &t("a x y")).unwrap_err().to_string();
        assert!(e.contains("position 1"), "{e}");
        assert!(differences(&t("a b"), &t("a b")).unwrap_err().to_string().contains("the same"));
    }

    /// Ids 1…, tokens their words: "the Eiffel Tower is" and "the Colosseum is".
    fn toks(words: &str) -> (Vec<u32>, Vec<String>) {
        let ws: Vec<String> = words.split(' ').map(String::from).collect();
        let id = |w: &String| w.bytes().map(u32::from).sum::<u32>();
        (ws.iter().map(id).collect(), ws)
    }

    #[test]
    fn different_lengths_are_padded_or_trimmed_where_the_words_differ() {
        let (clean, corrupt) = (toks("the Eiffel Tower is in"), toks("the Colosseum is in"));
        let (a, b, note) = fit_lengths(clean.clone(), corrupt.clone(), Fit::Exact, None).unwrap();
        assert_eq!((a.1.len(), b.1.len(), note), (5, 4, None));
        let pad = Some((0, "_".to_string()));
        let (a, b, note) = fit_lengths(clean.clone(), corrupt.clone(), Fit::Pad, pad).unwrap();
        assert_eq!(a, clean);
        assert_eq!(b.1, ["the", "Colosseum", "_", "is", "in"]);
        assert_eq!(b.0[2], 0);
        assert!(note.unwrap().contains("corrupted prompt at position 2"));
        let (a, b, note) = fit_lengths(clean.clone(), corrupt.clone(), Fit::Trim, None).unwrap();
        assert_eq!((a.1, b), (toks("the Eiffel is in").1, corrupt.clone()));
        assert!(note.unwrap().contains("clean prompt's 1 token at position 2 (\"Tower\")"));
        // The corrupted prompt the longer, the change at the end of the text.
        let (a, b, _) =
            fit_lengths(toks("a b c"), toks("a b c d e"), Fit::Pad, Some((0, "_".into()))).unwrap();
        assert_eq!((a.1.join(" "), b.1.len()), ("a b c _ _".to_string(), 5));
        assert!(fit_lengths(clean, corrupt, Fit::Pad, None).is_err());
    }
}
