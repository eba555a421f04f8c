//! One head's attention as a heatmap: queries down the left, keys along the
//! top, a colour bar, and a title naming model, layer and head.

use super::colormap::{diverging, text_on, viridis};
use super::visible;
use crate::attention::Mask;
use crate::error::{Error, Result};
use crate::tensor::Matrix;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// How to colour the numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// Attention weights in [0, 1]: viridis on a fixed 0–1 scale, so figures
    /// of different heads compare.
    Weights,
    /// Raw, scaled or masked scores: diverging colours, symmetric around 0;
    /// −∞ (masked) cells are grey and marked.
    Signed,
}

pub struct Heatmap<'a> {
    /// One or more lines (separated by '\n'), e.g. the model, then layer and head.
    pub title: String,
    /// Query tokens (rows).
    pub row_labels: &'a [String],
    /// Key tokens (columns).
    pub col_labels: &'a [String],
    pub values: &'a Matrix,
    pub kind: ValueKind,
    /// The head's mask: the weights of the keys it hides are 0 by
    /// construction; they are drawn as the masked scores' −∞ are (grey,
    /// hatched), not as a weight of 0, and get no "0.00".
    pub mask: Mask,
    /// The axes' names, keys (along the top) then queries (down the side): [`AXES`] in
    /// English, the page's own words in its language.
    pub axes: (&'a str, &'a str),
}

/// The axes' names in English (the CLI's figures).
pub const AXES: (&str, &str) = ("keys →", "queries ↓");

pub(super) const FONT: &str = "sans-serif";
const TITLE_PX: u32 = 20;
const MASKED_GREY: RGBColor = RGBColor(205, 205, 205);
const HATCH: RGBColor = RGBColor(150, 150, 150);

/// Where everything goes, decided once from the label lengths and the size.
struct Layout {
    /// A cell's width and height: square, unless the matrix is at least four
    /// times wider than tall (a transcript's tokens over the frames of a clip),
    /// where the rows keep a readable height.
    cell_w: u32,
    cell_h: u32,
    label_px: u32,
    left: u32,
    top: u32,
    bar_x: u32,
    width: u32,
    height: u32,
    /// Show every n-th label so that labels never overlap.
    col_label_every: usize,
    row_label_every: usize,
    numbers: bool,
}

fn layout(h: &Heatmap<'_>) -> Layout {
    let (rows, cols) = (h.values.rows.max(1) as u32, h.values.cols.max(1) as u32);
    let cell_w = (760 / rows.max(cols)).clamp(4, 56);
    let cell_h = if cols >= 4 * rows { (400 / rows).clamp(cell_w, 28) } else { cell_w };
    let label_px = if cell_h >= 16 { 14 } else { 12 };
    let longest = h
        .row_labels
        .iter()
        .chain(h.col_labels)
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(1)
        .min(24) as u32;
    let label_room = longest * label_px * 6 / 10 + 16;
    let left = label_room + 24;
    let title_lines = h.title.lines().count().max(1) as u32;
    let top = 12 + title_lines * (TITLE_PX + 6) + 18 + label_room;
    let bar_x = left + h.values.cols as u32 * cell_w + 28;
    let title_width =
        h.title.lines().map(|l| l.chars().count() as u32).max().unwrap_or(0) * TITLE_PX * 6 / 10
            + 24;
    let width = (bar_x + 90).max(title_width);
    let height = (top + h.values.rows as u32 * cell_h + 24).max(top + 200);
    let every = |cell: u32| ((label_px + 2) as f32 / cell as f32).ceil().max(1.0) as usize;
    Layout {
        cell_w,
        cell_h,
        label_px,
        left,
        top,
        bar_x,
        width,
        height,
        col_label_every: every(cell_w),
        row_label_every: every(cell_h),
        numbers: cell_w.min(cell_h) >= 34,
    }
}

