//! A grid of cells and the pointer and keys (the heatmap, the dot grids):
//! hovering describes a cell in the readout, a click or tap keeps it there
//! and chooses its query token, the arrow keys move it.

use crate::canvas::{Layout, Zoomer};
use crate::state::{Cell, Selection};
use leptos::prelude::*;

/// The arrow keys on a focused grid move the cell the readout describes
/// (from the one shown, else the top-left one in sight), and the grid pans to
/// keep it in sight; Enter or Space chooses its query token. True when the
/// key was used.
pub fn cell_keys(
    ev: &web_sys::KeyboardEvent,
    sel: Selection,
    layout: &Layout,
    cell_of: impl Fn((usize, usize)) -> Cell,
    place: impl Fn(&Cell) -> Option<(usize, usize)>,
    zoomer: Zoomer,
) -> bool {
    if ev.ctrl_key()
        || ev.meta_key()
        || ev.alt_key()
        || ev.shift_key()
        || layout.rows == 0
        || layout.cols == 0
    {
        return false;
    }
    let now = sel.pinned_cell.get_untracked().and_then(|c| place(&c));
    let start = || (layout.visible_rows().start, layout.visible_cols().start);
    let (i, j) = now.unwrap_or_else(start);
    let next = match ev.key().as_str() {
        "ArrowLeft" => (i, j.saturating_sub(1)),
        "ArrowRight" => (i, (j + 1).min(layout.cols - 1)),
        "ArrowUp" => (i.saturating_sub(1), j),
        "ArrowDown" => ((i + 1).min(layout.rows - 1), j),
        "Enter" | " " => {
            sel.pin(cell_of((i, j)));
            return true;
        }
        _ => return false,
    };
    // The first arrow shows the cell it starts from.
    let next = if now.is_none() { (i, j) } else { next };
    sel.pinned_cell.set(Some(cell_of(next)));
    zoomer.show(next);
    true
}

/// A zoomable map's pointer move, pointer up and click handlers, `at`
/// naming the cell under an event: a mouse hovers its cell (none while
/// dragging); a tap chooses its cell on the finger's way up (see
/// [`Zoomer::pointer_up`]), a click that ends no drag on the way down.
pub fn cell_handlers(
    zoomer: Zoomer,
    sel: Selection,
    at: impl Fn(&web_sys::MouseEvent) -> Option<Cell> + Copy + 'static,
) -> (
    impl Fn(web_sys::PointerEvent) + 'static,
    impl Fn(web_sys::PointerEvent) + 'static,
    impl Fn(web_sys::MouseEvent) + 'static,
) {
    let on_move = move |ev: web_sys::PointerEvent| {
        let dragging = zoomer.pointer_move(&ev);
        if ev.pointer_type() == "mouse" {
            sel.hovered_cell.set(if dragging { None } else { at(&ev) })
        }
    };
    let on_up = move |ev: web_sys::PointerEvent| {
        if zoomer.pointer_up(&ev) {
            if let Some(c) = at(&ev) {
                sel.pin(c)
            }
        }
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if !zoomer.click_was_drag() {
            if let Some(c) = at(&ev) {
                sel.pin(c)
            }
        }
    };
    (on_move, on_up, on_click)
}
