//! `#cross-step`: one target word through one head of the cross-attention,
//! every number from the model: q from the decoder, each source word's k
//! from the encoder and q·k, the scale, the softmax weights, and Σ a·v.

use super::CrossChoice;
use crate::views::common::format::{fixed, signed};
use attnscope::Matrix;
use leptos::prelude::*;

fn row(m: &Matrix, i: usize) -> String {
    (0..m.cols).map(|j| signed(m[(i, j)], 2)).collect::<Vec<_>>().join(" ")
}

fn word(piece: &str) -> String {
    piece.replace('▁', " ").trim().to_string()
}

#[component]
pub fn CrossStep() -> impl IntoView {
    let choice = expect_context::<CrossChoice>();
    let body = move || {
        choice.summary.with(|t| {
            let t = t.as_ref()?;
            let rows = choice.rows(t);
            // A step shows one head: the chosen one, else the first.
            let (l, h) = (choice.layer.get().unwrap_or(0), choice.head.get().unwrap_or(0));
            let c = t.heads.get(l)?.get(h)?;
            let i = choice.target.get().filter(|&i| i < rows).unwrap_or(0);
            if i >= c.q.rows {
                return None;
            }
            let words = t
                .target_tokens
                .iter()
                .take(rows)
                .enumerate()
                .map(|(k, p)| {
                    view! {
                        <button
                            class="chip"
                            class:chosen=k == i
                            aria-pressed=(k == i).to_string()
                            on:click=move |_| choice.target.set(Some(k))
                        >
                            {word(p)}
                        </button>
                    }
                })
                .collect_view();
            let sources = (0..c.k.rows)
                .map(|j| {
                    let (s, a) = (c.scores[(i, j)], c.weights[(i, j)]);
                    view! {
                        <tr>
                            <th scope="row">{word(&t.source_tokens[j])}</th>
                            <td>{signed(s, 3)}</td>
                            <td>{signed(s * t.scale, 3)}</td>
                            <td class="weight">{fixed(a as f64, 4)}</td>
                            <td class="bar-cell">
                                <span
                                    class="cross-bar"
                                    style=format!("width: {:.1}%", 100.0 * a)
                                ></span>
                            </td>
                        </tr>
                    }
                })
                .collect_view();
            let sum: f32 = (0..c.weights.cols).map(|j| c.weights[(i, j)]).sum();
            Some(view! {
                <div class="chips" role="group" aria-label=tr!("translation-target-word")>
                    {words}
                </div>
                <p class="translate-caption">
                    {if choice.layer.get().is_none() || choice.head.get().is_none() {
                        tr!(
                            "translation-step-caption-mean",
                            word = word(&t.target_tokens[i]),
                            layer = l + 1,
                            head = h + 1,
                        )
                    } else {
                        tr!(
                            "translation-step-caption",
                            word = word(&t.target_tokens[i]),
                            layer = l + 1,
                            head = h + 1,
                        )
                    }}
                </p>
                <p class="vector">
                    <span class="name">"q = "</span>
                    <code>{row(&c.q, i)}</code>
                </p>
                <table class="cross-step-table">
                    <thead>
                        <tr>
                            <th>{tr!("translation-step-source")}</th>
                            <th>"q·k_j"</th>
                            <th>{format!("× 1/√d_k = × {}", fixed(t.scale as f64, 4))}</th>
                            <th>"a_j = softmax"</th>
                            <th></th>
                        </tr>
                    </thead>
                    <tbody>{sources}</tbody>
                </table>
                <p>{tr!("translation-step-sum", sum = fixed(sum as f64, 4))}</p>
                <p class="vector">
                    <span class="name">"Σ a_j·v_j = "</span>
                    <code>{row(&c.output, i)}</code>
                </p>
            })
        })
    };
    view! {
        <div id="cross-step" class="cross-step">
            {body}
        </div>
    }
}
