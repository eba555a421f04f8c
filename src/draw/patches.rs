//! A vision model's attention over its picture: one query's weights on the
//! patches, coloured over the image, with the patch grid and the query's own
//! patch ringed, as PNG (natively: the module is left out of wasm builds).

use super::colormap::viridis;
use super::heatmap::FONT;
use crate::error::{Error, Result};
use crate::tensor::Matrix;

/// One query's attention over a picture cut into patches.
pub struct PatchOverlay<'a> {
    /// One or more lines (separated by '\n').
    pub title: String,
    /// The picture: `height` rows of `width` pixels, 3 bytes each (red, green, blue).
    pub rgb: &'a [u8],
    pub width: usize,
    pub height: usize,
    /// rows × cols: the weight the query gives each patch's token.
    pub weights: &'a Matrix,
    /// The query's own patch (row, column), ringed; None for a special token (a class token).
    pub query: Option<(usize, usize)>,
}

/// The picture's longest side in the figure, in pixels.
const SIDE: usize = 448;
const MARGIN: usize = 16;
const TITLE_H: usize = 52;
const LEGEND_H: usize = 54;
/// How much of a pixel is the weight's colour; the rest is the picture.
const TINT: f32 = 0.55;
const RING: [u8; 3] = [230, 40, 140];

/// The overlay as PNG bytes.
pub fn patch_overlay_png(o: &PatchOverlay<'_>) -> Result<Vec<u8>> {
    use plotters::prelude::*;
    use plotters::style::text_anchor::{HPos, Pos, VPos};

    check(o)?;
    super::heatmap::register_font();
    // The picture scaled so that its longest side is SIDE (nearest pixel, so patches stay sharp).
    let scale = SIDE as f32 / o.width.max(o.height) as f32;
    let (pw, ph) = (
        ((o.width as f32 * scale).round() as usize).max(1),
        ((o.height as f32 * scale).round() as usize).max(1),
    );
    let width = (pw + 2 * MARGIN).max(360);
    let height = TITLE_H + ph + LEGEND_H;
    let left = (width - pw) / 2;
    let mut rgb = vec![255u8; width * height * 3];
    let top_weight = o.weights.data.iter().copied().fold(0.0f32, f32::max);
    let (rows, cols) = (o.weights.rows, o.weights.cols);

    // Each pixel: the picture's pixel under it, tinted by its patch's weight relative to the largest.
    for y in 0..ph {
        let sy = (y * o.height / ph).min(o.height - 1);
        let r = (y * rows / ph).min(rows - 1);
        for x in 0..pw {
            let sx = (x * o.width / pw).min(o.width - 1);
            let c = (x * cols / pw).min(cols - 1);
            let t = if top_weight > 0.0 { o.weights[(r, c)] / top_weight } else { 0.0 };
            let tint = viridis(t);
            let src = &o.rgb[(sy * o.width + sx) * 3..][..3];
            let at = ((TITLE_H + y) * width + left + x) * 3;
            for k in 0..3 {
                rgb[at + k] = (src[k] as f32 * (1.0 - TINT) + tint[k] as f32 * TINT).round() as u8;
            }
        }
    }
    // The grid, where a patch is wide enough for lines not to hide it.
    let lighten = |p: &mut [u8]| p.iter_mut().for_each(|v| *v = ((*v as u16 + 255) / 2) as u8);
    if pw / cols >= 6 && ph / rows >= 6 {
        for y in 0..ph {
            for x in 0..pw {
                let on_row = (y * rows / ph) != ((y + 1) * rows / ph).min(rows);
                let on_col = (x * cols / pw) != ((x + 1) * cols / pw).min(cols);
                if (on_row && y + 1 < ph) || (on_col && x + 1 < pw) {
                    let at = ((TITLE_H + y) * width + left + x) * 3;
                    lighten(&mut rgb[at..at + 3]);
                }
            }
        }
    }
    // The query's patch, ringed two pixels thick.
    if let Some((qr, qc)) = o.query {
        let (y0, y1) = (qr * ph / rows, ((qr + 1) * ph / rows).min(ph));
        let (x0, x1) = (qc * pw / cols, ((qc + 1) * pw / cols).min(pw));
        for y in y0..y1 {
            for x in x0..x1 {
                if y < y0 + 2 || y + 2 >= y1 || x < x0 + 2 || x + 2 >= x1 {
                    let at = ((TITLE_H + y) * width + left + x) * 3;
                    rgb[at..at + 3].copy_from_slice(&RING);
                }
            }
        }
    }
    // The legend's colour bar: 0 to the largest weight.
    let (bar_x, bar_y, bar_w, bar_h) = (left, TITLE_H + ph + 10, pw.min(300), 12);
    for x in 0..bar_w {
        let colour = viridis(x as f32 / (bar_w - 1).max(1) as f32);
        for y in bar_y..bar_y + bar_h {
            rgb[(y * width + bar_x + x) * 3..][..3].copy_from_slice(&colour);
        }
    }

    let on_patches: f32 = o.weights.data.iter().sum();
    {
        let root =
            BitMapBackend::with_buffer(&mut rgb, (width as u32, height as u32)).into_drawing_area();
        let text = |s: &str, x: usize, y: usize, px: u32, h: HPos| {
            let style =
                TextStyle::from((FONT, px).into_font()).color(&BLACK).pos(Pos::new(h, VPos::Top));
            root.draw_text(s, &style, (x as i32, y as i32))
        };
        let drawn = (|| {
            for (i, line) in o.title.lines().take(2).enumerate() {
                text(line, width / 2, 6 + i * 22, if i == 0 { 18 } else { 15 }, HPos::Center)?;
            }
            let y = bar_y + bar_h + 4;
            text("0", bar_x, y, 13, HPos::Left)?;
            text(&format!("{top_weight:.3}"), bar_x + bar_w, y, 13, HPos::Right)?;
            let note = format!("{:.0}% of the weight on patches", on_patches * 100.0);
            text(&note, left + pw, bar_y - 2, 13, HPos::Right)
        })();
        drawn.map_err(|e| Error::Invalid(format!("could not draw the PNG: {e}")))?;
    }
    super::heatmap::encode_png(&rgb, width as u32, height as u32)
}

