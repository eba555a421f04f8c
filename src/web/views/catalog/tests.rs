//! The head catalog in the browser: its table, its maps and find heads.

use crate::canvas::cell_color;
use crate::test_support::*;
use crate::url_state::DEFAULT_TEXT;
use crate::views::common::format::num;
use attnscope::session::{FromWorker, ModelId, RunOptions, Session};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;
use web_sys::{HtmlCanvasElement, HtmlElement};

#[wasm_bindgen_test]
async fn catalog_sorts_and_a_row_click_selects_the_head() {
    let root = mount_app();
    settle("tokens shown", || !token_texts(&root).is_empty()).await;
    open_tab(&root, "catalog", "#catalog").await;
    let summary = Session::new()
        .run(1, ModelId::Teaching, DEFAULT_TEXT, RunOptions::default(), &|| 0.0)
        .unwrap();
    settle("catalog filled", || {
        texts(&root, "#catalog tr.catalog-row").len() == summary.catalog.len()
    })
    .await;

    // Sorting by previous-token share puts the previous-token head first.
    click(&root, "#sort-previous");
    let best = summary
        .catalog
        .iter()
        .max_by(|a, b| a.previous_token.total_cmp(&b.previous_token))
        .unwrap();
    let first_id = || root.query_selector("#catalog tr.catalog-row").unwrap().unwrap().id();
    settle("sorted by previous token", || first_id() == format!("catalog-0-{}", best.head)).await;
    let shown = texts(&root, &format!("#catalog-0-{} td", best.head));
    assert_eq!(shown[2], num(best.previous_token));

    // Clicking a row selects its head everywhere.
    click(&root, "#catalog-0-3");
    let head: web_sys::HtmlSelectElement = find(&root, "select#head");
    settle("head 3 selected", || head.value() == "3").await;
    assert_eq!(
        find::<HtmlElement>(&root, "#catalog-0-3").get_attribute("aria-current").as_deref(),
        Some("true")
    );
    root.remove();
}

/// The catalog's maps: one cell per head, coloured by the measure, and a
/// click on a cell selects that head.
#[wasm_bindgen_test]
async fn catalog_maps_colour_each_head_by_its_measure_and_select_on_click() {
    use crate::views::catalog::{scale_of, Column};
    let root = mount_app();
    settle("tokens shown", || !token_texts(&root).is_empty()).await;
    open_tab(&root, "catalog", "canvas#map-previous").await;
    let summary = Session::new()
        .run(1, ModelId::Teaching, DEFAULT_TEXT, RunOptions::default(), &|| 0.0)
        .unwrap();
    let canvas: HtmlCanvasElement = find(&root, "canvas#map-previous");
    settle("map drawn", || cells(&canvas).is_some()).await;
    let (lo, hi) = scale_of(Column::Previous, &summary.catalog);
    for s in &summary.catalog {
        let want = cell_color((s.previous_token - lo) / (hi - lo));
        assert_eq!(
            pixel_in(&root, "canvas#map-previous", s.layer, s.head),
            want,
            "head {} of the previous-token map",
            s.head
        );
    }
    let c = cells(&canvas).unwrap();
    mouse(
        canvas.unchecked_ref(),
        "click",
        "MouseEvent",
        c.left + 4.5 * c.cell,
        c.top + 0.5 * c.cell,
    );
    let head: web_sys::HtmlSelectElement = find(&root, "select#head");
    settle("head 4 selected from the map", || head.value() == "4").await;
    root.remove();
}

#[wasm_bindgen_test]
async fn find_heads_ranks_heads_in_the_worker() {
    let root = mount_app();
    settle("tokens shown", || !token_texts(&root).is_empty()).await;
    open_tab(&root, "catalog", "select#find-key option").await;
    let (mut s, _) = engine_head(DEFAULT_TEXT, RunOptions::default(), 0);
    let FromWorker::Heads { heads, .. } =
        s.handle(attnscope::session::ToWorker::FindHeads { id: 1, query: 3, key: 1 }, &|| 0.0)
    else {
        panic!("no ranking")
    };
    choose(&root, "select#find-query", "3");
    choose(&root, "select#find-key", "1");
    click(&root, "#find-heads");
    let want: Vec<String> = heads
        .iter()
        .take(10)
        .map(|m| format!("L{} · H{}: {}", m.layer, m.head, num(m.weight)))
        .collect();
    settle("ranking shown", || texts(&root, "#found-heads li") == want).await;
    root.remove();
}
