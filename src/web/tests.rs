//! The page's components in a real browser (headless Chromium through
//! wasm-bindgen-test-runner): mount, then read the DOM and the canvas pixels
//! and compare them with what the model computes.
//!
//! Run: `cargo test --target wasm32-unknown-unknown --bin attnscope-web`
//! (with CHROMEDRIVER set, as scripts/test.sh does).

use crate::canvas::cell_color;
use crate::shell::app::Page;
use crate::url_state::DEFAULT_TEXT;
use attnscope::models::teaching::TeachingModel;
use attnscope::Matrix;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlElement, HtmlTextAreaElement};

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts the whole app into a fresh element of its own, at `query` (its URL).
fn mount_at(query: &str) -> HtmlElement {
    // The page keeps its state in the URL: start every test from a known one.
    web_sys::window().unwrap().history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(query)).unwrap();
    let document = web_sys::window().unwrap().document().unwrap();
    let root: HtmlElement = document.create_element("div").unwrap().dyn_into().unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    // In the page's own thread: the test runner serves no worker script.
    leptos::mount::mount_to(root.clone(), || leptos::view! { <Page in_page=true /> }).forget();
    root
}

fn mount_app() -> HtmlElement {
    mount_at("?")
}

fn find<T: JsCast>(root: &HtmlElement, selector: &str) -> T {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no {selector} on the page"))
        .dyn_into()
        .unwrap_or_else(|_| panic!("{selector} is not the expected kind of element"))
}

fn exists(root: &HtmlElement, selector: &str) -> bool {
    root.query_selector(selector).ok().flatten().is_some()
}

fn text_of(root: &HtmlElement, selector: &str) -> String {
    find::<HtmlElement>(root, selector).text_content().unwrap_or_default()
}

fn token_texts(root: &HtmlElement) -> Vec<String> {
    let list = find::<HtmlElement>(root, "#tokens").get_elements_by_class_name("token");
    (0..list.length()).map(|i| list.item(i).unwrap().text_content().unwrap_or_default()).collect()
}

