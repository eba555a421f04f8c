//! The page's URL parameters as plain data: the query string decoded as
//! `URLSearchParams` does (application/x-www-form-urlencoded), each value
//! checked, and written back the same way. Pure and native, so that whatever
//! a link holds is tested and fuzzed outside the browser (fuzz/); the page
//! (src/web/url_state.rs) maps the checked values onto its own state.

use crate::models::sampling::MAX_WRITE;
use crate::trace::ModelId;

/// Longest text, in characters, that the page computes: a URL's text and a
/// paste into the text box are cut to it before anything is tokenized.
pub const MAX_TEXT_CHARS: usize = 10_000;

/// Largest layer or head index a URL may ask for (no model has more).
pub const MAX_INDEX: usize = 1000;

/// Largest token index or lesson step a URL may carry.
pub const MAX_POSITION: usize = 100_000;

/// `text` cut to [`MAX_TEXT_CHARS`] characters, and whether it was cut.
pub fn cut_text(text: &str) -> (&str, bool) {
    match text.char_indices().nth(MAX_TEXT_CHARS) {
        Some((end, _)) => (&text[..end], true),
        None => (text, false),
    }
}

/// Every parameter the page understands, as the URL holds it; None where the
/// URL does not give it or gives something unusable.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UrlParams {
    /// Cut to [`MAX_TEXT_CHARS`].
    pub text: Option<String>,
    pub model: Option<ModelId>,
    /// Below [`MAX_INDEX`].
    pub layer: Option<usize>,
    pub head: Option<usize>,
    /// A slug of letters, digits and `-`, which the page matches against its views.
    pub view: Option<String>,
    /// Below [`MAX_POSITION`].
    pub token: Option<usize>,
    /// A slug, matched by the page against the steps of the computation.
    pub stage: Option<String>,
    /// The lesson's step as the URL counts it, from 1, below [`MAX_POSITION`].
    pub step: Option<usize>,
    /// The temperature factor and the next-token temperature: finite, in 0.1..=10.
    pub temp: Option<f32>,
    pub ntemp: Option<f32>,
    pub raw: Option<bool>,
    pub pos: Option<bool>,
    pub cq: Option<bool>,
    pub dark: Option<bool>,
    pub present: Option<bool>,
    pub embed: Option<bool>,
    /// The exact weights as published (MiniLM's f32 file, not its f16 copy).
    pub exact: Option<bool>,
    /// Writing's settings: draw (else greedy), top-k (below [`MAX_POSITION`]), top-p (0..=1, to
    /// 3 decimals), the seed, and how many tokens (1..=[`MAX_WRITE`]).
    pub sample: Option<bool>,
    pub topk: Option<usize>,
    pub topp: Option<f32>,
    pub seed: Option<u64>,
    pub n: Option<usize>,
    /// A class's writing, sent by the teacher's page so that students' pages write the same
    /// tokens (`src/web/shell/classroom/`): the prompt's length in characters (the text's
    /// start, at most [`MAX_TEXT_CHARS`]), the token ids written after it (1 to [`MAX_WRITE`],
    /// comma-separated), and the timeline's step shown (1 to [`MAX_WRITE`]; absent: now).
    pub wp: Option<usize>,
    pub wids: Option<Vec<u32>>,
    pub wat: Option<usize>,
    /// The page's language, a BCP 47 tag such as `pt` or `zh-Hans` (which ones the page
    /// knows is the page's business: an unknown one falls back to English).
    pub lang: Option<String>,
}

