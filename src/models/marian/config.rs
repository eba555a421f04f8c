//! The model's configuration, as Marian embeds it in the binary file
//! (`special:model.yml`): flat `key: value` lines and `- item` lists, the
//! only YAML Marian writes there.
//!
//! The forward pass implements one architecture, Bergamot's "tiny": a
//! post-norm transformer encoder, an SSRU decoder with cross-attention,
//! sinusoidal positions and one embedding matrix shared by source, target
//! and output. [`Config::from_yaml`] checks that the file describes exactly
//! that, naming the first setting that differs, rather than computing
//! something else.

use crate::error::{Error, Result};
use std::collections::BTreeMap;

/// The settings the forward pass depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// `dim-emb`: the width of every hidden vector (d_model).
    pub dim_emb: usize,
    /// `dim-vocabs`: source and target vocabulary sizes (one shared vocabulary here).
    pub dim_vocabs: [usize; 2],
    /// `enc-depth`: encoder layers.
    pub enc_depth: usize,
    /// `dec-depth`: decoder layers.
    pub dec_depth: usize,
    /// `transformer-heads`.
    pub heads: usize,
    /// `transformer-dim-ffn`: the feed-forward's inner width.
    pub dim_ffn: usize,
}

/// `key: value` pairs; a list's items joined with '\n'.
fn parse_flat(text: &str) -> Result<BTreeMap<String, String>> {
    let mut map: BTreeMap<String, String> = BTreeMap::new();
    let mut last: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if let Some(item) = trimmed.strip_prefix("- ").or_else(|| (trimmed == "-").then_some("")) {
            let key = last
                .as_ref()
                .ok_or_else(|| bad(&format!("line {}: a list item outside a list", i + 1)))?;
            let value = map.entry(key.clone()).or_default();
            if !value.is_empty() {
                value.push('\n');
            }
            value.push_str(unquote(item.trim()));
            continue;
        }
        let (key, value) = trimmed
            .split_once(':')
            .ok_or_else(|| bad(&format!("line {} is not `key: value`", i + 1)))?;
        map.insert(key.trim().to_string(), unquote(value.trim()).to_string());
        last = Some(key.trim().to_string());
    }
    Ok(map)
}

fn unquote(v: &str) -> &str {
    v.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap_or(v)
}

fn bad(why: &str) -> Error {
    Error::ModelFile(format!("the model's embedded model.yml: {why}"))
}

impl Config {
    pub fn from_yaml(text: &str) -> Result<Config> {
        let map = parse_flat(text)?;
        let get =
            |key: &str| map.get(key).map(String::as_str).ok_or_else(|| bad(&format!("no `{key}`")));
        let number = |key: &str| -> Result<usize> {
            let v = get(key)?;
            v.parse::<usize>()
                .ok()
                .filter(|&n| n > 0 && n <= 1 << 20)
                .ok_or_else(|| bad(&format!("`{key}: {v}` is not a sensible size")))
        };
        // What the forward pass implements, setting by setting.
        let expect = [
            ("type", "transformer"),
            ("transformer-decoder-autoreg", "rnn"),
            ("dec-cell", "ssru"),
            ("transformer-ffn-activation", "relu"),
            ("transformer-ffn-depth", "2"),
            ("transformer-preprocess", ""),
            ("transformer-postprocess", "dan"),
            ("transformer-postprocess-emb", "d"),
            ("transformer-train-position-embeddings", "false"),
            ("tied-embeddings-all", "true"),
            ("right-left", "false"),
        ];
        for (key, want) in expect {
            let got = map.get(key).map(String::as_str).unwrap_or("");
            if got != want {
                return Err(bad(&format!("`{key}` is {got:?}; attnscope implements Bergamot's tiny transformer, which has {want:?}")));
            }
        }
        let vocabs: Vec<usize> = get("dim-vocabs")?
            .lines()
            .map(|v| v.trim().parse::<usize>())
            .collect::<std::result::Result<_, _>>()
            .map_err(|_| bad("`dim-vocabs` is not a list of numbers"))?;
        let dim_vocabs = match vocabs[..] {
            [s, t] if s == t && s > 0 && s <= 1 << 20 => [s, t],
            _ => {
                return Err(bad(&format!(
                    "`dim-vocabs` is {vocabs:?}; a shared vocabulary (two equal sizes) is expected"
                )))
            }
        };
        let config = Config {
            dim_emb: number("dim-emb")?,
            dim_vocabs,
            enc_depth: number("enc-depth")?,
            dec_depth: number("dec-depth")?,
            heads: number("transformer-heads")?,
            dim_ffn: number("transformer-dim-ffn")?,
        };
        if !config.dim_emb.is_multiple_of(config.heads) || !config.dim_emb.is_multiple_of(2) {
            return Err(bad(&format!(
                "dim-emb {} does not split into {} heads (and halves for the positions)",
                config.dim_emb, config.heads
            )));
        }
        if config.enc_depth > 64 || config.dec_depth > 64 {
            return Err(bad(&format!(
                "{} encoder and {} decoder layers is not a sensible depth",
                config.enc_depth, config.dec_depth
            )));
        }
        Ok(config)
    }

    /// Width of one head's queries, keys and values.
    pub fn d_head(&self) -> usize {
        self.dim_emb / self.heads
    }

    pub fn vocab(&self) -> usize {
        self.dim_vocabs[1]
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The settings of the Bergamot tiny models (en→pt and pt→en embed the same).
    pub(crate) const TINY: &str = "dec-cell: ssru\ndec-depth: 2\ndim-emb: 256\ndim-vocabs:\n  - 32000\n  - 32000\nenc-depth: 6\n\
right-left: false\ntied-embeddings-all: true\ntransformer-decoder-autoreg: rnn\ntransformer-dim-ffn: 1536\n\
transformer-ffn-activation: relu\ntransformer-ffn-depth: 2\ntransformer-heads: 8\ntransformer-postprocess: dan\n\
transformer-postprocess-emb: d\ntransformer-preprocess: \"\"\ntransformer-train-position-embeddings: false\ntype: transformer\n";

    #[test]
    fn reads_the_tiny_settings() {
        let c = Config::from_yaml(TINY).unwrap();
        assert_eq!(
            c,
            Config {
                dim_emb: 256,
                dim_vocabs: [32000, 32000],
                enc_depth: 6,
                dec_depth: 2,
                heads: 8,
                dim_ffn: 1536
            }
        );
        assert_eq!(c.d_head(), 32);
    }

    #[test]
    fn another_architecture_is_named() {
        let err = Config::from_yaml(&TINY.replace("ssru", "lstm")).unwrap_err().to_string();
        assert!(err.contains("`dec-cell` is \"lstm\""), "{err}");
        let err = Config::from_yaml(
            &TINY.replace("transformer-postprocess: dan", "transformer-postprocess: da"),
        )
        .unwrap_err();
        assert!(err.to_string().contains("transformer-postprocess"));
        assert!(Config::from_yaml(&TINY.replace("transformer-heads: 8", "transformer-heads: 7"))
            .is_err());
        assert!(Config::from_yaml(&TINY.replace("  - 32000\n  - 32000", "  - 32000\n  - 8000"))
            .is_err());
        assert!(Config::from_yaml(&TINY.replace("dim-emb: 256", "dim-emb: 99999999999999999999"))
            .is_err());
        assert!(Config::from_yaml("not yaml at all").is_err());
        assert!(Config::from_yaml("").is_err());
    }
}
