//! Zoom and pan for a grid of cells (the heatmap, the dot grids): a long
//! text is first drawn whole, its cells as small as the box needs (a pixel
//! or less for 256 tokens on a phone), and zooming in makes them larger
//! inside the same window; the canvas keeps the box's size and only the
//! cells in sight are drawn. Ctrl (or ⌘) + wheel and a pinch zoom about
//! the pointer, a drag or the plain wheel pans a zoomed grid (the page
//! scrolls as usual over a grid that is not zoomed in, or has reached its
//! edge), + and − zoom from the keyboard, 0 fits, shift + arrows pan.

use super::grid::Layout;
use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Zooming is offered only where the fitted cells are smaller than this
/// (their labels thinned out, no numbers on them).
pub const ZOOM_BELOW: f64 = 32.0;
/// Zoomed in as far as cells this large (they carry their number).
pub const LARGEST: f64 = 72.0;
/// The empty corner left of the column labels and above the row labels,
/// in label heights, where the bar of a grid that zooms goes.
pub const CORNER: f64 = 5.0;
/// One step of + or −.
pub const STEP: f64 = 1.5;

/// The grid as fitted whole into its box: what a zoom is relative to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    pub cell: f64,
    pub rows: usize,
    pub cols: usize,
}

impl Fit {
    pub fn of(layout: &Layout) -> Self {
        Self { cell: layout.cell, rows: layout.rows, cols: layout.cols }
    }

    /// The largest zoom: cells of [`LARGEST`] pixels, or none (1) when the
    /// fitted cells are large already.
    pub fn max_scale(&self) -> f64 {
        if self.cell > 0.0 && self.cell < ZOOM_BELOW && self.rows.max(self.cols) > 1 {
            (LARGEST / self.cell).max(1.0)
        } else {
            1.0
        }
    }
}

/// How far a grid is zoomed in (1: fitted whole) and where it is looked
/// at: the cell coordinates (column, row; fractional) at the window's
/// top-left corner. Kept in cells, a zoom survives a resized box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Zoom {
    pub scale: f64,
    pub x: f64,
    pub y: f64,
}

impl Default for Zoom {
    fn default() -> Self {
        Self::FIT
    }
}

impl Zoom {
    pub const FIT: Zoom = Zoom { scale: 1.0, x: 0.0, y: 0.0 };

    /// Within what `fit` allows: from 1 to its largest zoom, the window inside the grid.
    pub fn clamped(self, fit: &Fit) -> Zoom {
        let scale =
            if self.scale.is_finite() { self.scale.clamp(1.0, fit.max_scale()) } else { 1.0 };
        let (cols, rows) = (fit.cols as f64, fit.rows as f64);
        let x = if self.x.is_finite() {
            self.x.clamp(0.0, (cols - cols / scale).max(0.0))
        } else {
            0.0
        };
        let y = if self.y.is_finite() {
            self.y.clamp(0.0, (rows - rows / scale).max(0.0))
        } else {
            0.0
        };
        Zoom { scale, x, y }
    }

    /// Scaled by `factor` about the point `(px, py)` of the window, which stays put.
    pub fn about(self, factor: f64, (px, py): (f64, f64), fit: &Fit) -> Zoom {
        let now = self.clamped(fit);
        let cell = fit.cell * now.scale;
        let (gx, gy) = (now.x + px / cell, now.y + py / cell);
        let scale = (now.scale * factor).clamp(1.0, fit.max_scale());
        let cell = fit.cell * scale;
        Zoom { scale, x: gx - px / cell, y: gy - py / cell }.clamped(fit)
    }

    /// Moved by `(dx, dy)` pixels of the window (the grid slides the other way).
    pub fn moved(self, (dx, dy): (f64, f64), fit: &Fit) -> Zoom {
        let now = self.clamped(fit);
        let cell = fit.cell * now.scale;
        Zoom { x: now.x + dx / cell, y: now.y + dy / cell, ..now }.clamped(fit)
    }

