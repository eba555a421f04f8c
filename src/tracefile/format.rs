//! The description a trace file carries in its safetensors `__metadata__`
//! (docs/trace-format.md, "The description").

use crate::attention::Mask;
pub use crate::trace::PatchGrid;
use serde::{Deserialize, Serialize};

/// `__metadata__["format"]` of every trace file.
pub const FORMAT: &str = "attnscope-trace";
/// The newest version this build knows; it reads every `1.x`. A writer
/// declares the oldest version that has what the file holds: 1.1 for a vision
/// trace (`patches` and the `image` tensor), 1.0 for the rest
/// ([`TraceDescription::version`]).
pub const FORMAT_VERSION: &str = "1.1";
/// The major version this build reads.
pub const MAJOR_VERSION: u32 = 1;

/// Which model the attention comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelDescription {
    /// As the writer calls it (a Hub id, a file name).
    pub name: String,
    /// The model's class, e.g. `LlamaForCausalLM`.
    pub architecture: String,
    /// transformers' `model_type` (`llama`, `bert`, …), where there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_type: Option<String>,
}

/// Which keys a query could see in one layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawMask", into = "RawMask")]
pub enum MaskSpec {
    /// Every key (encoders).
    None,
    /// Key j for query i when j ≤ i (decoders).
    Causal,
    /// Key j for query i when j ≤ i and i − j < window.
    SlidingWindow { window: u64 },
    /// A mask type of a newer minor version: the weights are still valid,
    /// but nothing can be recomputed under it.
    Unknown,
}

/// A mask as JSON: `{"type": "sliding_window", "window": 512}`.
#[derive(Serialize, Deserialize)]
struct RawMask {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    window: Option<u64>,
}

impl TryFrom<RawMask> for MaskSpec {
    type Error = String;
    fn try_from(m: RawMask) -> Result<Self, String> {
        match (m.kind.as_str(), m.window) {
            ("none", _) => Ok(Self::None),
            ("causal", _) => Ok(Self::Causal),
            ("sliding_window", Some(w)) if w >= 1 => Ok(Self::SlidingWindow { window: w }),
            ("sliding_window", _) => {
                Err("a sliding_window mask needs a window of at least 1".into())
            }
            _ => Ok(Self::Unknown),
        }
    }
}

impl From<MaskSpec> for RawMask {
    fn from(m: MaskSpec) -> Self {
        let (kind, window) = match m {
            MaskSpec::None => ("none", None),
            MaskSpec::Causal => ("causal", None),
            MaskSpec::SlidingWindow { window } => ("sliding_window", Some(window)),
            MaskSpec::Unknown => ("unknown", None),
        };
        RawMask { kind: kind.into(), window }
    }
}

impl MaskSpec {
    /// Could query `i` see key `j`? None for an unknown mask.
    pub fn allows(self, i: usize, j: usize) -> Option<bool> {
        match self {
            Self::None => Some(true),
            Self::Causal => Some(j <= i),
            Self::SlidingWindow { window } => Some(j <= i && ((i - j) as u64) < window),
            Self::Unknown => None,
        }
    }

    /// The same mask in the core's terms, where the core has it.
    pub fn core(self) -> Option<Mask> {
        match self {
            Self::None => Some(Mask::None),
            Self::Causal => Some(Mask::Causal),
            Self::SlidingWindow { window } => usize::try_from(window).ok().map(Mask::SlidingWindow),
            Self::Unknown => None,
        }
    }

    pub fn name(self) -> String {
        match self {
            Self::None => "none".into(),
            Self::Causal => "causal".into(),
            Self::SlidingWindow { window } => format!("sliding_window({window})"),
            Self::Unknown => "unknown".into(),
        }
    }
}

impl From<Mask> for MaskSpec {
    fn from(m: Mask) -> Self {
        match m {
            Mask::None => Self::None,
            Mask::Causal => Self::Causal,
            Mask::SlidingWindow(window) => Self::SlidingWindow { window: window as u64 },
        }
    }
}

