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

/// Similar heads: every head on the map where the core places it, the list of
/// heads like the selected one, a click on a dot selecting that head, and
/// another count of groups drawn from the same distances.
#[wasm_bindgen_test]
async fn similar_heads_map_every_head_and_a_dot_selects_it() {
    use crate::views::catalog::similar::{most_like, regroup};
    let root = mount_app();
    settle("tokens shown", || !token_texts(&root).is_empty()).await;
    open_tab(&root, "catalog", "#similar").await;
    let mut s = Session::new();
    s.run(1, ModelId::Teaching, DEFAULT_TEXT, RunOptions::default(), &|| 0.0).unwrap();
    // The page's session, asked as the page asks it and run to the end.
    let ask = attnscope::session::AnalysisRequest::SimilarHeads { clusters: 2 };
    s.analyze(1, ModelId::Teaching, DEFAULT_TEXT, ask).unwrap();
    let want = std::iter::from_fn(|| s.continue_analysis(&|| 0.0))
        .find_map(|m| match m {
            FromWorker::Analysis { reply, .. } => match *reply {
                attnscope::session::AnalysisReply::SimilarHeads(map) => Some(map),
                _ => None,
            },
            _ => None,
        })
        .unwrap();
    settle("every head on the map", || select_all(&root, "g.similar-head").len() == 5).await;
    for g in select_all(&root, "g.similar-head") {
        let attr = |n: &str| g.get_attribute(n).unwrap();
        assert_eq!(attr("data-layer"), "0");
        let h: usize = attr("data-head").parse().unwrap();
        let xy: Vec<f32> = attr("data-xy").split(',').map(|v| v.parse().unwrap()).collect();
        let (x, y) = (want.map[h][0], want.map[h][1]);
        assert!((xy[0] - x).abs() < 1e-5 && (xy[1] - y).abs() < 1e-5, "{xy:?} vs {x}, {y}");
    }
    // Head 0 is selected: its four others listed nearest first, with their distances.
    let like: Vec<String> =
        most_like(&want, 0, 5).into_iter().map(|g| format!("L0 · H{g}")).collect();
    assert_eq!(texts(&root, "#similar-like button"), like);
    let d = num(want.distance[0][most_like(&want, 0, 1)[0]]);
    assert!(texts(&root, "#similar-like li")[0].contains(&format!("d = {d}")));

    // A dot opens its head in every view.
    let dot: web_sys::Element = find(&root, r#"g.similar-head[data-head="3"] circle"#);
    fire(&dot, "click");
    let head: web_sys::HtmlSelectElement = find(&root, "select#head");
    settle("head 3 selected from the map", || head.value() == "3").await;
    settle("head 3 ringed", || {
        exists(&root, r#"g.similar-head[data-head="3"][aria-current="true"]"#)
    })
    .await;

    // Four groups: the page's own grouping of the same distances.
    choose(&root, "select#similar-groups", "4");
    let groups: Vec<String> = regroup(&want, 4).iter().map(|g| g.to_string()).collect();
    settle("four groups", || {
        let mut drawn: Vec<(String, String)> = select_all(&root, "g.similar-head")
            .iter()
            .map(|g| {
                (g.get_attribute("data-head").unwrap(), g.get_attribute("data-group").unwrap())
            })
            .collect();
        drawn.sort();
        drawn.into_iter().map(|(_, group)| group).collect::<Vec<_>>() == groups
    })
    .await;
    root.remove();
}