/// Waits `ms` milliseconds on the browser's clock (replies go through tasks).
async fn sleep_ms(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window().unwrap().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

/// Lets the reactive system run its pending effects until `done` holds.
async fn settle(what: &str, done: impl Fn() -> bool) {
    for _ in 0..300 {
        if done() {
            return;
        }
        leptos::task::tick().await;
        sleep_ms(5).await;
    }
    panic!("the page never got to: {what}");
}

/// Dispatches a bubbling event named `name` at `target`, as the browser does
/// for user input (bubbling matters: Leptos listens on the document).
/// Built through JS because web-sys's `EventInit` is not among our features.
fn fire(target: &web_sys::EventTarget, name: &str) {
    let init = js_sys::Object::new();
    js_sys::Reflect::set(&init, &"bubbles".into(), &true.into()).unwrap();
    let ctor: js_sys::Function = js_sys::Reflect::get(&js_sys::global(), &"Event".into()).unwrap().into();
    let event = js_sys::Reflect::construct(&ctor, &js_sys::Array::of2(&name.into(), &init)).unwrap();
    target.dispatch_event(event.unchecked_ref()).unwrap();
}

/// A mouse event `name` at (x, y) of `target`'s box, as a pointer would make it.
fn mouse(target: &HtmlElement, name: &str, ctor: &str, x: f64, y: f64) {
    let rect = target.get_bounding_client_rect();
    let init = js_sys::Object::new();
    js_sys::Reflect::set(&init, &"bubbles".into(), &true.into()).unwrap();
    js_sys::Reflect::set(&init, &"clientX".into(), &(rect.left() + x).into()).unwrap();
    js_sys::Reflect::set(&init, &"clientY".into(), &(rect.top() + y).into()).unwrap();
    js_sys::Reflect::set(&init, &"pointerType".into(), &"mouse".into()).unwrap();
    let ctor: js_sys::Function = js_sys::Reflect::get(&js_sys::global(), &ctor.into()).unwrap().into();
    let event = js_sys::Reflect::construct(&ctor, &js_sys::Array::of2(&name.into(), &init)).unwrap();
    target.dispatch_event(event.unchecked_ref()).unwrap();
}

/// What a user's typing causes: a new value, then an `input` event.
fn type_into(area: &HtmlTextAreaElement, text: &str) {
    area.set_value(text);
    fire(area, "input");
}

/// Where a canvas says its cells are (it writes its layout on itself).
#[derive(Debug)]
struct Cells {
    cell: f64,
    left: f64,
    top: f64,
}

fn cells(canvas: &HtmlCanvasElement) -> Option<Cells> {
    let attr = |name: &str| canvas.get_attribute(name)?.parse::<f64>().ok();
    Some(Cells { cell: attr("data-cell")?, left: attr("data-left")?, top: attr("data-top")? })
}

/// True once `selector` holds a map of `n × n` cells (a fresh canvas is
/// 300 × 150 until the first drawing, an empty one 0 × 0).
fn map_fits(root: &HtmlElement, selector: &str, n: usize) -> bool {
    let canvas: HtmlCanvasElement = find(root, selector);
    let dpr = web_sys::window().unwrap().device_pixel_ratio().max(1.0);
    cells(&canvas).is_some_and(|c| {
        let (w, h) = (c.left + c.cell * n as f64 + 4.0, c.top + c.cell * n as f64 + 4.0);
        (canvas.width(), canvas.height()) == ((w * dpr).round() as u32, (h * dpr).round() as u32)
    })
}

fn heatmap_fits(root: &HtmlElement, tokens: &[String]) -> bool {
    map_fits(root, "canvas#heatmap", tokens.len())
}

/// The colour inside cell (i, j) of the map in `selector`, near its top-left
/// corner (big cells carry their number in the middle).
fn pixel_in(root: &HtmlElement, selector: &str, i: usize, j: usize) -> [u8; 3] {
    let canvas: HtmlCanvasElement = find(root, selector);
    let ctx: CanvasRenderingContext2d = canvas.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    let dpr = web_sys::window().unwrap().device_pixel_ratio().max(1.0);
    let c = cells(&canvas).expect("the canvas has no layout yet");
    let at = |origin: f64, k: usize| ((origin + c.cell * k as f64 + (0.15 * c.cell).max(1.0)) * dpr).floor();
    let px = ctx.get_image_data(at(c.left, j), at(c.top, i), 1.0, 1.0).unwrap().data();
    [px[0], px[1], px[2]]
}

fn pixel_at_cell(root: &HtmlElement, i: usize, j: usize) -> [u8; 3] {
    pixel_in(root, "canvas#heatmap", i, j)
}

/// Checks that every cell of the heatmap has the colour of its weight.
fn assert_heatmap_shows(root: &HtmlElement, tokens: &[String], a: &Matrix) {
    assert!(heatmap_fits(root, tokens), "the canvas does not have the size of a map of {} tokens", tokens.len());
    for i in 0..a.rows {
        for j in 0..a.cols {
            let (got, want) = (pixel_at_cell(root, i, j), cell_color(a[(i, j)]));
            assert_eq!(got, want, "cell ({i}, {j}) of weight {} has the wrong colour", a[(i, j)]);
        }
    }
}

#[wasm_bindgen_test]
async fn opens_with_the_default_sentence_its_tokens_and_heatmap() {
    let root = mount_app();
    let expected = TeachingModel::new().run(DEFAULT_TEXT).unwrap();
    settle("tokens shown", || !token_texts(&root).is_empty()).await;

    assert_eq!(find::<HtmlTextAreaElement>(&root, "textarea#text").value(), DEFAULT_TEXT);
    assert_eq!(token_texts(&root), expected.tokens);
    let status = text_of(&root, "#status");
    assert!(status.contains("computed in") && status.ends_with(" ms in your browser"), "status: {status:?}");
    assert_eq!(text_of(&root, "#error"), "");
    settle("heatmap drawn", || heatmap_fits(&root, &expected.tokens)).await;
    assert_heatmap_shows(&root, &expected.tokens, &expected.weights(0, 0).unwrap());
    root.remove();
}

#[wasm_bindgen_test]
async fn typing_recomputes_tokens_and_heatmap() {
    let root = mount_app();
    settle("tokens shown", || !token_texts(&root).is_empty()).await;

    let text = "the cat sat on the mat";
    let expected = TeachingModel::new().run(text).unwrap();
    type_into(&find(&root, "textarea#text"), text);
    settle("tokens updated", || token_texts(&root) == expected.tokens).await;
    assert!(text_of(&root, "#status").starts_with("6 tokens, computed in"));
    settle("heatmap redrawn", || heatmap_fits(&root, &expected.tokens)).await;
    assert_heatmap_shows(&root, &expected.tokens, &expected.weights(0, 0).unwrap());

    // An empty box is not an error: no tokens, an empty map.
    type_into(&find(&root, "textarea#text"), "");
    settle("tokens cleared", || token_texts(&root).is_empty()).await;
    assert_eq!(text_of(&root, "#error"), "");
    settle("heatmap cleared", || find::<HtmlCanvasElement>(&root, "#heatmap").width() == 0).await;
    root.remove();
}

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

// ── Explain mode, lessons and the head catalog ───────────────────────────────

use crate::views::common::format::{num, vector};
use attnscope::session::{FromWorker, HeadDetail, ModelId, RunOptions, Session};

/// The teaching model's detail of `head` for `text`, computed natively by the
/// same session the worker runs.
fn engine_head(text: &str, options: RunOptions, head: usize) -> (Session, HeadDetail) {
    let mut s = Session::new();
    s.run(1, ModelId::Teaching, text, options, &|| 0.0).unwrap();
    let d = s.head(0, head).unwrap();
    (s, d)
}

/// Every element matching `selector` (querySelectorAll through JS: web-sys's
/// `NodeList` is not among our features).
fn select_all(root: &HtmlElement, selector: &str) -> Vec<web_sys::Element> {
    let f: js_sys::Function = js_sys::Reflect::get(root, &"querySelectorAll".into()).unwrap().into();
    let list = f.call1(root, &selector.into()).unwrap();
    js_sys::Array::from(&list).iter().map(|e| e.unchecked_into()).collect()
}

fn texts(root: &HtmlElement, selector: &str) -> Vec<String> {
    select_all(root, selector).iter().map(|e| e.text_content().unwrap_or_default()).collect()
}

fn click(root: &HtmlElement, selector: &str) {
    find::<HtmlElement>(root, selector).click();
}

fn choose(root: &HtmlElement, selector: &str, value: &str) {
    let select: web_sys::HtmlSelectElement = find(root, selector);
    select.set_value(value);
    fire(&select, "change");
}

/// Opens the tab `slug` and waits until `ready` is on the page.
async fn open_tab(root: &HtmlElement, slug: &str, ready: &str) {
    click(root, &format!("#tab-{slug}"));
    settle(&format!("{ready} shown"), || exists(root, ready)).await;
}

/// The numbers of the step view's weight column.
fn shown_weights(root: &HtmlElement) -> Vec<f32> {
    texts(root, "#step-table tr.key-row td.weight").iter().map(|t| t.trim().parse::<f32>().unwrap_or(f32::NAN)).collect()
}

#[wasm_bindgen_test]
async fn step_by_step_shows_the_engines_numbers() {
    let root = mount_app();
    settle("tokens shown", || !token_texts(&root).is_empty()).await;
    open_tab(&root, "explain", "select#explain-query option").await;
    let i = 3; // "creature"
    choose(&root, "select#explain-query", &i.to_string());
    settle("the step view follows “creature”", || {
        root.query_selector("#step-x .formula").ok().flatten().is_some_and(|e| e.text_content().unwrap_or_default().contains("E[3]"))
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
    assert_eq!(texts(&root, "#step-table tr.key-row td.k .full"), (0..n).map(|j| vector(d.k.row(j))).collect::<Vec<_>>());
    let weighted: Vec<String> = (0..n).map(|j| vector(&d.v.row(j).iter().map(|v| d.weights[(i, j)] * v).collect::<Vec<_>>())).collect();
    assert_eq!(texts(&root, "#step-table tr.key-row td.av .full"), weighted);

    // Clicking a token button moves the query, and the URL keeps it.
    select_all(&root, "#explain-tokens button")[5].clone().dyn_into::<HtmlElement>().unwrap().click();
    settle("the step view follows token 5", || text_of(&root, "#step-q .full") == vector(d.q.row(5))).await;
    settle("the URL keeps the token", || web_sys::window().unwrap().location().search().unwrap().contains("token=5")).await;

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
        shown_weights(&root).len() == base.weights.cols && text_of(&root, "#step-q .full") == vector(base.q.row(i))
    })
    .await;
    assert!(text_of(&root, "#model-setting").starts_with('★'));

    // Slider at +1 is ×10: A = softmax(S · (1/√d_k) · 10).
    let slider: web_sys::HtmlInputElement = find(&root, "input#temperature");
    slider.set_value("1");
    fire(&slider, "input");
    settle("the factor shown", || text_of(&root, "#temperature-value") == "×10.00").await;
    let want = attnscope::attention::softmax(&base.scores.row(i).iter().map(|s| s * base.scale * 10.0).collect::<Vec<_>>());
    let close = |got: &[f32]| got.len() == want.len() && got.iter().zip(&want).all(|(g, w)| (g - w).abs() < 1e-3);
    settle("weights sharpened by ×10", || close(&shown_weights(&root))).await;
    assert!(text_of(&root, "#step-scale").contains(&num(base.scale * 10.0)));
    assert!(!text_of(&root, "#model-setting").starts_with('★'));
    // The row sharpened: its largest weight grew.
    let top = |w: &[f32]| w.iter().copied().fold(0.0f32, f32::max);
    assert!(top(&want) > top(base.weights.row(i)));
    // The lesson's setting is in the URL, once the slider rests.
    settle("the URL keeps the factor", || web_sys::window().unwrap().location().search().unwrap().contains("temp=10.000")).await;

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
    let (_, off) = engine_head(DEFAULT_TEXT, RunOptions { positional_encoding: false, ..Default::default() }, 0);
    let positional: web_sys::HtmlInputElement = find(&root, "input#positional");
    positional.set_checked(false);
    fire(&positional, "change");
    settle("x without its positional code", || text_of(&root, "#step-x .full") == vector(off.input.row(0))).await;
    root.remove();
}

#[wasm_bindgen_test]
async fn catalog_sorts_and_a_row_click_selects_the_head() {
    let root = mount_app();
    settle("tokens shown", || !token_texts(&root).is_empty()).await;
    open_tab(&root, "catalog", "#catalog").await;
    let summary = Session::new().run(1, ModelId::Teaching, DEFAULT_TEXT, RunOptions::default(), &|| 0.0).unwrap();
    settle("catalog filled", || texts(&root, "#catalog tr.catalog-row").len() == summary.catalog.len()).await;

    // Sorting by previous-token share puts the previous-token head first.
    click(&root, "#sort-previous");
    let best = summary.catalog.iter().max_by(|a, b| a.previous_token.total_cmp(&b.previous_token)).unwrap();
    let first_id = || root.query_selector("#catalog tr.catalog-row").unwrap().unwrap().id();
    settle("sorted by previous token", || first_id() == format!("catalog-0-{}", best.head)).await;
    let shown = texts(&root, &format!("#catalog-0-{} td", best.head));
    assert_eq!(shown[2], num(best.previous_token));

    // Clicking a row selects its head everywhere.
    click(&root, "#catalog-0-3");
    let head: web_sys::HtmlSelectElement = find(&root, "select#head");
    settle("head 3 selected", || head.value() == "3").await;
    assert_eq!(find::<HtmlElement>(&root, "#catalog-0-3").get_attribute("aria-current").as_deref(), Some("true"));
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
    let summary = Session::new().run(1, ModelId::Teaching, DEFAULT_TEXT, RunOptions::default(), &|| 0.0).unwrap();
    let canvas: HtmlCanvasElement = find(&root, "canvas#map-previous");
    settle("map drawn", || cells(&canvas).is_some()).await;
    let (lo, hi) = scale_of(Column::Previous, &summary.catalog);
    for s in &summary.catalog {
        let want = cell_color((s.previous_token - lo) / (hi - lo));
        assert_eq!(pixel_in(&root, "canvas#map-previous", s.layer, s.head), want, "head {} of the previous-token map", s.head);
    }
    let c = cells(&canvas).unwrap();
    mouse(canvas.unchecked_ref(), "click", "MouseEvent", c.left + 4.5 * c.cell, c.top + 0.5 * c.cell);
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
    let FromWorker::Heads { heads, .. } = s.handle(attnscope::session::ToWorker::FindHeads { id: 1, query: 3, key: 1 }, &|| 0.0) else {
        panic!("no ranking")
    };
    choose(&root, "select#find-query", "3");
    choose(&root, "select#find-key", "1");
    click(&root, "#find-heads");
    let want: Vec<String> = heads.iter().take(10).map(|m| format!("L{} · H{}: {}", m.layer, m.head, num(m.weight))).collect();
    settle("ranking shown", || texts(&root, "#found-heads li") == want).await;
    root.remove();
}

#[wasm_bindgen_test]
async fn worked_example_recomputes_live_with_both_scalings() {
    use attnscope::models::seed::WorkedExample;
    let root = mount_app();
    open_tab(&root, "worked", "#worked-s").await;
    let row = |id: &str, i: usize| texts(&root, &format!("#{id} tr:nth-child({}) td", i + 1));
    // The seed's S row 1 is [2, 4, 4]; ÷√4 gives [1, 2, 2].
    assert_eq!(row("worked-s", 0), ["2.0000", "4.0000", "4.0000"]);
    assert_eq!(row("worked-seed-scaled", 0), ["1.0000", "2.0000", "2.0000"]);
    let mut e = WorkedExample::seed_3x4();
    let standard = e.run(attnscope::Mask::None, attnscope::Scale::InvSqrtDk);
    assert_eq!(row("worked-standard-a", 0), standard.head.weights.row(0).iter().map(|&v| num(v)).collect::<Vec<_>>());

    // Editing x₁₁ recomputes everything.
    let cell: web_sys::HtmlInputElement = find(&root, "#worked-x-0-0");
    cell.set_value("3");
    fire(&cell, "input");
    e.x[(0, 0)] = 3.0;
    let t = e.run(attnscope::Mask::None, e.seed_scale());
    let want: Vec<String> = t.head.weights.row(0).iter().map(|&v| num(v)).collect();
    settle("recomputed after an edit", || row("worked-seed-a", 0) == want).await;
    assert_eq!(row("worked-q", 0), t.q.row(0).iter().map(|&v| num(v)).collect::<Vec<_>>());
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
    settle("lines drawn", || row().is_some_and(|r| canvas.height() == ((n as f64 * r + 8.0) * dpr).round() as u32)).await;

    // A click on the third word on the left follows it.
    mouse(canvas.unchecked_ref(), "click", "MouseEvent", 10.0, 4.0 + 2.5 * row().unwrap());
    let select: web_sys::HtmlSelectElement = find(&root, "select#explain-query");
    settle("query 2 chosen", || select.value() == "2").await;
    assert_eq!(canvas.get_attribute("data-query").as_deref(), Some("2"));
    root.remove();
}

#[wasm_bindgen_test]
async fn a_second_sentence_is_drawn_beside_the_first_for_the_same_head() {
    let root = mount_app();
    let first = TeachingModel::new().run(DEFAULT_TEXT).unwrap();
    settle("heatmap drawn", || heatmap_fits(&root, &first.tokens)).await;
    choose(&root, "select#head", "1");
    let head_1 = first.weights(0, 1).unwrap();
    settle("head 1 drawn", || (0..head_1.rows).all(|i| (0..head_1.cols).all(|j| pixel_at_cell(&root, i, j) == cell_color(head_1[(i, j)]))))
        .await;

    let text = "the verdant forest roamed a fluffy blue creature";
    let other = TeachingModel::new().run(text).unwrap();
    let area: HtmlTextAreaElement = find(&root, "textarea#compare-text");
    type_into(&area, text);
    let a = other.weights(0, 1).unwrap();
    settle("second map drawn", || map_fits(&root, "canvas#compare-heatmap", other.tokens.len())).await;
    settle("head 1 of the other sentence", || {
        (0..a.rows).all(|i| (0..a.cols).all(|j| pixel_in(&root, "canvas#compare-heatmap", i, j) == cell_color(a[(i, j)])))
    })
    .await;
    // The main map still shows the first sentence.
    settle("the main map redrawn beside it", || heatmap_fits(&root, &first.tokens)).await;
    assert_heatmap_shows(&root, &first.tokens, &first.weights(0, 1).unwrap());

    // Emptying the box hides the comparison.
    type_into(&area, "");
    settle("comparison hidden", || find::<HtmlElement>(&root, "figure.compare").has_attribute("hidden")).await;
    root.remove();
}

// ── Linked views, stages, the lesson, presets ────────────────────────────────

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
    mouse(canvas.unchecked_ref(), "click", "MouseEvent", c.left + (j as f64 + 0.5) * c.cell, c.top + (i as f64 + 0.5) * c.cell);
    let want = format!(
        "“creature” → “fluffy”: weight {:.4} · raw score q·k {:.3} · scaled {:.3}",
        d.weights[(i, j)],
        d.scores[(i, j)],
        d.scores[(i, j)] * d.scale
    );
    settle("the readout describes the cell", || text_of(&root, "#readout") == want).await;
    settle("the heatmap outlines “creature”", || canvas.get_attribute("data-token").as_deref() == Some("3")).await;
    assert_eq!(find::<HtmlElement>(&root, "#tokens li:nth-child(4) .token").get_attribute("aria-pressed").as_deref(), Some("true"));

    // The dot grids and the step-by-step view follow the same token.
    open_tab(&root, "grid", "canvas#grid-causal").await;
    let grid: HtmlCanvasElement = find(&root, "canvas#grid-causal");
    settle("the grid outlines “creature”", || grid.get_attribute("data-token").as_deref() == Some("3")).await;
    open_tab(&root, "explain", "select#explain-query option").await;
    settle("step by step follows “creature”", || find::<web_sys::HtmlSelectElement>(&root, "select#explain-query").value() == "3").await;
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
    let shows = |f: &dyn Fn(usize, usize) -> [u8; 3]| (0..n).all(|i| (0..n).all(|j| pixel_at_cell(&root, i, j) == f(i, j)));
    settle("raw scores drawn", || shows(&|i, j| signed_color(d.scores[(i, j)], range))).await;
    click(&root, ".stage[data-stage=scaled]");
    settle("scaled scores drawn", || shows(&|i, j| signed_color(d.scores[(i, j)] * d.scale, range))).await;
    settle("the URL keeps the stage", || web_sys::window().unwrap().location().search().unwrap().contains("stage=scaled")).await;
    click(&root, ".stage[data-stage=weights]");
    settle("weights drawn", || shows(&|i, j| cell_color(d.weights[(i, j)]))).await;
    root.remove();
}

