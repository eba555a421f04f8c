//! The step shown: `#write-bars`, its ten most likely tokens after the
//! temperature with the top-k / top-p cut and the token chosen, and
//! `#write-cache`, what the step computed and what the key/value cache gave.

use crate::state::{Results, Step, Writing};
use crate::views::common::format::fixed;
use leptos::prelude::*;

/// A probability as a percentage (in the page's decimal sign).
fn pct(p: f32) -> String {
    format!("{}%", fixed((p * 100.0) as f64, 1))
}

/// The step the timeline shows (the latest when it shows now).
fn shown(w: Writing) -> Option<Step> {
    let at = w.at.get();
    w.steps.with(|v| match at {
        Some(s) => v.get(s.checked_sub(1)?).cloned(),
        None => v.last().cloned(),
    })
}

/// The bars of one step (plain elements, no canvas: ten rows redrawn per token).
#[component]
pub fn StepBars(step: Step) -> impl IntoView {
    let c = &step.written.choice;
    let top = c.candidates.first().map_or(1.0, |x| x.p).max(1e-6);
    let chosen_shown = c.candidates.iter().any(|x| x.id == c.id);
    let rows = c
        .candidates
        .iter()
        .zip(&step.written.candidates)
        .enumerate()
        .map(|(i, (x, text))| {
            let line = (i == c.kept && !x.kept).then(|| {
                view! {
                    <li class="cut-line" aria-hidden="true">
                        {tr!("write-cut-line")}
                    </li>
                }
            });
            let chosen = x.id == c.id;
            view! {
                {line}
                <li class:cut=!x.kept class:chosen=chosen>
                    <code>{format!("{text:?}")}</code>
                    <span class="bar" style=format!("width: {:.1}%", 100.0 * x.p / top)></span>
                    <span class="pct">{pct(x.p)}</span>
                    {chosen.then(|| view! { <span class="mark">{tr!("write-chosen-mark")}</span> })}
                </li>
            }
        })
        .collect_view();
    let kept = tr!("write-kept", tokens = c.kept, share = pct(c.kept_mass));
    let (n, token) = (step.written.step + 1, format!("{:?}", step.written.token));
    let (p, p_kept) = (pct(c.p), pct(c.p_kept));
    let chosen = match (c.draw, chosen_shown) {
        (Some(u), true) => tr!(
            "write-chosen-drawn",
            step = n,
            token = token,
            p = p,
            kept = p_kept,
            draw = fixed(u, 3)
        ),
        (Some(u), false) => tr!(
            "write-chosen-drawn-unseen",
            step = n,
            token = token,
            p = p,
            kept = p_kept,
            draw = fixed(u, 3)
        ),
        (None, _) => tr!("write-chosen", step = n, token = token, p = p, kept = p_kept),
    };
    view! {
        <div id="write-bars" class="write-bars" data-step=step.written.step + 1 data-chosen=c.id>
            <p class="chosen-note">{chosen}</p>
            <ol>{rows}</ol>
            <p class="note kept">{kept}</p>
        </div>
    }
}

#[component]
pub fn Bars() -> impl IntoView {
    let w = expect_context::<Writing>();
    move || shown(w).map(|step| view! { <StepBars step /> })
}

/// What the step shown computed (one new row of Q, K and V per head and
/// layer) and what it reused from the key/value cache.
#[component]
pub fn KvCache() -> impl IntoView {
    let w = expect_context::<Writing>();
    let res = expect_context::<Results>();
    let text = move || {
        shown(w)?;
        res.summary.with(|s| {
            let s = s.as_ref()?;
            let i = &s.info;
            let n = s.tokens.len();
            let (q, kv, layers, d) = (i.n_heads, i.n_kv_heads.max(1), i.n_layers, i.d_head);
            let earlier = n.saturating_sub(1);
            let reused = (earlier * 2 * kv * layers * d) as f64;
            let saved = 100.0 * earlier as f64 / n.max(1) as f64;
            let mut out = tr!(
                "write-cache-computed",
                token = n,
                query = q,
                kv = kv,
                layers = layers,
                earlier = earlier,
                millions = fixed(reused / 1e6, 2),
                saved = fixed(saved, 0)
            );
            if q > kv {
                out.push_str(&tr!("write-cache-grouped", query = q / kv));
            }
            Some(out)
        })
    };
    // One element, its words replaced: a token does not close it again.
    view! {
        <details id="write-cache" class="write-cache" open hidden=move || shown(w).is_none()>
            <summary>{tr!("write-cache-title")}</summary>
            <p class="note">{text}</p>
        </details>
    }
}