    /// Moved as little as needed to show cell (row, column) whole.
    pub fn showing(self, (i, j): (usize, usize), fit: &Fit) -> Zoom {
        let now = self.clamped(fit);
        let (across, down) = (fit.cols as f64 / now.scale, fit.rows as f64 / now.scale);
        let reveal = |at: f64, cell: f64, span: f64| {
            if cell < at {
                cell
            } else if cell + 1.0 > at + span {
                cell + 1.0 - span
            } else {
                at
            }
        };
        Zoom { x: reveal(now.x, j as f64, across), y: reveal(now.y, i as f64, down), ..now }
            .clamped(fit)
    }

    /// The fitted layout `fit`, zoomed: larger cells, panned, seen through the same window.
    pub fn apply(self, fit: Layout) -> Layout {
        let z = self.clamped(&Fit::of(&fit));
        let cell = fit.cell * z.scale;
        Layout { cell, pan: (z.x * cell, z.y * cell), ..fit }
    }

    /// The zoom as shown beside the grid: "1×", "2.3×", "12×".
    /// The zoom as the bar writes it (`1.5×`, `12×`), in the page's decimal sign.
    pub fn label(&self) -> String {
        let s = if self.scale < 9.95 {
            format!("{}×", (self.scale * 10.0).round() / 10.0)
        } else {
            format!("{:.0}×", self.scale)
        };
        if crate::i18n::decimal_comma() {
            s.replace('.', ",")
        } else {
            s
        }
    }
}

/// Pointers down on the grid: one drags, two pinch.
#[derive(Clone, Debug, Default)]
struct Gesture {
    pointers: Vec<(i32, (f64, f64))>,
    /// How far the pointers went since the first came down: a drag, not a click.
    travel: f64,
    dragged: bool,
}

/// A grid's zoom, shared by the grids that show the same cells (the two dot
/// grids) and by the bar that shows and resets it.
#[derive(Clone, Copy)]
pub struct Zoomer {
    pub zoom: RwSignal<Zoom>,
    /// The fitted grid, as last drawn.
    pub fit: RwSignal<Option<Fit>>,
    gesture: StoredValue<Gesture>,
    /// The window's top-left corner on the canvas, as last drawn: the
    /// corner the labels leave empty, where the bar goes (and pinches are measured from).
    origin: RwSignal<(f64, f64)>,
}

impl Default for Zoomer {
    fn default() -> Self {
        Self::new()
    }
}

impl Zoomer {
    pub fn new() -> Self {
        Self {
            zoom: RwSignal::new(Zoom::FIT),
            fit: RwSignal::new(None),
            gesture: StoredValue::new(Gesture::default()),
            origin: RwSignal::new((0.0, 0.0)),
        }
    }

    /// The fitted layout zoomed as chosen (tracked: a drawing that calls it
    /// redraws on every zoom), noting the fit for the bar and the gestures.
    pub fn place(&self, fit: Layout) -> Layout {
        let f = Some(Fit::of(&fit));
        if self.origin.get_untracked() != (fit.left, fit.top) {
            self.origin.set((fit.left, fit.top));
        }
        if self.fit.get_untracked() != f {
            self.fit.set(f);
        }
        self.zoom.get().apply(fit)
    }

    /// `rows × cols` with labels `label_width` wide, fitted whole into
    /// `room` ([`Layout::fit_all`]) and zoomed as chosen. A grid that can
    /// zoom keeps a corner for the [`ZoomBar`]: its labels' margin is at
    /// least [`CORNER`] labels high.
    pub fn layout(
        &self,
        label_width: f64,
        rows: usize,
        cols: usize,
        room: super::Room,
        look: &super::Look,
    ) -> Layout {
        let whole = Layout::fit_all(label_width, rows, cols, room, look);
        let fit = if Fit::of(&whole).max_scale() > 1.0 {
            Layout::fit_all(label_width.max(CORNER * look.label_px.round()), rows, cols, room, look)
        } else {
            whole
        };
        self.place(fit)
    }

