//! Colour-blind-safe colour maps: viridis for weights in [0, 1], a red–blue
//! diverging map for signed scores. Shared by plotters figures and the page's
//! canvases, so a PNG and the screen agree.

/// matplotlib's viridis sampled at 0, 0.1, …, 1; linear in between.
const VIRIDIS: [[u8; 3]; 11] = [
    [68, 1, 84],
    [72, 36, 117],
    [65, 68, 135],
    [53, 95, 141],
    [42, 120, 142],
    [33, 145, 140],
    [34, 168, 132],
    [68, 191, 112],
    [122, 209, 81],
    [189, 223, 38],
    [253, 231, 37],
];

/// ColorBrewer RdBu end points and centre (blue for negative, red for positive).
const NEGATIVE: [u8; 3] = [33, 102, 172];
const CENTRE: [u8; 3] = [247, 247, 247];
const POSITIVE: [u8; 3] = [178, 24, 43];

#[inline]
fn lerp(a: [u8; 3], b: [u8; 3], t: f32) -> [u8; 3] {
    // Rounds half up by adding ½ and truncating (the mix is never
    // negative): `f32::round` is a library call in wasm, and the heatmap of
    // a long text colours a million cells.
    let mix = |x: u8, y: u8| (x as f32 + (y as f32 - x as f32) * t + 0.5) as u8;
    [mix(a[0], b[0]), mix(a[1], b[1]), mix(a[2], b[2])]
}

/// t in [0, 1] (clamped; NaN counts as 0).
#[inline]
pub fn viridis(t: f32) -> [u8; 3] {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let x = t * (VIRIDIS.len() - 1) as f32;
    let i = (x.floor() as usize).min(VIRIDIS.len() - 2);
    lerp(VIRIDIS[i], VIRIDIS[i + 1], x - i as f32)
}

/// t in [−1, 1]: blue, white at 0, red.
#[inline]
pub fn diverging(t: f32) -> [u8; 3] {
    let t = if t.is_nan() { 0.0 } else { t.clamp(-1.0, 1.0) };
    if t < 0.0 {
        lerp(CENTRE, NEGATIVE, -t)
    } else {
        lerp(CENTRE, POSITIVE, t)
    }
}

/// Black or white, whichever reads better on `rgb`.
pub fn text_on(rgb: [u8; 3]) -> [u8; 3] {
    let luma = 0.2126 * rgb[0] as f32 + 0.7152 * rgb[1] as f32 + 0.0722 * rgb[2] as f32;
    if luma > 140.0 {
        [0, 0, 0]
    } else {
        [255, 255, 255]
    }
}

pub fn hex(rgb: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_and_middle() {
        assert_eq!(viridis(0.0), [68, 1, 84]);
        assert_eq!(viridis(1.0), [253, 231, 37]);
        assert_eq!(viridis(f32::NAN), [68, 1, 84]);
        assert_eq!(diverging(0.0), CENTRE);
        assert_eq!(diverging(-1.0), NEGATIVE);
        assert_eq!(diverging(2.0), POSITIVE);
        assert_eq!(hex([255, 0, 16]), "#ff0010");
    }
}
