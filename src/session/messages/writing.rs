//! The messages of writing: one step asked for, one step answered (with
//! the run's summary, as any run).

use crate::models::sampling::{Sampling, Written};
use serde::{Deserialize, Serialize};

/// One step of writing after the tokens the page shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WriteRequest {
    /// The latest run's token ids (the cache gives them at once); empty:
    /// start from `prompt`, or from the start token when it is empty too.
    pub ids: Vec<u32>,
    /// The text the generation started from, and how many of `ids` are its.
    pub prompt: String,
    pub prompt_tokens: usize,
    pub settings: Sampling,
    /// The step's number, from 0 (its draw depends on the seed and it alone).
    pub step: u64,
    /// Take the next-token list's entry of this rank (a click) rather than draw.
    #[serde(default)]
    pub pick: Option<usize>,
    /// The token another page wrote at this step (a class's teacher's, followed by a
    /// student's page): drawn as usual when the draw gives it, taken as it is when a near tie
    /// fell the other way on this device's arithmetic.
    #[serde(default)]
    pub follow: Option<u32>,
}

/// What a step wrote, beside the run's summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WriteReply {
    pub written: Written,
    /// The prompt and everything written after it, as text.
    pub text: String,
    pub prompt_tokens: usize,
}
