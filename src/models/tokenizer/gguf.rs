//! A tokenizer built from a GGUF file's metadata, as Hugging Face
//! transformers builds it from the same file (`tokenizer.ggml.*`):
//!
//! - `gpt2`: byte-level BPE over the stored merges (SmolLM2, Qwen2), the text
//!   first split as `tokenizer.ggml.pre` names;
//! - `llama`: SentencePiece-style BPE with byte fallback, whose merges are
//!   rebuilt from the vocabulary (Gemma: in the order the tokens are
//!   listed; others: by their scores).
//!
//! Control tokens (`<|im_start|>`, `<bos>`) are matched whole as special
//! tokens, user-defined ones as plain added tokens; a start token is added
//! where the file asks for one.

use super::{Shown, TextTokenizer};
use crate::error::{Error, Result};
use crate::models::gguf::Gguf;
use std::collections::HashMap;
use tokenizers::models::bpe::{Vocab, BPE};
use tokenizers::normalizers::replace::Replace;
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::digits::Digits;
use tokenizers::pre_tokenizers::metaspace::{Metaspace, PrependScheme};
use tokenizers::pre_tokenizers::sequence::Sequence;
use tokenizers::pre_tokenizers::split::{Split, SplitPattern};
use tokenizers::{AddedToken, PreTokenizerWrapper, SplitDelimiterBehavior, Tokenizer};

/// GGUF token types.
const CONTROL: u64 = 3;
const USER_DEFINED: u64 = 4;

/// Qwen2's split of text into words before byte-level BPE (its
/// `tokenizer.json`, and transformers for `tokenizer.ggml.pre = qwen2`).
const QWEN2_SPLIT: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";
/// Llama 3's split (`llama3`, `llama-bpe`, …).
const LLAMA3_SPLIT: &str =
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// The tokenizer the GGUF file describes.
pub fn build(g: &Gguf) -> Result<TextTokenizer> {
    let model = g.get_str("tokenizer.ggml.model")?;
    let tokens = g.get_strings("tokenizer.ggml.tokens")?;
    let types: Vec<u64> = match g.metadata.get("tokenizer.ggml.token_type") {
        Some(v) => v.as_array().unwrap_or(&[]).iter().map(|t| t.as_u64().unwrap_or(1)).collect(),
        None => Vec::new(),
    };
    let kind = |i: usize| types.get(i).copied().unwrap_or(1);
    let arch = g.get_str("general.architecture").unwrap_or("");
    let (mut tokenizer, shown, tokens) = match model {
        "gpt2" => byte_level(g, &tokens)?,
        "llama" if arch.starts_with("gemma") => gemma(&tokens)?,
        "llama" => sentencepiece(g, &tokens)?,
        other => {
            return Err(Error::ModelFile(format!(
                "the GGUF tokenizer is {other:?}; byte-level BPE (\"gpt2\") and SentencePiece (\"llama\") are supported"
            )))
        }
    };
    // In a byte-level vocabulary a control token written outside the byte
    // alphabet is a mislabel, which transformers skips too.
    let alphabet = byte_of_char();
    let control: Vec<AddedToken> = (0..tokens.len())
        .filter(|&i| kind(i) == CONTROL && (shown != Shown::ByteLevel || tokens[i].chars().all(|c| alphabet.contains_key(&c))))
        .map(|i| AddedToken::from(tokens[i].clone(), true).normalized(false))
        .collect();
    tokenizer.add_special_tokens(&control);
    let user: Vec<AddedToken> = (0..tokens.len())
        .filter(|&i| kind(i) == USER_DEFINED)
        .map(|i| AddedToken::from(tokens[i].clone(), false).normalized(false))
        .collect();
    tokenizer.add_tokens(&user);
    let text = TextTokenizer::new(tokenizer, shown);
    // Older SentencePiece files do not say; llama.cpp then adds the start token.
    let add_bos = match g.metadata.get("tokenizer.ggml.add_bos_token") {
        Some(crate::models::gguf::Value::Bool(b)) => *b,
        _ => model == "llama",
    };
    if add_bos {
        let bos = g.get_u64("tokenizer.ggml.bos_token_id")?;
        let bos = u32::try_from(bos).ok().filter(|&b| (b as usize) < tokens.len());
        return text.with_bos(bos.ok_or_else(|| Error::ModelFile("tokenizer.ggml.bos_token_id is outside the vocabulary".into()))?);
    }
    Ok(text)
}

