//! Every layer × head as a small heatmap, on one canvas painted from a
//! single pixel buffer (hundreds of heads redraw in a few milliseconds),
//! with tiles as large as the box allows. Click a tile, or focus the canvas
//! and use the arrow keys, to select; in knockout mode a click on a tile
//! chooses that head for the knockout panel's set instead.

use crate::canvas::{blank, cell_color, now_ms, prepare, use_canvas_box, CanvasBox, Look, Room};
use crate::compute::Engine;
use crate::state::{Results, Selection};
use crate::views::beyond::knockout::{
    clear_knockout, run_knockout, toggle_knocked, AblationSwitch, KnockoutResult,
};
use crate::views::beyond::{Analysis, Definition, ValueSwitch};
use attnscope::analysis::knockout::HeadRef;
use attnscope::analysis::value_norms;
use attnscope::session::{AnalysisRequest, Thumbnail};
use leptos::prelude::*;
use wasm_bindgen::JsValue;
use web_sys::HtmlCanvasElement;

/// Past this many tokens a thumbnail's cells are means over blocks of
/// tokens ([`attnscope::trace::summary`]) and each tile gets its own scale.
const LONG_TEXT: usize = attnscope::trace::KEEP_WEIGHTS_UP_TO;

/// Tiles never get smaller than this (a long model scrolls in its box) or larger.
const MIN_TILE: f64 = 12.0;
const MAX_TILE: f64 = 160.0;

/// Where each head's tile goes. A tall model (SmolLM2's 30 layers of 9
/// heads) on a wide screen is cut into blocks of layers side by side, so
/// that its tiles grow with the room instead of leaving it empty.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    pub tile: f64,
    pub gap: f64,
    /// Room for the layer labels on the left of each block and the head labels on top.
    pub margin: f64,
    /// Room right of the last block, where the last head's label reaches past its tile.
    pub pad: f64,
    pub layers: usize,
    pub heads: usize,
    /// Layers in each block (the last may have fewer).
    pub per_block: usize,
}

impl Grid {
    /// The largest tiles that fit `room`, labels included.
    pub fn fit(layers: usize, heads: usize, room: Room, look: &Look, grouped: bool) -> Self {
        let font = look.label_px.round();
        let margin = (font * if grouped { 4.6 } else { 3.0 }).ceil();
        let pad = (font * 0.5).ceil();
        let (w, h) = if room.0 > 1.0 && room.1 > 1.0 { room } else { (800.0, 800.0) };
        let (layers_n, heads_n) = (layers.max(1), heads.max(1));
        let (pitch, per_block) = (1..=4)
            .map(|blocks: usize| {
                let per_block = layers_n.div_ceil(blocks);
                let blocks = layers_n.div_ceil(per_block);
                let across = (w - pad - blocks as f64 * (margin + 2.0)) / (blocks * heads_n) as f64;
                let down = (h - margin - 2.0) / per_block as f64;
                (across.min(down), per_block)
            })
            .fold((0.0, layers_n), |best, t| if t.0 > best.0 * 1.15 { t } else { best });
        let gap = if pitch >= 40.0 { 6.0 } else { 3.0 };
        let tile = (pitch - gap).floor().clamp(MIN_TILE, MAX_TILE);
        Self { tile, gap, margin, pad, layers, heads, per_block }
    }

    fn blocks(&self) -> usize {
        self.layers.max(1).div_ceil(self.per_block.max(1))
    }

    fn block_width(&self) -> f64 {
        self.margin + self.heads as f64 * (self.tile + self.gap)
    }

    pub fn size(&self) -> (f64, f64) {
        (
            self.blocks() as f64 * self.block_width() + self.pad,
            self.margin + self.per_block.min(self.layers) as f64 * (self.tile + self.gap),
        )
    }

