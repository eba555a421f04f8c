//! GGUF vocabularies of the SentencePiece kind (`tokenizer.ggml.model` =
//! "llama"): BPE with byte fallback over `▁`-spelled tokens, the merges
//! recovered from the vocabulary, as transformers does for Llama 2 and Gemma.

use super::{Built, Shown};
use crate::error::{Error, Result};
use crate::formats::gguf::Gguf;
use std::collections::HashMap;
use tokenizers::models::bpe::{Vocab, BPE};
use tokenizers::normalizers::replace::Replace;
use tokenizers::pre_tokenizers::metaspace::{Metaspace, PrependScheme};
use tokenizers::pre_tokenizers::split::{Split, SplitPattern};
use tokenizers::{SplitDelimiterBehavior, Tokenizer};

/// Gemma's vocabulary or Llama's, as the file's architecture says.
pub fn build(g: &Gguf, tokens: &[&str]) -> Result<Built> {
    match g.get_str("general.architecture").unwrap_or("") {
        arch if arch.starts_with("gemma") => gemma(tokens),
        _ => llama(g, tokens),
    }
}

/// SentencePiece-style BPE with byte fallback (`<0xF0>`), spaces as `▁`.
fn spm_bpe(tokens: &[String], merges: Vec<(String, String)>) -> Result<Tokenizer> {
    let vocab: Vocab = tokens.iter().enumerate().map(|(i, t)| (t.clone(), i as u32)).collect();
    let unk = ["<unk>", "<UNK>"].into_iter().find(|u| vocab.contains_key(*u)).unwrap_or("<unk>");
    let bpe = BPE::builder()
        .vocab_and_merges(vocab, merges)
        .unk_token(unk.to_string())
        .fuse_unk(true)
        .byte_fallback(true)
        .build()
        .map_err(|e| {
            Error::Tokenizer(format!(
                "cannot build the SentencePiece BPE from the GGUF vocabulary: {e}"
            ))
        })?;
    Ok(Tokenizer::new(bpe))
}

/// Gemma: no prefix space, spaces written `▁` by a normalizer, merges in
/// the order the tokens are listed (Gemma's scores do not follow its merge
/// order), tokens of several spaces respelled as `▁`s first.
fn gemma(tokens: &[&str]) -> Result<Built> {
    let respelled: Vec<String> = tokens
        .iter()
        .map(|t| {
            if t.contains(' ') && t.trim().is_empty() {
                "\u{2581}".repeat(t.chars().count())
            } else {
                t.to_string()
            }
        })
        .collect();
    let rank: Vec<f64> = (0..respelled.len()).map(|i| -(i as f64)).collect();
    let merges = merges_from_vocabulary(&respelled, &rank);
    let mut tokenizer = spm_bpe(&respelled, merges)?;
    tokenizer.with_normalizer(Some(
        Replace::new(" ", "\u{2581}").map_err(|e| Error::Tokenizer(e.to_string()))?,
    ));
    let split = Split::new(
        SplitPattern::String(" ".into()),
        SplitDelimiterBehavior::MergedWithPrevious,
        false,
    )
    .map_err(|e| Error::Tokenizer(e.to_string()))?;
    tokenizer.with_pre_tokenizer(Some(split));
    Ok((tokenizer, Shown::Metaspace, respelled))
}

/// Llama-style SentencePiece: a `▁` before the first word, merges by score.
fn llama(g: &Gguf, tokens: &[&str]) -> Result<Built> {
    let scores = g
        .get("tokenizer.ggml.scores")?
        .as_array()
        .unwrap_or(&[])
        .iter()
        .map(|s| s.as_f64().unwrap_or(0.0))
        .collect::<Vec<f64>>();
    if scores.len() != tokens.len() {
        return Err(Error::ModelFile(format!(
            "the GGUF file has {} token scores for {} tokens",
            scores.len(),
            tokens.len()
        )));
    }
    let tokens: Vec<String> = tokens.iter().map(|t| t.to_string()).collect();
    let merges = merges_from_vocabulary(&tokens, &scores);
    let mut tokenizer = spm_bpe(&tokens, merges)?;
    tokenizer.with_pre_tokenizer(Some(Metaspace::new('\u{2581}', PrependScheme::First, false)));
    Ok((tokenizer, Shown::Metaspace, tokens))
}

/// The merges a vocabulary implies: every split of a token into two tokens
/// of the vocabulary, best `rank` first (ties: the longer left part, then
/// the longer right part, in characters), as transformers'
/// `generate_merges` orders them.
fn merges_from_vocabulary(tokens: &[String], rank: &[f64]) -> Vec<(String, String)> {
    let id: HashMap<&str, usize> =
        tokens.iter().enumerate().map(|(i, t)| (t.as_str(), i)).collect();
    let mut merges: Vec<(f64, usize, usize, usize, usize)> = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        // A token listed twice counts where it is listed last, as a dictionary built in order keeps
        // it.
        if id.get(token.as_str()) != Some(&i) {
            continue;
        }
        for (cut, _) in token.char_indices().skip(1) {
            if let (Some(&l), Some(&r)) = (id.get(&token[..cut]), id.get(&token[cut..])) {
                merges.push((
                    rank[i],
                    token[..cut].chars().count(),
                    token[cut..].chars().count(),
                    l,
                    r,
                ));
            }
        }
    }
    // Within one token its splits by their parts' ids, then all by rank: a stable sort.
    merges.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)).then(b.2.cmp(&a.2)));
    merges.into_iter().map(|(_, _, _, l, r)| (tokens[l].clone(), tokens[r].clone())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_come_from_the_vocabulary_best_first() {
        let tokens: Vec<String> =
            ["a", "b", "c", "ab", "abc", "bc"].iter().map(|s| s.to_string()).collect();
        let rank: Vec<f64> = (0..6).map(|i| -(i as f64)).collect();
        let m = merges_from_vocabulary(&tokens, &rank);
        let pairs: Vec<(&str, &str)> = m.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        // "ab" (rank −3) first, then "abc" as ab+c before a+bc (the longer left part), then "bc".
        assert_eq!(pairs, [("a", "b"), ("ab", "c"), ("a", "bc"), ("b", "c")]);
    }
}
