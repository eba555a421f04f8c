//! `#speech-step`: the chosen token through one head of the cross-attention, step by step,
//! every number from the worker's q, K and V of the clip (`runners/listener.rs`): the token's
//! query q, the keys of the clip's frames it weighs most with q·k, the scale and the softmax's
//! weights, the share the padded silence took, and the head's output z = Σ a·v. Whisper
//! reads 1,500 frames, so the table keeps the strongest six.

use super::{token_text, Speech};
use crate::views::common::format::{fixed, num, vector};
use attnscope::session::SpeechStep as Step;
use leptos::prelude::*;

/// Numbers of a vector shown before "…".
const PREVIEW: usize = 4;

/// Seconds per encoder frame.
const FRAME_S: f64 = 0.02;

/// `v`'s first numbers, as [`vector`] writes them, and "…" when there are more.
fn preview(v: &[f32]) -> String {
    let shown = vector(&v[..v.len().min(PREVIEW)]);
    if v.len() <= PREVIEW {
        return shown;
    }
    let parted = if crate::i18n::decimal_comma() { "; " } else { ", " };
    format!("{}{parted}…]", shown.trim_end_matches(']'))
}

/// The step's numbers, once the worker's reply is the token and head chosen.
fn shown(step: &Step, mean: bool) -> impl IntoView {
    let token = token_text(&step.text).trim().to_string();
    let rows = step
        .top
        .iter()
        .map(|f| {
            view! {
                <tr>
                    <th scope="row">{fixed(f.frame as f64 * FRAME_S, 2)}</th>
                    <td class="vector">
                        <code>{preview(&f.k)}</code>
                    </td>
                    <td>{num(f.score)}</td>
                    <td>{num(f.scaled)}</td>
                    <td class="weight">{num(f.weight)}</td>
                </tr>
            }
        })
        .collect_view();
    let caption = tr!(
        "speech-step-caption",
        token = token,
        index = step.token,
        layer = step.layer + 1,
        head = step.head + 1,
    );
    // The alignment heads' mean was chosen: which head stands for it.
    let stands_for = mean.then(|| {
        let note = tr!("speech-step-alignment", layer = step.layer + 1, head = step.head + 1);
        view! {
            " "
            <span class="speech-step-mean">{note}</span>
        }
    });
    let padding = tr!(
        "speech-step-padding",
        frames = step.frames,
        clip = num(step.clip),
        pad = step.keys.saturating_sub(step.frames),
        padding = num(step.padding),
    );
    view! {
        <p class="speech-step-caption">{caption}{stands_for}</p>
        <p class="vector" id="speech-step-q">
            <span class="name">{tr!("speech-step-query", count = step.q.len())} " q = "</span>
            <code>{preview(&step.q)}</code>
        </p>
        <table class="cross-step-table speech-step-table" id="speech-step-table">
            <caption>
                {tr!("speech-step-table-caption", count = step.top.len(), keys = step.keys)}
            </caption>
            <thead>
                <tr>
                    <th>{tr!("speech-step-time")}</th>
                    <th>{tr!("speech-step-key")}</th>
                    <th>"q·k"</th>
                    <th>{format!("× 1/√d_k = × {}", num(step.scale))}</th>
                    <th>{tr!("speech-step-weight")}</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
        <p id="speech-step-padding">{padding}</p>
        <p class="vector" id="speech-step-z">
            <span class="name">
                {tr!("speech-step-output", count = step.z.len())} " z = Σ a·v = "
            </span>
            <code>{preview(&step.z)}</code>
        </p>
    }
}

#[component]
pub fn SpeechStep() -> impl IntoView {
    let speech = expect_context::<Speech>();
    // Asked again whenever the clip, the token or the head changes.
    Effect::new(move |_| {
        let ready = speech.heard.with(Option::is_some);
        let (layer, head, _) = speech.step_head();
        if let (true, Some(token)) = (ready, speech.token.get()) {
            speech.ask_step(layer, head, token);
        }
    });
    let body = move || {
        speech.heard.with(Option::is_some).then_some(())?;
        let Some(token) = speech.token.get() else {
            return Some(view! { <p class="note">{tr!("speech-readout-none")}</p> }.into_any());
        };
        let (layer, head, mean) = speech.step_head();
        Some(match speech.step.get() {
            Some(Ok(s)) if (s.layer, s.head, s.token) == (layer, head, token) => {
                shown(&s, mean).into_any()
            }
            Some(Err(message)) => {
                let message = tr!("speech-step-failed", message = message.as_str());
                view! { <p class="error">{message}</p> }.into_any()
            }
            _ => view! { <p class="note">{tr!("speech-step-waiting")}</p> }.into_any(),
        })
    };
    view! {
        <section id="speech-step" class="speech-step cross-step">
            <h3>{tr!("speech-step-title")}</h3>
            {body}
        </section>
    }
}