    /// `placed` (as last drawn) at the zoom chosen since: where the cells
    /// are now, before the drawing catches up.
    pub fn relayout(&self, placed: &Layout) -> Layout {
        match self.fit.get_untracked() {
            Some(fit) if fit.rows == placed.rows && fit.cols == placed.cols => self
                .zoom
                .get_untracked()
                .apply(Layout { cell: fit.cell, pan: (0.0, 0.0), ..*placed }),
            _ => *placed,
        }
    }

    /// The zoom in effect (within what the fitted grid allows).
    pub fn current(&self) -> Zoom {
        match self.fit.get() {
            Some(fit) => self.zoom.get().clamped(&fit),
            None => Zoom::FIT,
        }
    }

    /// The zoom in effect, untracked (for a drawing, which must not follow
    /// the fit it writes: two grids sharing a zoom would redraw each other).
    pub fn scale_untracked(&self) -> f64 {
        self.fit.get_untracked().map_or(1.0, |fit| self.zoom.get_untracked().clamped(&fit).scale)
    }

    /// Whether the grid is zoomed in (untracked).
    fn zoomed_in(&self) -> bool {
        self.scale_untracked() > 1.0
    }

    /// Whether there is anything to zoom.
    pub fn zoomable(&self) -> bool {
        self.fit.get().is_some_and(|f| f.max_scale() > 1.0)
    }

    fn update(&self, f: impl FnOnce(Zoom, &Fit) -> Zoom) -> bool {
        let Some(fit) = self.fit.get_untracked() else { return false };
        let now = self.zoom.get_untracked().clamped(&fit);
        let next = f(now, &fit);
        if next != now {
            self.zoom.set(next);
        }
        next != now
    }

    /// One step in (`factor` > 1) or out, about the point `at` of the window
    /// (its middle when None).
    pub fn zoom_by(&self, factor: f64, at: Option<(f64, f64)>) -> bool {
        self.update(|z, fit| {
            let middle = (fit.cell * fit.cols as f64 / 2.0, fit.cell * fit.rows as f64 / 2.0);
            z.about(factor, at.unwrap_or(middle), fit)
        })
    }

    /// Back to the whole grid.
    pub fn reset(&self) {
        self.update(|_, _| Zoom::FIT);
    }

    /// Pans as little as needed to show cell (row, column).
    pub fn show(&self, cell: (usize, usize)) {
        self.update(|z, fit| z.showing(cell, fit));
    }