fn hex_value(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// One name or value of a form-encoded query: `+` is a space, `%XX` a byte
/// (a `%` not followed by two hex digits stays as it is), then UTF-8 with
/// anything invalid replaced by �.
fn decode_component(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let escaped = match (
            b,
            bytes.get(i + 1).copied().and_then(hex_value),
            bytes.get(i + 2).copied().and_then(hex_value),
        ) {
            (b'%', Some(hi), Some(lo)) => Some(hi << 4 | lo),
            _ => None,
        };
        match (b, escaped) {
            (_, Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b'+', None) => {
                out.push(b' ');
                i += 1;
            }
            (b, None) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The name/value pairs of a query string (with or without its leading `?`),
/// in order, as `URLSearchParams` reads them.
pub fn decode_query(query: &str) -> Vec<(String, String)> {
    let query = query.strip_prefix('?').unwrap_or(query);
    query
        .split('&')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let (name, value) = part.split_once('=').unwrap_or((part, ""));
            (decode_component(name), decode_component(value))
        })
        .collect()
}

/// `s` form-encoded as `URLSearchParams` writes it: letters, digits and
/// `*-._` as they are, a space as `+`, every other byte as `%XX`.
fn encode_component(s: &str, out: &mut String) {
    for &b in s.as_bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'*' | b'-' | b'.' | b'_' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
}

/// A query string, `?` first, of `pairs` in order.
pub fn encode_query(pairs: &[(&str, String)]) -> String {
    let mut out = String::from("?");
    for (i, (name, value)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        encode_component(name, &mut out);
        out.push('=');
        encode_component(value, &mut out);
    }
    out
}

fn below(v: &str, limit: usize) -> Option<usize> {
    v.parse::<usize>().ok().filter(|&x| x < limit)
}

fn factor(v: &str) -> Option<f32> {
    v.parse::<f32>().ok().filter(|f| f.is_finite() && (0.1..=10.0).contains(f))
}

/// A share in 0..=1, rounded to the 3 decimals the URL keeps (so it reads back exactly).
fn share(v: &str) -> Option<f32> {
    let f = v.parse::<f32>().ok().filter(|f| (0.0..=1.0).contains(f))?;
    Some((f * 1000.0).round() / 1000.0)
}

fn flag(v: &str) -> Option<bool> {
    match v {
        "1" | "true" | "on" => Some(true),
        "0" | "false" | "off" => Some(false),
        _ => None,
    }
}

fn slug(v: &str) -> Option<String> {
    (!v.is_empty()
        && v.len() <= 32
        && v.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'))
    .then(|| v.to_string())
}

/// A language tag: ASCII letters, digits and hyphens, at most 35 characters (BCP 47's longest
/// usual form), such as `de`, `pt-BR` or `zh-Hans-CN`.
fn language_tag(v: &str) -> Option<String> {
    (!v.is_empty() && v.len() <= 35 && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        .then(|| v.to_string())
}

/// Comma-separated token ids, 1 to [`MAX_WRITE`] of them; anything else is unusable.
fn ids(v: &str) -> Option<Vec<u32>> {
    let ids: Vec<u32> = v.split(',').map(|x| x.parse().ok()).collect::<Option<_>>()?;
    (1..=MAX_WRITE).contains(&ids.len()).then_some(ids)
}

fn write_flag(b: bool) -> String {
    if b { "1" } else { "0" }.to_string()
}

impl UrlParams {
    /// From name/value pairs; the first of each name counts, as with
    /// `URLSearchParams::get`, and an unusable value counts as absent.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> UrlParams {
        let mut p = UrlParams::default();
        let mut seen: Vec<&str> = Vec::new();
        for (name, v) in pairs {
            if seen.contains(&name) {
                continue;
            }
            seen.push(name);
            match name {
                "text" => p.text = Some(cut_text(v).0.to_string()),
                "model" => p.model = ModelId::from_slug(v),
                "layer" => p.layer = below(v, MAX_INDEX),
                "head" => p.head = below(v, MAX_INDEX),
                "view" => p.view = slug(v),
                "token" => p.token = below(v, MAX_POSITION),
                "stage" => p.stage = slug(v),
                "step" => p.step = below(v, MAX_POSITION).filter(|&s| s >= 1),
                "temp" => p.temp = factor(v),
                "ntemp" => p.ntemp = factor(v),
                "raw" => p.raw = flag(v),
                "pos" => p.pos = flag(v),
                "cq" => p.cq = flag(v),
                "dark" => p.dark = flag(v),
                "present" => p.present = flag(v),
                "embed" => p.embed = flag(v),
                "exact" => p.exact = flag(v),
                "sample" => p.sample = flag(v),
                "topk" => p.topk = below(v, MAX_POSITION),
                "topp" => p.topp = share(v),
                "seed" => p.seed = v.parse().ok(),
                "n" => p.n = below(v, MAX_WRITE + 1).filter(|&n| n >= 1),
                "wp" => p.wp = below(v, MAX_TEXT_CHARS + 1),
                "wids" => p.wids = ids(v),
                "wat" => p.wat = below(v, MAX_WRITE + 1).filter(|&n| n >= 1),
                "lang" => p.lang = language_tag(v),
                _ => {}
            }
        }
        p
    }

    /// From a query string such as `?text=hi&model=minilm`.
    pub fn parse(query: &str) -> UrlParams {
        let pairs = decode_query(query);
        UrlParams::from_pairs(pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())))
    }

    /// The pairs to write, in the page's order (the text last, so that a long
    /// text leaves the rest of the link readable); factors to 3 decimals.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        let mut put = |name: &'static str, v: Option<String>| {
            if let Some(v) = v {
                pairs.push((name, v));
            }
        };
        put("model", self.model.map(|m| m.slug().to_string()));
        put("layer", self.layer.map(|x| x.to_string()));
        put("head", self.head.map(|x| x.to_string()));
        put("view", self.view.clone());
        put("token", self.token.map(|x| x.to_string()));
        put("stage", self.stage.clone());
        put("step", self.step.map(|x| x.to_string()));
        put("temp", self.temp.map(|f| format!("{f:.3}")));
        put("raw", self.raw.map(write_flag));
        put("pos", self.pos.map(write_flag));
        put("ntemp", self.ntemp.map(|f| format!("{f:.3}")));
        put("cq", self.cq.map(write_flag));
        put("dark", self.dark.map(write_flag));
        put("present", self.present.map(write_flag));
        put("embed", self.embed.map(write_flag));
        put("exact", self.exact.map(write_flag));
        put("sample", self.sample.map(write_flag));
        put("topk", self.topk.map(|x| x.to_string()));
        put("topp", self.topp.map(|f| format!("{f:.3}")));
        put("seed", self.seed.map(|x| x.to_string()));
        put("n", self.n.map(|x| x.to_string()));
        put("wp", self.wp.map(|x| x.to_string()));
        put(
            "wids",
            self.wids
                .as_ref()
                .map(|ids| ids.iter().map(u32::to_string).collect::<Vec<_>>().join(",")),
        );
        put("wat", self.wat.map(|x| x.to_string()));
        put("lang", self.lang.clone());
        put("text", self.text.clone());
        pairs
    }

    /// The query string, `?` first.
    pub fn to_query(&self) -> String {
        encode_query(&self.to_pairs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_as_url_search_params_does() {
        let pairs = decode_query("?text=a+b%20c%zz%E2%9C%93&&model=minilm&x&=y&text=second");
        assert_eq!(
            pairs,
            [("text", "a b c%zz✓"), ("model", "minilm"), ("x", ""), ("", "y"), ("text", "second")]
                .map(|(a, b)| (a.to_string(), b.to_string()))
        );
        // An escaped byte that is not UTF-8 is shown as �, never dropped silently.
        assert_eq!(decode_query("t=%FF")[0].1, "\u{fffd}");
    }

    #[test]
    fn values_out_of_range_are_absent_and_the_first_of_a_name_counts() {
        let p =
            UrlParams::parse("?layer=999999&head=3&head=4&temp=NaN&ntemp=0.5&model=%3Cscript%3E&view=Head&stage=scaled&step=0&dark=yes");
        assert_eq!(
            (p.layer, p.head, p.temp, p.ntemp, p.model),
            (None, Some(3), None, Some(0.5), None)
        );
        assert_eq!(
            (p.view, p.stage.as_deref(), p.step, p.dark),
            (None, Some("scaled"), None, None)
        );
    }

    #[test]
    fn text_is_cut_to_the_limit_on_a_character_boundary() {
        let long = "é".repeat(MAX_TEXT_CHARS + 5);
        let (cut, was_cut) = cut_text(&long);
        assert!(was_cut);
        assert_eq!(cut.chars().count(), MAX_TEXT_CHARS);
        let query = encode_query(&[("text", long.clone())]);
        assert_eq!(UrlParams::parse(&query).text.as_deref(), Some(cut));
        assert_eq!(cut_text("short"), ("short", false));
    }

    #[test]
    fn writes_what_it_reads() {
        let p = UrlParams {
            text: Some("x = 1 & y ✓ +%".into()),
            model: Some(ModelId::SmolLm2),
            layer: Some(2),
            head: Some(7),
            view: Some("lesson".into()),
            step: Some(4),
            temp: Some(2.5),
            pos: Some(false),
            dark: Some(true),
            ..Default::default()
        };
        let q = p.to_query();
        assert_eq!(q, "?model=smollm2&layer=2&head=7&view=lesson&step=4&temp=2.500&pos=0&dark=1&text=x+%3D+1+%26+y+%E2%9C%93+%2B%25");
        assert_eq!(UrlParams::parse(&q), p);
    }

    #[test]
    fn writing_settings_round_trip_and_stay_in_range() {
        let p = UrlParams::parse("?sample=1&topk=40&topp=0.95&seed=7&n=12&ntemp=0.8");
        assert_eq!(
            (p.sample, p.topk, p.topp, p.seed, p.n),
            (Some(true), Some(40), Some(0.95), Some(7), Some(12))
        );
        assert_eq!(UrlParams::parse(&p.to_query()), p);
        let bad = UrlParams::parse("?topp=1.5&n=0&seed=-1&topk=x");
        assert_eq!((bad.topp, bad.n, bad.seed, bad.topk), (None, None, None, None));
        assert_eq!(UrlParams::parse("?n=999").n, None);
        // A long top-p is rounded to what the URL writes, so it reads back the same.
        let q = UrlParams::parse("?topp=0.12345");
        assert_eq!(UrlParams::parse(&q.to_query()), q);
    }

    #[test]
    fn a_class_writing_round_trips_and_stays_in_range() {
        let p = UrlParams::parse("?wp=24&wids=12%2C345%2C0&wat=2&text=x");
        assert_eq!((p.wp, p.wids.as_deref(), p.wat), (Some(24), Some(&[12, 345, 0][..]), Some(2)));
        assert_eq!(UrlParams::parse(&p.to_query()), p);
        let bad = UrlParams::parse("?wp=10001&wids=1,,2&wat=0");
        assert_eq!((bad.wp, bad.wids, bad.wat), (None, None, None));
        assert_eq!(UrlParams::parse("?wids=").wids, None);
        assert_eq!(UrlParams::parse("?wids=4294967296").wids, None, "beyond u32");
        let many = vec!["7"; MAX_WRITE + 1].join(",");
        assert_eq!(UrlParams::parse(&format!("?wids={many}")).wids, None);
        assert_eq!(UrlParams::parse("?wat=257").wat, None);
    }

    #[test]
    fn a_language_tag_round_trips_and_anything_else_is_absent() {
        let p = UrlParams::parse("?lang=pt-BR&text=x");
        assert_eq!(p.lang.as_deref(), Some("pt-BR"));
        assert_eq!(UrlParams::parse(&p.to_query()), p);
        for bad in ["", "de<script>", "zh_CN", "x y", &"a".repeat(36)] {
            let q = format!(
                "?lang={}",
                encode_query(&[("", bad.to_string())]).trim_start_matches("?=")
            );
            assert_eq!(UrlParams::parse(&q).lang, None, "{bad:?}");
        }
    }
}
