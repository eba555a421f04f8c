//! Points of a plane (principal axes, a map of heads) fitted into an SVG box:
//! one scale for both axes, so that angles and distances look as they are.

/// Maps a plane's coordinates onto a box of `size` with `margin` on every side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    centre: (f32, f32),
    scale: f32,
    size: (f32, f32),
}

impl Frame {
    /// The frame that fits every one of `points` (a lone point, or none, is centred).
    pub fn fit<'a>(
        points: impl Iterator<Item = &'a [f32; 2]>,
        size: (f32, f32),
        margin: f32,
    ) -> Frame {
        let (mut lo, mut hi) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
        for p in points {
            for a in 0..2 {
                lo[a] = lo[a].min(p[a]);
                hi[a] = hi[a].max(p[a]);
            }
        }
        let span = ((hi[0] - lo[0]) / (size.0 - 2.0 * margin))
            .max((hi[1] - lo[1]) / (size.1 - 2.0 * margin));
        let centre = ((lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0);
        Frame {
            centre: if centre.0.is_finite() && centre.1.is_finite() { centre } else { (0.0, 0.0) },
            scale: if span > 0.0 && span.is_finite() { 1.0 / span } else { 1.0 },
            size,
        }
    }

    /// Where `p` lands in the box (y grows downwards in SVG).
    pub fn at(&self, p: [f32; 2]) -> (f32, f32) {
        (
            self.size.0 / 2.0 + (p[0] - self.centre.0) * self.scale,
            self.size.1 / 2.0 - (p[1] - self.centre.1) * self.scale,
        )
    }
}