    pub fn origin(&self, layer: usize, head: usize) -> (f64, f64) {
        let (block, row) = (layer / self.per_block.max(1), layer % self.per_block.max(1));
        (
            block as f64 * self.block_width() + self.margin + head as f64 * (self.tile + self.gap),
            self.margin + row as f64 * (self.tile + self.gap),
        )
    }

    pub fn tile_at(&self, x: f64, y: f64) -> Option<(usize, usize)> {
        let pitch = self.tile + self.gap;
        let block = (x / self.block_width()).floor();
        let (h, row) =
            ((x - block * self.block_width() - self.margin) / pitch, (y - self.margin) / pitch);
        if block < 0.0 || h < 0.0 || row < 0.0 || (row as usize) >= self.per_block {
            return None;
        }
        let layer = block as usize * self.per_block + row as usize;
        (layer < self.layers && (h as usize) < self.heads).then_some((layer, h as usize))
    }
}

/// Whether `kv_head_of` groups query heads (grouped-query attention).
pub fn is_grouped(kv_head_of: &[usize], heads: usize) -> bool {
    kv_head_of.len() == heads
        && kv_head_of.iter().any(|&g| g != kv_head_of[0])
        && kv_head_of.windows(2).any(|w| w[0] == w[1])
}

/// Paints all thumbnails; `kv_head_of` brackets grouped-query heads. With
/// `own_scale` each tile is coloured against its brightest cell: a long
/// text's cells average blocks of tokens, whose weights are then all near
/// 0 on the shared scale and the tiles would show no pattern.
pub fn draw(
    canvas: &HtmlCanvasElement,
    overview: &[Vec<Thumbnail>],
    kv_head_of: &[usize],
    selected: (usize, usize),
    look: &Look,
    room: Room,
    own_scale: bool,
) -> Result<Option<Grid>, JsValue> {
    let layers = overview.len();
    let heads = overview.first().map_or(0, |l| l.len());
    if layers == 0 || heads == 0 || overview[0][0].rows == 0 {
        blank(canvas);
        return Ok(None);
    }
    let grouped = is_grouped(kv_head_of, heads);
    let grid = Grid::fit(layers, heads, room, look, grouped);
    let (width, height) = grid.size();
    let ctx = prepare(canvas, width, height)?;
    // One RGBA buffer with one pixel per cell of every head, which the canvas
    // then scales up to tiles (nearest neighbour): the work grows with the
    // cells (≤ 48 × 48 a head), not with the pixels on screen.
    let (cell_rows, cell_cols) =
        overview.iter().flatten().fold((1, 1), |(r, c), a| (r.max(a.rows), c.max(a.cols)));
    let (w_px, h_px) = (heads * cell_cols, layers * cell_rows);
    let mut rgba = vec![0u8; w_px * h_px * 4];
    for (l, layer) in overview.iter().enumerate() {
        for (h, a) in layer.iter().enumerate() {
            let top = if own_scale {
                a.levels.iter().copied().max().unwrap_or(0).max(1) as f32
            } else {
                Thumbnail::ONE
            };
            for (i, levels) in a.rows().enumerate() {
                let row = (l * cell_rows + i) * w_px + h * cell_cols;
                for (j, &level) in levels.iter().take(cell_cols).enumerate() {
                    let [r, g, b] = cell_color(level as f32 / top);
                    rgba[(row + j) * 4..(row + j) * 4 + 4].copy_from_slice(&[r, g, b, 255]);
                }
            }
        }
    }
    let packed = crate::canvas::paint::image_canvas(&rgba, w_px, h_px)?;
    ctx.set_image_smoothing_enabled(false);
    for (l, layer) in overview.iter().enumerate() {
        for (h, a) in layer.iter().enumerate() {
            let (x, y) = grid.origin(l, h);
            ctx.draw_image_with_html_canvas_element_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(
                &packed,
                (h * cell_cols) as f64,
                (l * cell_rows) as f64,
                a.cols.max(1) as f64,
                a.rows.max(1) as f64,
                x,
                y,
                grid.tile,
                grid.tile,
            )?;
        }
    }
    let (ink, font, top) = (look.ink.as_str(), look.label_px.round(), grid.margin);
    ctx.set_fill_style_str(ink);
    ctx.set_text_baseline("middle");
    // Label every layer and head when there is room, else every few.
    let every = ((font + 2.0) / (grid.tile + grid.gap)).ceil().max(1.0) as usize;
    let (sel_l, sel_h) = selected;
    ctx.set_text_align("right");
    for l in (0..layers).filter(|l| l % every == 0 || *l == sel_l) {
        let (x, y) = grid.origin(l, 0);
        ctx.set_font(&look.font_scaled(1.0, l == sel_l));
        ctx.set_fill_style_str(if l == sel_l { &look.focus } else { ink });
        ctx.fill_text(&format!("L{l}"), x - 0.5 * font, y + grid.tile / 2.0)?;
    }
    ctx.set_text_align("center");
    let label_y = if grouped { top - 2.6 * font } else { top - 0.9 * font };
    let every_head = if grouped {
        every.max((3.2 * font / (grid.tile + grid.gap)).ceil() as usize)
    } else {
        every
    };
    // Head labels and brackets over every block of layers.
    for first in (0..layers).step_by(grid.per_block.max(1)) {
        #[allow(clippy::needless_range_loop)]
        // kv_head_of is read only when it has one entry per head
        for h in 0..heads {
            if h % every_head != 0 && h != sel_h {
                continue;
            }
            let (x, _) = grid.origin(first, h);
            ctx.set_font(&look.font_scaled(1.0, h == sel_h));
            ctx.set_fill_style_str(if h == sel_h { &look.focus } else { ink });
            ctx.fill_text(&format!("H{h}"), x + grid.tile / 2.0, label_y)?;
        }
        if grouped {
            // A bracket over each group of query heads that share one key/value head, named under
            // it.
            ctx.set_stroke_style_str(ink);
            ctx.set_fill_style_str(ink);
            ctx.set_font(&look.font_scaled(0.85, false));
            ctx.set_line_width(1.5);
            let mut start = 0;
            for h in 1..=heads {
                if h == heads || kv_head_of[h] != kv_head_of[start] {
                    let (x0, _) = grid.origin(first, start);
                    let (x1, _) = grid.origin(first, h - 1);
                    let y = top - 1.5 * font;
                    ctx.begin_path();
                    ctx.move_to(x0 + 1.0, y + 0.35 * font);
                    ctx.line_to(x0 + 1.0, y);
                    ctx.line_to(x1 + grid.tile - 1.0, y);
                    ctx.line_to(x1 + grid.tile - 1.0, y + 0.35 * font);
                    ctx.stroke();
                    ctx.fill_text(
                        &format!("kv {}", kv_head_of[start]),
                        (x0 + x1 + grid.tile) / 2.0,
                        top - 0.75 * font,
                    )?;
                    start = h;
                }
            }
        }
    }
    if sel_l < layers && sel_h < heads {
        let (x, y) = grid.origin(sel_l, sel_h);
        ctx.set_stroke_style_str(&look.focus);
        ctx.set_line_width(3.0);
        ctx.stroke_rect(x - 2.0, y - 2.0, grid.tile + 4.0, grid.tile + 4.0);
    }
    let _ = canvas.set_attribute("data-tile", &grid.tile.to_string());
    let _ = canvas.set_attribute("data-gap", &grid.gap.to_string());
    let _ = canvas.set_attribute("data-margin", &grid.margin.to_string());
    Ok(Some(grid))
}

