//! The JSON written by `attnscope attention --json` and downloaded by the
//! page: one schema, so a figure made on the command line and one exported
//! from the browser hold the same numbers.

use crate::attention::Mask;
use crate::trace::ModelTrace;
use serde::Serialize;

#[derive(Serialize)]
pub struct NextToken {
    pub token: String,
    pub probability: f32,
}

/// One layer's mask: its kind, and for a sliding window how many keys a query sees.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct LayerMask {
    pub mask: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<usize>,
}

impl From<Mask> for LayerMask {
    fn from(m: Mask) -> Self {
        let window = match m {
            Mask::SlidingWindow(w) => Some(w),
            Mask::None | Mask::Causal => None,
        };
        LayerMask { mask: m.name().to_string(), window }
    }
}

/// The layers' masks if any differs from the model's, else None.
pub fn layer_masks(model: Mask, layers: impl IntoIterator<Item = Mask>) -> Option<Vec<LayerMask>> {
    let masks: Vec<Mask> = layers.into_iter().collect();
    masks.iter().any(|&m| m != model).then(|| masks.into_iter().map(LayerMask::from).collect())
}

/// The weights a JSON export of `trace` writes: every head's n_q × n_k.
pub fn export_weights(trace: &ModelTrace) -> u64 {
    let n = trace.tokens.len() as u64;
    trace.layers.iter().map(|l| l.attention.heads.len() as u64 * n * n).sum()
}

/// Refuses, before anything is built, a JSON of every head with more than
/// `max` weights (`heads` heads over `n` tokens), naming what works at that
/// length: one head as CSV, PNG or SVG, or a text short enough.
pub fn check_export_size(n: usize, heads: usize, max: u64) -> crate::error::Result<()> {
    let weights = heads as u64 * (n as u64).pow(2);
    if weights <= max {
        return Ok(());
    }
    let fits = ((max / heads.max(1) as u64) as f64).sqrt() as u64;
    Err(crate::Error::Invalid(format!(
        "the JSON of every head at {n} tokens is {:.0} million weights ({heads} heads × {n}²; about {:.1} GB as text), more than the {} million written at once: write one head with --csv FILE (or --png / --svg) and --layer / --head, or shorten the text to at most {fits} tokens",
        weights as f64 / 1e6,
        weights as f64 * 10.0 / 1e9,
        max >> 20,
    )))
}

/// `attentions` is indexed [layer][head][query][key].
#[derive(Serialize)]
pub struct AttentionExport {
    pub model: String,
    pub tokens: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token_ids: Option<Vec<u32>>,
    pub mask: String,
    /// Each layer's own mask, when the layers differ (Gemma 3's sliding-window
    /// layers among causal ones); absent when every layer uses `mask`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layer_masks: Option<Vec<LayerMask>>,
    pub attentions: Vec<Vec<Vec<Vec<f32>>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_head_of: Option<Vec<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sentence_embedding: Option<Vec<f32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top5_next: Option<Vec<NextToken>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
}

impl AttentionExport {
    pub fn from_trace(t: &ModelTrace) -> Self {
        let attentions = t
            .layers
            .iter()
            .map(|l| {
                (0..l.attention.heads.len())
                    .map(|h| l.attention.head(h).weights.to_rows())
                    .collect()
            })
            .collect();
        let grouped = t.info.n_kv_heads != t.info.n_heads;
        Self {
            model: t.info.id.clone(),
            tokens: t.tokens.clone(),
            token_ids: t.token_ids.clone(),
            mask: t.info.mask.name().to_string(),
            layer_masks: layer_masks(
                t.info.mask,
                t.layers.iter().filter_map(|l| l.attention.heads.first().map(|h| h.mask)),
            ),
            attentions,
            kv_head_of: grouped.then(|| {
                t.layers.first().map(|l| l.attention.kv_head_of.clone()).unwrap_or_default()
            }),
            sentence_embedding: t.sentence_embedding.clone(),
            top5_next: t.top_next.as_ref().map(|v| {
                v.iter()
                    .take(5)
                    .map(|(token, p)| NextToken { token: token.clone(), probability: *p })
                    .collect()
            }),
            notice: t.notice.clone(),
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("numbers and strings always serialise")
    }

    /// The JSON written to `w` as it is made, without the whole text in memory.
    pub fn write_json(&self, w: impl std::io::Write) -> std::io::Result<()> {
        serde_json::to_writer(w, self).map_err(std::io::Error::other)
    }
}

/// A translation's JSON export, written by `attnscope translate --json` and
/// by the page's translation view alike. `cross_attentions` is indexed
/// [layer][head][target][source]; the CLI also writes the token ids and the
/// encoder's self-attention [layer][head][source][source], which the page
/// exports from its own panel instead.
#[derive(Serialize)]
pub struct TranslationExport<'a> {
    pub model: &'a str,
    pub from: &'a str,
    pub to: &'a str,
    pub text: &'a str,
    pub translation: &'a str,
    pub source_tokens: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_ids: Option<&'a [u32]>,
    pub target_tokens: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_ids: Option<&'a [u32]>,
    pub cross_attentions: Vec<Vec<Vec<Vec<f32>>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoder_attentions: Option<Vec<Vec<Vec<Vec<f32>>>>>,
    /// "end_of_sentence", or "length_limit" when the length limit ended it.
    pub stop: &'static str,
    pub notices: &'a [String],
}

