//! Hyper-parameters as a checkpoint states them, in a Hugging Face
//! `config.json` or a GGUF file's metadata, each read with the checks the
//! model needs and an error that names the key and the value found: a
//! model built from a bad configuration would panic or draw NaN.

use crate::error::{Error, Result};
use crate::formats::gguf::{Gguf, Value as GgufValue};
use serde_json::{Map, Value};

/// Largest count accepted (layers, heads, widths, vocabulary): far above any
/// model the page can hold, and small enough that products of two stay
/// within 64 bits, and sizes are checked as they are multiplied.
pub const MAX_COUNT: u64 = 1 << 24;

/// Where the hyper-parameters come from.
pub enum Hparams<'a> {
    Json(Map<String, Value>),
    /// A GGUF file's metadata, keys under `prefix.` (the architecture).
    Gguf {
        gguf: &'a Gguf,
        prefix: String,
    },
}

/// Reads `config.json`. JSON has no NaN or infinity, but Python writes
/// them bare; they are read as numbers so that the check can name them.
pub fn parse_json(bytes: &[u8], file: &str) -> Result<Map<String, Value>> {
    let parsed = serde_json::from_slice::<Value>(bytes).or_else(|e| {
        let text = std::str::from_utf8(bytes)
            .map_err(|_| Error::ModelFile(format!("{file} is not text (UTF-8)")))?;
        let quoted = text
            .replace("-Infinity", "\"-Infinity\"")
            .replace("Infinity", "\"Infinity\"")
            .replace("NaN", "\"NaN\"");
        serde_json::from_str::<Value>(&quoted)
            .map_err(|_| Error::ModelFile(format!("{file} is not valid JSON: {e}")))
    })?;
    match parsed {
        Value::Object(map) => Ok(map),
        _ => Err(Error::ModelFile(format!("{file} is not a JSON object"))),
    }
}

impl<'a> Hparams<'a> {
    pub fn gguf(gguf: &'a Gguf, prefix: &str) -> Hparams<'a> {
        Hparams::Gguf { gguf, prefix: prefix.to_string() }
    }

    /// The key as the file spells it, for messages.
    pub fn key(&self, key: &str) -> String {
        match self {
            Hparams::Json(_) => format!("config.json's {key}"),
            Hparams::Gguf { prefix, .. } => format!("the GGUF key {prefix}.{key}"),
        }
    }

    /// An error about `key`.
    pub fn bad(&self, key: &str, why: impl std::fmt::Display) -> Error {
        Error::ModelFile(format!("{} {why}", self.key(key)))
    }

    /// Whether the file states `key`.
    pub fn has(&self, key: &str) -> bool {
        match self {
            Hparams::Json(m) => m.get(key).is_some_and(|v| !v.is_null()),
            Hparams::Gguf { gguf, prefix } => {
                gguf.metadata.contains_key(&format!("{prefix}.{key}"))
            }
        }
    }

    /// The value of a JSON key (None if absent or null).
    pub fn json(&self, key: &str) -> Option<&Value> {
        match self {
            Hparams::Json(m) => m.get(key).filter(|v| !v.is_null()),
            Hparams::Gguf { .. } => None,
        }
    }

    fn gguf_value(&self, key: &str) -> Option<&GgufValue> {
        match self {
            Hparams::Gguf { gguf, prefix } => gguf.metadata.get(&format!("{prefix}.{key}")),
            Hparams::Json(_) => None,
        }
    }

    /// A number, if the key is there; an error if it is there but not a number.
    pub fn number(&self, key: &str) -> Result<Option<f64>> {
        if let Some(v) = self.json(key) {
            let named = |s: &str| match s {
                "NaN" => Some(f64::NAN),
                "Infinity" => Some(f64::INFINITY),
                "-Infinity" => Some(f64::NEG_INFINITY),
                _ => None,
            };
            return v
                .as_f64()
                .or_else(|| v.as_str().and_then(named))
                .map(Some)
                .ok_or_else(|| self.bad(key, format!("is {v}, not a number")));
        }
        match self.gguf_value(key) {
            None => Ok(None),
            Some(v) => {
                v.as_f64().map(Some).ok_or_else(|| self.bad(key, format!("is {v:?}, not a number")))
            }
        }
    }

    /// A whole number, if the key is there.
    pub fn integer(&self, key: &str) -> Result<Option<i64>> {
        if let Some(v) = self.json(key) {
            return v
                .as_i64()
                .map(Some)
                .ok_or_else(|| self.bad(key, format!("is {v}, not a whole number")));
        }
        match self.gguf_value(key) {
            None => Ok(None),
            Some(GgufValue::UInt(u)) => Ok(Some(i64::try_from(*u).unwrap_or(i64::MAX))),
            Some(GgufValue::Int(i)) => Ok(Some(*i)),
            Some(v) => Err(self.bad(key, format!("is {v:?}, not a whole number"))),
        }
    }

    /// A count (layers, heads, a width) of at least 1.
    pub fn count(&self, key: &str) -> Result<usize> {
        self.count_or_none(key)?.ok_or_else(|| self.bad(key, "is missing"))
    }

    /// [`Hparams::count`], or `default` when the key is absent.
    pub fn count_or(&self, key: &str, default: usize) -> Result<usize> {
        Ok(self.count_or_none(key)?.unwrap_or(default))
    }

    /// [`Hparams::count`], or None when the key is absent.
    pub fn count_or_none(&self, key: &str) -> Result<Option<usize>> {
        match self.integer(key)? {
            None => Ok(None),
            Some(n) if n >= 1 && n as u64 <= MAX_COUNT => Ok(Some(n as usize)),
            Some(n) => Err(self.bad(key, format!("= {n}: must be between 1 and {MAX_COUNT}"))),
        }
    }

    /// A positive, finite number (a rotary base, a window), required.
    pub fn positive(&self, key: &str) -> Result<f64> {
        self.positive_or_none(key)?.ok_or_else(|| self.bad(key, "is missing"))
    }

    pub fn positive_or(&self, key: &str, default: f64) -> Result<f64> {
        Ok(self.positive_or_none(key)?.unwrap_or(default))
    }

    pub fn positive_or_none(&self, key: &str) -> Result<Option<f64>> {
        match self.number(key)? {
            None => Ok(None),
            Some(x) if x.is_finite() && x > 0.0 => Ok(Some(x)),
            Some(x) => Err(self.bad(key, format!("= {x}: must be a positive number"))),
        }
    }

    /// A normalisation's ε: finite and not negative.
    pub fn epsilon(&self, key: &str) -> Result<f32> {
        self.epsilon_or_none(key)?.ok_or_else(|| self.bad(key, "is missing"))
    }

    pub fn epsilon_or(&self, key: &str, default: f32) -> Result<f32> {
        Ok(self.epsilon_or_none(key)?.unwrap_or(default))
    }

    fn epsilon_or_none(&self, key: &str) -> Result<Option<f32>> {
        match self.number(key)? {
            None => Ok(None),
            Some(x) if x.is_finite() && x >= 0.0 && (x as f32).is_finite() => Ok(Some(x as f32)),
            Some(x) => Err(self.bad(key, format!("= {x}: must be a number of at least 0"))),
        }
    }

    /// A string, or `default` when absent.
    pub fn string_or(&self, key: &str, default: &str) -> Result<String> {
        if let Some(v) = self.json(key) {
            return v
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| self.bad(key, format!("is {v}, not a string")));
        }
        match self.gguf_value(key) {
            None => Ok(default.to_string()),
            Some(v) => v
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| self.bad(key, format!("is {v:?}, not a string"))),
        }
    }

    /// A true/false flag, or `default` when absent.
    pub fn flag_or(&self, key: &str, default: bool) -> Result<bool> {
        if let Some(v) = self.json(key) {
            return v.as_bool().ok_or_else(|| self.bad(key, format!("is {v}, not true or false")));
        }
        match self.gguf_value(key) {
            None => Ok(default),
            Some(GgufValue::Bool(b)) => Ok(*b),
            Some(v) => Err(self.bad(key, format!("is {v:?}, not true or false"))),
        }
    }
}

