//! How much room a picture has: the size of the box it is drawn in,
//! followed with a ResizeObserver. The box's size comes from the page's
//! layout (the stage's share of the viewport), never from the canvas inside
//! it, so drawing to fit never feeds back into the size.

use super::look::{use_look, Look};
use leptos::html::{Canvas, Div};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::ResizeObserver;

/// Width and height of a box's content, in CSS pixels; (0, 0) until measured.
pub type Room = (f64, f64);

/// What every picture of the page starts with: its canvas, the box the
/// canvas fills, the room that box gives it, and the page's look.
pub struct CanvasBox {
    pub canvas: NodeRef<Canvas>,
    pub boxed: NodeRef<Div>,
    pub room: ReadSignal<Room>,
    pub look: Signal<Look>,
}

/// A new [`CanvasBox`], its room followed as the box changes size.
pub fn use_canvas_box() -> CanvasBox {
    let boxed = NodeRef::<Div>::new();
    CanvasBox { canvas: NodeRef::new(), boxed, room: use_room(boxed), look: use_look() }
}

/// The room inside `node`, updated whenever the box changes size.
pub fn use_room(node: NodeRef<Div>) -> ReadSignal<Room> {
    let (room, set_room) = signal((0.0, 0.0));
    let observer =
        StoredValue::new_local(None::<(ResizeObserver, Closure<dyn FnMut(js_sys::Array)>)>);
    Effect::new(move |_| {
        let Some(el) = node.get() else { return };
        let measure = move |el: &web_sys::HtmlElement| {
            let size = (el.client_width() as f64, el.client_height() as f64);
            // Only a changed size redraws.
            set_room.maybe_update(|old| {
                let changed = *old != size;
                *old = size;
                changed
            });
        };
        measure(&el);
        let target = el.clone();
        let on_resize = Closure::<dyn FnMut(js_sys::Array)>::new(move |_entries: js_sys::Array| {
            measure(&target)
        });
        if let Ok(ro) = ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
            ro.observe(&el);
            observer.set_value(Some((ro, on_resize)));
        }
    });
    on_cleanup(move || {
        if let Some(Some((ro, _))) = observer.try_update_value(Option::take) {
            ro.disconnect();
        }
    });
    room
}