    /// Keys on the focused grid: + and − zoom, 0 fits, shift + arrows pan
    /// by a quarter of the window. True when the key was used.
    pub fn key(&self, ev: &web_sys::KeyboardEvent, layout: Option<&Layout>) -> bool {
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return false;
        }
        let (w, h) = layout.map_or((0.0, 0.0), |l| l.window);
        let at = match ev.key().as_str() {
            "+" | "=" => return self.zoom_by(STEP, None) || self.zoomable(),
            "-" | "_" => return self.zoom_by(1.0 / STEP, None) || self.zoomable(),
            "0" => {
                self.reset();
                return self.zoomable();
            }
            "ArrowLeft" if ev.shift_key() => (-w / 4.0, 0.0),
            "ArrowRight" if ev.shift_key() => (w / 4.0, 0.0),
            "ArrowUp" if ev.shift_key() => (0.0, -h / 4.0),
            "ArrowDown" if ev.shift_key() => (0.0, h / 4.0),
            _ => return false,
        };
        self.update(|z, fit| z.moved(at, fit));
        true
    }

    /// The wheel over the grid: with ctrl or ⌘ (a trackpad's pinch too) it
    /// zooms about the pointer; without, it pans a zoomed grid, and leaves
    /// the page to scroll when the grid is not zoomed or is at its edge.
    pub fn wheel(&self, ev: &web_sys::WheelEvent, layout: &Layout) {
        let unit = match ev.delta_mode() {
            1 => 16.0,
            2 => layout.window.1.max(100.0),
            _ => 1.0,
        };
        let (dx, dy) = (ev.delta_x() * unit, ev.delta_y() * unit);
        if ev.ctrl_key() || ev.meta_key() {
            ev.prevent_default();
            let (x, y) = offset(ev);
            let at = (x - layout.left, y - layout.top);
            self.zoom_by((-dy * 0.002).clamp(-0.7, 0.7).exp(), Some(at));
            return;
        }
        let (dx, dy) = if ev.shift_key() && dx == 0.0 { (dy, 0.0) } else { (dx, dy) };
        if self.zoomed_in() && self.update(|z, fit| z.moved((dx, dy), fit)) {
            ev.prevent_default();
        }
    }

    /// A pointer down on the grid (the main button, or a finger).
    pub fn pointer_down(&self, ev: &web_sys::PointerEvent) {
        if ev.pointer_type() == "mouse" && ev.button() != 0 {
            return;
        }
        let at = offset(ev);
        self.gesture.update_value(|g| {
            if g.pointers.is_empty() {
                g.travel = 0.0;
                g.dragged = false;
            }
            g.pointers.retain(|p| p.0 != ev.pointer_id());
            g.pointers.push((ev.pointer_id(), at));
        });
        // A zoomed grid follows a drag that leaves it.
        if self.zoomed_in() {
            if let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                let _ = el.set_pointer_capture(ev.pointer_id());
            }
        }
    }

    /// A pointer moved: one drags a zoomed grid, two pinch. True while the
    /// pointers are dragging (no hover then).
    pub fn pointer_move(&self, ev: &web_sys::PointerEvent) -> bool {
        let id = ev.pointer_id();
        let at = offset(ev);
        let Some(g) = self.gesture.try_with_value(|g| g.clone()) else { return false };
        let Some(k) = g.pointers.iter().position(|p| p.0 == id) else { return false };
        let before = g.pointers[k].1;
        let step = (at.0 - before.0, at.1 - before.1);
        let mut travel = g.travel + step.0.hypot(step.1);
        let mut pinched = false;
        if g.pointers.len() >= 2 {
            let other = g.pointers[if k == 0 { 1 } else { 0 }].1;
            let (was, now) = (before.0 - other.0, at.0 - other.0);
            let (was_d, now_d) = (was.hypot(before.1 - other.1), now.hypot(at.1 - other.1));
            if was_d > 8.0 && now_d > 8.0 {
                let mid = ((at.0 + other.0) / 2.0, (at.1 + other.1) / 2.0);
                let old_mid = ((before.0 + other.0) / 2.0, (before.1 + other.1) / 2.0);
                let (left, top) = self.origin.get_untracked();
                self.zoom_by(now_d / was_d, Some((mid.0 - left, mid.1 - top)));
                self.update(|z, fit| z.moved((old_mid.0 - mid.0, old_mid.1 - mid.1), fit));
                pinched = true;
                travel += 8.0;
            }
        } else if self.zoomed_in() && (ev.buttons() & 1 == 1 || ev.pointer_type() != "mouse") {
            self.update(|z, fit| z.moved((-step.0, -step.1), fit));
        }
        let dragged = g.dragged || pinched || (travel > 6.0 && self.zoomed_in());
        self.gesture.update_value(|g| {
            if let Some(p) = g.pointers.iter_mut().find(|p| p.0 == id) {
                p.1 = at;
            }
            g.travel = travel;
            g.dragged = dragged;
        });
        dragged
    }

    /// A pointer up, or taken by the browser. True for a tap: a finger or
    /// pen that went up where it came down, alone (a browser may send no
    /// click for a tap that follows a drag).
    pub fn pointer_up(&self, ev: &web_sys::PointerEvent) -> bool {
        let id = ev.pointer_id();
        let tapped = self
            .gesture
            .try_update_value(|g| {
                let alone = g.pointers.len() == 1 && g.pointers[0].0 == id;
                g.pointers.retain(|p| p.0 != id);
                alone && !g.dragged && g.travel < 6.0
            })
            .unwrap_or(false);
        tapped && ev.type_() == "pointerup" && ev.pointer_type() != "mouse"
    }

    /// Whether a click ends a drag or pinch (and so chooses no cell).
    pub fn click_was_drag(&self) -> bool {
        self.gesture.try_update_value(|g| std::mem::take(&mut g.dragged)).unwrap_or(false)
    }
}