fn colour(kind: ValueKind, v: f32, range: f32) -> RGBColor {
    let [r, g, b] = match kind {
        ValueKind::Weights => viridis(v),
        ValueKind::Signed => diverging(if range > 0.0 { v / range } else { 0.0 }),
    };
    RGBColor(r, g, b)
}

/// The largest |finite value|, the half-width of a signed scale.
fn signed_range(m: &Matrix) -> f32 {
    m.data.iter().filter(|v| v.is_finite()).fold(0.0f32, |a, v| a.max(v.abs()))
}

fn short(label: &str) -> String {
    let label = visible(label);
    let mut s: String = label.chars().take(24).collect();
    if label.chars().count() > 24 {
        s.push('…');
    }
    s
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    h: &Heatmap<'_>,
    l: &Layout,
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let title = (FONT, TITLE_PX).into_font().color(&BLACK);
    for (i, line) in h.title.lines().enumerate() {
        root.draw(&Text::new(
            visible(line),
            (12, 12 + i as i32 * (TITLE_PX as i32 + 6)),
            title.clone(),
        ))?;
    }
    let range = signed_range(h.values);
    let label_font = (FONT, l.label_px).into_font();
    let (left, top) = (l.left as i32, l.top as i32);
    let (cell_w, cell_h) = (l.cell_w as i32, l.cell_h as i32);

    // Axis names.
    let axis = (FONT, 13).into_font().color(&RGBColor(90, 90, 90));
    let (keys, queries) = h.axes;
    root.draw(&Text::new(visible(keys), (left - 60, top - 18), axis.clone()))?;
    let below = (12, top + 4 + h.values.rows as i32 * cell_h);
    root.draw(&Text::new(visible(queries), below, axis))?;

    for (j, label) in h.col_labels.iter().enumerate().take(h.values.cols) {
        if j % l.col_label_every == 0 {
            let style = label_font
                .clone()
                .transform(FontTransform::Rotate270)
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Center));
            root.draw(&Text::new(
                short(label),
                (left + j as i32 * cell_w + cell_w / 2, top - 6),
                style,
            ))?;
        }
    }
    for (i, label) in h.row_labels.iter().enumerate().take(h.values.rows) {
        if i % l.row_label_every == 0 {
            let style = label_font.clone().color(&BLACK).pos(Pos::new(HPos::Right, VPos::Center));
            root.draw(&Text::new(
                short(label),
                (left - 6, top + i as i32 * cell_h + cell_h / 2),
                style,
            ))?;
        }
    }

    for i in 0..h.values.rows {
        for j in 0..h.values.cols {
            let v = h.values[(i, j)];
            let (x0, y0) = (left + j as i32 * cell_w, top + i as i32 * cell_h);
            let hidden =
                h.kind == ValueKind::Weights && !h.mask.allows(i, j, h.values.rows, h.values.cols);
            let masked = hidden || v == f32::NEG_INFINITY;
            let fill = if masked { MASKED_GREY } else { colour(h.kind, v, range) };
            root.draw(&Rectangle::new([(x0, y0), (x0 + cell_w, y0 + cell_h)], fill.filled()))?;
            if masked && cell_w.min(cell_h) >= 10 {
                // Hatch masked cells so they read as "hidden", not as a colour.
                root.draw(&PathElement::new(
                    vec![(x0 + 2, y0 + cell_h - 2), (x0 + cell_w - 2, y0 + 2)],
                    HATCH,
                ))?;
            }
            if l.numbers && !hidden {
                let text =
                    if v == f32::NEG_INFINITY { "−∞".to_string() } else { format!("{v:.2}") };
                let [r, g, b] = text_on([fill.0, fill.1, fill.2]);
                let style = (FONT, 11)
                    .into_font()
                    .color(&RGBColor(r, g, b))
                    .pos(Pos::new(HPos::Center, VPos::Center));
                root.draw(&Text::new(text, (x0 + cell_w / 2, y0 + cell_h / 2), style))?;
            }
        }
    }

    // Colour bar with five ticks.
    let bar_top = top;
    let bar_h = (h.values.rows as i32 * cell_h).max(160);
    let (lo, hi) = match h.kind {
        ValueKind::Weights => (0.0, 1.0),
        ValueKind::Signed => (-range, range),
    };
    for y in 0..bar_h {
        let v = hi - (hi - lo) * y as f32 / (bar_h - 1).max(1) as f32;
        let c = colour(h.kind, v, range);
        root.draw(&Rectangle::new(
            [(l.bar_x as i32, bar_top + y), (l.bar_x as i32 + 18, bar_top + y + 1)],
            c.filled(),
        ))?;
    }
    for t in 0..5 {
        let v = hi - (hi - lo) * t as f32 / 4.0;
        let y = bar_top + (bar_h - 1) * t / 4;
        let style = (FONT, 12).into_font().color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center));
        root.draw(&Text::new(format!("{v:.2}"), (l.bar_x as i32 + 24, y), style))?;
    }
    root.present()
}

