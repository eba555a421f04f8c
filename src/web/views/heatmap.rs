//! One head as a heatmap on a canvas: row i is query token i, column j key
//! token j (or the transpose), at any step from QKᵀ to the softmax. One
//! canvas, not one DOM node per cell, so a 256-token text stays cheap to
//! redraw; the map grows to fill the room its box has, and big cells carry
//! their number. A long text is drawn whole and zooms in ([`Zoomer`]): the
//! canvas keeps its box's size and shows the cells in sight.

use super::axes::Axes;
use super::compare::{CompareMap, CompareText};
use super::readout::Readout;
use super::stages::{score_range, values, CellsOf, Frame, StageMotion, StagePicker};
use crate::canvas::{
    blank, cell_color, cell_image, css, draw_labels, label_width, mix, now_ms, on_wheel, outline_cell, outline_token, paint_image, prepare,
    signed_color, text_on, use_look, use_room, Focus, KeptImage, Layout, Look, Rgb, Room, ZoomBar, Zoomer,
};
use crate::state::{Appearance, Results, Selection};
use crate::url_state::Stage;
use attnscope::attention::Mask;
use attnscope::Matrix;
use leptos::html::{Canvas, Div};
use leptos::prelude::*;
use wasm_bindgen::JsValue;
use web_sys::HtmlCanvasElement;

/// The colour of a cell holding `v` at `stage`; score stages are coloured
/// against `range` (the largest |raw score|), −∞ in `grey`.
#[inline]
pub fn colour(v: f32, stage: Stage, range: f32, grey: Rgb) -> Rgb {
    match stage {
        Stage::Weights => cell_color(v),
        _ if v == f32::NEG_INFINITY => grey,
        _ => signed_color(v, range),
    }
}

