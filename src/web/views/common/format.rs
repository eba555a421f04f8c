//! How the page writes numbers and vectors as text (step by step, the
//! lesson, the catalog, beyond the weights…).

/// How every number of the page is written, with the decimal sign of the page's language
/// (`0,2500` in German); tests format the engine's numbers with the same function and
/// compare text. Exported files are written by the core, always with a dot.
pub fn num(x: f32) -> String {
    decimal_sign(num_with_dot(x))
}

fn num_with_dot(x: f32) -> String {
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

/// A vector as `[a, b, …]`, every entry through [`num`]; where a comma is the decimal sign,
/// entries are parted by semicolons (`[0,5; 1,25]`).
pub fn vector(v: &[f32]) -> String {
    let parted = if crate::i18n::decimal_comma() { "; " } else { ", " };
    format!("[{}]", v.iter().map(|&x| num(x)).collect::<Vec<_>>().join(parted))
}

/// `x` with its sign and `digits` decimals, in the page's decimal sign (`+0,25`).
pub fn signed(x: f32, digits: usize) -> String {
    decimal_sign(format!("{x:+.digits$}"))
}

/// A number written with a dot, in the page's decimal sign.
fn decimal_sign(s: String) -> String {
    if crate::i18n::decimal_comma() {
        s.replace('.', ",")
    } else {
        s
    }
}

/// A number with `digits` decimals, in the page's decimal sign: for readouts that want fewer
/// digits than [`num`] (percentages, seconds, temperatures).
pub fn fixed(x: f64, digits: usize) -> String {
    decimal_sign(format!("{x:.digits$}"))
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
