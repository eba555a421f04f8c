//! `canvas#speech-spectrogram`: the clip's log-mel spectrogram (time
//! across, low pitches at the bottom), the chosen token's cross-attention
//! over it as a filled curve, and under it the words' times as spans. A
//! click on a span chooses that word's first token and plays its stretch.

use super::{capture, token_text, Speech};
use crate::canvas::paint::image_canvas;
use crate::canvas::{blank, cell_color, prepare, use_canvas_box, CanvasBox};
use crate::views::common::format::fixed;
use attnscope::session::SpeechSummary;
use leptos::prelude::*;

/// Heights in CSS pixels: the spectrogram, the words' row, the time axis.
const MEL_PX: f64 = 150.0;
const WORDS_PX: f64 = 30.0;
const AXIS_PX: f64 = 20.0;
const PAD: f64 = 8.0;

/// Where the frames are drawn: x of frame `f` (20 ms) is `x0 + f · per_frame`.
#[derive(Clone, Copy)]
struct Span {
    x0: f64,
    per_frame: f64,
}

impl Span {
    fn x(&self, frame: f64) -> f64 {
        self.x0 + frame * self.per_frame
    }
}

/// The word under `x` in the words' row.
fn word_at(h: &SpeechSummary, span: Span, x: f64) -> Option<usize> {
    h.words.iter().position(|w| {
        let (a, b) = (span.x(f64::from(w.start) * 50.0), span.x(f64::from(w.end) * 50.0));
        x >= a && x <= b.max(a + 4.0)
    })
}

