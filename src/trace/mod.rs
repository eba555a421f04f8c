//! The ground floor above the formula: what a run of any model produces and
//! what every floor above reads. A [`ModelTrace`] holds the tokens and, for
//! every layer, each head's attention with its intermediates; a long text's
//! heads keep their sums instead ([`summary`]); [`thumbnail`] pools a head
//! for the overview; [`layered`] is a model seen layer by layer, which the
//! analyses run again; [`model_id`] names the built-in models and their files.
//!
//! Models, analyses, trace files and the session import it; it imports
//! nothing but the formula and the tensors.

mod finite;
pub mod layered;
pub mod model_id;
pub mod patches;
pub mod summary;
pub mod thumbnail;

pub use model_id::{ModelFile, ModelId};
pub use patches::PatchGrid;
pub use summary::{HeadStats, HeadSummary, BLOCK};
pub use thumbnail::{pool, Thumbnail, THUMB_MAX};

use crate::attention::{multi_head, AttendHeads, Mask, MultiHeadTrace, Scale};
use crate::tensor::Matrix;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// What a view needs to know about a model before running it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelInfo {
    /// Short id used in URLs and on the command line: "teaching", "minilm", "smollm2".
    pub id: String,
    pub name: String,
    pub n_layers: usize,
    pub n_heads: usize,
    pub n_kv_heads: usize,
    pub d_model: usize,
    pub d_head: usize,
    /// The mask the model was trained with.
    pub mask: Mask,
    /// Longest input in tokens; longer text is cut with a notice.
    pub max_tokens: usize,
}

/// One layer: the residual stream E going in, the attention of every head,
/// the update ΔE = [Z_1 | … | Z_H] W_O and, where the model has it in this
/// form, E' = E + ΔE.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LayerTrace {
    /// E: the input of this layer's attention (n × d_model), after any
    /// normalisation the model applies first. No rows where a long text
    /// keeps h alone ([`LayerTrace::let_go_of_input`]).
    pub input: Matrix,
    pub attention: MultiHeadTrace,
    /// ΔE (n × d_model).
    pub delta: Matrix,
    /// E + ΔE (n × d_model); no rows where `input` has none.
    pub residual: Matrix,
    /// h: the residual stream coming into the layer, before the norm that
    /// makes E (n × d_model), where a decoder keeps it. E is norm(h) and
    /// E + ΔE is h + ΔE, so a long text keeps h and ΔE in their place.
    #[serde(skip)]
    pub stream: Option<Matrix>,
    /// For a long text (see [`KEEP_WEIGHTS_UP_TO`]), what is kept of each
    /// head's weights after they are let go of ([`LayerTrace::let_go_of_weights`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summaries: Option<Vec<HeadSummary>>,
}

/// Texts up to this many tokens keep every head's S, A and Z in their
/// trace; a longer one keeps Q, K, V and [`HeadSummary`]s, and a view's
/// head is computed again from them ([`MultiHeadTrace::head`]), so that
/// memory grows with n, not with n² times the heads.
pub const KEEP_WEIGHTS_UP_TO: usize = 256;

/// What a model may need in the worker's memory: a wasm32 instance can
/// address 4 GiB, and a tab that asks for more than about half of that is
/// likely to be killed on an ordinary laptop or phone. An opened model that
/// needs more is refused, and a decoder's longest text is shortened to fit
/// (`files::longest_that_fits`).
pub const MEMORY_BUDGET: u64 = 2 << 30;

impl LayerTrace {
    pub fn new(
        input: Matrix,
        attention: MultiHeadTrace,
        delta: Matrix,
        residual: Matrix,
    ) -> LayerTrace {
        LayerTrace { input, attention, delta, residual, stream: None, summaries: None }
    }

    /// Whether the layer holds E and E + ΔE; if not, they are computed
    /// again from h ([`Self::input_or`], [`Self::residual_rows`]).
    pub fn holds_input(&self) -> bool {
        self.input.rows == self.delta.rows
    }

    /// Lets go of E and E + ΔE where the layer keeps h, which gives both
    /// again: a third less of its rows.
    pub fn let_go_of_input(&mut self) {
        if self.stream.is_some() {
            self.input = Matrix::zeros(0, self.input.cols);
            self.residual = Matrix::zeros(0, self.residual.cols);
        }
    }