/// `canvas#overview`, filling its box.
#[component]
pub fn Overview() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let CanvasBox { canvas, boxed, room, look } = use_canvas_box();
    let placed = RwSignal::new(None::<Grid>);
    let an = expect_context::<Analysis>();
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let t0 = now_ms();
        let selected = (sel.layer.get(), sel.head.get());
        let (on, run) = (an.value_weighted.get(), res.run_id());
        // The thumbnails are drawn where they are, not copied (a long text's are megabytes).
        let drawn = look.with(|look| {
            res.summary.with(|s| match s {
                Some(s) => an.all_norms.with(|n| {
                    let norms = n
                        .as_ref()
                        .filter(|n| on && Some(n.0) == run && n.1.len() == s.overview.len())
                        .map(|n| &n.1);
                    let _ = el.set_attribute(
                        "data-shows",
                        if norms.is_some() { "norms" } else { "weights" },
                    );
                    let pooled = norms.is_none() && s.tokens.len() > LONG_TEXT;
                    let _ =
                        el.set_attribute("data-scale", if pooled { "each tile" } else { "shared" });
                    draw(
                        &el,
                        norms.unwrap_or(&s.overview),
                        &s.kv_head_of,
                        selected,
                        look,
                        room.get(),
                        pooled,
                    )
                }),
                None => draw(&el, &[], &[], selected, look, room.get(), false),
            })
        });
        match drawn {
            Ok(g) => {
                if placed.get_untracked() != g {
                    placed.set(g)
                }
            }
            Err(e) => web_sys::console::error_2(&"overview: drawing failed:".into(), &e),
        }
        // Read by the browser benchmark (scripts/bench.sh): the redraw's own cost.
        let _ = el.set_attribute("data-draw-ms", &format!("{:.2}", now_ms() - t0));
    });
    let dims = move || {
        res.summary.with(|s| {
            s.as_ref()
                .map_or((0, 0), |s| (s.overview.len(), s.overview.first().map_or(0, |l| l.len())))
        })
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        if let Some((layer, head)) = placed
            .get_untracked()
            .and_then(|g| g.tile_at(ev.offset_x() as f64, ev.offset_y() as f64))
        {
            if an.knock_mode.get_untracked() {
                toggle_knocked(an, HeadRef { layer, head });
            } else {
                sel.select_head((layer, head));
            }
        }
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let (layers, heads) = dims();
        let (l, h) = (sel.layer.get_untracked(), sel.head.get_untracked());
        let next = match ev.key().as_str() {
            "ArrowLeft" => (l, h.saturating_sub(1)),
            "ArrowRight" => (l, (h + 1).min(heads.saturating_sub(1))),
            "ArrowUp" => (l.saturating_sub(1), h),
            "ArrowDown" => ((l + 1).min(layers.saturating_sub(1)), h),
            _ => return,
        };
        ev.prevent_default();
        // The lesson's own arrow keys must not also move.
        ev.stop_propagation();
        sel.select_head(next);
    };
    view! {
        <div class="canvas-box" node_ref=boxed>
            <div class="overview-stack">
                <canvas
                    id="overview"
                    node_ref=canvas
                    tabindex="0"
                    role="img"
                    aria-label=tr!("overview-label")
                    on:click=on_click
                    on:keydown=on_key
                ></canvas>
                <KnockMarks placed=placed />
            </div>
        </div>
    }
}

