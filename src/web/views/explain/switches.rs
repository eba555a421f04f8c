//! Switches that change the computation through `RunOptions`: the worker
//! recomputes, so every view (heatmap, dot grid, step by step) shows the
//! result. Scaling and temperature; positional encoding on or off; the
//! next-token temperature.

use crate::state::{Results, Selection};
use crate::views::common::format::{fixed, num, vector};
use attnscope::attention::softmax;
use attnscope::trace::ModelId;
use leptos::prelude::*;

/// The slider is log-scaled: position p ∈ [−1, 1] is the factor 10^p.
pub fn factor_of_slider(p: f64) -> f32 {
    10f64.powf(p.clamp(-1.0, 1.0)) as f32
}

pub fn slider_of_factor(f: f32) -> f64 {
    (f.max(1e-3) as f64).log10().clamp(-1.0, 1.0)
}

/// Seed 004's example scores.
const DEMO: [f32; 4] = [1.0, 2.0, 3.0, 4.0];

fn entropy_bits(row: &[f32]) -> f32 {
    -row.iter().filter(|&&p| p > 0.0).map(|&p| p * p.log2()).sum::<f32>()
}

/// `#lesson-scaling`: the temperature slider and the 1/√d_k switch.
#[component]
pub fn ScalingLesson() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let (options, tokens, detail) = (sel.options, res.tokens, res.detail);
    let factor = move || options.get().temperature_factor;
    let is_model = move || options.with(|o| o.temperature_factor == 1.0 && !o.unscaled);
    let demo = move || {
        let f = factor();
        let scaled: Vec<f32> = DEMO.iter().map(|s| s * f).collect();
        format!("softmax({}) = {}", vector(&scaled), vector(&softmax(&scaled)))
    };
    // The chosen query's row of A, as the worker recomputed it.
    let row = move || {
        let toks = tokens.get();
        detail.with(|d| {
            let d = d.as_ref().filter(|d| d.weights.rows > 0)?;
            let offset = d.weights.cols.saturating_sub(d.weights.rows);
            let i = sel.query(toks.len()).saturating_sub(offset).min(d.weights.rows - 1);
            let w = d.weights.row(i).to_vec();
            let top = w.iter().copied().fold(0.0f32, f32::max);
            let who = toks.get(i + offset).cloned().unwrap_or_default();
            Some(view! {
                <p class="note">
                    {tr!(
                        "explain-row-note",
                        token = who.as_str(),
                        top = num(top),
                        entropy = num(entropy_bits(&w)),
                        uniform = num((w.len().max(1) as f32).log2()),
                    )}
                </p>
                <ol
                    class="row-bars"
                    id="lesson-row"
                    aria-label=tr!("explain-row-label", token = who.as_str())
                >
                    {w
                        .iter()
                        .enumerate()
                        .map(|(j, &a)| {
                            view! {
                                <li>
                                    <span class="tok">
                                        {toks.get(j).cloned().unwrap_or_default()}
                                    </span>
                                    <span
                                        class="wbar"
                                        style=format!(
                                            "width: {:.1}%",
                                            (a * 100.0).clamp(0.0, 100.0),
                                        )
                                    ></span>
                                    <span class="val">{num(a)}</span>
                                </li>
                            }
                        })
                        .collect_view()}
                </ol>
            })
        })
    };
    view! {
        <fieldset class="lesson" id="lesson-scaling">
            <legend>{tr!("explain-scaling-legend")}</legend>
            <p class="note">{tr!("explain-scaling-note")}</p>
            <TemperatureSlider />
            <UnscaledSwitch />
            <p class="note" id="model-setting">
                {move || {
                    if is_model() {
                        tr!("explain-model-setting")
                    } else {
                        tr!("explain-not-model-setting")
                    }
                }}
            </p>
            <p class="formula" id="softmax-demo">
                {demo}
            </p>
            {row}
        </fieldset>
    }
}

/// `input#temperature`: multiplies the scaled scores (log scale, ×0.1 to ×10).
#[component]
pub fn TemperatureSlider() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let options = sel.options;
    let factor = move || options.get().temperature_factor;
    let is_model = move || options.with(|o| o.temperature_factor == 1.0 && !o.unscaled);
    view! {
        <div class="slider">
            <label for="temperature">{tr!("explain-multiply")}</label>
            <input
                type="range"
                id="temperature"
                min="-1"
                max="1"
                step="0.01"
                list="temperature-marks"
                aria-valuetext=move || tr!("explain-times", factor = fixed(factor() as f64, 2))
                prop:value=move || slider_of_factor(factor()).to_string()
                on:input=move |ev| {
                    let p = event_target_value(&ev).parse::<f64>().unwrap_or(0.0);
                    options.update(|o| o.temperature_factor = factor_of_slider(p));
                }
            />
            <datalist id="temperature-marks">
                <option value="0" label=tr!("explain-mark-model")></option>
            </datalist>
            <output id="temperature-value" for="temperature">
                {move || format!("×{}", fixed(factor() as f64, 2))}
            </output>
            <button
                id="temperature-reset"
                disabled=is_model
                on:click=move |_| {
                    options
                        .update(|o| {
                            o.temperature_factor = 1.0;
                            o.unscaled = false;
                        })
                }
            >
                {tr!("explain-reset")}
            </button>
        </div>
    }
}

/// `input#unscaled`: drop 1/√d_k.
#[component]
pub fn UnscaledSwitch() -> impl IntoView {
    let options = expect_context::<Selection>().options;
    view! {
        <label class="toggle">
            <input
                type="checkbox"
                id="unscaled"
                prop:checked=move || options.get().unscaled
                on:change=move |ev| options.update(|o| o.unscaled = event_target_checked(&ev))
            />
            {format!(" {}", tr!("explain-unscaled"))}
        </label>
    }
}

/// `#lesson-position`: the teaching model with or without its positional code.
#[component]
pub fn PositionLesson() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let (options, set_options, model) = (sel.options, sel.options, sel.model);
    view! {
        <fieldset class="lesson" id="lesson-position">
            <legend>{tr!("explain-position-legend")}</legend>
            <label class="toggle">
                <input
                    type="checkbox"
                    id="positional"
                    prop:checked=move || options.get().positional_encoding
                    disabled=move || model.get() != ModelId::Teaching
                    on:change=move |ev| {
                        set_options.update(|o| o.positional_encoding = event_target_checked(&ev))
                    }
                />
                {format!(" {}", tr!("explain-positional"))}
            </label>
            <p class="note">{tr!("explain-position-note")}</p>
        </fieldset>
    }
}

/// `#next-temperature`: the decoder's next-token softmax temperature.
#[component]
pub fn NextTokenTemperature() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let (options, set_options) = (sel.options, sel.options);
    let t = move || options.get().next_token_temperature;
    view! {
        <div class="slider">
            <label for="next-temperature">{tr!("explain-next-temperature")}</label>
            <input
                type="range"
                id="next-temperature"
                min="-1"
                max="1"
                step="0.01"
                aria-valuetext=move || fixed(t() as f64, 2)
                prop:value=move || slider_of_factor(t()).to_string()
                on:input=move |ev| {
                    let p = event_target_value(&ev).parse::<f64>().unwrap_or(0.0);
                    set_options.update(|o| o.next_token_temperature = factor_of_slider(p));
                }
            />
            <output for="next-temperature" id="next-temperature-value">
                {move || format!("T = {}", fixed(t() as f64, 2))}
            </output>
            <span class="note">{format!(" {}", tr!("explain-next-temperature-note"))}</span>
        </div>
    }
}