/// One mask for every layer, or one per layer when they differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Masks {
    All(MaskSpec),
    PerLayer(Vec<MaskSpec>),
}

/// A likely next token after the text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NextToken {
    pub token: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u32>,
    pub probability: f32,
}

/// How the stored queries and keys relate to the weights.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QueriesKeys {
    /// The factor Q·Kᵀ is multiplied by before the softmax.
    pub scale: f32,
    /// How positions reach Q and K: `rope`, `input`, `none`, …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub positions: Option<String>,
    /// Largest |stored weight − softmax(Q·Kᵀ·scale + M)| the writer found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_abs_error: Option<f32>,
}

/// `__metadata__["trace"]`: everything about the trace but the tensors.
/// Fields a newer minor version adds are ignored on reading.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceDescription {
    pub model: ModelDescription,
    pub n_layers: usize,
    pub n_heads: usize,
    pub n_kv_heads: usize,
    pub mask: Masks,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    pub tokens: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_ids: Option<Vec<u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_next: Option<Vec<NextToken>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queries_keys: Option<QueriesKeys>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub writer: Option<String>,
    /// A vision model's patches (1.1): the file then holds the `image` too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patches: Option<PatchGrid>,
}

impl TraceDescription {
    /// The version a writer declares for this description: the oldest that has all it holds.
    pub fn version(&self) -> &'static str {
        if self.patches.is_some() {
            "1.1"
        } else {
            "1.0"
        }
    }

    /// The mask of layer `layer` (checked to exist by [`TraceDescription::check`]).
    pub fn mask(&self, layer: usize) -> MaskSpec {
        match &self.mask {
            Masks::All(m) => *m,
            Masks::PerLayer(ms) => ms.get(layer).copied().unwrap_or(MaskSpec::Unknown),
        }
    }

    /// The key/value head query head `h` reads: heads come in consecutive groups.
    pub fn kv_head_of(&self, h: usize) -> usize {
        h / (self.n_heads / self.n_kv_heads.max(1)).max(1)
    }

    /// The one mask of every layer, or None when layers differ.
    pub fn uniform_mask(&self) -> Option<MaskSpec> {
        match &self.mask {
            Masks::All(m) => Some(*m),
            Masks::PerLayer(ms) => ms.first().copied().filter(|m| ms.iter().all(|x| x == m)),
        }
    }

    /// The rules of the description itself, as a sentence when one is broken.
    pub fn check(&self) -> Result<(), String> {
        let (l, h, kv) = (self.n_layers, self.n_heads, self.n_kv_heads);
        if l == 0 || h == 0 || kv == 0 {
            return Err(format!(
                "it claims {l} layers, {h} heads and {kv} key/value heads; each must be at least 1"
            ));
        }
        if !h.is_multiple_of(kv) {
            return Err(format!("{h} query heads do not split evenly over {kv} key/value heads"));
        }
        if let Masks::PerLayer(ms) = &self.mask {
            if ms.len() != l {
                return Err(format!("it lists {} masks for {l} layers", ms.len()));
            }
        }
        if self.tokens.is_empty() {
            return Err("it has no tokens".into());
        }
        if let Some(ids) = &self.token_ids {
            if ids.len() != self.tokens.len() {
                return Err(format!(
                    "it has {} tokens but {} token ids",
                    self.tokens.len(),
                    ids.len()
                ));
            }
        }
        if let Some(top) = &self.top_next {
            if let Some(t) = top.iter().find(|t| !(0.0..=1.0).contains(&t.probability)) {
                return Err(format!(
                    "the next token {:?} has probability {}",
                    t.token, t.probability
                ));
            }
        }
        if let Some(qk) = &self.queries_keys {
            if !qk.scale.is_finite() {
                return Err(format!("the queries' scale {} is not a finite number", qk.scale));
            }
        }
        if let Some(grid) = &self.patches {
            grid.check(self.tokens.len())?;
        }
        Ok(())
    }
}