/// Where a mouse, pointer or wheel event is on its target, in CSS pixels,
/// with the fraction a browser gives (web-sys rounds it away, a pixel that
/// matters when a long text's cells are a pixel or two).
pub fn offset(ev: &web_sys::MouseEvent) -> (f64, f64) {
    let exact = |name: &str| {
        js_sys::Reflect::get(ev, &JsValue::from_str(name)).ok().and_then(|v| v.as_f64())
    };
    (
        exact("offsetX").unwrap_or(ev.offset_x() as f64),
        exact("offsetY").unwrap_or(ev.offset_y() as f64),
    )
}

/// Calls `on` for every wheel event on `canvas`, with a listener that may
/// prevent the page's scrolling and zooming (not a passive one).
pub fn on_wheel(canvas: NodeRef<Canvas>, on: impl Fn(web_sys::WheelEvent) + 'static) {
    let on = std::rc::Rc::new(on);
    let held = StoredValue::new_local(
        None::<(web_sys::HtmlCanvasElement, Closure<dyn FnMut(web_sys::WheelEvent)>)>,
    );
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let on = on.clone();
        let listener =
            Closure::<dyn FnMut(web_sys::WheelEvent)>::new(move |ev: web_sys::WheelEvent| on(ev));
        let options = web_sys::AddEventListenerOptions::new();
        options.set_passive(false);
        if el
            .add_event_listener_with_callback_and_add_event_listener_options(
                "wheel",
                listener.as_ref().unchecked_ref(),
                &options,
            )
            .is_ok()
        {
            if let Some(Some((old, f))) =
                held.try_update_value(|h| h.replace((el.clone(), listener)))
            {
                let _ =
                    old.remove_event_listener_with_callback("wheel", f.as_ref().unchecked_ref());
            }
        }
    });
    on_cleanup(move || {
        if let Some(Some((el, f))) = held.try_update_value(Option::take) {
            let _ = el.remove_event_listener_with_callback("wheel", f.as_ref().unchecked_ref());
        }
    });
}

/// Zoom out, zoom in, the zoom and Fit, in the corner the labels leave
/// empty (top left of the canvas in a `.zoom-stack`); shown only while
/// there is something to zoom.
#[component]
pub fn ZoomBar(zoomer: Zoomer, id: String) -> impl IntoView {
    let now = move || zoomer.current();
    let max = move || zoomer.fit.get().map_or(1.0, |f| f.max_scale());
    let fitted = move || now().scale <= 1.0;
    let largest = move || now().scale >= max();
    let corner = move || {
        let (w, h) = zoomer.origin.get();
        format!("width: {w}px; height: {h}px")
    };
    view! {
        <div class="zoom-corner" style=corner hidden=move || !zoomer.zoomable()>
            <div
                class="zoom-bar"
                id=id
                role="group"
                aria-label=tr!("page-zoom")
                title=tr!("page-zoom-title")
            >
                <button
                    type="button"
                    class="zoom-out"
                    aria-label=tr!("page-zoom-out")
                    disabled=fitted
                    on:click=move |_| {
                        zoomer.zoom_by(1.0 / STEP, None);
                    }
                >
                    "−"
                </button>
                <button
                    type="button"
                    class="zoom-in"
                    aria-label=tr!("page-zoom-in")
                    disabled=largest
                    on:click=move |_| {
                        zoomer.zoom_by(STEP, None);
                    }
                >
                    "+"
                </button>
                <output
                    class="zoom-level"
                    aria-live="polite"
                    aria-label=move || tr!("page-zoom-level", level = now().label())
                >
                    {move || now().label()}
                </output>
                <button
                    type="button"
                    class="zoom-fit"
                    title=tr!("page-zoom-fit-title")
                    disabled=move || now() == Zoom::FIT
                    on:click=move |_| zoomer.reset()
                >
                    {tr!("page-zoom-fit")}
                </button>
            </div>
        </div>
    }
}
