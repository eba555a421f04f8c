//! `#readout`: the numbers of the cell under the pointer, or of the one last
//! clicked or tapped — on a phone, where nothing hovers, a tap shows them.

use super::format::fixed;
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
    let (q, k) = (word(query), word(key));
    let (q, k) = (q.as_str(), k.as_str());
    let weights = if mask == d.mask { &d.weights } else { &d.what_if_weights };
    // A trace file without queries and keys has weights only.
    if d.scores.shape() != d.weights.shape() {
        let weight = fixed(d.weights[(i, key)] as f64, 4);
        return Some(tr!("common-readout-weight-only", query = q, key = k, weight = weight));
    }
    let score = d.scores[(i, key)];
    let raw = fixed(score as f64, 3);
    let what_if = mask != d.mask;
    Some(if mask.allows(i, key, d.weights.rows, d.weights.cols) {
        let weight = fixed(weights[(i, key)] as f64, 4);
        let scaled = fixed((score * d.scale) as f64, 3);
        if what_if {
            tr!(
                "common-readout-visible-what-if",
                query = q,
                key = k,
                weight = weight,
                score = raw,
                scaled = scaled
            )
        } else {
            tr!(
                "common-readout-visible",
                query = q,
                key = k,
                weight = weight,
                score = raw,
                scaled = scaled
            )
        }
    } else {
        let kind = mask_kind(mask);
        if what_if {
            tr!("common-readout-hidden-what-if", query = q, key = k, mask = kind, score = raw)
        } else {
            tr!("common-readout-hidden", query = q, key = k, mask = kind, score = raw)
        }
    })
}

/// Which mask, as a Fluent selector (`{ $mask -> [causal] … *[window] … }`): messages that
/// name the mask in a sentence choose their own words for it.
pub fn mask_kind(mask: Mask) -> &'static str {
    match mask {
        Mask::None => "none",
        Mask::Causal => "causal",
        Mask::SlidingWindow(_) => "window",
    }
}

/// The mask's name on its own (`mask: causal`).
pub fn mask_name(mask: Mask) -> String {
    match mask {
        Mask::None => tr!("common-mask-none"),
        Mask::Causal => tr!("common-mask-causal"),
        Mask::SlidingWindow(_) => tr!("common-mask-window"),
    }
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
            {move || { text().unwrap_or_else(|| tr!("common-readout-empty")) }}
        </p>
    }
}