/// Every lesson step is reachable by its URL, by the arrow keys and by
/// Next and Back, and its numbers are the model's.
#[wasm_bindgen_test]
async fn every_lesson_step_shows_the_models_numbers() {
    use crate::views::lesson::STEPS;
    use attnscope::attention::Mask;
    let root = mount_at("?view=lesson&step=2&token=3");
    settle("lesson step 2 shown", || exists(&root, "#lesson-q")).await;
    let (_, d) = engine_head(DEFAULT_TEXT, RunOptions::default(), 0);
    let i = 3; // "creature"
    let preview = |v: &[f32]| format!("[{}, …] ({} numbers)", v.iter().take(4).map(|&x| num(x)).collect::<Vec<_>>().join(", "), v.len());
    let short = |v: &[f32]| if v.len() > 4 { preview(v) } else { vector(v) };
    assert_eq!(text_of(&root, "#lesson-count"), "Step 2 of 8");
    assert_eq!(text_of(&root, "#lesson-x"), short(d.input.row(i)));
    assert_eq!(text_of(&root, "#lesson-q"), short(d.q.row(i)));
    assert_eq!(text_of(&root, "#lesson-k"), short(d.k.row(i)));
    assert_eq!(text_of(&root, "#lesson-v"), short(d.v.row(i)));

    // The arrow key goes on to the scores: the query's row of S.
    let key = |k: &str| {
        let init = js_sys::Object::new();
        js_sys::Reflect::set(&init, &"key".into(), &k.into()).unwrap();
        js_sys::Reflect::set(&init, &"bubbles".into(), &true.into()).unwrap();
        let ctor: js_sys::Function = js_sys::Reflect::get(&js_sys::global(), &"KeyboardEvent".into()).unwrap().into();
        let event = js_sys::Reflect::construct(&ctor, &js_sys::Array::of2(&"keydown".into(), &init)).unwrap();
        web_sys::window().unwrap().dispatch_event(event.unchecked_ref()).unwrap();
    };
    key("ArrowRight");
    settle("step 3 shown", || exists(&root, "#lesson-scores")).await;
    let row_of = |id: &str| texts(&root, &format!("#{id} li .val"));
    assert_eq!(row_of("lesson-scores"), d.scores.row(i).iter().map(|&v| num(v)).collect::<Vec<_>>());
    settle("the URL keeps step 3", || web_sys::window().unwrap().location().search().unwrap().contains("step=3")).await;

    // Next: the scaling, with the variance of the row before and after.
    click(&root, "#lesson-next");
    settle("step 4 shown", || exists(&root, "#lesson-var-raw")).await;
    let row: Vec<f32> = d.scores.row(i).to_vec();
    let var = |xs: &[f32]| {
        let m = xs.iter().sum::<f32>() / xs.len() as f32;
        xs.iter().map(|x| (x - m) * (x - m)).sum::<f32>() / xs.len() as f32
    };
    assert_eq!(text_of(&root, "#lesson-dk"), d.q.cols.to_string());
    assert_eq!(text_of(&root, "#lesson-var-raw"), num(var(&row)));
    assert_eq!(text_of(&root, "#lesson-var-scaled"), num(var(&row.iter().map(|v| v * d.scale).collect::<Vec<_>>())));

    click(&root, "#lesson-next");
    settle("step 5 shown", || exists(&root, "#lesson-weights")).await;
    assert_eq!(row_of("lesson-weights"), d.weights.row(i).iter().map(|&v| num(v)).collect::<Vec<_>>());
    assert_eq!(text_of(&root, "#lesson-sum"), num(d.weights.row(i).iter().sum()));

    click(&root, "#lesson-next");
    settle("step 6 shown", || exists(&root, "#lesson-masked")).await;
    let causal = crate::views::common::stages::values(&d, Mask::Causal, crate::url_state::Stage::Masked);
    assert_eq!(row_of("lesson-masked"), causal.row(i).iter().map(|&v| num(v)).collect::<Vec<_>>());
    assert_eq!(text_of(&root, "#lesson-hidden"), (d.weights.cols - i - 1).to_string());

    click(&root, "#lesson-next");
    settle("step 7 shown", || exists(&root, "#lesson-z")).await;
    assert_eq!(text_of(&root, "#lesson-z"), short(d.output.row(i)));
    assert_eq!(text_of(&root, "#lesson-delta"), short(d.delta.row(i)));
    assert_eq!(text_of(&root, "#lesson-residual"), short(d.residual.row(i)));

    click(&root, "#lesson-next");
    settle("step 8 shown", || exists(&root, "#lesson-heads")).await;
    assert_eq!(text_of(&root, "#lesson-heads"), "1 × 5");
    assert!(find::<web_sys::HtmlButtonElement>(&root, "#lesson-next").disabled(), "the last step has no next");
    assert_eq!(text_of(&root, "#lesson-count"), format!("Step {STEPS} of {STEPS}"));

    // Back, and the first step by its dot.
    click(&root, "#lesson-back");
    settle("step 7 again", || exists(&root, "#lesson-z")).await;
    click(&root, ".lesson-dot");
    settle("step 1", || exists(&root, "#lesson-count") && text_of(&root, "#lesson-count") == "Step 1 of 8").await;
    assert_eq!(text_of(&root, "#lesson-query"), "3: creature");
    root.remove();
}

