//! A decoder with a key/value cache: the layers of the last text are kept,
//! and a text that starts with the same tokens reuses their rows.

use super::{check_temperature, Decoder, Tokens, TOP_K};
use crate::attention::{attend, Attend, Scale};
use crate::error::Result;
use crate::tensor::Matrix;
use crate::trace::{LayerTrace, ModelTrace, KEEP_WEIGHTS_UP_TO};

/// Positions of room the session's cache keeps for tokens typed at the end
/// (a word or two), at least; a long text gets a sixteenth of its length
/// more (up to the model's limit), so that its trace moves to larger
/// storage once every so many keystrokes, and by a sixteenth rather than
/// doubling (a long text's trace is most of the worker's memory).
const ROOM: usize = 8;

/// A decoder with a key/value cache: running a text that starts with the
/// same tokens as the previous one reuses their rows (typing at the end
/// computes only the new tokens; an edit in the middle recomputes from there on).
pub struct DecoderSession {
    model: Decoder,
    last: Option<Last>,
    reused: usize,
}

struct Last {
    trace: ModelTrace,
    logits: Vec<f32>,
}

impl DecoderSession {
    pub fn new(model: impl Into<Decoder>) -> DecoderSession {
        DecoderSession { model: model.into(), last: None, reused: 0 }
    }

    pub fn model(&self) -> &Decoder {
        &self.model
    }

    pub fn into_model(self) -> Decoder {
        self.model
    }

    /// Forgets the cache.
    pub fn clear(&mut self) {
        self.last = None;
        self.reused = 0;
    }

    /// How many tokens of the last run came from the cache.
    pub fn reused_tokens(&self) -> usize {
        self.reused
    }

    /// Threads the last run computed on ([`Decoder::threads_for`] its new
    /// tokens; 1 when it computed nothing).
    pub fn threads(&self) -> usize {
        self.last.as_ref().map_or(1, |l| self.model.threads_for(l.trace.tokens.len() - self.reused))
    }

    pub fn run(&mut self, text: &str) -> Result<&ModelTrace> {
        self.run_with_temperature(text, 1.0)
    }

    /// The trace of the latest successful run (None after [`Self::clear`] or
    /// an error).
    pub fn latest(&self) -> Option<&ModelTrace> {
        self.last.as_ref().map(|l| &l.trace)
    }

    /// The logits after the latest run's last token.
    pub fn latest_logits(&self) -> Option<&[f32]> {
        self.last.as_ref().map(|l| l.logits.as_slice())
    }

    /// The latest trace cut to its first `n` tokens: exactly what running
    /// them alone gives under the causal mask (a generation's earlier step),
    /// without the next-token list, whose logits are not kept.
    pub fn latest_upto(&self, n: usize) -> Option<ModelTrace> {
        let trace = &self.last.as_ref()?.trace;
        if n == 0 || n > trace.tokens.len() {
            return None;
        }
        // A layer at a time, each let go of what it cut: a copy of the whole
        // trace first would double the worker's memory, which never shrinks.
        let layers = trace
            .layers
            .iter()
            .map(|l| {
                let mut cut = truncate(l.clone(), n);
                each_matrix(&mut cut, |m| m.data.shrink_to_fit(), |m| m.data.shrink_to_fit());
                cut
            })
            .collect();
        Some(ModelTrace {
            info: trace.info.clone(),
            tokens: trace.tokens[..n].to_vec(),
            token_ids: trace.token_ids.as_ref().map(|ids| ids[..n].to_vec()),
            layers,
            notice: None,
            sentence_embedding: None,
            top_next: None,
        })
    }

    /// As [`Decoder::run_with_temperature`], reusing the longest common
    /// prefix of token ids with the previous run. After an error the cache
    /// may be empty (the next run then computes everything). The trace is
    /// lent, not copied: it stays here as the next run's cache.
    pub fn run_with_temperature(&mut self, text: &str, temperature: f32) -> Result<&ModelTrace> {
        check_temperature(temperature)?;
        let t = self.model.tokenize(text)?;
        self.run_tokens(t, temperature)
    }