/// How a cell's number is written: weights with two decimals, scores with one.
pub fn cell_text(v: f32, stage: Stage) -> String {
    if v == f32::NEG_INFINITY {
        "−∞".into()
    } else if stage == Stage::Weights {
        format!("{v:.2}")
    } else if v.abs() >= 99.95 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// What one drawing shows: two stages of the same cells (oriented as
/// drawn) and how far the picture has gone from the first to the second.
pub struct Picture {
    pub from: Matrix,
    pub to: Matrix,
    pub frame: Frame,
    pub range: f32,
    pub focus: Focus,
    /// The cell described in the readout, as (row, column).
    pub cell: Option<(usize, usize)>,
    /// The numbers written on the cells when `to` is only their colour (value-weighted attention, normalized per row).
    pub values: Option<Matrix>,
    /// The head's mask and how its cells lie: the weights of the keys it
    /// hides are 0 by construction, and their colour already says so, so
    /// no "0.00" is written on them.
    pub hidden: Option<(Mask, Axes)>,
    /// The colour of those cells and of −∞ ([`Look::hidden`]).
    pub grey: Rgb,
}

/// One pixel per cell of `pic`, coloured for its frame: an image the canvas
/// scales up ([`draw_zoomed`]). A key the mask hides stays grey from the
/// "+ M" step through the softmax: its weight is 0 because it is hidden,
/// which the colour of a weight of 0 alone (viridis' darkest) would not tell
/// from a visible key that gets almost nothing.
pub fn cell_pixels(pic: &Picture) -> Result<HtmlCanvasElement, JsValue> {
    let (to, from) = (&pic.to, &pic.from);
    let moving = pic.frame.t < 1.0 && from.shape() == to.shape();
    cell_image(to.rows, to.cols, |k| {
        let hidden = pic.hidden.is_some_and(|(mask, axes)| axes.hides(mask, (k / to.cols, k % to.cols)));
        let at = |v: f32, stage: Stage| if hidden && stage == Stage::Weights { pic.grey } else { colour(v, stage, pic.range, pic.grey) };
        let mut c = at(to.data[k], pic.frame.to);
        if moving {
            c = mix(at(from.data[k], pic.frame.from), c, pic.frame.t);
        }
        [c[0], c[1], c[2], 255]
    })
}

/// Draws `pic` with `rows` and `cols` as labels, fitted into `room`.
pub fn draw(
    canvas: &HtmlCanvasElement,
    rows: &[String],
    cols: &[String],
    pic: &Picture,
    look: &Look,
    room: Room,
) -> Result<Option<Layout>, JsValue> {
    if pic.to.rows == 0 || pic.to.cols == 0 {
        blank(canvas);
        return Ok(None);
    }
    draw_zoomed(canvas, rows, cols, (pic, &cell_pixels(pic)?), look, room, None)
}

/// [`draw`] from the picture's [`cell_pixels`], or with `zoom`: the whole
/// map fitted into `room` however small its cells, then zoomed in and
/// panned as `zoom` says.
pub fn draw_zoomed(
    canvas: &HtmlCanvasElement,
    rows: &[String],
    cols: &[String],
    (pic, pixels): (&Picture, &HtmlCanvasElement),
    look: &Look,
    room: Room,
    zoom: Option<Zoomer>,
) -> Result<Option<Layout>, JsValue> {
    let (r, c) = (pic.to.rows, pic.to.cols);
    if r == 0 || c == 0 {
        blank(canvas);
        return Ok(None);
    }
    let widest = label_width(&crate::canvas::paint::context(canvas)?, &[rows, cols].concat(), look);
    let layout = match zoom {
        Some(z) => z.layout(widest, r, c, room, look),
        None => Layout::fit(widest, r, c, room, look),
    };
    let (width, height) = layout.size();
    let ctx = prepare(canvas, width, height)?;
    paint_image(&ctx, &layout, pixels)?;
    if pic.frame.t >= 1.0 {
        let hidden = |i, j| pic.frame.to == Stage::Weights && pic.hidden.is_some_and(|(mask, axes)| axes.hides(mask, (i, j)));
        numbers(&ctx, &layout, look, pic.values.as_ref().unwrap_or(&pic.to), pic.frame.to, hidden, |i, j| {
            colour(pic.to[(i, j)], pic.frame.to, pic.range, pic.grey)
        })?;
    }
    let zoomed = layout.zoomed();
    if zoomed {
        layout.clip(&ctx, 3.0);
    }
    outline_token(&ctx, &layout, pic.focus, look);
    outline_cell(&ctx, &layout, pic.cell, look);
    if zoomed {
        ctx.restore();
    }
    draw_labels(&ctx, &layout, rows, cols, pic.focus, look)?;
    layout.mark(canvas);
    Ok(Some(layout))
}

/// Each cell's number (but those of the cells `hidden` says), where cells
/// are big enough to hold it legibly, in black or white as reads best on
/// the cell's colour, in the labels' sans-serif (its figures are as wide as
/// a monospace's, its point narrower).
fn numbers(
    ctx: &web_sys::CanvasRenderingContext2d,
    layout: &Layout,
    look: &Look,
    m: &Matrix,
    stage: Stage,
    hidden: impl Fn(usize, usize) -> bool,
    colour_at: impl Fn(usize, usize) -> Rgb,
) -> Result<(), JsValue> {
    // As large as the widest number this stage prints ("0.52", "-20.6")
    // allows in 0.88 of the cell's width and 0.42 of its height: on a
    // projector the cells are large, and so is the type.
    ctx.set_font(&look.font_at(100.0, false));
    let widest = ctx.measure_text(if stage == Stage::Weights { "0.00" } else { "-00.0" })?.width().max(1.0);
    let px = (layout.cell * 88.0 / widest).min(layout.cell * 0.42).min(layout.font_px * 1.4).floor();
    // Cells under 32 px hold no legible number (and a long text has a million).
    let px = if layout.cell < 32.0 || px < 10.0 { 0.0 } else { px };
    if let Some(canvas) = ctx.canvas() {
        let _ = canvas.set_attribute("data-number-px", &px.to_string());
    }
    if px == 0.0 {
        let _ = ctx.canvas().map(|c| c.set_attribute("data-numbers", "0"));
        return Ok(());
    }
    ctx.set_font(&look.font_at(px, false));
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    let half = layout.cell / 2.0;
    // Zoomed in, only the cells in sight, cut at the window's edge.
    let zoomed = layout.zoomed();
    if zoomed {
        layout.clip(ctx, 0.0);
    }
    let (cols, mut written) = (layout.visible_cols(), 0);
    for i in layout.visible_rows().filter(|&i| i < m.rows) {
        for j in cols.clone().filter(|&j| j < m.cols && !hidden(i, j)) {
            let (x, y) = layout.cell_origin(i, j);
            ctx.set_fill_style_str(text_on(colour_at(i, j)));
            ctx.fill_text(&cell_text(m[(i, j)], stage), x + half, y + half)?;
            written += 1;
        }
    }
    if zoomed {
        ctx.restore();
    }
    if let Some(canvas) = ctx.canvas() {
        let _ = canvas.set_attribute("data-numbers", &written.to_string());
    }
    Ok(())
}

/// `canvas#heatmap`: the selected head at the selected stage, in a box it
/// fills. Pointing at a cell describes it in the readout; a click or tap
/// keeps it there and chooses its query token in every view. A long text
/// zooms and pans, with a [`ZoomBar`] in the corner the labels leave; with
/// the map focused the arrow keys move the described cell, the map
/// following it, and Enter chooses its query.
#[component]
pub fn Heatmap() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let app = expect_context::<Appearance>();
    let res = expect_context::<Results>();
    let motion = expect_context::<StageMotion>();
    let zoomer = Zoomer::new();
    let canvas = NodeRef::<Canvas>::new();
    let boxed = NodeRef::<Div>::new();
    let room = use_room(boxed);
    let look = use_look();
    let placed = StoredValue::new(None::<(Layout, Axes)>);
    let made = KeptImage::<CellsOf>::new();
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let t0 = now_ms();
        let (transposed, highlight, cell) = (app.columns_are_queries.get(), sel.highlight(), sel.cell());
        let frame = motion.frame(sel.stage.get());
        let drawn = res.detail.with(|d| {
            let Some(d) = d.as_ref().filter(|d| d.weights.rows > 0) else {
                blank(&el);
                return Ok(None);
            };
            let axes = Axes::of(&d.weights, transposed);
            let (rows, cols) = res.tokens.with(|t| axes.labels(t));
            let norms = super::beyond::shown_norms(d).filter(|_| frame.t >= 1.0 && frame.to == Stage::Weights);
            // Between two stages both are drawn; at rest only the one reached.
            let still = frame.t >= 1.0;
            let mut pic = Picture {
                from: if still { Matrix::zeros(0, 0) } else { axes.orient(&values(d, d.mask, frame.from)) },
                to: axes.orient(&values(d, d.mask, frame.to)),
                frame,
                range: score_range(d),
                focus: axes.focus(highlight),
                cell: cell.filter(|c| c.mask.is_none()).and_then(|c| axes.place(&c)),
                values: None,
                hidden: Some((d.mask, axes)),
                grey: look.with(|l| l.hidden),
            };
            let of = CellsOf::new(d, frame, transposed, norms.is_some()).in_grey(pic.grey);
            if let Some(norms) = norms {
                pic.to = axes.orient(&attnscope::analysis::value_norms::per_row(&norms));
                pic.values = Some(axes.orient(&norms));
            }
            let pixels = made.get_or_make(of, || cell_pixels(&pic))?;
            let drawn = look.with(|look| draw_zoomed(&el, &rows, &cols, (&pic, &pixels), look, room.get(), Some(zoomer)))?;
            Ok(drawn.map(|layout| (layout, axes)))
        });
        match drawn {
            Ok(p) => placed.set_value(p),
            Err(e) => web_sys::console::error_2(&"heatmap: drawing failed:".into(), &e),
        }
        let _ = el.set_attribute("data-token", &highlight.map(|t| t.to_string()).unwrap_or_default());
        let _ = el.set_attribute("data-zoom", &zoomer.scale_untracked().to_string());
        let _ = el.set_attribute("data-draw-ms", &format!("{:.2}", now_ms() - t0));
    });
    let at = move |ev: &web_sys::MouseEvent| {
        let (x, y) = crate::canvas::offset(ev);
        placed.get_value().and_then(|(layout, axes)| layout.cell_at(x, y).map(|rc| axes.cell(rc, None)))
    };
    on_wheel(canvas, move |ev| {
        if let Some((layout, axes)) = placed.get_value() {
            zoomer.wheel(&ev, &layout);
            // The cell under the pointer after the zoom.
            let (x, y) = crate::canvas::offset(&ev);
            sel.hovered_cell.set(zoomer.relayout(&layout).cell_at(x, y).map(|rc| axes.cell(rc, None)));
        }
    });
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let Some((layout, axes)) = placed.get_value() else { return };
        if zoomer.key(&ev, Some(&layout)) || cell_keys(&ev, sel, &layout, |rc| axes.cell(rc, None), |c| axes.place(c), zoomer) {
            ev.prevent_default();
            // The lesson's own arrow keys must not also move.
            ev.stop_propagation();
        }
    };
    let (on_move, on_up, on_click) = cell_handlers(zoomer, sel, at);
    let zoomed = move || zoomer.current().scale > 1.0;
    view! {
        <div class="canvas-box" node_ref=boxed>
            <div class="zoom-stack">
            <canvas
                id="heatmap"
                node_ref=canvas
                tabindex="0"
                role="img"
                class:zoomable=move || zoomer.zoomable()
                class:zoomed=zoomed
                aria-label="Attention of the selected head, queries by keys; the table of weights lists the same numbers. Arrow keys move the described cell, Enter chooses its query; plus and minus zoom a long text"
                on:pointerdown=move |ev| zoomer.pointer_down(&ev)
                on:pointermove=on_move
                on:pointerup=on_up
                on:pointercancel=move |ev| { zoomer.pointer_up(&ev); }
                on:pointerleave=move |_| sel.hovered_cell.set(None)
                on:keydown=on_key
                on:click=on_click
            ></canvas>
            <ZoomBar zoomer=zoomer id="heatmap-zoom".to_string() />
            </div>
        </div>
    }
}

