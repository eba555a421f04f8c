//! Drawing attention with plotters: the same heatmap becomes an SVG (both
//! natively and in the browser) or a PNG (natively, for slides).

pub mod colormap;
pub mod heatmap;

#[cfg(not(target_arch = "wasm32"))]
pub use heatmap::heatmap_png;
pub use heatmap::{heatmap_svg, Heatmap, ValueKind};
