//! The dot grid of the "a fluffy blue creature roamed the verdant forest"
//! diagrams: one circle per (query, key) whose area is proportional to the
//! value, words along both axes; the unmasked and the causally masked grid of
//! the same head side by side, at any step from QKᵀ to the softmax.

use crate::heatmap::{css, draw_labels, outline_token, prepare, signed_color, use_look, Layout, Look};
use attnscope::attention::{apply_mask, Mask};
use attnscope::session::HeadDetail;
use attnscope::Matrix;
use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::JsValue;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Stage {
    Scores,
    Scaled,
    Masked,
    #[default]
    Weights,
}

impl Stage {
    pub const ALL: [Stage; 4] = [Stage::Scores, Stage::Scaled, Stage::Masked, Stage::Weights];

    pub fn label(self) -> &'static str {
        match self {
            Stage::Scores => "1. raw scores QKᵀ",
            Stage::Scaled => "2. scaled QKᵀ/√d_k",
            Stage::Masked => "3. masked + M",
            Stage::Weights => "4. softmax weights A",
        }
    }

    pub fn slug(self) -> &'static str {
        match self {
            Stage::Scores => "scores",
            Stage::Scaled => "scaled",
            Stage::Masked => "masked",
            Stage::Weights => "weights",
        }
    }
}

/// The values a grid shows for `mask` at `stage`, from one head's detail.
pub fn values(d: &HeadDetail, mask: Mask, stage: Stage) -> Matrix {
    let scaled = || d.scores.map(|s| s * d.scale);
    match stage {
        Stage::Scores => d.scores.clone(),
        Stage::Scaled => scaled(),
        Stage::Masked => apply_mask(scaled(), mask),
        Stage::Weights if mask == d.mask => d.weights.clone(),
        Stage::Weights => d.what_if_weights.clone(),
    }
}

/// Draws one grid; `columns_are_queries` transposes as the heatmap does.
pub fn draw(
    canvas: &web_sys::HtmlCanvasElement,
    tokens: &[String],
    m: &Matrix,
    stage: Stage,
    columns_are_queries: bool,
    highlight: Option<usize>,
    look: &Look,
) -> Result<(), JsValue> {
    if m.rows == 0 {
        canvas.set_width(0);
        canvas.set_height(0);
        return Ok(());
    }
    let m = if columns_are_queries { m.transpose() } else { m.clone() };
    let layout = Layout::sized(tokens, m.rows, m.cols, 360.0, look.zoom);
    let (width, height) = layout.size();
    let ctx = prepare(canvas, width, height)?;
    let range = m.data.iter().filter(|v| v.is_finite()).fold(0.0f32, |a, v| a.max(v.abs()));
    let half = layout.cell / 2.0;
    for i in 0..m.rows {
        for j in 0..m.cols {
            let v = m[(i, j)];
            let (x, y) = layout.cell_origin(i, j);
            let (cx, cy) = (x + half, y + half);
            if v == f32::NEG_INFINITY {
                // A hidden key: a small grey cross, not a circle.
                ctx.set_stroke_style_str("#9aa0a6");
                ctx.set_line_width(1.0);
                let r = half * 0.35;
                ctx.begin_path();
                ctx.move_to(cx - r, cy - r);
                ctx.line_to(cx + r, cy + r);
                ctx.move_to(cx + r, cy - r);
                ctx.line_to(cx - r, cy + r);
                ctx.stroke();
                continue;
            }
            // Area ∝ value: radius ∝ √value (of |value| / largest for signed stages).
            let (share, colour) = match stage {
                Stage::Weights => (v.clamp(0.0, 1.0), css(crate::heatmap::cell_color(v))),
                _ => (if range > 0.0 { v.abs() / range } else { 0.0 }, css(signed_color(v, range))),
            };
            let r = (share as f64).sqrt() * (half - 1.0);
            // A faint ring shows each cell's full size, so tiny values still read as "a cell".
            ctx.set_stroke_style_str("rgba(128,128,128,0.25)");
            ctx.set_line_width(0.5);
            ctx.begin_path();
            ctx.arc(cx, cy, half - 1.0, 0.0, std::f64::consts::TAU)?;
            ctx.stroke();
            if r > 0.3 {
                ctx.set_fill_style_str(&colour);
                ctx.begin_path();
                ctx.arc(cx, cy, r, 0.0, std::f64::consts::TAU)?;
                ctx.fill();
                if stage != Stage::Weights {
                    ctx.set_stroke_style_str("rgba(0,0,0,0.35)");
                    ctx.stroke();
                }
            }
        }
    }
    outline_token(&ctx, &layout, highlight, m.rows, m.cols);
    draw_labels(&ctx, &layout, tokens, tokens, look)
}