/// The heatmap as an SVG document.
pub fn heatmap_svg(h: &Heatmap<'_>) -> Result<String> {
    check(h)?;
    let l = layout(h);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (l.width, l.height)).into_drawing_area();
        draw(&root, h, &l).map_err(|e| Error::Invalid(format!("could not draw the SVG: {e}")))?;
    }
    Ok(svg)
}

/// The heatmap as PNG bytes (natively; the page exports PNG from its canvas).
#[cfg(not(target_arch = "wasm32"))]
pub fn heatmap_png(h: &Heatmap<'_>) -> Result<Vec<u8>> {
    check(h)?;
    register_font();
    let l = layout(h);
    let mut rgb = vec![0u8; (l.width * l.height * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (l.width, l.height)).into_drawing_area();
        draw(&root, h, &l).map_err(|e| Error::Invalid(format!("could not draw the PNG: {e}")))?;
    }
    encode_png(&rgb, l.width, l.height)
}

/// `rgb` (`height` rows of `width` pixels, 3 bytes each) as PNG bytes.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn encode_png(rgb: &[u8], width: u32, height: u32) -> Result<Vec<u8>> {
    let mut png = Vec::new();
    let mut encoder = png::Encoder::new(&mut png, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let encoded = encoder.write_header().and_then(|mut w| w.write_image_data(rgb));
    encoded.map_err(|e| Error::Invalid(format!("could not encode the PNG: {e}")))?;
    Ok(png)
}

fn check(h: &Heatmap<'_>) -> Result<()> {
    if h.values.rows != h.row_labels.len() || h.values.cols != h.col_labels.len() {
        return Err(Error::Invalid(format!(
            "heatmap of {}×{} values with {} row and {} column labels",
            h.values.rows,
            h.values.cols,
            h.row_labels.len(),
            h.col_labels.len()
        )));
    }
    Ok(())
}

