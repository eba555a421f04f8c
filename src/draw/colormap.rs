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

const fn lerp(a: [u8; 3], b: [u8; 3], t: f32) -> [u8; 3] {
    // Rounds half up by adding ½ and truncating (the mix is never negative).
    const fn mix(x: u8, y: u8, t: f32) -> u8 {
        (x as f32 + (y as f32 - x as f32) * t + 0.5) as u8
    }
    [mix(a[0], b[0], t), mix(a[1], b[1], t), mix(a[2], b[2], t)]
}

/// Colours per unit of t in the look-up tables below: a long text's heatmap
/// colours a million cells, and a look-up is a fraction of a mix's cost.
/// Neighbouring entries differ by at most one level of 255.
const STEPS: usize = 1024;

/// Viridis at t = k / STEPS, mixed from its eleven samples.
static VIRIDIS_AT: [[u8; 3]; STEPS + 1] = {
    let mut table = [[0; 3]; STEPS + 1];
    let segments = VIRIDIS.len() - 1;
    let mut k = 0;
    while k <= STEPS {
        // t · segments = i + f, in whole numbers until the fraction.
        let i = if k == STEPS { segments - 1 } else { k * segments / STEPS };
        let f = (k * segments - i * STEPS) as f32 / STEPS as f32;
        table[k] = lerp(VIRIDIS[i], VIRIDIS[i + 1], f);
        k += 1;
    }
    table
};

/// The diverging map at t = k / STEPS − 1, for k in 0..=2·STEPS.
static DIVERGING_AT: [[u8; 3]; 2 * STEPS + 1] = {
    let mut table = [[0; 3]; 2 * STEPS + 1];
    let mut k = 0;
    while k <= 2 * STEPS {
        table[k] = if k < STEPS {
            lerp(CENTRE, NEGATIVE, (STEPS - k) as f32 / STEPS as f32)
        } else {
            lerp(CENTRE, POSITIVE, (k - STEPS) as f32 / STEPS as f32)
        };
        k += 1;
    }
    table
};

/// The entry nearest `x` steps into a table whose last entry is `last`
/// (clamped; `as` saturates, and NaN becomes 0).
#[inline]
fn nearest(x: f32, last: usize) -> usize {
    ((x + 0.5) as usize).min(last)
}

/// t in [0, 1] (clamped; NaN counts as 0).
#[inline]
pub fn viridis(t: f32) -> [u8; 3] {
    VIRIDIS_AT[nearest(t * STEPS as f32, STEPS)]
}

/// t in [−1, 1] (clamped; NaN counts as 0): blue, white at 0, red.
#[inline]
pub fn diverging(t: f32) -> [u8; 3] {
    if t.is_nan() {
        return CENTRE;
    }
    DIVERGING_AT[nearest((t + 1.0) * STEPS as f32, 2 * STEPS)]
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

    #[test]
    fn the_tables_hold_the_samples_and_mix_between_them() {
        for (i, &sample) in VIRIDIS.iter().enumerate() {
            assert_eq!(viridis(i as f32 / 10.0), sample, "sample {i}");
        }
        assert_eq!(viridis(51.0 / 1024.0), lerp(VIRIDIS[0], VIRIDIS[1], 510.0 / 1024.0));
        assert_eq!(viridis(-3.0), VIRIDIS[0]);
        assert_eq!(viridis(f32::INFINITY), VIRIDIS[10]);
        assert_eq!(diverging(0.5), lerp(CENTRE, POSITIVE, 0.5));
        assert_eq!(diverging(-0.25), lerp(CENTRE, NEGATIVE, 0.25));
        // Between two entries, the nearest: within a level of the mix.
        let (near, mix) = (viridis(0.05), lerp(VIRIDIS[0], VIRIDIS[1], 0.5));
        assert!((0..3).all(|c| near[c].abs_diff(mix[c]) <= 1), "{near:?} {mix:?}");
        assert_eq!(diverging(f32::NEG_INFINITY), NEGATIVE);
        // Neighbouring entries are at most one level apart: a look-up is as good as a mix.
        for table in [&VIRIDIS_AT[..], &DIVERGING_AT[..]] {
            for pair in table.windows(2) {
                assert!((0..3).all(|c| pair[0][c].abs_diff(pair[1][c]) <= 1), "{pair:?}");
            }
        }
    }
}