/// A preset's best head is found on the run: for the fluffy creature, the
/// head in which "creature" attends most to "fluffy", ranked from A.
#[wasm_bindgen_test]
async fn a_presets_best_head_is_found_from_the_run() {
    let root = mount_app();
    settle("tokens shown", || !token_texts(&root).is_empty()).await;
    let (mut s, _) = engine_head(DEFAULT_TEXT, RunOptions::default(), 0);
    let FromWorker::Heads { heads, .. } = s.handle(attnscope::session::ToWorker::FindHeads { id: 1, query: 3, key: 1 }, &|| 0.0) else {
        panic!("no ranking")
    };
    let best = &heads[0];
    let want = format!("“creature” → “fluffy” is strongest in layer {}, head {}: weight {}", best.layer, best.head, num(best.weight));
    settle("the preset's suggestion", || exists(&root, "#preset-note .suggestion") && text_of(&root, "#preset-note .suggestion") == want)
        .await;
    click(&root, "#preset-note .suggestion");
    let head: web_sys::HtmlSelectElement = find(&root, "select#head");
    settle("the suggested head selected", || head.value() == best.head.to_string()).await;

    // Another preset puts its sentence in the box.
    choose(&root, "select#preset", "repeat");
    settle("the repeated sequence computed", || token_texts(&root).len() == 12).await;
    let summary = Session::new().run(1, ModelId::Teaching, crate::shell::presets::PRESETS[4].text, RunOptions::default(), &|| 0.0).unwrap();
    let (l, h, v) = crate::shell::presets::best_by(&summary, crate::views::catalog::Column::Previous).unwrap();
    settle("previous-token head found", || {
        texts(&root, "#preset-note .suggestion")
            .first()
            .is_some_and(|t| *t == format!("Strongest “Previous token”: layer {l}, head {h} ({})", num(v)))
    })
    .await;
    root.remove();
}