    /// As [`Self::run_with_temperature`], on tokens already made (a
    /// generation's, which tokenizing their text might not give again).
    pub fn run_tokens(&mut self, t: Tokens, temperature: f32) -> Result<&ModelTrace> {
        check_temperature(temperature)?;
        let old: &[u32] =
            self.last.as_ref().and_then(|l| l.trace.token_ids.as_deref()).unwrap_or(&[]);
        let common = old.iter().zip(&t.ids).take_while(|(a, b)| a == b).count();
        if common == t.ids.len() && common == old.len() {
            // Same tokens (e.g. only the temperature changed): nothing to compute.
            let last = self.last.as_mut().expect("old ids come from `last`");
            last.trace.notice = t.notice;
            last.trace.top_next = Some(self.model.top_next(&last.logits, temperature, TOP_K));
            self.reused = common;
            return Ok(&last.trace);
        }
        // The logits of the last token are only kept for the last position,
        // so at least that token is always recomputed.
        let keep = common.min(t.ids.len() - 1);
        let past: Vec<LayerTrace> = match self.last.take() {
            Some(l) if keep == l.trace.tokens.len() => l.trace.layers,
            Some(l) if keep > 0 => l.trace.layers.into_iter().map(|x| truncate(x, keep)).collect(),
            _ => Vec::new(),
        };
        let room = ROOM
            .max(t.ids.len() / 16)
            .min(self.model.info().max_tokens.saturating_sub(t.ids.len()));
        let (layers, logits) = self.model.forward(&t.ids, past, room)?;
        let trace = self.model.trace(t, layers, &logits, temperature);
        self.reused = keep;
        Ok(&self.last.insert(Last { trace, logits }).trace)
    }
}

/// The layer for all positions, from the layer of the first `p` (`before`)
/// and the part for the new `m` positions (`part`, whose K, V and scores
/// already span all p + m keys). Old rows are kept as they are; only the
/// old queries' raw scores against the new keys are added, as a full
/// recompute would have them (their weights are 0: the mask hides them).
/// `before` grows in place, so a keystroke at the end of a long text costs
/// the new rows, not a copy of every layer.
pub(crate) fn join(mut before: LayerTrace, part: LayerTrace) -> LayerTrace {
    let (b, p) = (&mut before.attention, part.attention);
    match &mut before.summaries {
        // A long text's layer: the new rows are summed up, not kept.
        Some(summaries) => {
            for (summary, (old, new)) in summaries.iter_mut().zip(b.heads.iter_mut().zip(p.heads)) {
                // Weights of no row: summed up as the block computed them (parts::summing_heads).
                if new.weights.rows > 0 {
                    summary.add(&new.weights);
                }
                (old.scale, old.mask) = (new.scale, new.mask);
            }
        }
        None => {
            for (h, (old, new)) in b.heads.iter_mut().zip(p.heads).enumerate() {
                let seen = old.scores.cols;
                let k_new = p.k[p.kv_head_of[h]].rows_range(seen, new.scores.cols - seen);
                old.scores.push_cols(&b.q[h].matmul_t(&k_new));
                old.scores.push_rows(&new.scores);
                old.weights.push_cols(&Matrix::zeros(old.weights.rows, k_new.rows));
                old.weights.push_rows(&new.weights);
                old.output.push_rows(&new.output);
                (old.scale, old.mask) = (new.scale, new.mask);
            }
        }
    }
    for (old, new) in b.q.iter_mut().zip(&p.q) {
        old.push_rows(new);
    }
    if before.summaries.is_none() {
        b.concat.push_rows(&p.concat);
    }
    (b.k, b.v, b.kv_head_of) = (p.k, p.v, p.kv_head_of);
    if before.holds_input() {
        before.input.push_rows(&part.input);
        before.residual.push_rows(&part.residual);
    }
    before.delta.push_rows(&part.delta);
    if let (Some(h), Some(new)) = (&mut before.stream, &part.stream) {
        h.push_rows(new);
    }
    before
}