impl TranslationExport<'_> {
    /// The `stop` field's value.
    pub fn stop_name(length_limit: bool) -> &'static str {
        if length_limit {
            "length_limit"
        } else {
            "end_of_sentence"
        }
    }

    pub fn to_json(&self) -> String {
        // Every weight is a softmax's, finite, so serialising cannot fail.
        serde_json::to_string(self).expect("numbers and strings always serialise")
    }
}

/// One head's weights as CSV: a header row of key tokens, then one row per
/// query token. Cells are quoted so that commas and quotes in tokens survive.
pub fn head_csv(tokens: &[String], weights: &crate::Matrix) -> String {
    let quote = |s: &str| format!("\"{}\"", spreadsheet_safe(s).replace('"', "\"\""));
    let mut out = String::from("query\\key");
    for t in tokens {
        out.push(',');
        out.push_str(&quote(t));
    }
    out.push('\n');
    for (i, t) in tokens.iter().enumerate().take(weights.rows) {
        out.push_str(&quote(t));
        for w in weights.row(i) {
            out.push_str(&format!(",{w}"));
        }
        out.push('\n');
    }
    out
}

/// A token a spreadsheet will show as text: a cell that begins with `=`, `+`,
/// `-`, `@`, a tab or a carriage return is read as a formula by Excel and
/// LibreOffice, so, as OWASP's CSV-injection guidance recommends, it gets a
/// leading apostrophe (shown by no spreadsheet, kept by every CSV reader).
pub fn spreadsheet_safe(cell: &str) -> std::borrow::Cow<'_, str> {
    match cell.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{cell}").into(),
        _ => cell.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_head_of_a_long_text_is_refused_with_what_works() {
        // SmolLM2 at 2,048 tokens: 270 heads × 2,048² weights.
        let e = check_export_size(2048, 270, 64 << 20).unwrap_err().to_string();
        let named =
            e.contains("1132 million") && e.contains("--csv") && e.contains("at most 498 tokens");
        assert!(named, "{e}");
        assert!(check_export_size(498, 270, 64 << 20).is_ok());
        assert!(check_export_size(14, 270, 64 << 20).is_ok());
    }

    #[test]
    fn layer_masks_are_listed_only_when_a_layer_differs() {
        assert_eq!(layer_masks(Mask::Causal, [Mask::Causal, Mask::Causal]), None);
        let listed = layer_masks(Mask::Causal, [Mask::SlidingWindow(4), Mask::Causal]).unwrap();
        assert_eq!(listed[0], LayerMask { mask: "sliding window".into(), window: Some(4) });
        assert_eq!(listed[1], LayerMask { mask: "causal".into(), window: None });
    }

    #[test]
    fn csv_cells_that_a_spreadsheet_would_run_are_neutralised() {
        let tokens: Vec<String> = ["=HYPERLINK(\"x\")", "+1", "-", "@SUM(A1)", "plain", "a,\"b\""]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let csv = head_csv(&tokens, &crate::Matrix::zeros(tokens.len(), tokens.len()));
        let header = csv.lines().next().unwrap();
        assert_eq!(header, "query\\key,\"'=HYPERLINK(\"\"x\"\")\",\"'+1\",\"'-\",\"'@SUM(A1)\",\"plain\",\"a,\"\"b\"\"\"");
        for line in csv.lines().skip(1) {
            let first = line.split(',').next().unwrap();
            assert!(!first.trim_start_matches('"').starts_with(['=', '+', '-', '@']), "{line}");
        }
    }
}
