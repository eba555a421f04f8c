//! Drawing attention with plotters: the same heatmap becomes an SVG (both
//! natively and in the browser) or a PNG (natively, for slides); a vision
//! model's attention over its picture's patches becomes a PNG.

pub mod colormap;
pub mod heatmap;
#[cfg(not(target_arch = "wasm32"))]
pub mod patches;

#[cfg(not(target_arch = "wasm32"))]
pub use heatmap::heatmap_png;
pub use heatmap::{heatmap_svg, Heatmap, ValueKind, AXES};
#[cfg(not(target_arch = "wasm32"))]
pub use patches::{patch_overlay_png, PatchOverlay};

/// A token as it can be drawn and written into XML: control characters
/// become their visible control pictures (NUL → ␀, tab → ␉, DEL → ␡), and the
/// code points XML forbids or Unicode reserves as non-characters become �,
/// so a byte token or a pasted escape sequence still makes a valid SVG and
/// a reader sees that something was there.
pub fn visible(label: &str) -> String {
    label
        .chars()
        .map(|c| match c as u32 {
            n @ 0x00..=0x1f => char::from_u32(0x2400 + n).unwrap_or('\u{fffd}'),
            0x7f => '\u{2421}',
            0x80..=0x9f | 0xfdd0..=0xfdef => '\u{fffd}',
            n if n & 0xfffe == 0xfffe => '\u{fffd}',
            _ => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::visible;

    #[test]
    fn control_characters_and_non_characters_become_visible() {
        assert_eq!(visible("a\u{0}b\tc\n\u{7f}"), "a␀b␉c␊␡");
        assert_eq!(visible("\u{85}\u{fdd0}\u{fffe}\u{1ffff}x"), "����x");
        assert_eq!(visible("héllo 🙂 <&>"), "héllo 🙂 <&>");
    }
}