/// `heads` must divide `width` (the heads' widths), naming both keys.
pub fn split_evenly(
    h: &Hparams,
    width_key: &str,
    width: usize,
    heads_key: &str,
    heads: usize,
) -> Result<usize> {
    if !width.is_multiple_of(heads) {
        return Err(Error::ModelFile(format!(
            "{} = {width} does not split into {} = {heads} equal heads",
            h.key(width_key),
            h.key(heads_key)
        )));
    }
    Ok(width / heads)
}

/// Grouped-query attention: `kv_heads` must divide `heads`.
pub fn check_groups(
    h: &Hparams,
    heads_key: &str,
    heads: usize,
    kv_key: &str,
    kv_heads: usize,
) -> Result<()> {
    if !heads.is_multiple_of(kv_heads) {
        return Err(Error::ModelFile(format!(
            "{} = {heads} query heads do not share {} = {kv_heads} key/value heads evenly",
            h.key(heads_key),
            h.key(kv_key)
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> Hparams<'static> {
        Hparams::Json(parse_json(text.as_bytes(), "config.json").unwrap())
    }

    #[test]
    fn bad_values_are_named_with_their_key() {
        let h = json(
            r#"{"num_hidden_layers": 0, "rope_theta": -1.0, "eps": NaN, "heads": 3, "width": 64, "base": Infinity}"#,
        );
        let msg = |r: Result<()>| r.unwrap_err().to_string();
        assert!(msg(h.count("num_hidden_layers").map(drop)).contains("num_hidden_layers = 0"));
        assert!(msg(h.positive("rope_theta").map(drop)).contains("rope_theta = -1"));
        assert!(msg(h.positive("base").map(drop)).contains("base = inf"));
        assert!(msg(h.epsilon("eps").map(drop)).contains("eps = NaN"));
        assert!(msg(h.count("missing").map(drop)).contains("missing is missing"));
        assert!(msg(split_evenly(&h, "width", 64, "heads", 3).map(drop)).contains("width = 64"));
        assert_eq!(h.count_or("absent", 7).unwrap(), 7);
        assert!(parse_json(b"[1, 2]", "config.json").is_err());
        assert!(parse_json(b"{", "config.json").unwrap_err().to_string().contains("config.json"));
    }
}
