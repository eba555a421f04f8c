//! How much room a picture has: the size of the box it is drawn in,
//! followed with a ResizeObserver. The box's size comes from the page's
//! layout (the stage's share of the viewport), never from the canvas inside
//! it, so drawing to fit never feeds back into the size.

use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::ResizeObserver;

/// Width and height of a box's content, in CSS pixels; (0, 0) until measured.
pub type Room = (f64, f64);

/// The room inside `node`, updated whenever the box changes size.
pub fn use_room(node: NodeRef<Div>) -> ReadSignal<Room> {
    let (room, set_room) = signal((0.0, 0.0));
    let observer = StoredValue::new_local(None::<(ResizeObserver, Closure<dyn FnMut(js_sys::Array)>)>);
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
        let on_resize = Closure::<dyn FnMut(js_sys::Array)>::new(move |_entries: js_sys::Array| measure(&target));
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