/// The layer restricted to its first `n` positions: exactly what running the
/// first `n` tokens alone gives, since no earlier row depends on a later token.
/// In place, as [`join`] is.
pub(crate) fn truncate(mut l: LayerTrace, n: usize) -> LayerTrace {
    if l.summaries.is_some() {
        // A long text's sums lose the rows cut: their weights are computed
        // again from their queries and taken away. A text short enough gets
        // its heads' S, A and Z back.
        if n > KEEP_WEIGHTS_UP_TO {
            let att = &l.attention;
            for (h, summary) in l.summaries.iter_mut().flatten().enumerate() {
                let (t, kv) = (&att.heads[h], att.kv_head_of[h]);
                let cut = att.q[h].rows_range(n, att.q[h].rows - n);
                summary.remove_last(
                    &attend(
                        &cut,
                        &att.k[kv],
                        &att.v[kv],
                        Attend::new(t.mask, Scale::Factor(t.scale)),
                    )
                    .weights,
                );
            }
        }
        each_matrix(&mut l, |m| m.truncate_rows(n), |_| {});
        let att = &mut l.attention;
        if n <= KEEP_WEIGHTS_UP_TO {
            att.heads = (0..att.heads.len()).map(|h| att.head(h).into_owned()).collect();
            att.concat = Matrix::concat_cols(
                &att.heads.iter().map(|t| t.output.clone()).collect::<Vec<_>>(),
            );
            l.summaries = None;
        }
        return l;
    }
    each_matrix(
        &mut l,
        |m| m.truncate_rows(n),
        |square| {
            square.truncate_rows(n);
            square.truncate_cols(n);
        },
    );
    l
}

/// Room in every matrix of the layer that [`join`] grows for `extra` more
/// positions, so that the next keystrokes at the end of the text append in
/// place. Without it the first token appended after a full run moved the
/// whole trace (30 layers' Q, Z, residual rows, S and A) to larger storage:
/// a noticeable share of the keystroke.
pub(crate) fn make_room(l: &mut LayerTrace, extra: usize) {
    each_matrix(l, |m| m.reserve(extra, 0), |square| square.reserve(extra, extra));
}

/// Storage in every matrix of the layer for `new` more positions; where it
/// must move, with `room` more beyond them ([`make_room`]).
pub(crate) fn make_room_for(l: &mut LayerTrace, new: usize, room: usize) {
    each_matrix(l, |m| m.fit(new, 0, room), |square| square.fit(new, new, room));
}

/// `rows` on each matrix of the layer with a row per position (Q, K, V, Z,
/// the heads side by side, ΔE, h, and E and E + ΔE where held), `squares`
/// on each with a row and a column per position (S and A).
fn each_matrix(
    l: &mut LayerTrace,
    mut rows: impl FnMut(&mut Matrix),
    mut squares: impl FnMut(&mut Matrix),
) {
    let (holds_input, long) = (l.holds_input(), l.summaries.is_some());
    let a = &mut l.attention;
    let optional = [
        (!long).then_some(&mut a.concat),
        l.stream.as_mut(),
        holds_input.then_some(&mut l.input),
        holds_input.then_some(&mut l.residual),
    ];
    for m in
        a.q.iter_mut()
            .chain(&mut a.k)
            .chain(&mut a.v)
            .chain([&mut l.delta])
            .chain(optional.into_iter().flatten())
    {
        rows(m);
    }
    if long {
        return; // the heads hold no S, A or Z
    }
    for h in &mut a.heads {
        squares(&mut h.scores);
        squares(&mut h.weights);
        rows(&mut h.output);
    }
}
