//! `#readout`: the numbers of the cell under the pointer, or of the one last
//! clicked or tapped — on a phone, where nothing hovers, a tap shows them.

use crate::state::{Results, Selection};
use attnscope::attention::Mask;
use attnscope::session::HeadDetail;
use leptos::prelude::*;

/// The sentence describing cell (query token, key token) of the grid with `mask`.
pub fn describe(
    d: &HeadDetail,
    tokens: &[String],
    query: usize,
    key: usize,
    mask: Mask,
) -> Option<String> {
    let offset = d.weights.cols.saturating_sub(d.weights.rows);
    let i = query.checked_sub(offset).filter(|&i| i < d.weights.rows)?;
    if key >= d.weights.cols {
        return None;
    }
    let word = |t: usize| tokens.get(t).cloned().unwrap_or_default();
    let weights = if mask == d.mask { &d.weights } else { &d.what_if_weights };
    // A trace file without queries and keys has weights only.
    if d.scores.shape() != d.weights.shape() {
        return Some(format!(
            "“{}” → “{}”: weight {:.4}",
            word(query),
            word(key),
            d.weights[(i, key)]
        ));
    }
    let score = d.scores[(i, key)];
    let what_if = if mask == d.mask { "" } else { " (what-if mask)" };
    let head = format!("“{}” → “{}”{what_if}: ", word(query), word(key));
    Some(if mask.allows(i, key, d.weights.rows, d.weights.cols) {
        format!(
            "{head}weight {:.4} · raw score q·k {:.3} · scaled {:.3}",
            weights[(i, key)],
            score,
            score * d.scale
        )
    } else {
        format!(
            "{head}hidden by the {} mask (score −∞, weight 0) · raw score q·k {score:.3}",
            mask.name()
        )
    })
}

#[component]
pub fn Readout() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let text = move || {
        let cell = sel.cell()?;
        res.detail.with(|d| {
            let d = d.as_ref()?;
            res.tokens.with(|t| describe(d, t, cell.query, cell.key, cell.mask.unwrap_or(d.mask)))
        })
    };
    view! {
        <p class="readout" id="readout">
            {move || {
                text()
                    .unwrap_or_else(|| {
                        "Point at a cell, or tap it, to read its weight and raw score.".to_string()
                    })
            }}
        </p>
    }
}
