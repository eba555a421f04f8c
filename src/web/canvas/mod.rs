//! The canvas kit every picture of the page is drawn with: the page's look
//! (inks, label size), the room a picture has, cell grids with token labels,
//! flat cells and colours, short transitions, and zoom and pan.

pub mod grid;
pub mod look;
pub mod motion;
pub mod paint;
pub mod room;
#[cfg(test)]
mod tests;
pub mod thumbs;
pub mod zoom;

pub use grid::{draw_labels, label, label_width, outline_cell, outline_token, Focus, Layout};
pub use look::{Look, Rgb};
pub use motion::Transition;
pub use paint::{
    blank, cell_color, cell_image, css, mix, now_ms, paint_cells, paint_image, prepare,
    signed_color, text_on, KeptImage,
};
pub use room::{use_canvas_box, CanvasBox, Room};
pub use thumbs::{PatchPictures, Thumbs};
pub use zoom::{offset, on_wheel, ZoomBar, Zoomer};
