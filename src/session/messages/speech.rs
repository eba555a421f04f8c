//! A clip heard by Whisper, as it travels: the page's recording in, the
//! transcript and its attention over the sound out (`runners/listener.rs`
//! makes it).

use crate::tensor::Matrix;
use serde::{Deserialize, Serialize};

/// Seconds of sound Whisper reads at most.
pub const MAX_SECONDS: f32 = 30.0;

/// Sound as the page captured or decoded it: mono, 16-bit, at its own rate
/// (the worker resamples it to Whisper's 16 kHz with `whisper::resample`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Recording {
    pub rate: u32,
    pub samples: Vec<i16>,
}

impl Recording {
    /// From samples in −1 … 1 (clipped there), kept to the first `MAX_SECONDS`
    /// and a half: more is never read, and a long file must not fill a message.
    pub fn from_f32(samples: &[f32], rate: u32) -> Recording {
        let keep = ((MAX_SECONDS + 0.5) * rate as f32) as usize;
        let samples = samples
            .iter()
            .take(keep)
            .map(|&x| {
                let x = if x.is_finite() { x.clamp(-1.0, 1.0) } else { 0.0 };
                (x * 32767.0).round() as i16
            })
            .collect();
        Recording { rate, samples }
    }

    pub fn seconds(&self) -> f32 {
        if self.rate == 0 {
            return 0.0;
        }
        self.samples.len() as f32 / self.rate as f32
    }

    /// The samples in −1 … 1.
    pub fn to_f32(&self) -> Vec<f32> {
        self.samples.iter().map(|&s| f32::from(s) / 32768.0).collect()
    }
}

/// One word of the transcript and when it was said.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeardWord {
    pub word: String,
    /// Its tokens, positions in [`SpeechSummary::tokens`] (first, past the last).
    pub tokens: (usize, usize),
    /// Seconds from the clip's start.
    pub start: f32,
    pub end: f32,
}

/// What the Speech tab draws of one clip.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpeechSummary {
    /// The decoder's tokens: the prompt, the words written, `<|endoftext|>`.
    pub tokens: Vec<String>,
    pub text: String,
    /// Seconds of the clip read (at most 30).
    pub seconds: f32,
    /// Encoder frames (20 ms) that hold the clip; the rest of the 1,500 are padding.
    pub frames: usize,
    /// The log-mel spectrogram the encoder read, its first `2 × frames`
    /// columns (mel bins × 10 ms).
    pub mel: Matrix,
    /// [layer][head]: the cross-attention, token × the clip's frames.
    pub cross: Vec<Vec<Matrix>>,
    /// [layer][head][token]: the weight that went to the padding's frames.
    pub padding: Vec<Vec<Vec<f32>>>,
    /// (layer, head) pairs the checkpoint names as following the words' timing.
    pub alignment_heads: Vec<(usize, usize)>,
    /// The mean of the alignment heads' cross-attention (token × frame).
    pub align: Option<Matrix>,
    /// [layer][head]: the decoder's causal self-attention (token × token).
    pub self_attention: Vec<Vec<Matrix>>,
    /// Frames (20 ms) per block of `encoder`.
    #[serde(default)]
    pub encoder_block: usize,
    /// [layer][head]: the encoder's self-attention among the clip's frames, in blocks of
    /// `encoder_block` frames a side (each cell a block of queries' mean weight on a block of
    /// keys; a row sums to the share that stayed on the clip).
    #[serde(default)]
    pub encoder: Vec<Vec<Matrix>>,
    pub words: Vec<HeardWord>,
    /// The factor applied to the scores (1/√d_k).
    pub scale: f32,
    pub notices: Vec<String>,
    pub compute_ms: f64,
    /// The worker's wasm memory, set by the worker shell.
    #[serde(default)]
    pub memory_bytes: Option<u64>,
}

impl SpeechSummary {
    /// The cross-attention of one layer and head; `None` for the mean of the
    /// alignment heads.
    pub fn weights(&self, pick: Option<(usize, usize)>) -> Option<&Matrix> {
        match pick {
            Some((l, h)) => self.cross.get(l)?.get(h),
            None => self.align.as_ref(),
        }
    }
}

/// Frames of the clip a [`SpeechStep`] shows (those given the largest weights).
pub const STEP_FRAMES: usize = 6;

/// One frame of the clip in a [`SpeechStep`]: its key and what the token's query made of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepFrame {
    /// The frame's index (20 ms each, from the clip's start).
    pub frame: usize,
    /// Its key k_j (d_k numbers).
    pub k: Vec<f32>,
    /// q·k_j.
    pub score: f32,
    /// q·k_j × scale.
    pub scaled: f32,
    /// a_j = softmax(q·K × scale)_j over all 1,500 frames.
    pub weight: f32,
}

/// One token of the transcript through one cross-attention head, step by
/// step: its query, the clip's strongest frames' keys, the scores, the
/// weights and Σ a_j v_j, every number from the q, K and V the decoder
/// used (`runners/listener.rs` keeps them from the latest clip).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpeechStep {
    pub layer: usize,
    pub head: usize,
    /// The token's index in [`SpeechSummary::tokens`], and how it is written.
    pub token: usize,
    pub text: String,
    /// The token's query q (d_k numbers).
    pub q: Vec<f32>,
    /// The factor applied to the scores (1/√d_k).
    pub scale: f32,
    /// Frames that hold the clip; the rest of the 1,500 (`keys`) are padding.
    pub frames: usize,
    pub keys: usize,
    /// The clip's [`STEP_FRAMES`] frames given the largest weights, strongest first.
    pub top: Vec<StepFrame>,
    /// The weight the padding's frames took together, and the clip's frames.
    pub padding: f32,
    pub clip: f32,
    /// The head's output for this token, z = Σ_j a_j v_j (d_v numbers).
    pub z: Vec<f32>,
}
