//! "Step by step": one query token's path through one head,
//! x → q → q·k_j → ÷√d_k → + M → softmax → Σ a_j v_j → ΔE → E + ΔE,
//! every number taken from the [`HeadDetail`] the model computed (the only
//! arithmetic done here is s·scale and a_j·v_j, to show the steps between).

pub mod lines;
pub mod switches;
#[cfg(test)]
mod tests;

use crate::state::{Results, Selection};
use crate::views::common::format::{num, vector};
use crate::views::common::readout::{mask_kind, mask_name};
use attnscope::session::{HeadDetail, ModelId, RunOptions};
use leptos::prelude::*;
use lines::Lines;
use switches::{PositionLesson, ScalingLesson};

/// Entries shown before a vector is folded.
const PREVIEW: usize = 4;

/// A vector, folded behind `<details>` when it is long; the full text is
/// always in `code.full`.
#[component]
pub fn Vector(values: Vec<f32>, #[prop(into)] label: String) -> impl IntoView {
    let full = vector(&values);
    if values.len() <= PREVIEW + 2 {
        return view! {
            <code class="vec full" aria-label=label>
                {full}
            </code>
        }
        .into_any();
    }
    // Where a comma is the decimal sign, entries are parted by semicolons, as in [`vector`].
    let parted = if crate::i18n::decimal_comma() { "; " } else { ", " };
    let first = values[..PREVIEW].iter().map(|&x| num(x)).collect::<Vec<_>>().join(parted);
    let preview = tr!(
        "explain-vector-preview",
        vector = format!("[{first}{parted}… ]"),
        count = values.len()
    );
    view! {
        <details class="vec">
            <summary aria-label=tr!(
                "explain-vector-show-all",
                label = label.as_str(),
                count = values.len()
            )>
                <code>{preview}</code>
            </summary>
            <code class="full">{full}</code>
        </details>
    }
    .into_any()
}

/// What the scale factor is, in words.
pub fn scale_note(scale: f32, d_k: usize, options: &RunOptions) -> String {
    let root = (d_k.max(1) as f32).sqrt();
    let model = num(1.0 / root);
    if options.unscaled {
        if options.temperature_factor == 1.0 {
            tr!("explain-scale-unscaled", d_k = d_k, model = model)
        } else {
            let factor = num(options.temperature_factor);
            tr!("explain-scale-unscaled-temperature", factor = factor, d_k = d_k, model = model)
        }
    } else if options.temperature_factor != 1.0 {
        let factor = num(options.temperature_factor);
        tr!("explain-scale-temperature", factor = factor, d_k = d_k, model = model)
    } else if (scale * root - 1.0).abs() < 1e-4 {
        tr!("explain-scale-model", d_k = d_k)
    } else {
        tr!("explain-scale-own", d_k = d_k, model = model)
    }
}

/// How each model turns x into q, k and v (the formula lines name the extras).
/// With the three spaces that part it from the formula; none for the teaching model.
pub fn projection_note(model: ModelId) -> String {
    let note = match model {
        ModelId::Teaching => return String::new(),
        ModelId::MiniLm => tr!("explain-projection-minilm"),
        ModelId::SmolLm2 => tr!("explain-projection-smollm2"),
        ModelId::Custom => tr!("explain-projection-custom"),
        ModelId::Trace => tr!("explain-projection-trace"),
        ModelId::TranslateEnPt | ModelId::TranslatePtEn => tr!("explain-projection-translate"),
        ModelId::Whisper => tr!("explain-projection-whisper"),
    };
    format!("   {note}")
}

