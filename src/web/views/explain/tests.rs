//! Step by step in the browser: the engine's numbers, the lessons'
//! switches and the lines.

use crate::test_support::*;
use crate::url_state::DEFAULT_TEXT;
use crate::views::common::format::{num, vector};
use attnscope::session::RunOptions;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;
use web_sys::{HtmlCanvasElement, HtmlElement};

/// The numbers of the step view's weight column.
fn shown_weights(root: &HtmlElement) -> Vec<f32> {
    texts(root, "#step-table tr.key-row td.weight")
        .iter()
        .map(|t| t.trim().parse::<f32>().unwrap_or(f32::NAN))
        .collect()
}

#[wasm_bindgen_test]
async fn step_by_step_shows_the_engines_numbers() {
    let root = mount_app();
    settle("tokens shown", || !token_texts(&root).is_empty()).await;
    open_tab(&root, "explain", "select#explain-query option").await;
    let i = 3; // "creature"
    choose(&root, "select#explain-query", &i.to_string());
    settle("the step view follows “creature”", || {
        root.query_selector("#step-x .formula")
            .ok()
            .flatten()
            .is_some_and(|e| e.text_content().unwrap_or_default().contains("E[3]"))
    })
    .await;

    let (_, d) = engine_head(DEFAULT_TEXT, RunOptions::default(), 0);
    assert_eq!(text_of(&root, "#step-x .full"), vector(d.input.row(i)));
    assert_eq!(text_of(&root, "#step-q .full"), vector(d.q.row(i)));
    assert_eq!(text_of(&root, "#step-z .full"), vector(d.output.row(i)));
    assert_eq!(text_of(&root, "#step-delta .full"), vector(d.delta.row(i)));
    assert_eq!(text_of(&root, "#step-residual .full"), vector(d.residual.row(i)));
    let scale = text_of(&root, "#step-scale");
    assert!(scale.contains(&num(d.scale)) && scale.contains("1/√12"), "scale line: {scale:?}");

    let n = d.weights.cols;
    let col = |c: &str| texts(&root, &format!("#step-table tr.key-row td.{c}"));
    assert_eq!(col("score"), (0..n).map(|j| num(d.scores[(i, j)])).collect::<Vec<_>>());
    assert_eq!(col("scaled"), (0..n).map(|j| num(d.scores[(i, j)] * d.scale)).collect::<Vec<_>>());
    assert_eq!(col("mask"), vec!["0".to_string(); n]);
    assert_eq!(col("weight"), (0..n).map(|j| num(d.weights[(i, j)])).collect::<Vec<_>>());
    assert_eq!(
        texts(&root, "#step-table tr.key-row td.k .full"),
        (0..n).map(|j| vector(d.k.row(j))).collect::<Vec<_>>()
    );
    let weighted: Vec<String> = (0..n)
        .map(|j| vector(&d.v.row(j).iter().map(|v| d.weights[(i, j)] * v).collect::<Vec<_>>()))
        .collect();
    assert_eq!(texts(&root, "#step-table tr.key-row td.av .full"), weighted);

    // Clicking a token button moves the query, and the URL keeps it.
    select_all(&root, "#explain-tokens button")[5]
        .clone()
        .dyn_into::<HtmlElement>()
        .unwrap()
        .click();
    settle("the step view follows token 5", || {
        text_of(&root, "#step-q .full") == vector(d.q.row(5))
    })
    .await;
    settle("the URL keeps the token", || {
        web_sys::window().unwrap().location().search().unwrap().contains("token=5")
    })
    .await;

    // Another head of the same layer: its own Q, and the layer's E, ΔE and E + ΔE,
    // which the page keeps from the head before (the reply leaves them out).
    let (_, d1) = engine_head(DEFAULT_TEXT, RunOptions::default(), 1);
    choose(&root, "select#head", "1");
    settle("head 1's q", || text_of(&root, "#step-q .full") == vector(d1.q.row(5))).await;
    assert_ne!(d1.q.row(5), d.q.row(5));
    assert_eq!(text_of(&root, "#step-x .full"), vector(d1.input.row(5)));
    assert_eq!(text_of(&root, "#step-delta .full"), vector(d1.delta.row(5)));
    assert_eq!(text_of(&root, "#step-residual .full"), vector(d1.residual.row(5)));
    root.remove();
}