type Built = (Tokenizer, Shown, Vec<String>);

/// Byte-level BPE: the stored merges, the split `tokenizer.ggml.pre` names.
fn byte_level(g: &Gguf, tokens: &[&str]) -> Result<Built> {
    let alphabet = byte_of_char();
    let letter_of: HashMap<u8, char> = alphabet.iter().map(|(&c, &b)| (b, c)).collect();
    // A token stored as plain text (outside the byte alphabet) is spelled in it, as transformers does.
    let spelled: Vec<String> = tokens
        .iter()
        .map(|t| if t.chars().all(|c| alphabet.contains_key(&c)) { t.to_string() } else { t.bytes().map(|b| letter_of[&b]).collect() })
        .collect();
    let merges = g
        .get_strings("tokenizer.ggml.merges")?
        .into_iter()
        .map(|m| {
            m.split_once(' ')
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .ok_or_else(|| Error::ModelFile(format!("merge `{m}` is not two tokens")))
        })
        .collect::<Result<Vec<_>>>()?;
    let vocab: Vocab = spelled.iter().enumerate().map(|(i, t)| (t.clone(), i as u32)).collect();
    let bpe = BPE::builder()
        .vocab_and_merges(vocab, merges)
        .build()
        .map_err(|e| Error::Tokenizer(format!("cannot build the BPE from the GGUF vocabulary: {e}")))?;
    let mut tokenizer = Tokenizer::new(bpe);
    let pre = g.metadata.get("tokenizer.ggml.pre").and_then(|v| v.as_str()).unwrap_or("default");
    let split = |pattern: &str| -> Result<PreTokenizerWrapper> {
        let split = Split::new(SplitPattern::Regex(pattern.into()), SplitDelimiterBehavior::Isolated, false)
            .map_err(|e| Error::Tokenizer(format!("the {pre} split: {e}")))?;
        Ok(PreTokenizerWrapper::Sequence(Sequence::new(vec![
            PreTokenizerWrapper::Split(split),
            PreTokenizerWrapper::ByteLevel(ByteLevel::new(false, true, false)),
        ])))
    };
    let pre_tokenizer = match pre {
        // SmolLM2's own tokenizer.json (and llama.cpp's "smollm") splits every digit off first.
        "smollm" => PreTokenizerWrapper::Sequence(Sequence::new(vec![
            PreTokenizerWrapper::Digits(Digits::new(true)),
            PreTokenizerWrapper::ByteLevel(ByteLevel::new(false, true, true)),
        ])),
        "qwen2" | "deepseek-r1-qwen" | "megrez" => split(QWEN2_SPLIT)?,
        "llama3" | "llama-v3" | "llama-bpe" | "falcon3" | "dbrx" | "smaug-bpe" => split(LLAMA3_SPLIT)?,
        _ => PreTokenizerWrapper::ByteLevel(ByteLevel::new(false, true, true)),
    };
    tokenizer.with_pre_tokenizer(Some(pre_tokenizer));
    tokenizer.with_decoder(Some(ByteLevel::default()));
    Ok((tokenizer, Shown::ByteLevel, spelled))
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
        .map_err(|e| Error::Tokenizer(format!("cannot build the SentencePiece BPE from the GGUF vocabulary: {e}")))?;
    Ok(Tokenizer::new(bpe))
}

/// Gemma: no prefix space, spaces written `▁` by a normalizer, merges in
/// the order the tokens are listed (Gemma's scores do not follow its merge
/// order), tokens of several spaces respelled as `▁`s first.
fn gemma(tokens: &[&str]) -> Result<Built> {
    let respelled: Vec<String> = tokens
        .iter()
        .map(|t| if t.contains(' ') && t.trim().is_empty() { "\u{2581}".repeat(t.chars().count()) } else { t.to_string() })
        .collect();
    let rank: Vec<f64> = (0..respelled.len()).map(|i| -(i as f64)).collect();
    let merges = merges_from_vocabulary(&respelled, &rank);
    let mut tokenizer = spm_bpe(&respelled, merges)?;
    tokenizer.with_normalizer(Some(Replace::new(" ", "\u{2581}").map_err(|e| Error::Tokenizer(e.to_string()))?));
    let split = Split::new(SplitPattern::String(" ".into()), SplitDelimiterBehavior::MergedWithPrevious, false)
        .map_err(|e| Error::Tokenizer(e.to_string()))?;
    tokenizer.with_pre_tokenizer(Some(split));
    Ok((tokenizer, Shown::Metaspace, respelled))
}

