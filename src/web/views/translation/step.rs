//! `#cross-step`: one target word through one head of the cross-attention,
//! every number from the model: q from the decoder, each source word's k
//! from the encoder and q·k, the scale, the softmax weights, and Σ a·v.

use super::CrossChoice;
use attnscope::Matrix;
use leptos::prelude::*;

fn row(m: &Matrix, i: usize) -> String {
    (0..m.cols).map(|j| format!("{:+.2}", m[(i, j)])).collect::<Vec<_>>().join(" ")
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
                            <td>{format!("{s:+.3}")}</td>
                            <td>{format!("{:+.3}", s * t.scale)}</td>
                            <td class="weight">{format!("{a:.4}")}</td>
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
                <div class="chips" role="group" aria-label="Target word">
                    {words}
                </div>
                <p class="translate-caption">
                    {format!(
                        "“{}”, decoder layer {}, head {}{}: q comes from the decoder (this word, after its SSRU), k and v from the encoder's output for each source word.",
                        word(&t.target_tokens[i]),
                        l + 1,
                        h + 1,
                        if choice.layer.get().is_none() || choice.head.get().is_none() {
                            " (step by step follows one head: pick a layer and head above)"
                        } else {
                            ""
                        },
                    )}
                </p>
                <p class="vector">
                    <span class="name">"q = "</span>
                    <code>{row(&c.q, i)}</code>
                </p>
                <table class="cross-step-table">
                    <thead>
                        <tr>
                            <th>"source word j"</th>
                            <th>"q·k_j"</th>
                            <th>{format!("× 1/√d_k = × {:.4}", t.scale)}</th>
                            <th>"a_j = softmax"</th>
                            <th></th>
                        </tr>
                    </thead>
                    <tbody>{sources}</tbody>
                </table>
                <p>
                    {format!(
                        "Σ a_j = {sum:.4} (no mask: every source word is visible to every target word).",
                    )}
                </p>
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