#[wasm_bindgen_test]
async fn temperature_slider_rescales_the_scores_as_the_formula_says() {
    let root = mount_app();
    settle("tokens shown", || !token_texts(&root).is_empty()).await;
    open_tab(&root, "explain", "select#explain-query option").await;
    let (_, base) = engine_head(DEFAULT_TEXT, RunOptions::default(), 0);
    let i = 3; // "creature": its scores differ, so a factor changes its row
    choose(&root, "select#explain-query", &i.to_string());
    settle("weights of “creature” shown", || {
        shown_weights(&root).len() == base.weights.cols
            && text_of(&root, "#step-q .full") == vector(base.q.row(i))
    })
    .await;
    assert!(text_of(&root, "#model-setting").starts_with('★'));

    // Slider at +1 is ×10: A = softmax(S · (1/√d_k) · 10).
    let slider: web_sys::HtmlInputElement = find(&root, "input#temperature");
    slider.set_value("1");
    fire(&slider, "input");
    settle("the factor shown", || text_of(&root, "#temperature-value") == "×10.00").await;
    let want = attnscope::attention::softmax(
        &base.scores.row(i).iter().map(|s| s * base.scale * 10.0).collect::<Vec<_>>(),
    );
    let close = |got: &[f32]| {
        got.len() == want.len() && got.iter().zip(&want).all(|(g, w)| (g - w).abs() < 1e-3)
    };
    settle("weights sharpened by ×10", || close(&shown_weights(&root))).await;
    assert!(text_of(&root, "#step-scale").contains(&num(base.scale * 10.0)));
    assert!(!text_of(&root, "#model-setting").starts_with('★'));
    // The row sharpened: its largest weight grew.
    let top = |w: &[f32]| w.iter().copied().fold(0.0f32, f32::max);
    assert!(top(&want) > top(base.weights.row(i)));
    // The lesson's setting is in the URL, once the slider rests.
    settle("the URL keeps the factor", || {
        web_sys::window().unwrap().location().search().unwrap().contains("temp=10.000")
    })
    .await;

    // Dropping 1/√d_k (at factor 1) feeds the raw scores to the softmax.
    click(&root, "#temperature-reset");
    settle("back to the model", || text_of(&root, "#model-setting").starts_with('★')).await;
    let unscaled: web_sys::HtmlInputElement = find(&root, "input#unscaled");
    unscaled.set_checked(true);
    fire(&unscaled, "change");
    let want = attnscope::attention::softmax(base.scores.row(i));
    settle("raw scores through the softmax", || {
        let got = shown_weights(&root);
        got.len() == want.len() && got.iter().zip(&want).all(|(g, w)| (g - w).abs() < 1e-3)
    })
    .await;
    assert!(text_of(&root, "#step-scale").starts_with("s′_j = s_j × 1.0000"));
    root.remove();
}

#[wasm_bindgen_test]
async fn positional_switch_recomputes_without_position() {
    let root = mount_app();
    settle("tokens shown", || !token_texts(&root).is_empty()).await;
    open_tab(&root, "explain", "input#positional").await;
    choose(&root, "select#explain-query", "0");
    let (_, off) = engine_head(
        DEFAULT_TEXT,
        RunOptions { positional_encoding: false, ..Default::default() },
        0,
    );
    let positional: web_sys::HtmlInputElement = find(&root, "input#positional");
    positional.set_checked(false);
    fire(&positional, "change");
    settle("x without its positional code", || {
        text_of(&root, "#step-x .full") == vector(off.input.row(0))
    })
    .await;
    root.remove();
}

#[wasm_bindgen_test]
async fn lines_view_draws_every_token_and_a_click_chooses_the_query() {
    let root = mount_app();
    settle("tokens shown", || !token_texts(&root).is_empty()).await;
    open_tab(&root, "explain", "canvas#lines").await;
    let n = token_texts(&root).len();
    let canvas: HtmlCanvasElement = find(&root, "canvas#lines");
    let dpr = web_sys::window().unwrap().device_pixel_ratio().max(1.0);
    let row = || canvas.get_attribute("data-row").and_then(|r| r.parse::<f64>().ok());
    settle("lines drawn", || {
        row().is_some_and(|r| canvas.height() == ((n as f64 * r + 8.0) * dpr).round() as u32)
    })
    .await;

    // A click on the third word on the left follows it.
    mouse(canvas.unchecked_ref(), "click", "MouseEvent", 10.0, 4.0 + 2.5 * row().unwrap());
    let select: web_sys::HtmlSelectElement = find(&root, "select#explain-query");
    settle("query 2 chosen", || select.value() == "2").await;
    assert_eq!(canvas.get_attribute("data-query").as_deref(), Some("2"));
    root.remove();
}