/// Over the tiles: in knockout mode a button per head (pressed = knocked
/// out), else a mark on each head chosen for a knockout.
#[component]
fn KnockMarks(placed: RwSignal<Option<Grid>>) -> impl IntoView {
    let an = expect_context::<Analysis>();
    let at = |g: &Grid, l: usize, h: usize| {
        let (x, y) = g.origin(l, h);
        format!("left: {x}px; top: {y}px; width: {0}px; height: {0}px", g.tile)
    };
    move || {
        let g = placed.get()?;
        Some(if an.knock_mode.get() {
            (0..g.layers)
                .flat_map(|l| (0..g.heads).map(move |h| HeadRef { layer: l, head: h }))
                .map(|me| {
                    let out = move || an.knocked.with(|k| k.contains(&me));
                    let (l, h) = (me.layer, me.head);
                    view! {
                        <button
                            class="knock-cell"
                            id=format!("ko-{l}-{h}")
                            style=at(&g, l, h)
                            aria-pressed=move || out().to_string()
                            aria-label=move || {
                                if out() {
                                    tr!("overview-knock-cell-out", layer = l, head = h)
                                } else {
                                    tr!("overview-knock-cell", layer = l, head = h)
                                }
                            }
                            title=move || {
                                if out() {
                                    tr!("overview-knock-title-out", layer = l, head = h)
                                } else {
                                    format!("L{l} · H{h}")
                                }
                            }
                            on:click=move |_| toggle_knocked(an, me)
                        ></button>
                    }
                })
                .collect_view()
                .into_any()
        } else {
            (move || {
                an.knocked
                    .get()
                    .into_iter()
                    .filter(|k| k.layer < g.layers && k.head < g.heads)
                    .map(|k| {
                        view! {
                            <span
                                class="knock-cell knock-mark"
                                aria-hidden="true"
                                style=at(&g, k.layer, k.head)
                            ></span>
                        }
                    })
                    .collect_view()
            })
            .into_any()
        })
    }
}