/// Natively plotters draws text with ab_glyph from a font we ship (DejaVu
/// Sans), so figures look the same on every machine.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn register_font() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let bytes: &'static [u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
        // The font is compiled in, so a failure here is a build mistake, caught by tests.
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, bytes);
    });
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    fn labels(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("tok{i}")).collect()
    }

    #[test]
    fn svg_and_png_are_valid_files() {
        let m = Matrix::from_rows(&[[0.7, 0.3], [f32::NEG_INFINITY, 1.0]]);
        let l = labels(2);
        let h = Heatmap {
            title: "test".into(),
            row_labels: &l,
            col_labels: &l,
            values: &m,
            kind: ValueKind::Signed,
            mask: Mask::None,
            axes: AXES,
        };
        let svg = heatmap_svg(&h).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("tok1"));
        let png = heatmap_png(&h).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    }

    /// SmolLM2 has byte tokens and the teaching model keeps what it is
    /// given, so labels may hold anything a string can.
    #[test]
    fn svg_is_well_formed_xml_whatever_the_labels() {
        let l: Vec<String> = [
            "\u{0}nul",
            "tab\there",
            "line\nbreak",
            "\u{7f}",
            "\u{fffe}",
            "\u{fdd0}",
            "<b>&amp;'\"",
            "\u{1b}[31m",
            "\u{85}",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let m = Matrix::zeros(l.len(), l.len());
        let h = Heatmap {
            title: "model\u{1}\nlayer 0".into(),
            row_labels: &l,
            col_labels: &l,
            values: &m,
            kind: ValueKind::Weights,
            mask: Mask::None,
            axes: AXES,
        };
        let svg = heatmap_svg(&h).unwrap();
        let doc =
            roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("not well-formed XML: {e}"));
        let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
        assert!(
            texts.iter().any(|t| t.contains("␀nul")),
            "a NUL is shown as the control picture ␀"
        );
        assert!(texts.iter().any(|t| t.contains("tab␉here")));
        assert!(
            texts.iter().any(|t| t.contains("<b>&amp;'\"")),
            "markup in a token is text, escaped once"
        );
        assert!(heatmap_png(&h).is_ok());
    }

    /// A causal head's weights over 3 tokens (the 3 cells above the
    /// diagonal are 0 by the mask, as is row 2's middle one by chance), as
    /// an SVG drawn with `mask`.
    fn weights_svg(mask: Mask) -> String {
        let m = Matrix::from_rows(&[[1.0, 0.0, 0.0], [0.25, 0.75, 0.0], [0.5, 0.0, 0.5]]);
        let l = labels(3);
        heatmap_svg(&Heatmap {
            title: String::new(),
            row_labels: &l,
            col_labels: &l,
            values: &m,
            kind: ValueKind::Weights,
            mask,
            axes: AXES,
        })
        .unwrap()
    }

    #[test]
    fn the_weights_of_hidden_keys_get_no_number() {
        let cells = |mask: Mask| {
            let svg = weights_svg(mask);
            let doc = roxmltree::Document::parse(&svg).unwrap();
            ["1.00", "0.25", "0.75", "0.50", "0.00"].map(|v| {
                doc.descendants()
                    .filter(|n| n.is_text() && n.text().map(str::trim) == Some(v))
                    .count()
            })
        };
        // The colour bar's ticks print 0.00, 0.25, 0.50, 0.75 and 1.00 once each.
        assert_eq!(cells(Mask::None), [2, 2, 2, 3, 5], "every cell's number, 0 included");
        assert_eq!(
            cells(Mask::Causal),
            [2, 2, 2, 3, 2],
            "row 2's visible 0 keeps its number; the hidden ones have none"
        );
    }

    #[test]
    fn the_weights_of_hidden_keys_are_grey_and_hatched_as_masked_scores_are() {
        // (grey cells, hatch strokes) in the SVG.
        let marks = |mask: Mask| {
            let svg = weights_svg(mask);
            (
                svg.matches(r##"fill="#CDCDCD""##).count(),
                svg.matches(r##"stroke="#969696""##).count(),
            )
        };
        assert_eq!(
            marks(Mask::None),
            (0, 0),
            "no mask: every cell a weight's colour, row 2's 0 included"
        );
        assert_eq!(marks(Mask::Causal), (3, 3), "the three keys above the diagonal");
        assert_eq!(marks(Mask::SlidingWindow(2)), (4, 4), "and the one out of the window");
    }

    #[test]
    fn mismatched_labels_are_an_error_not_a_panic() {
        let m = Matrix::zeros(2, 2);
        let l = labels(3);
        let h = Heatmap {
            title: String::new(),
            row_labels: &l,
            col_labels: &l,
            values: &m,
            kind: ValueKind::Weights,
            mask: Mask::None,
            axes: AXES,
        };
        assert!(heatmap_svg(&h).is_err());
    }
}
