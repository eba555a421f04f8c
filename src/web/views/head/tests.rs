//! The Heatmap tab in the browser: each head, each stage and a second
//! sentence drawn from the model's numbers, and a click on a cell.

use crate::canvas::cell_color;
use crate::test_support::*;
use crate::url_state::DEFAULT_TEXT;
use attnscope::models::teaching::TeachingModel;
use attnscope::session::RunOptions;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;
use web_sys::{HtmlCanvasElement, HtmlElement, HtmlTextAreaElement};

#[wasm_bindgen_test]
async fn choosing_a_head_draws_that_head() {
    let root = mount_app();
    let expected = TeachingModel::new().run(DEFAULT_TEXT).unwrap();
    settle("heatmap drawn", || heatmap_fits(&root, &expected.tokens)).await;

    let select: web_sys::HtmlSelectElement = find(&root, "select#head");
    assert_eq!(select.length() as usize, expected.layers[0].attention.heads.len());
    select.set_value("1");
    fire(&select, "change");

    // Wait for the redraw at the cell where heads 0 and 1 differ most.
    let (head_0, head_1) = (expected.weights(0, 0).unwrap(), expected.weights(0, 1).unwrap());
    let differs = |&(i, j): &(usize, usize)| (head_0[(i, j)] - head_1[(i, j)]).abs();
    let cells = (0..head_1.rows).flat_map(|i| (0..head_1.cols).map(move |j| (i, j)));
    let (i, j) = cells.max_by(|a, b| differs(a).total_cmp(&differs(b))).unwrap();
    assert_ne!(cell_color(head_0[(i, j)]), cell_color(head_1[(i, j)]), "heads 0 and 1 look alike");
    settle("head 1 drawn", || pixel_at_cell(&root, i, j) == cell_color(head_1[(i, j)])).await;
    assert_heatmap_shows(&root, &expected.tokens, &head_1);
    root.remove();
}

#[wasm_bindgen_test]
async fn a_second_sentence_is_drawn_beside_the_first_for_the_same_head() {
    let root = mount_app();
    let first = TeachingModel::new().run(DEFAULT_TEXT).unwrap();
    settle("heatmap drawn", || heatmap_fits(&root, &first.tokens)).await;
    choose(&root, "select#head", "1");
    let head_1 = first.weights(0, 1).unwrap();
    settle("head 1 drawn", || {
        (0..head_1.rows).all(|i| {
            (0..head_1.cols).all(|j| pixel_at_cell(&root, i, j) == cell_color(head_1[(i, j)]))
        })
    })
    .await;

    let text = "the verdant forest roamed a fluffy blue creature";
    let other = TeachingModel::new().run(text).unwrap();
    let area: HtmlTextAreaElement = find(&root, "textarea#compare-text");
    type_into(&area, text);
    let a = other.weights(0, 1).unwrap();
    settle("second map drawn", || map_fits(&root, "canvas#compare-heatmap", other.tokens.len()))
        .await;
    settle("head 1 of the other sentence", || {
        (0..a.rows).all(|i| {
            (0..a.cols)
                .all(|j| pixel_in(&root, "canvas#compare-heatmap", i, j) == cell_color(a[(i, j)]))
        })
    })
    .await;
    // The main map still shows the first sentence.
    settle("the main map redrawn beside it", || heatmap_fits(&root, &first.tokens)).await;
    assert_heatmap_shows(&root, &first.tokens, &first.weights(0, 1).unwrap());

    // Emptying the box hides the comparison.
    type_into(&area, "");
    settle("comparison hidden", || {
        find::<HtmlElement>(&root, "figure.compare").has_attribute("hidden")
    })
    .await;
    root.remove();
}

/// A click on a heatmap cell describes it in the readout (its weight and raw
/// score, from the model) and chooses its query token in every view.
#[wasm_bindgen_test]
async fn a_click_on_a_cell_reads_it_out_and_chooses_its_query_everywhere() {
    let root = mount_app();
    let expected = TeachingModel::new().run(DEFAULT_TEXT).unwrap();
    settle("heatmap drawn", || heatmap_fits(&root, &expected.tokens)).await;
    let (_, d) = engine_head(DEFAULT_TEXT, RunOptions::default(), 0);
    let canvas: HtmlCanvasElement = find(&root, "canvas#heatmap");
    let c = cells(&canvas).unwrap();
    let (i, j) = (3, 1); // "creature" → "fluffy"
    mouse(
        canvas.unchecked_ref(),
        "click",
        "MouseEvent",
        c.left + (j as f64 + 0.5) * c.cell,
        c.top + (i as f64 + 0.5) * c.cell,
    );
    let want = format!(
        "“creature” → “fluffy”: weight {:.4} · raw score q·k {:.3} · scaled {:.3}",
        d.weights[(i, j)],
        d.scores[(i, j)],
        d.scores[(i, j)] * d.scale
    );
    settle("the readout describes the cell", || text_of(&root, "#readout") == want).await;
    settle("the heatmap outlines “creature”", || {
        canvas.get_attribute("data-token").as_deref() == Some("3")
    })
    .await;
    assert_eq!(
        find::<HtmlElement>(&root, "#tokens li:nth-child(4) .token")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );

    // The dot grids and the step-by-step view follow the same token.
    open_tab(&root, "grid", "canvas#grid-causal").await;
    let grid: HtmlCanvasElement = find(&root, "canvas#grid-causal");
    settle("the grid outlines “creature”", || {
        grid.get_attribute("data-token").as_deref() == Some("3")
    })
    .await;
    open_tab(&root, "explain", "select#explain-query option").await;
    settle("step by step follows “creature”", || {
        find::<web_sys::HtmlSelectElement>(&root, "select#explain-query").value() == "3"
    })
    .await;
    root.remove();
}

/// Each step of the computation, picked by hand, is drawn from the head's
/// numbers: the scores in the diverging colours against the largest |score|,
/// the mask's −∞ in grey, the weights in viridis.
#[wasm_bindgen_test]
async fn the_heatmap_draws_each_stage_from_the_heads_numbers() {
    use crate::canvas::signed_color;
    use crate::views::common::stages::score_range;
    let root = mount_at("?stage=scores");
    let expected = TeachingModel::new().run(DEFAULT_TEXT).unwrap();
    settle("heatmap drawn", || heatmap_fits(&root, &expected.tokens)).await;
    let (_, d) = engine_head(DEFAULT_TEXT, RunOptions::default(), 0);
    let range = score_range(&d);
    let n = d.scores.rows;
    let shows = |f: &dyn Fn(usize, usize) -> [u8; 3]| {
        (0..n).all(|i| (0..n).all(|j| pixel_at_cell(&root, i, j) == f(i, j)))
    };
    settle("raw scores drawn", || shows(&|i, j| signed_color(d.scores[(i, j)], range))).await;
    click(&root, ".stage[data-stage=scaled]");
    settle("scaled scores drawn", || {
        shows(&|i, j| signed_color(d.scores[(i, j)] * d.scale, range))
    })
    .await;
    settle("the URL keeps the stage", || {
        web_sys::window().unwrap().location().search().unwrap().contains("stage=scaled")
    })
    .await;
    click(&root, ".stage[data-stage=weights]");
    settle("weights drawn", || shows(&|i, j| cell_color(d.weights[(i, j)]))).await;
    root.remove();
}