    /// E: held, or `norm(h)` (the model's norm before this layer's attention).
    pub fn input_or(&self, norm: impl FnOnce(&Matrix) -> Matrix) -> Option<Cow<'_, Matrix>> {
        match &self.stream {
            _ if self.holds_input() => Some(Cow::Borrowed(&self.input)),
            Some(h) => Some(Cow::Owned(norm(h))),
            None => None,
        }
    }

    /// Rows `first .. first + n` of E + ΔE: held, or h + ΔE, the very sum
    /// the forward made.
    pub fn residual_rows(&self, first: usize, n: usize) -> Matrix {
        match &self.stream {
            Some(h) if !self.holds_input() => {
                h.rows_range(first, n).add(&self.delta.rows_range(first, n))
            }
            _ => self.residual.rows_range(first, n),
        }
    }

    /// Sums up every head's weights ([`HeadSummary`]), unless the layer has
    /// its sums already, and lets go of its S, A and Z.
    pub fn let_go_of_weights(&mut self) {
        if self.summaries.is_none() {
            self.summaries =
                Some(self.attention.heads.iter().map(|h| HeadSummary::of(&h.weights)).collect());
        }
        self.attention.let_go();
    }

    /// Each head's weights pooled for the overview.
    pub fn thumbnails(&self, max: usize) -> Vec<Matrix> {
        match &self.summaries {
            Some(heads) => heads.iter().map(|s| s.thumbnail(max)).collect(),
            None => self.attention.heads.iter().map(|h| thumbnail::pool(&h.weights, max)).collect(),
        }
    }
}

/// Everything computed for one text.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ModelTrace {
    pub info: ModelInfo,
    /// Tokens as the model sees them (subwords and special tokens included).
    pub tokens: Vec<String>,
    /// Vocabulary ids, where the model has a vocabulary.
    pub token_ids: Option<Vec<u32>>,
    pub layers: Vec<LayerTrace>,
    /// Set when the text was cut to `info.max_tokens` (or otherwise changed).
    pub notice: Option<String>,
    /// Mean-pooled, L2-normalised sentence embedding (encoders).
    pub sentence_embedding: Option<Vec<f32>>,
    /// Most likely next tokens with probabilities (decoders).
    pub top_next: Option<Vec<(String, f32)>>,
}

impl ModelTrace {
    /// The trace of a text with no tokens: every layer and head there, each
    /// with nothing in it, so that the page shows an empty box for a decoder
    /// as it does for the other models. (A decoder has nothing to run on; its
    /// `run` calls empty text an error, which the CLI reports.)
    pub fn empty(info: ModelInfo) -> ModelTrace {
        let none = |cols: usize| Matrix::zeros(0, cols);
        let layers = (0..info.n_layers)
            .map(|_| LayerTrace {
                summaries: None,
                stream: None,
                input: none(info.d_model),
                attention: multi_head(
                    &none(info.n_heads * info.d_head),
                    info.n_heads,
                    vec![none(info.d_head); info.n_kv_heads],
                    vec![none(info.d_head); info.n_kv_heads],
                    AttendHeads::new(info.mask, Scale::InvSqrtDk),
                ),
                delta: none(info.d_model),
                residual: none(info.d_model),
            })
            .collect();
        ModelTrace {
            info,
            tokens: Vec::new(),
            token_ids: Some(Vec::new()),
            layers,
            notice: None,
            sentence_embedding: None,
            top_next: None,
        }
    }

    /// Recomputes every head's weights (and outputs) under another mask,
    /// from the same Q and K: the encoder's causal grid, the decoder's
    /// unmasked one. Later layers are not re-run: this shows what each head
    /// would attend to, not what the model would then compute.
    pub fn apply_what_if_mask(&mut self, mask: Mask) {
        for layer in &mut self.layers {
            if layer.summaries.is_some() {
                // A long text's heads are summed up again under the new mask.
                layer.attention.heads.iter_mut().for_each(|head| head.mask = mask);
                let att = &layer.attention;
                layer.summaries = Some(
                    (0..att.heads.len()).map(|h| HeadSummary::of(&att.head(h).weights)).collect(),
                );
                continue;
            }
            let att = &mut layer.attention;
            for (h, head) in att.heads.iter_mut().enumerate() {
                head.weights = head.reweighed(mask, head.scale);
                head.output = head.weights.matmul(&att.v[att.kv_head_of[h]]);
                head.mask = mask;
            }
        }
    }

    /// A[layer][head] as rows (queries) of columns (keys).
    /// A long text's head is computed again ([`MultiHeadTrace::head`]).
    pub fn weights(&self, layer: usize, head: usize) -> Option<std::borrow::Cow<'_, Matrix>> {
        use std::borrow::Cow;
        let att = &self.layers.get(layer)?.attention;
        (head < att.heads.len()).then(|| match att.head(head) {
            Cow::Borrowed(t) => Cow::Borrowed(&t.weights),
            Cow::Owned(t) => Cow::Owned(t.weights),
        })
    }
}
