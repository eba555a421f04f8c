//! The lesson's notions on the picture (`#image-steps`): the chosen query
//! (a patch or a special token) and its vector q; the keys, every token
//! with a vector k; and, for the key the query weighs most, the score
//! q·k, its scale and the softmax's weight — the tint that key's patch
//! shows. The numbers are the head's own (a trace without queries and keys
//! gives the weight alone).

use crate::state::{Results, Selection};
use crate::views::common::format::fixed;
use attnscope::trace::PatchGrid;
use leptos::prelude::*;

/// One numbered line.
fn step(n: usize, what: String, text: String) -> impl IntoView {
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
                tr!("image-step-query", query = describe(q), dims = d.q.cols)
            } else {
                tr!("image-step-query-none", query = describe(q))
            };
            let keys_text =
                tr!("image-step-keys", n = n, patches = grid.patches(), specials = specials);
            let weight = row[key];
            let score_text = if has_qk {
                let s = d.scores[(q, key)];
                tr!(
                    "image-step-weight",
                    key = describe(key),
                    score = fixed(s as f64, 3),
                    scale = fixed(d.scale as f64, 3),
                    dims = d.q.cols,
                    scaled = fixed((s * d.scale) as f64, 3),
                    n = n,
                    weight = fixed(weight as f64, 4),
                )
            } else {
                tr!(
                    "image-step-weight-plain",
                    key = describe(key),
                    weight = fixed(weight as f64, 4)
                )
            };
            Some(view! {
                <ol class="image-steps" id="image-steps" aria-label=tr!("image-steps-aria")>
                    {step(1, tr!("image-step-query-label"), query_text)}
                    {step(2, tr!("image-step-keys-label"), keys_text)}
                    {step(3, tr!("image-step-weight-label"), score_text)}
                </ol>
            })
        })
    };
    view! { {lines} }
}