/// The "Knock out heads" mode of the overview: the toggle, how many heads are chosen, zero or mean,
/// Run and Clear.
#[component]
fn KnockToolbar() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let engine = expect_context::<Engine>();
    let an = expect_context::<Analysis>();
    let count = move || tr!("overview-knock-count", count = an.knocked.with(Vec::len));
    view! {
        <div class="switch-row knock-tools" role="group" aria-label=tr!("overview-knock-tools")>
            <button
                id="knock-mode"
                aria-pressed=move || an.knock_mode.get().to_string()
                on:click=move |_| an.knock_mode.update(|on| *on = !*on)
            >
                {tr!("overview-knock-mode")}
            </button>
            <span id="knock-count" role="status">
                {count}
            </span>
            <AblationSwitch id="knock" short=true />
            <button
                id="knock-run"
                on:click=move |_| run_knockout(engine, sel, an, &tr!("overview-knock-how"))
            >
                {tr!("overview-knock-run")}
            </button>
            <button id="knock-clear" on:click=move |_| clear_knockout(an)>
                {tr!("overview-knock-clear")}
            </button>
        </div>
    }
}

/// The "All heads" view.
#[component]
pub fn OverviewView() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let engine = expect_context::<Engine>();
    let an = expect_context::<Analysis>();
    // While the switch is on, every head's norms follow the run (asked once per run).
    Effect::new(move |_| {
        let (on, run) = (an.value_weighted.get(), res.run_id());
        let real = res.has_tokens();
        let have = an.all_norms.with_untracked(|n| n.as_ref().map(|n| n.0));
        if on && real && run.is_some() && have != run {
            Analysis::ask(engine, sel, AnalysisRequest::AllValueNorms);
        }
    });
    view! {
        <div class="view-picture" id="view-overview">
            <div class="toolbar">
                <ValueSwitch />
                <KnockToolbar />
            </div>
            <Overview />
            <p class="analysis-error" id="overview-error" role="status">
                {move || an.error.get()}
            </p>
            <div class="knock-result">
                <KnockoutResult />
            </div>
            <p class="caption">
                {move || {
                    if an.knock_mode.get() {
                        tr!("overview-caption-knockout")
                    } else {
                        tr!("overview-caption")
                    }
                }}
            </p>
            {move || {
                (!an.value_weighted.get()
                    && res.summary.with(|s| s.as_ref().is_some_and(|s| s.tokens.len() > LONG_TEXT)))
                    .then(|| {
                        view! {
                            <p class="caption" id="overview-scale-caption">
                                {tr!("overview-scale-caption")}
                            </p>
                        }
                    })
            }}
            {move || {
                an.value_weighted
                    .get()
                    .then(|| {
                        view! {
                            <p class="caption" id="overview-norms-caption">
                                {tr!("overview-norms-caption")}
                            </p>
                            <Definition text=value_norms::DEFINITION />
                        }
                    })
            }}
        </div>
    }
}