fn check(o: &PatchOverlay<'_>) -> Result<()> {
    let (rows, cols) = o.weights.shape();
    if o.width == 0 || o.height == 0 || o.rgb.len() != o.width * o.height * 3 {
        return Err(Error::Invalid(format!(
            "an image of {} × {} pixels needs {} bytes, not {}",
            o.width,
            o.height,
            o.width * o.height * 3,
            o.rgb.len()
        )));
    }
    if rows == 0 || cols == 0 || rows > o.height || cols > o.width {
        return Err(Error::Invalid(format!(
            "a grid of {rows} × {cols} patches does not fit an image of {} × {} pixels",
            o.width, o.height
        )));
    }
    if o.query.is_some_and(|(r, c)| r >= rows || c >= cols) {
        return Err(Error::Invalid(format!(
            "the query's patch is outside the {rows} × {cols} grid"
        )));
    }
    if o.weights.data.iter().any(|w| !w.is_finite() || *w < 0.0) {
        return Err(Error::Invalid("the patches' weights must be finite and at least 0".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 32 × 24 picture of mid grey, a 4 × 3 grid whose patch (2, 1) gets most of the weight.
    fn figure(weights: &Matrix, query: Option<(usize, usize)>) -> Result<Vec<u8>> {
        let grey = vec![128u8; 32 * 24 * 3];
        let o = PatchOverlay {
            title: "tiny ViT\nlayer 0 · head 0 · query [CLS]".into(),
            rgb: &grey,
            width: 24,
            height: 32,
            weights,
            query,
        };
        patch_overlay_png(&o)
    }

    fn decode(png: &[u8]) -> (usize, usize, Vec<u8>) {
        let mut reader = png::Decoder::new(std::io::Cursor::new(png)).read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        (info.width as usize, info.height as usize, buf)
    }

    #[test]
    fn the_heaviest_patch_is_drawn_in_the_top_colour_and_a_patch_of_no_weight_in_the_bottom_one() {
        let mut w = Matrix::zeros(4, 3);
        w[(2, 1)] = 0.6;
        w[(0, 0)] = 0.1;
        let (width, height, px) = decode(&figure(&w, None).unwrap());
        // The picture is 336 × 448 (its longest side 448), centred, under the title.
        let (pw, ph) = (336, 448);
        assert_eq!((width, height), (pw + 2 * MARGIN, TITLE_H + ph + LEGEND_H));
        let left = (width - pw) / 2;
        let at = |r: usize, c: usize| {
            let (x, y) = (left + c * pw / 3 + pw / 6, TITLE_H + r * ph / 4 + ph / 8);
            px[(y * width + x) * 3..][..3].to_vec()
        };
        let blend = |t: f32| -> Vec<u8> {
            viridis(t)
                .iter()
                .map(|&v| (128.0 * (1.0 - TINT) + v as f32 * TINT).round() as u8)
                .collect()
        };
        assert_eq!(at(2, 1), blend(1.0));
        assert_eq!(at(3, 2), blend(0.0));
        assert_eq!(at(0, 0), blend(0.1 / 0.6));
    }

    #[test]
    fn the_query_patch_is_ringed_and_bad_input_is_an_error_not_a_panic() {
        let w = Matrix::from_vec(4, 3, vec![0.05; 12]);
        let (width, _, px) = decode(&figure(&w, Some((1, 2))).unwrap());
        let left = (width - 336) / 2;
        // The ring's top edge, in the middle of patch (1, 2).
        let (x, y) = (left + 2 * 112 + 56, TITLE_H + 112);
        assert_eq!(px[(y * width + x) * 3..][..3], RING);

        assert!(figure(&w, Some((4, 0))).is_err());
        assert!(figure(&Matrix::from_vec(1, 2, vec![f32::NAN, 0.0]), None).is_err());
        assert!(figure(&Matrix::zeros(40, 3), None).is_err());
        let o = PatchOverlay {
            title: String::new(),
            rgb: &[0; 5],
            width: 2,
            height: 1,
            weights: &w,
            query: None,
        };
        assert!(patch_overlay_png(&o).is_err());
    }
}
