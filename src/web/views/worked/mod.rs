//! Seed 003's worked example, editable: three inputs of width 4 and 4×3
//! projections. Every cell of X, W_Q, W_K and W_V is an input; Q, K, V, S,
//! A and Z are recomputed on the page through `attnscope::attention` (the
//! example is tiny). The seed divides by √4 (the width of the inputs);
//! Vaswani et al. divide by √d_k = √3: both are shown side by side.

#[cfg(test)]
mod tests;

use crate::views::common::format::num;
use attnscope::attention::{Mask, Scale};
use attnscope::models::seed::WorkedExample;
use attnscope::Matrix;
use leptos::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    X,
    Wq,
    Wk,
    Wv,
}

impl Which {
    fn slug(self) -> &'static str {
        match self {
            Which::X => "x",
            Which::Wq => "wq",
            Which::Wk => "wk",
            Which::Wv => "wv",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Which::X => "X",
            Which::Wq => "W_Q",
            Which::Wk => "W_K",
            Which::Wv => "W_V",
        }
    }

    fn get(self, e: &WorkedExample) -> &Matrix {
        match self {
            Which::X => &e.x,
            Which::Wq => &e.w_q,
            Which::Wk => &e.w_k,
            Which::Wv => &e.w_v,
        }
    }

    fn get_mut(self, e: &mut WorkedExample) -> &mut Matrix {
        match self {
            Which::X => &mut e.x,
            Which::Wq => &mut e.w_q,
            Which::Wk => &mut e.w_k,
            Which::Wv => &mut e.w_v,
        }
    }
}

/// A matrix of numbers as a table (`id`), read-only.
fn matrix_table(id: String, caption: String, m: &Matrix) -> impl IntoView {
    view! {
        <table class="matrix" id=id>
            <caption>{caption}</caption>
            <tbody>
                {(0..m.rows)
                    .map(|i| {
                        view! {
                            <tr>
                                {m
                                    .row(i)
                                    .iter()
                                    .map(|&v| view! { <td>{num(v)}</td> })
                                    .collect_view()}
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}

/// An editable matrix: one number input per cell (`#worked-<slug>-<i>-<j>`).
#[component]
fn EditableMatrix(
    which: Which,
    example: ReadSignal<WorkedExample>,
    set_example: WriteSignal<WorkedExample>,
) -> impl IntoView {
    let (rows, cols) = example.with_untracked(|e| which.get(e).shape());
    view! {
        <table class="matrix editable" id=format!("worked-{}", which.slug())>
            <caption>{format!("{} ({rows}×{cols})", which.name())}</caption>
            <tbody>
                {(0..rows)
                    .map(|i| {
                        view! {
                            <tr>
                                {(0..cols)
                                    .map(|j| {
                                        view! {
                                            <td>
                                                <input
                                                    type="number"
                                                    step="any"
                                                    id=format!("worked-{}-{i}-{j}", which.slug())
                                                    aria-label=tr!(
                                                        "worked-cell-label",
                                                        matrix = which.name(),
                                                        row = i + 1,
                                                        column = j + 1,
                                                    )
                                                    prop:value=move || {
                                                        example
                                                            .with(|e| {
                                                                let m = which.get(e);
                                                                if i < m.rows && j < m.cols {
                                                                    m[(i, j)].to_string()
                                                                } else {
                                                                    String::new()
                                                                }
                                                            })
                                                    }
                                                    on:input=move |ev| {
                                                        if let Ok(v) = event_target_value(&ev).trim().parse::<f32>()
                                                        {
                                                            if v.is_finite() {
                                                                set_example
                                                                    .update(|e| {
                                                                        let m = which.get_mut(e);
                                                                        if i < m.rows && j < m.cols {
                                                                            m[(i, j)] = v;
                                                                        }
                                                                    });
                                                            }
                                                        }
                                                    }
                                                />
                                            </td>
                                        }
                                    })
                                    .collect_view()}
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}

/// `#worked`: the editable seed-003 example.
#[component]
pub fn WorkedExampleView() -> impl IntoView {
    let (example, set_example) = signal(WorkedExample::seed_3x4());
    let results = move || {
        example.with(|e| {
            let seed = e.run(Mask::None, e.seed_scale());
            let standard = e.run(Mask::None, Scale::InvSqrtDk);
            let d_x = e.x.cols;
            let d_k = e.w_q.cols;
            view! {
                <div class="matrices">
                    {matrix_table("worked-q".into(), "Q = X W_Q".into(), &seed.q)}
                    {matrix_table("worked-k".into(), "K = X W_K".into(), &seed.k)}
                    {matrix_table("worked-v".into(), "V = X W_V".into(), &seed.v)}
                    {matrix_table("worked-s".into(), "S = Q Kᵀ".into(), &seed.head.scores)}
                </div>
                <div class="side-by-side">
                    <div id="worked-seed">
                        <h3>{tr!("worked-seed-heading", width = d_x)}</h3>
                        {matrix_table(
                            "worked-seed-scaled".into(),
                            format!("S / √{d_x}"),
                            &seed.head.scaled(),
                        )}
                        {matrix_table(
                            "worked-seed-a".into(),
                            "A = softmax(S / √d_x)".into(),
                            &seed.head.weights,
                        )}
                        {matrix_table("worked-seed-z".into(), "Z = A V".into(), &seed.head.output)}
                    </div>
                    <div id="worked-standard">
                        <h3>{format!("Vaswani et al.: ÷ √d_k = √{d_k}")}</h3>
                        {matrix_table(
                            "worked-standard-scaled".into(),
                            format!("S / √{d_k}"),
                            &standard.head.scaled(),
                        )}
                        {matrix_table(
                            "worked-standard-a".into(),
                            "A = softmax(S / √d_k)".into(),
                            &standard.head.weights,
                        )}
                        {matrix_table(
                            "worked-standard-z".into(),
                            "Z = A V".into(),
                            &standard.head.output,
                        )}
                    </div>
                </div>
            }
        })
    };
    view! {
        <div id="worked">
            <p class="note">{tr!("worked-note")}</p>
            <div class="matrices">
                <EditableMatrix which=Which::X example set_example />
                <EditableMatrix which=Which::Wq example set_example />
                <EditableMatrix which=Which::Wk example set_example />
                <EditableMatrix which=Which::Wv example set_example />
            </div>
            <button id="worked-reset" on:click=move |_| set_example.set(WorkedExample::seed_3x4())>
                {tr!("worked-reset")}
            </button>
            {results}
        </div>
    }
}