#[component]
pub fn Spectrogram() -> impl IntoView {
    let speech = expect_context::<Speech>();
    let CanvasBox { canvas, boxed, room, look } = use_canvas_box();
    let placed = StoredValue::new(None::<Span>);
    Effect::new(move |_| {
        let Some(el) = canvas.get() else { return };
        let (token, pick) = (speech.token.get(), speech.pick.get());
        let Some(h) = speech.heard.get() else { return blank(&el) };
        let width = room.get().0.max(280.0);
        let drawn = look.with(|look| -> Result<Span, wasm_bindgen::JsValue> {
            let height = MEL_PX + WORDS_PX + AXIS_PX;
            let ctx = prepare(&el, width, height)?;
            let span = Span { x0: PAD, per_frame: (width - 2.0 * PAD) / h.frames.max(1) as f64 };
            // The spectrogram, each value placed between the clip's lowest and highest.
            let mel = &h.mel;
            let (lo, hi) =
                mel.data.iter().fold((f32::MAX, f32::MIN), |(a, b), &v| (a.min(v), b.max(v)));
            let range = (hi - lo).max(1e-6);
            let (bins, cols) = (mel.rows, mel.cols);
            let mut rgba = Vec::with_capacity(bins * cols * 4);
            for r in 0..bins {
                for c in 0..cols {
                    // Row 0 of the image is the highest bin.
                    let v = mel[(bins - 1 - r, c)];
                    let [red, g, b] = cell_color(((v - lo) / range).clamp(0.0, 1.0) * 0.85);
                    rgba.extend_from_slice(&[red, g, b, 255]);
                }
            }
            if cols > 0 && bins > 0 {
                let image = image_canvas(&rgba, cols, bins)?;
                ctx.set_image_smoothing_enabled(true);
                ctx.draw_image_with_html_canvas_element_and_dw_and_dh(
                    &image,
                    span.x0,
                    0.0,
                    span.x(h.frames as f64) - span.x0,
                    MEL_PX,
                )?;
            }
            // The chosen token's attention over the frames, scaled to its peak.
            if let (Some(t), Some(w)) = (token, h.weights(pick)) {
                if t < w.rows && w.cols > 0 {
                    let row = w.row(t);
                    let peak = row.iter().cloned().fold(0.0f32, f32::max).max(1e-9);
                    ctx.begin_path();
                    ctx.move_to(span.x(0.0), MEL_PX);
                    for (f, &a) in row.iter().enumerate() {
                        let y = MEL_PX - f64::from(a / peak) * (MEL_PX - 6.0);
                        ctx.line_to(span.x(f as f64), y);
                        ctx.line_to(span.x(f as f64 + 1.0), y);
                    }
                    ctx.line_to(span.x(w.cols as f64), MEL_PX);
                    ctx.close_path();
                    ctx.set_global_alpha(0.45);
                    ctx.set_fill_style_str(&look.focus);
                    ctx.fill();
                    ctx.set_global_alpha(1.0);
                    ctx.set_stroke_style_str(&look.focus);
                    ctx.set_line_width(1.5);
                    ctx.stroke();
                }
            }
            // The words' spans.
            let chosen_word = token
                .and_then(|t| h.words.iter().position(|w| (w.tokens.0..w.tokens.1).contains(&t)));
            ctx.set_font(&look.font());
            ctx.set_text_baseline("middle");
            ctx.set_text_align("center");
            for (i, w) in h.words.iter().enumerate() {
                let (a, b) = (span.x(f64::from(w.start) * 50.0), span.x(f64::from(w.end) * 50.0));
                let focus = chosen_word == Some(i);
                ctx.set_fill_style_str(if focus { &look.focus } else { &look.muted });
                ctx.set_global_alpha(if focus { 0.9 } else { 0.35 });
                ctx.fill_rect(a + 0.5, MEL_PX + 3.0, (b - a - 1.0).max(2.0), WORDS_PX - 6.0);
                ctx.set_global_alpha(1.0);
                ctx.set_fill_style_str(if focus { "#fff" } else { &look.ink });
                let text = w.word.trim();
                ctx.fill_text_with_max_width(
                    text,
                    (a + b) / 2.0,
                    MEL_PX + WORDS_PX / 2.0,
                    (b - a).max(12.0),
                )?;
            }
            // Seconds along the bottom.
            ctx.set_fill_style_str(&look.muted);
            ctx.set_font(&look.font_scaled(0.85, false));
            let step = if h.seconds > 12.0 {
                5.0
            } else if h.seconds > 4.0 {
                1.0
            } else {
                0.5
            };
            let mut s = 0.0f32;
            while s <= h.seconds + 1e-3 {
                let x = span.x(f64::from(s) * 50.0);
                ctx.fill_rect(x, MEL_PX + WORDS_PX, 1.0, 4.0);
                let mut seconds = s.to_string();
                if crate::i18n::decimal_comma() {
                    seconds = seconds.replace('.', ",");
                }
                ctx.fill_text(
                    &format!("{seconds} s"),
                    x.clamp(PAD + 10.0, width - PAD - 10.0),
                    MEL_PX + WORDS_PX + AXIS_PX / 2.0 + 2.0,
                )?;
                s += step;
            }
            Ok(span)
        });
        match drawn {
            Ok(span) => placed.set_value(Some(span)),
            Err(e) => web_sys::console::error_2(&"speech: drawing failed:".into(), &e),
        }
    });
    let on_click = move |ev: web_sys::MouseEvent| {
        let (x, y) = (ev.offset_x() as f64, ev.offset_y() as f64);
        let (Some(span), Some(h)) = (placed.get_value(), speech.heard.get_untracked()) else {
            return;
        };
        if !(MEL_PX..MEL_PX + WORDS_PX).contains(&y) {
            return;
        }
        if let Some(i) = word_at(&h, span, x) {
            let w = &h.words[i];
            speech.token.set(Some(w.tokens.0));
            capture::play(speech, w.start, w.end);
        }
    };
    view! {
        <p class="speech-caption">
            {move || tr!("speech-spectrogram-caption", which = speech.which())}
        </p>
        <div class="canvas-box speech-box" node_ref=boxed>
            <canvas
                id="speech-spectrogram"
                node_ref=canvas
                role="img"
                aria-label=tr!("speech-spectrogram-aria")
                on:click=on_click
            ></canvas>
        </div>
        <Readout />
    }
}

/// `#speech-readout`: where the chosen token's attention peaks, and how
/// much went to the padding after the clip.
#[component]
fn Readout() -> impl IntoView {
    let speech = expect_context::<Speech>();
    let text = move || {
        let h = speech.heard.get()?;
        let t = speech.token.get()?;
        let w = h.weights(speech.pick.get())?;
        if t >= w.rows || w.cols == 0 {
            return None;
        }
        let row = w.row(t);
        let (peak_at, peak) =
            row.iter()
                .enumerate()
                .fold((0, f32::MIN), |b, (i, &a)| if a > b.1 { (i, a) } else { b });
        let shown: f32 = row.iter().sum();
        let padding = match speech.pick.get() {
            Some((l, hd)) => h.padding[l][hd][t],
            None => 1.0 - shown,
        };
        Some(tr!(
            "speech-readout",
            token = token_text(&h.tokens[t]).trim().to_string(),
            index = t,
            peak = fixed(peak as f64, 3),
            from = fixed((peak_at as f32 / 50.0) as f64, 2),
            to = fixed(((peak_at + 1) as f32 / 50.0) as f64, 2),
            clip = fixed((100.0 * shown) as f64, 1),
            padding = fixed((100.0 * padding) as f64, 1),
        ))
    };
    view! {
        <p class="readout speech-readout" id="speech-readout" aria-live="polite">
            {move || { text().unwrap_or_else(|| tr!("speech-readout-none")) }}
        </p>
    }
}
