//! SmolLM2's tokenizer, built from the GGUF file's metadata with the
//! `tokenizers` crate, and how each token is shown.

use crate::error::{Error, Result};
use crate::models::gguf::Gguf;
use std::collections::HashMap;
use tokenizers::models::bpe::{Vocab, BPE};
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::pre_tokenizers::digits::Digits;
use tokenizers::pre_tokenizers::sequence::Sequence;
use tokenizers::{AddedToken, PreTokenizerWrapper, Tokenizer};

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

/// A vocabulary entry as shown: its bytes as text, and any byte that is not
/// part of a whole UTF-8 character within the token (one piece of an emoji
/// split over several tokens) as `<0xF0>`. The reference script writes
/// tokens the same way.
fn display_token(piece: &str, special: bool, bytes_of: &HashMap<char, u8>) -> String {
    if special {
        return piece.to_string();
    }
    let raw: Vec<u8> = piece.chars().map(|c| bytes_of.get(&c).copied().unwrap_or(b'?')).collect();
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
}

/// SmolLM2's tokenizer from the GGUF metadata: byte-level BPE over the 49152
/// tokens and their merges; digits split one by one before the GPT-2 split
/// (llama.cpp's "smollm" pre-tokenizer, as in SmolLM2's tokenizer.json);
/// control tokens (`<|im_start|>`, …) matched whole as special tokens.
pub(super) fn build(g: &Gguf) -> Result<(Tokenizer, Vec<String>)> {
    let model = g.get_str("tokenizer.ggml.model")?;
    if model != "gpt2" {
        return Err(Error::ModelFile(format!("expected a byte-level BPE (\"gpt2\") tokenizer in the GGUF file, found \"{model}\"")));
    }
    let tokens = g.get_strings("tokenizer.ggml.tokens")?;
    let types: Vec<u64> = match g.get("tokenizer.ggml.token_type") {
        Ok(v) => v.as_array().unwrap_or(&[]).iter().map(|t| t.as_u64().unwrap_or(1)).collect(),
        Err(_) => vec![1; tokens.len()],
    };
    let merges = g
        .get_strings("tokenizer.ggml.merges")?
        .into_iter()
        .map(|m| {
            m.split_once(' ')
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .ok_or_else(|| Error::ModelFile(format!("merge `{m}` is not two tokens")))
        })
        .collect::<Result<Vec<_>>>()?;
    let vocab: Vocab = tokens.iter().enumerate().map(|(i, t)| (t.to_string(), i as u32)).collect();
    let bpe = BPE::builder()
        .vocab_and_merges(vocab, merges)
        .build()
        .map_err(|e| Error::Tokenizer(format!("cannot build the BPE from the GGUF vocabulary: {e}")))?;
    let mut tokenizer = Tokenizer::new(bpe);
    let pre_tokenizer = Sequence::new(vec![
        PreTokenizerWrapper::Digits(Digits::new(true)),
        PreTokenizerWrapper::ByteLevel(ByteLevel::new(false, true, true)),
    ]);
    tokenizer.with_pre_tokenizer(Some(PreTokenizerWrapper::Sequence(pre_tokenizer)));
    tokenizer.with_decoder(Some(ByteLevel::default()));
    let control = |i: usize| types.get(i) == Some(&3);
    let special: Vec<AddedToken> = tokens
        .iter()
        .enumerate()
        .filter(|&(i, _)| control(i))
        .map(|(_, t)| AddedToken::from(t.to_string(), true).normalized(false))
        .collect();
    tokenizer.add_special_tokens(&special);
    let bytes_of = byte_of_char();
    let text = tokens.iter().enumerate().map(|(i, t)| display_token(t, control(i), &bytes_of)).collect();
    Ok((tokenizer, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_level_tokens_display_as_text() {
        let b = byte_of_char();
        assert_eq!(display_token("Ġcapital", false, &b), " capital");
        assert_eq!(display_token("Ċ", false, &b), "\n");
        // "é" is C3 A9, written Ã© in the byte alphabet.
        assert_eq!(display_token("Ã©", false, &b), "é");
        // A lone lead byte of an emoji.
        assert_eq!(display_token("ĠðŁ", false, &b), " <0xF0><0x9F>");
        assert_eq!(display_token("<|im_start|>", true, &b), "<|im_start|>");
    }
}