/// One captioned grid.
#[component]
fn Grid(
    id: &'static str,
    #[prop(into)] tokens: Signal<Vec<String>>,
    #[prop(into)] values: Signal<Option<Matrix>>,
    #[prop(into)] stage: Signal<Stage>,
    #[prop(into)] columns_are_queries: Signal<bool>,
    #[prop(into)] caption: Signal<String>,
    #[prop(into)] highlight: Signal<Option<usize>>,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let look = use_look();
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let drawn = values.with(|v| match v {
            Some(m) => tokens.with(|t| look.with(|look| draw(&el, t, m, stage.get(), columns_are_queries.get(), highlight.get(), look))),
            None => Ok(()),
        });
        if let Err(e) = drawn {
            web_sys::console::error_2(&"dot grid: drawing failed:".into(), &e);
        }
    });
    view! {
        <figure class="dotgrid">
            <canvas id=id node_ref=canvas role="img" aria-label=move || caption.get()></canvas>
            <figcaption>{move || caption.get()}</figcaption>
        </figure>
    }
}

/// The unmasked and the causal grid of the selected head, with a stage selector.
#[component]
pub fn DotGrids(
    #[prop(into)] tokens: Signal<Vec<String>>,
    #[prop(into)] detail: Signal<Option<HeadDetail>>,
    #[prop(into)] columns_are_queries: Signal<bool>,
    /// The model's name, for the captions.
    #[prop(into)]
    model_name: Signal<String>,
    /// A token whose row and column are outlined (hovered in the token strip).
    #[prop(into)]
    highlight: Signal<Option<usize>>,
) -> impl IntoView {
    let (stage, set_stage) = signal(Stage::Weights);
    let grid_values = move |mask: Mask| Signal::derive(move || detail.with(|d| d.as_ref().map(|d| values(d, mask, stage.get()))));
    let caption = move |mask: Mask| {
        Signal::derive(move || {
            let real = detail.with(|d| d.as_ref().map(|d| d.mask)).unwrap_or(Mask::None);
            let name = model_name.get();
            match (mask, mask == real) {
                (Mask::None, true) => format!("Unmasked: every word sees every word. This is what {name} uses."),
                (Mask::None, false) => {
                    format!("Unmasked (what-if): {name} is causal; this grid is computed from the same Q and K without the mask.")
                }
                (Mask::Causal, true) => format!("Causal: a word sees only itself and earlier words. This is what {name} uses."),
                (Mask::Causal, false) => {
                    format!("Causal (what-if): {name} sees both ways; this grid applies a causal mask to the same Q and K.")
                }
                (Mask::SlidingWindow(w), _) => {
                    format!("Sliding window: a word sees only itself and the {} words before it.", w.saturating_sub(1))
                }
            }
        })
    };
    view! {
        <div class="stage-picker" role="radiogroup" aria-label="Step of the computation">
            {Stage::ALL.into_iter().map(|s| view! {
                <button
                    class="stage"
                    data-stage=s.slug()
                    role="radio"
                    aria-checked=move || (stage.get() == s).to_string()
                    on:click=move |_| set_stage.set(s)
                >{s.label()}</button>
            }).collect_view()}
        </div>
        <p class="hint">{move || match stage.get() {
            Stage::Weights => "Circle area ∝ attention weight (0 to 1).",
            Stage::Masked => "Circle area ∝ |score|; red positive, blue negative; × marks −∞ (a hidden key).",
            _ => "Circle area ∝ |score| (relative to the largest); red positive, blue negative.",
        }}</p>
        <div class="grids">
            <Grid id="grid-unmasked" tokens values=grid_values(Mask::None) stage columns_are_queries caption=caption(Mask::None) highlight />
            <Grid id="grid-causal" tokens values=grid_values(Mask::Causal) stage columns_are_queries caption=caption(Mask::Causal) highlight />
        </div>
    }
}