/// The arrow keys on a focused grid move the cell the readout describes
/// (from the one shown, else the top-left one in sight), and the grid pans to
/// keep it in sight; Enter or Space chooses its query token. True when the
/// key was used.
pub fn cell_keys(
    ev: &web_sys::KeyboardEvent,
    sel: Selection,
    layout: &Layout,
    cell_of: impl Fn((usize, usize)) -> crate::state::Cell,
    place: impl Fn(&crate::state::Cell) -> Option<(usize, usize)>,
    zoomer: Zoomer,
) -> bool {
    if ev.ctrl_key() || ev.meta_key() || ev.alt_key() || ev.shift_key() || layout.rows == 0 || layout.cols == 0 {
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
    at: impl Fn(&web_sys::MouseEvent) -> Option<crate::state::Cell> + Copy + 'static,
) -> (impl Fn(web_sys::PointerEvent) + 'static, impl Fn(web_sys::PointerEvent) + 'static, impl Fn(web_sys::MouseEvent) + 'static) {
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

/// The colour scale of the stage shown: weights 0…1, or scores −r…r.
#[component]
pub fn Legend() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    move || {
        let stage = sel.stage.get();
        let (low, high, ramp) = if stage.is_score() {
            let r = res.detail.with(|d| d.as_ref().map_or(0.0, score_range));
            let stops: Vec<String> =
                (0..=10).map(|i| format!("{} {}%", css(signed_color(-r + 2.0 * r * i as f32 / 10.0, r)), i * 10)).collect();
            (format!("{:.1}", -r), format!("{r:.1}"), stops)
        } else {
            let stops: Vec<String> = (0..=10).map(|i| format!("{} {}%", css(cell_color(i as f32 / 10.0)), i * 10)).collect();
            ("0".to_string(), "1".to_string(), stops)
        };
        view! {
            <div class="legend" aria-hidden="true">
                <span>{low}</span>
                <span class="ramp" style=format!("background: linear-gradient(to right, {})", ramp.join(", "))></span>
                <span>{high}</span>
            </div>
        }
    }
}

/// What the picture's rows and columns mean at this stage; `masked`: the
/// head's mask hides some keys, whose weights are drawn grey.
fn caption(stage: Stage, transposed: bool, masked: bool) -> String {
    let what = match (stage, transposed) {
        (Stage::Weights, false) => {
            "Row i: how query token i spreads its attention over the keys (columns). Brighter is more; each row sums to 1."
        }
        (Stage::Weights, true) => {
            "Column j: how query token j spreads its attention over the keys (rows). Brighter is more; each column sums to 1."
        }
        (Stage::Masked, _) => "Scores after the mask: grey cells are −∞, keys the query may not see. Red is positive, blue negative.",
        (_, false) => "Row i: query token i's score with every key, q·k. Red is positive, blue negative.",
        (_, true) => "Column j: query token j's score with every key, q·k. Red is positive, blue negative.",
    };
    if masked && stage == Stage::Weights {
        format!("{what} Grey: keys the mask hides (weight 0).")
    } else {
        what.to_string()
    }
}

/// The heatmap view: the steps and Play, the map (and a second sentence's
/// beside it), the readout and what the picture means.
#[component]
pub fn HeadView() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let app = expect_context::<Appearance>();
    let res = expect_context::<Results>();
    let masked = move || res.detail.with(|d| d.as_ref().is_some_and(|d| d.mask != Mask::None));
    view! {
        <div class="view-picture" id="view-head">
            <div class="toolbar">
                <StagePicker />
                <Legend />
                <super::beyond::ValueSwitch />
            </div>
            <div class="pictures">
                <Heatmap />
                <CompareMap />
            </div>
            <Readout />
            <super::beyond::NormReadout />
            <p class="caption">{move || caption(sel.stage.get(), app.columns_are_queries.get(), masked())}</p>
            {(!app.embed).then(|| view! { <CompareText /> })}
        </div>
    }
}
