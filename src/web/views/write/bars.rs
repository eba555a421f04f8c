//! The step shown: `#write-bars`, its ten most likely tokens after the
//! temperature with the top-k / top-p cut and the token chosen, and
//! `#write-cache`, what the step computed and what the key/value cache gave.

use crate::state::{Results, Step, Writing};
use leptos::prelude::*;

/// A probability as a percentage.
fn pct(p: f32) -> String {
    format!("{:.1}%", p * 100.0)
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
                        "cut: the rest are left out"
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
                    {chosen.then(|| view! { <span class="mark">"◀ chosen"</span> })}
                </li>
            }
        })
        .collect_view();
    let kept = format!(
        "kept {} token{}, {} of the probability, renormalized",
        c.kept,
        if c.kept == 1 { "" } else { "s" },
        pct(c.kept_mass)
    );
    let chosen = format!(
        "Step {}: chose {:?}, {} after temperature, {} renormalized{}",
        step.written.step + 1,
        step.written.token,
        pct(c.p),
        pct(c.p_kept),
        match (c.draw, chosen_shown) {
            (Some(u), true) => format!(" (draw {u:.3})"),
            (Some(u), false) => format!(" (draw {u:.3}; not among the ten shown)"),
            (None, _) => String::new(),
        }
    );
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
            let reused = (n.saturating_sub(1) * 2 * kv * layers * d) as f64;
            let saved = 100.0 * n.saturating_sub(1) as f64 / n.max(1) as f64;
            let mut out = format!(
                "Token {n} computed one new row of Q in each of {q} query heads and one new row of K and V in each of {kv} key/value heads, in each of {layers} layers. Reused: the {} earlier K and V rows of every key/value head in every layer, {:.2} million numbers; {saved:.0}% of the projections saved against computing all {n} rows again.",
                n.saturating_sub(1),
                reused / 1e6
            );
            if q > kv {
                out.push_str(&format!(
                    " Grouped queries: each K/V head is shared by {} query heads.",
                    q / kv
                ));
            }
            Some(out)
        })
    };
    // One element, its words replaced: a token does not close it again.
    view! {
        <details id="write-cache" class="write-cache" open hidden=move || shown(w).is_none()>
            <summary>"Key/value cache"</summary>
            <p class="note">{text}</p>
        </details>
    }
}