/// Picks the query token: a `select` and a row of token buttons.
#[component]
pub fn QueryPicker() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let query = move || sel.query(res.tokens.with(Vec::len));
    view! {
        <div class="query-picker">
            <label for="explain-query">{tr!("explain-query-token")}</label>
            <select
                id="explain-query"
                on:change=move |ev| sel.token.set(event_target_value(&ev).parse().ok())
            >
                {move || {
                    res.tokens
                        .get()
                        .into_iter()
                        .enumerate()
                        .map(|(i, t)| {
                            view! {
                                <option value=i.to_string() prop:selected=move || query() == i>
                                    {format!("{i}: {t}")}
                                </option>
                            }
                        })
                        .collect_view()
                }}
            </select>
            <div id="explain-tokens" role="group" aria-label=tr!("explain-choose-query")>
                {move || {
                    res.tokens
                        .get()
                        .into_iter()
                        .enumerate()
                        .map(|(i, t)| {
                            view! {
                                <button
                                    class="explain-token"
                                    aria-pressed=move || (query() == i).to_string()
                                    on:click=move |_| sel.token.set(Some(i))
                                >
                                    {t}
                                </button>
                            }
                        })
                        .collect_view()
                }}
            </div>
        </div>
    }
}

/// The whole trace for `detail` and query row `i` (already checked in range).
fn steps(
    d: &HeadDetail,
    tokens: &[String],
    i: usize,
    options: &RunOptions,
    model: ModelId,
) -> impl IntoView {
    let (n_q, n_k) = (d.weights.rows, d.weights.cols);
    let offset = n_k.saturating_sub(n_q); // queries are the last rows when keys outnumber them
    let token = |j: usize| tokens.get(j).cloned().unwrap_or_else(|| format!("#{j}"));
    let me = token(i + offset);
    let d_k = d.q.cols;
    let row = |m: &attnscope::Matrix, r: usize| (r < m.rows).then(|| m.row(r).to_vec());
    let x = row(&d.input, i + offset);
    let q = row(&d.q, i).unwrap_or_default();
    let scores = row(&d.scores, i).unwrap_or_default();
    let weights = row(&d.weights, i).unwrap_or_default();
    let sum: f32 = weights.iter().sum();
    let (mask_name, mask_kind) = (mask_name(d.mask), mask_kind(d.mask));
    let keys = (0..n_k)
        .map(|j| {
            let visible = d.mask.allows(i, j, n_q, n_k);
            let s = scores.get(j).copied().unwrap_or(0.0);
            let scaled = s * d.scale;
            let a = weights.get(j).copied().unwrap_or(0.0);
            let k = row(&d.k, j).unwrap_or_default();
            let v = row(&d.v, j).unwrap_or_default();
            let av: Vec<f32> = v.iter().map(|x| a * x).collect();
            let bar = format!("width: {:.2}rem", a.clamp(0.0, 1.0) * 3.0);
            view! {
                <tr class="key-row" class:hidden-key=!visible>
                    <th scope="row">{format!("{j}: {}", token(j))}</th>
                    <td class="k">
                        <Vector values=k label=tr!("explain-key-of", token = token(j)) />
                    </td>
                    <td class="score">{num(s)}</td>
                    <td class="scaled">{num(scaled)}</td>
                    <td class="mask">
                        {if visible { "0".to_string() } else { "−∞".to_string() }}
                    </td>
                    <td class="weight">
                        <span class="wbar" style=bar></span>
                        {num(a)}
                    </td>
                    <td class="v">
                        <Vector values=v label=tr!("explain-value-of", token = token(j)) />
                    </td>
                    <td class="av">
                        <Vector
                            values=av
                            label=tr!("explain-weighted-value-of", token = token(j))
                        />
                    </td>
                </tr>
            }
        })
        .collect_view();
    let z = row(&d.output, i).unwrap_or_default();
    let delta = row(&d.delta, i + offset);
    let residual = row(&d.residual, i + offset);
    let d_model = x.as_ref().map_or(0, Vec::len);
    view! {
        <p class="note" id="explain-head">
            {tr!(
                "explain-head-note",
                layer = d.layer,
                head = d.head,
                kv_head = d.kv_head,
                d_k = d_k,
                scale = num(d.scale),
                mask = mask_name.as_str(),
            )}
        </p>
        <ol class="steps">
            <li class="step" id="step-x">
                <h3>{tr!("explain-step-x", token = me.as_str())}</h3>
                <p class="formula">
                    {tr!("explain-formula-x", index = i + offset, count = d_model)}
                </p>
                {x.map(|x| view! { <Vector values=x label="x" /> })}
            </li>
            <li class="step" id="step-q">
                <h3>{tr!("explain-step-q")}</h3>
                <p class="formula">
                    {tr!(
                        "explain-formula-q",
                        from = d_model,
                        to = d_k,
                        note = projection_note(model),
                    )}
                </p>
                <Vector values=q label="q" />
            </li>
            <li class="step" id="step-scores">
                <h3>{tr!("explain-step-scores")}</h3>
                <p class="formula">"k_j = x_j · W_K     s_j = q · k_j = Σ_d q[d]·k_j[d]"</p>
                <p class="formula" id="step-scale">
                    {format!(
                        "s′_j = s_j × {}   ({})",
                        num(d.scale),
                        scale_note(d.scale, d_k, options),
                    )}
                </p>
                <p class="formula">{tr!("explain-formula-mask", mask = mask_kind)}</p>
                <p class="formula">
                    {format!("a_j = exp(s″_j) / Σ_m exp(s″_m)   (Σ_j a_j = {})", num(sum))}
                </p>
                <p class="formula">{tr!("explain-formula-v")}</p>
                <div class="table-wrap">
                    <table id="step-table">
                        <caption class="sr-only">
                            {tr!("explain-table-caption", token = me.as_str())}
                        </caption>
                        <thead>
                            <tr>
                                <th scope="col">{tr!("explain-col-key")}</th>
                                <th scope="col">"k_j"</th>
                                <th scope="col">"s_j = q·k_j"</th>
                                <th scope="col">{tr!("explain-col-scaled")}</th>
                                <th scope="col">"M_ij"</th>
                                <th scope="col">"a_j"</th>
                                <th scope="col">"v_j"</th>
                                <th scope="col">"a_j · v_j"</th>
                            </tr>
                        </thead>
                        <tbody>{keys}</tbody>
                    </table>
                </div>
            </li>
            <li class="step" id="step-z">
                <h3>{tr!("explain-step-z")}</h3>
                <p class="formula">{tr!("explain-formula-z", count = z.len())}</p>
                <Vector values=z label="z" />
            </li>
            {delta
                .map(|v| {
                    view! {
                        <li class="step" id="step-delta">
                            <h3>{tr!("explain-step-delta")}</h3>
                            <p class="formula">
                                {tr!(
                                    "explain-formula-delta",
                                    index = i + offset,
                                    count = v.len(),
                                )}
                            </p>
                            <Vector values=v label="delta E" />
                        </li>
                    }
                })}
            {residual
                .map(|v| {
                    view! {
                        <li class="step" id="step-residual">
                            <h3>{tr!("explain-step-residual")}</h3>
                            <p class="formula">
                                {tr!("explain-formula-residual", index = i + offset)}
                            </p>
                            <Vector values=v label=tr!("explain-label-residual") />
                        </li>
                    }
                })}
        </ol>
    }
}

/// `#explain`: the chosen query token through the selected head.
#[component]
pub fn StepByStep() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let body = move || {
        let toks = res.tokens.get();
        let opts = sel.options.get();
        let m = sel.model.get();
        let query = sel.query(toks.len());
        res.detail.with(|d| match d {
            None => view! { <p class="note">{tr!("explain-computing")}</p> }.into_any(),
            Some(d) if d.weights.rows == 0 => {
                view! { <p class="note">{tr!("explain-empty")}</p> }.into_any()
            }
            Some(d) => {
                // Tokens count from the first key; queries may be only the last rows.
                let offset = d.weights.cols.saturating_sub(d.weights.rows);
                let i = query.saturating_sub(offset).min(d.weights.rows - 1);
                steps(d, &toks, i, &opts, m).into_any()
            }
        })
    };
    view! { <div id="explain">{body}</div> }
}

/// The "Step by step" view: pick a query, follow it through the head.
#[component]
pub fn ExplainView() -> impl IntoView {
    view! {
        <div class="view-document" id="view-explain">
            <QueryPicker />
            <Lines />
            <ScalingLesson />
            <PositionLesson />
            <StepByStep />
        </div>
    }
}
