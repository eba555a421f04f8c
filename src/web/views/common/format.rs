//! How the page writes numbers and vectors as text (step by step, the
//! lesson, the catalog, beyond the weights…).

/// How every number of the page is written; tests format the engine's
/// numbers with the same function and compare text.
pub fn num(x: f32) -> String {
    if x == f32::NEG_INFINITY {
        return "−∞".into();
    }
    if x == f32::INFINITY {
        return "∞".into();
    }
    if x.is_nan() {
        return "NaN".into();
    }
    let a = x.abs();
    let s = if a != 0.0 && a < 1e-3 { format!("{x:.3e}") } else { format!("{x:.4}") };
    if s == "-0.0000" {
        "0.0000".into()
    } else {
        s
    }
}

/// A vector as `[a, b, …]`, every entry through [`num`].
pub fn vector(v: &[f32]) -> String {
    format!("[{}]", v.iter().map(|&x| num(x)).collect::<Vec<_>>().join(", "))
}

/// `s` as text inside HTML or SVG markup the page writes as one string (tokens are the
/// visitor's text: `<script>` stays text, in an element or an attribute's value).
pub fn markup_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
