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

// The SentencePiece vocabularies (Llama 2, Gemma) of opened models; the
// page's default worker reads SmolLM2's byte-level BPE alone.
#[cfg(feature = "extras")]
mod sentencepiece;

use super::{Shown, TextTokenizer};
use crate::error::{Error, Result};
use crate::formats::gguf::Gguf;
use std::collections::HashMap;
use tokenizers::models::bpe::{Vocab, BPE};
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::digits::Digits;
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
const LLAMA3_SPLIT: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// The tokenizer the GGUF file describes.
pub fn build(g: &Gguf) -> Result<TextTokenizer> {
    let model = g.get_str("tokenizer.ggml.model")?;
    let tokens = g.get_strings("tokenizer.ggml.tokens")?;
    let types: Vec<u64> = match g.metadata.get("tokenizer.ggml.token_type") {
        Some(v) => v.as_array().unwrap_or(&[]).iter().map(|t| t.as_u64().unwrap_or(1)).collect(),
        None => Vec::new(),
    };
    let kind = |i: usize| types.get(i).copied().unwrap_or(1);
    let (mut tokenizer, shown, tokens) = match model {
        "gpt2" => byte_level(g, &tokens)?,
        #[cfg(feature = "extras")]
        "llama" => sentencepiece::build(g, &tokens)?,
        #[cfg(not(feature = "extras"))]
        "llama" => return Err(Error::ModelFile("SentencePiece GGUF tokenizers need the build with the `extras` feature".into())),
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
        .filter(|&i| {
            kind(i) == CONTROL
                && (shown != Shown::ByteLevel
                    || tokens[i].chars().all(|c| alphabet.contains_key(&c)))
        })
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
        Some(crate::formats::gguf::Value::Bool(b)) => *b,
        _ => model == "llama",
    };
    if add_bos {
        let bos = g.get_u64("tokenizer.ggml.bos_token_id")?;
        let bos = u32::try_from(bos).ok().filter(|&b| (b as usize) < tokens.len());
        return text.with_bos(bos.ok_or_else(|| {
            Error::ModelFile("tokenizer.ggml.bos_token_id is outside the vocabulary".into())
        })?);
    }
    Ok(text)
}

/// A tokenizer, how its tokens are shown, and the vocabulary as it spells them.
type Built = (Tokenizer, Shown, Vec<String>);

/// Byte-level BPE: the stored merges, the split `tokenizer.ggml.pre` names.
fn byte_level(g: &Gguf, tokens: &[&str]) -> Result<Built> {
    let alphabet = byte_of_char();
    let letter_of: HashMap<u8, char> = alphabet.iter().map(|(&c, &b)| (b, c)).collect();
    // A token stored as plain text (outside the byte alphabet) is spelled in it, as transformers
    // does.
    let spelled: Vec<String> = tokens
        .iter()
        .map(|t| {
            if t.chars().all(|c| alphabet.contains_key(&c)) {
                t.to_string()
            } else {
                t.bytes().map(|b| letter_of[&b]).collect()
            }
        })
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
    let bpe = BPE::builder().vocab_and_merges(vocab, merges).build().map_err(|e| {
        Error::Tokenizer(format!("cannot build the BPE from the GGUF vocabulary: {e}"))
    })?;
    let mut tokenizer = Tokenizer::new(bpe);
    let pre = g.metadata.get("tokenizer.ggml.pre").and_then(|v| v.as_str()).unwrap_or("default");
    let split = |pattern: &str| -> Result<PreTokenizerWrapper> {
        let split = Split::new(
            SplitPattern::Regex(pattern.into()),
            SplitDelimiterBehavior::Isolated,
            false,
        )
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
        "llama3" | "llama-v3" | "llama-bpe" | "falcon3" | "dbrx" | "smaug-bpe" => {
            split(LLAMA3_SPLIT)?
        }
        _ => PreTokenizerWrapper::ByteLevel(ByteLevel::new(false, true, true)),
    };
    tokenizer.with_pre_tokenizer(Some(pre_tokenizer));
    tokenizer.with_decoder(Some(ByteLevel::default()));
    Ok((tokenizer, Shown::ByteLevel, spelled))
}

/// GPT-2's byte-level alphabet: each byte is written as a printable
/// character (a space is `Ġ`). Returns character → byte.
fn byte_of_char() -> HashMap<char, u8> {
    let printable =
        |b: u32| (33..=126).contains(&b) || (161..=172).contains(&b) || (174..=255).contains(&b);
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

thread_local! { static BYTES_OF: HashMap<char, u8> = byte_of_char(); }

/// The bytes a byte-level piece stands for; a piece outside the byte
/// alphabet (an added token's) is its own text.
pub fn byte_level_bytes(piece: &str) -> Vec<u8> {
    BYTES_OF
        .with(|bytes_of| {
            piece.chars().map(|c| bytes_of.get(&c).copied()).collect::<Option<Vec<u8>>>()
        })
        .unwrap_or_else(|| piece.as_bytes().to_vec())
}

/// A byte-level piece as shown: its bytes as text, and any byte that is
/// not part of a whole UTF-8 character within the piece (one piece of an
/// emoji split over several tokens) as `<0xF0>`; a character outside the
/// byte alphabet (an added token's) as it is. The reference scripts write
/// tokens the same way.
pub fn display_byte_level(piece: &str) -> String {
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
}