// ── Exports ──────────────────────────────────────────────────────────────────

use crate::compute::Engine;
use crate::shell::panel::Exports;
use crate::state::{Results, Selection};
use crate::url_state::UrlState;

fn disabled(root: &HtmlElement, selector: &str) -> bool {
    find::<HtmlElement>(root, selector).has_attribute("disabled")
}

#[wasm_bindgen_test]
async fn exports_wait_until_tokens_and_weights_are_of_one_run() {
    // Two runs of the session the worker runs: the one shown, then a new text.
    let mut session = Session::new();
    let old = session.run(1, ModelId::Teaching, DEFAULT_TEXT, RunOptions::default(), &|| 0.0).unwrap();
    let old_head = session.head(0, 0).unwrap();
    let new = session.run(2, ModelId::Teaching, "the cat sat", RunOptions::default(), &|| 0.0).unwrap();
    let new_head = session.head(0, 0).unwrap();
    assert_ne!(old.tokens.len(), new.tokens.len());

    web_sys::window().unwrap().history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("?")).unwrap();
    let document = web_sys::window().unwrap().document().unwrap();
    let root: HtmlElement = document.create_element("div").unwrap().dyn_into().unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let state = std::rc::Rc::new(std::cell::Cell::new(None::<(Results, Selection)>));
    let keep = state.clone();
    leptos::mount::mount_to(root.clone(), move || {
        let (res, sel) = (Results::new(), Selection::new(&UrlState::current()));
        leptos::prelude::provide_context(res);
        leptos::prelude::provide_context(sel);
        leptos::prelude::provide_context(Engine::empty());
        keep.set(Some((res, sel)));
        leptos::view! { <Exports /> }
    })
    .forget();
    let (res, sel) = state.get().unwrap();
    let buttons = ["#export-png", "#export-svg", "#export-json", "#export-csv"];
    let all = |off: bool| buttons.iter().all(|b| disabled(&root, b) == off);

    use leptos::prelude::Set;
    res.asked.set(1);
    res.summary.set(Some(old.clone()));
    res.detail.set(Some(old_head));
    settle("exports ready for the run shown", || all(false)).await;
    // Typing asked for a new run: the picture is still the old run's, the worker's newest trace soon is not.
    res.asked.set(2);
    settle("exports wait for the new run", || all(true)).await;
    // The new run's tokens have come, the head's weights are still the old run's.
    res.summary.set(Some(new));
    sleep_ms(20).await;
    assert!(all(true), "an export would put the new tokens beside the old weights");
    res.detail.set(Some(new_head));
    settle("exports ready for the new run", || all(false)).await;
    // Another head chosen: its numbers are on their way.
    sel.head.set(1);
    settle("exports wait for the chosen head", || all(true)).await;
    root.remove();
}

// ── How big a map is drawn ───────────────────────────────────────────────────

#[wasm_bindgen_test]
fn a_map_of_up_to_forty_tokens_fills_its_box_and_two_tokens_stay_sensible() {
    use crate::canvas::{Layout, Look};
    let look = Look::default();
    // A 1080p stage's box, and a projector's.
    for room in [(1400.0, 900.0), (900.0, 520.0)] {
        let side = f64::min(room.0, room.1);
        for n in [3, 5, 8, 16, 40] {
            let (w, h) = Layout::fit(90.0, n, n, room, &look).size();
            assert!(w <= room.0 && h <= room.1, "{n} tokens: {w}×{h} does not fit {room:?}");
            assert!(h.max(w) >= 0.8 * side, "{n} tokens fill only {:.0}% of {side}", 100.0 * h.max(w) / side);
        }
        let two = Layout::fit(90.0, 2, 2, room, &look);
        assert_eq!(two.cell, (side / 4.0).floor(), "two tokens' cells are a quarter of the shorter side");
    }
}
