//! Head detectors, each a layers × heads map from one run on a prompt of
//! random tokens repeated twice (Olsson et al. 2022): induction heads look
//! from a token of the second copy to the token after its earlier
//! occurrence; duplicate-token heads to that occurrence itself.

use super::forward;
use crate::error::{Error, Result};
use crate::tensor::Matrix;
use crate::trace::layered::Layered;
use serde::{Deserialize, Serialize};

/// One line per detector, for the page and the CLI's help.
pub const DEFINITIONS: [(&str, &str); 4] = [
    ("induction", "induction (Olsson et al. 2022): mean over the second copy of A[p+T+t, p+t+1], the weight on the token after the earlier occurrence"),
    ("duplicate_token", "duplicate-token: mean over the second copy of A[p+T+t, p+t], the weight on the earlier occurrence of the same token"),
    ("previous_token", "previous-token: mean over i ≥ 1 of A[i, i−1]"),
    ("first_token", "first-token: mean over i of A[i, 0]"),
];

/// Token ids of a prompt: `prefix` ids the tokenizer adds, `period` random
/// tokens, the same `period` tokens again, then any suffix ([SEP]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Prompt {
    pub ids: Vec<u32>,
    pub prefix: usize,
    pub period: usize,
}

impl Prompt {
    /// `period` random ordinary tokens (ids from 1000 up: below are special
    /// and unused entries in BERT's vocabulary) from `seed`, repeated twice.
    pub fn random(model: &dyn Layered, period: usize, seed: u64) -> Result<Prompt> {
        let (before, after) = model.special_ids()?;
        let vocab = model.vocab_size() as u64;
        if vocab <= 1000 {
            return Err(Error::Invalid(format!(
                "a vocabulary of {vocab} tokens is too small for random ordinary tokens"
            )));
        }
        // xorshift64*: the same prompt for the same seed on every machine.
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let random: Vec<u32> = (0..period)
            .map(|_| {
                state ^= state >> 12;
                state ^= state << 25;
                state ^= state >> 27;
                (1000 + state.wrapping_mul(0x2545_F491_4F6C_DD1D) % (vocab - 1000)) as u32
            })
            .collect();
        let ids = [&before[..], &random, &random, &after].concat();
        Ok(Prompt { ids, prefix: before.len(), period })
    }

    /// The tokens of `text` (the model's own special tokens taken off) as the
    /// period, repeated twice between the prefix and suffix [`Prompt::random`] uses.
    pub fn from_text(model: &dyn Layered, text: &str) -> Result<Prompt> {
        let info = model.info();
        if text.trim().is_empty() {
            return Err(Error::Invalid("the detector prompt is empty: type a phrase of at least 2 tokens, or choose random tokens".into()));
        }
        let (before, after) = model.special_ids()?;
        let (ids, _) = model.tokens(text)?;
        // The tokenizer cuts a text at the model's limit: then the count below is a lower bound.
        let cut = ids.len() >= info.max_tokens;
        let body = ids.strip_prefix(&before[..]).unwrap_or(&ids);
        let body = body.strip_suffix(&after[..]).unwrap_or(body);
        let total = before.len() + 2 * body.len() + after.len();
        if body.len() < 2 {
            return Err(Error::Invalid(format!(
                "the detector prompt {text:?} is {} token: type a phrase of at least 2 tokens",
                body.len()
            )));
        }
        if total > info.max_tokens {
            return Err(Error::Invalid(format!(
                "the detector prompt is too long: your text is {}{} tokens, twice that with the special tokens is {}{}, and {} reads at most {} (at most {} tokens of text)",
                if cut { "at least " } else { "" },
                body.len(),
                if cut { "at least " } else { "" },
                total,
                info.name,
                info.max_tokens,
                info.max_tokens.saturating_sub(before.len() + after.len()) / 2
            )));
        }
        let ids = [&before[..], body, body, &after].concat();
        Ok(Prompt { ids, prefix: before.len(), period: body.len() })
    }
}

/// Every detector's map, with the prompt it ran on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Detectors {
    pub prompt: Prompt,
    pub tokens: Vec<String>,
    /// `induction[l][h]`, and likewise below.
    pub induction: Vec<Vec<f32>>,
    pub duplicate_token: Vec<Vec<f32>>,
    pub previous_token: Vec<Vec<f32>>,
    pub first_token: Vec<Vec<f32>>,
}

/// The four scores of one head's A on the prompt.
fn scores(a: &Matrix, p: &Prompt) -> [f32; 4] {
    let (start, t) = (p.prefix, p.period);
    let mean = |xs: &mut dyn Iterator<Item = f32>, n: usize| xs.sum::<f32>() / n.max(1) as f32;
    let n = a.rows;
    [
        mean(&mut (0..t).map(|i| a[(start + t + i, start + i + 1)]), t),
        mean(&mut (0..t).map(|i| a[(start + t + i, start + i)]), t),
        mean(&mut (1..n).map(|i| a[(i, i - 1)]), n - 1),
        mean(&mut (0..n).map(|i| a[(i, 0)]), n),
    ]
}

/// Runs `model` on `prompt` and scores every head.
pub fn detectors(model: &dyn Layered, prompt: &Prompt) -> Result<Detectors> {
    let info = model.info();
    if prompt.period < 2 {
        return Err(Error::Invalid(
            "the detector prompt needs at least 2 random tokens per copy".into(),
        ));
    }
    if prompt.ids.len() > info.max_tokens || prompt.prefix + 2 * prompt.period > prompt.ids.len() {
        return Err(Error::Invalid(format!(
            "the detector prompt has {} tokens: {} reads at most {} (at most {} random tokens per copy)",
            prompt.ids.len(),
            info.name,
            info.max_tokens,
            info.max_tokens.saturating_sub(prompt.ids.len().saturating_sub(2 * prompt.period)) / 2
        )));
    }
    let tokens: Vec<String> = prompt.ids.iter().map(|&id| model.token_text(id)).collect();
    let run = forward(model, &prompt.ids, tokens)?;
    let mut maps: [Vec<Vec<f32>>; 4] = Default::default();
    for layer in &run.layers {
        let per_head: Vec<[f32; 4]> =
            layer.attention.heads.iter().map(|h| scores(&h.weights, prompt)).collect();
        for (k, map) in maps.iter_mut().enumerate() {
            map.push(per_head.iter().map(|s| s[k]).collect());
        }
    }
    let [induction, duplicate_token, previous_token, first_token] = maps;
    Ok(Detectors {
        prompt: prompt.clone(),
        tokens: run.tokens,
        induction,
        duplicate_token,
        previous_token,
        first_token,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_induction_pattern_scores_one() {
        // prefix 1, period 2: ids c a b a b ; row 3 (second a) → col 2 (b), row 4 (second b) → col
        // 3 (a, next copy).
        let p = Prompt { ids: vec![0, 5, 6, 5, 6], prefix: 1, period: 2 };
        let mut a = Matrix::zeros(5, 5);
        a[(0, 0)] = 1.0;
        a[(1, 0)] = 1.0;
        a[(2, 1)] = 1.0;
        a[(3, 2)] = 1.0;
        a[(4, 3)] = 1.0;
        let [induction, duplicate, previous, first] = scores(&a, &p);
        assert_eq!((induction, duplicate), (1.0, 0.0));
        assert_eq!(previous, 1.0);
        assert_eq!(first, 0.4);
    }
}