/// Llama-style SentencePiece: a `▁` before the first word, merges by score.
fn sentencepiece(g: &Gguf, tokens: &[&str]) -> Result<Built> {
    let scores = g.get("tokenizer.ggml.scores")?.as_array().unwrap_or(&[]).iter().map(|s| s.as_f64().unwrap_or(0.0)).collect::<Vec<f64>>();
    if scores.len() != tokens.len() {
        return Err(Error::ModelFile(format!("the GGUF file has {} token scores for {} tokens", scores.len(), tokens.len())));
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
    let id: HashMap<&str, usize> = tokens.iter().enumerate().map(|(i, t)| (t.as_str(), i)).collect();
    let mut merges: Vec<(f64, usize, usize, usize, usize)> = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        // A token listed twice counts where it is listed last, as a dictionary built in order keeps it.
        if id.get(token.as_str()) != Some(&i) {
            continue;
        }
        for (cut, _) in token.char_indices().skip(1) {
            if let (Some(&l), Some(&r)) = (id.get(&token[..cut]), id.get(&token[cut..])) {
                merges.push((rank[i], token[..cut].chars().count(), token[cut..].chars().count(), l, r));
            }
        }
    }
    // Within one token its splits by their parts' ids, then all by rank: a stable sort.
    merges.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)).then(b.2.cmp(&a.2)));
    merges.into_iter().map(|(_, _, _, l, r)| (tokens[l].clone(), tokens[r].clone())).collect()
}

/// GPT-2's byte-level alphabet: each byte is written as a printable
/// character (a space is `Ġ`). Returns character → byte.
fn byte_of_char() -> HashMap<char, u8> {
    let printable = |b: u32| (33..=126).contains(&b) || (161..=172).contains(&b) || (174..=255).contains(&b);
    let mut next = 256;
    (0..=255u32)
        .map(|b| {
            let c = if printable(b) {
                b
            } else {
                next += 1;
                next - 1
            };
            (char::from_u32(c).unwrap_or('?'), b as u8)
        })
        .collect()
}

/// A byte-level piece as shown: its bytes as text, and any byte that is
/// not part of a whole UTF-8 character within the piece (one piece of an
/// emoji split over several tokens) as `<0xF0>`; a character outside the
/// byte alphabet (an added token's) as it is. The reference scripts write
/// tokens the same way.
pub fn display_byte_level(piece: &str) -> String {
    thread_local! { static BYTES_OF: HashMap<char, u8> = byte_of_char(); }
    BYTES_OF.with(|bytes_of| {
        if !piece.chars().all(|c| bytes_of.contains_key(&c)) {
            return piece.to_string();
        }
        let raw: Vec<u8> = piece.chars().map(|c| bytes_of[&c]).collect();
        let mut out = String::new();
        let mut i = 0;
        'outer: while i < raw.len() {
            for w in 1..=4.min(raw.len() - i) {
                if let Ok(s) = std::str::from_utf8(&raw[i..i + w]) {
                    out.push_str(s);
                    i += w;
                    continue 'outer;
                }
            }
            out.push_str(&format!("<0x{:02X}>", raw[i]));
            i += 1;
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_level_tokens_display_as_text() {
        assert_eq!(display_byte_level("Ġcapital"), " capital");
        assert_eq!(display_byte_level("Ċ"), "\n");
        // "é" is C3 A9, written Ã© in the byte alphabet.
        assert_eq!(display_byte_level("Ã©"), "é");
        // A lone lead byte of an emoji.
        assert_eq!(display_byte_level("ĠðŁ"), " <0xF0><0x9F>");
        assert_eq!(display_byte_level("<|im_start|>"), "<|im_start|>");
    }

    #[test]
    fn merges_come_from_the_vocabulary_best_first() {
        let tokens: Vec<String> = ["a", "b", "c", "ab", "abc", "bc"].iter().map(|s| s.to_string()).collect();
        let rank: Vec<f64> = (0..6).map(|i| -(i as f64)).collect();
        let m = merges_from_vocabulary(&tokens, &rank);
        let pairs: Vec<(&str, &str)> = m.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        // "ab" (rank −3) first, then "abc" as ab+c before a+bc (the longer left part), then "bc".
        assert_eq!(pairs, [("a", "b"), ("ab", "c"), ("a", "bc"), ("b", "c")]);
    }
}
