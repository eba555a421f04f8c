//! The lesson's notions on the picture (`#image-steps`): the chosen query
//! (a patch or a special token) and its vector q; the keys, every token
//! with a vector k; and, for the key the query weighs most, the score
//! q·k, its scale and the softmax's weight — the tint that key's patch
//! shows. The numbers are the head's own (a trace without queries and keys
//! gives the weight alone).

use crate::state::{Results, Selection};
use attnscope::trace::PatchGrid;
use leptos::prelude::*;

/// One numbered line.
fn step(n: usize, what: &'static str, text: String) -> impl IntoView {
    view! {
        <li>
            <span class="step-n">{n}</span>
            <b>{what}</b>
            {text}
        </li>
    }
}

#[component]
pub fn QueryKeys(grid: PatchGrid, query: Memo<usize>) -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let describe = move |t: usize| res.tokens.with(|ts| super::token_name(grid, ts, t));
    let lines = move || {
        let q = query.get();
        let (layer, head, run) = (sel.layer.get(), sel.head.get(), res.run_id());
        res.detail.with(|d| {
            let d = d.as_ref().filter(|d| {
                Some(d.id) == run && (d.layer, d.head) == (layer, head) && q < d.weights.rows
            })?;
            let row = d.weights.row(q);
            let n = row.len();
            let key = (0..n).max_by(|&a, &b| row[a].total_cmp(&row[b]))?;
            let specials = n.saturating_sub(grid.patches());
            let has_qk = d.q.cols > 0 && d.k.cols == d.q.cols && d.scores.rows > q;
            let query_text = if has_qk {
                format!(
                    " {}: its vector q, {} numbers, asks what this token looks for.",
                    describe(q),
                    d.q.cols
                )
            } else {
                format!(" {} (the trace holds no queries and keys).", describe(q))
            };
            let keys_text = format!(
                " all {n} tokens, the {} patches and {specials} special: each offers a vector k.",
                grid.patches()
            );
            let weight = row[key];
            let score_text = if has_qk {
                let s = d.scores[(q, key)];
                format!(
                    " the key it weighs most is {}: q·k = {s:.3}, × {:.3} (1/√{}) = {:.3}; the softmax over all {n} scores gives it {weight:.4}, the tint of its patch.",
                    describe(key),
                    d.scale,
                    d.q.cols,
                    s * d.scale,
                )
            } else {
                format!(" the key it weighs most is {}, with {weight:.4}.", describe(key))
            };
            Some(view! {
                <ol class="image-steps" id="image-steps" aria-label="Query, keys and a weight">
                    {step(1, "Query:", query_text)}
                    {step(2, "Keys:", keys_text)}
                    {step(3, "Weight:", score_text)}
                </ol>
            })
        })
    };
    view! { {lines} }
}
