//! The page's components in a real browser (headless Chromium through
//! wasm-bindgen-test-runner): mount, then read the DOM and the canvas pixels
//! and compare them with what the model computes.
//!
//! Run: `cargo test --target wasm32-unknown-unknown --bin attnscope-web`
//! (with CHROMEDRIVER set, as scripts/test.sh does).

use crate::app::Page;
use crate::heatmap::{cell_color, Layout};
use crate::url_state::DEFAULT_TEXT;
use attnscope::models::teaching::TeachingModel;
use attnscope::Matrix;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlElement, HtmlTextAreaElement};

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts the whole app into a fresh element of its own.
fn mount_app() -> HtmlElement {
    // The page keeps its state in the URL: start every test from a clean one.
    web_sys::window().unwrap().history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("?")).unwrap();
    let document = web_sys::window().unwrap().document().unwrap();
    let root: HtmlElement = document.create_element("div").unwrap().dyn_into().unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    // In the page's own thread: the test runner serves no worker script.
    leptos::mount::mount_to(root.clone(), || leptos::view! { <Page in_page=true /> }).forget();
    root
}

fn find<T: JsCast>(root: &HtmlElement, selector: &str) -> T {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no {selector} on the page"))
        .dyn_into()
        .unwrap_or_else(|_| panic!("{selector} is not the expected kind of element"))
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
    for _ in 0..200 {
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

/// What a user's typing causes: a new value, then an `input` event.
fn type_into(area: &HtmlTextAreaElement, text: &str) {
    area.set_value(text);
    fire(area, "input");
}

/// True once the canvas has the size of a map of `tokens` (a fresh canvas
/// is 300 × 150 until the first drawing).
fn heatmap_fits(root: &HtmlElement, tokens: &[String]) -> bool {
    let (width, height) = Layout::new(tokens, tokens.len(), tokens.len(), 1.0).size();
    let dpr = web_sys::window().unwrap().device_pixel_ratio().max(1.0);
    let canvas: HtmlCanvasElement = find(root, "canvas#heatmap");
    (canvas.width(), canvas.height()) == ((width * dpr).round() as u32, (height * dpr).round() as u32)
}

/// The colour at the centre of cell (i, j) of a map of `tokens`.
fn pixel_at_cell(root: &HtmlElement, tokens: &[String], i: usize, j: usize) -> [u8; 3] {
    let canvas: HtmlCanvasElement = find(root, "canvas#heatmap");
    let ctx: CanvasRenderingContext2d = canvas.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    let dpr = web_sys::window().unwrap().device_pixel_ratio().max(1.0);
    let layout = Layout::new(tokens, tokens.len(), tokens.len(), 1.0);
    let (x, y) = layout.cell_origin(i, j);
    let centre = |v: f64| ((v + layout.cell / 2.0) * dpr).floor();
    let px = ctx.get_image_data(centre(x), centre(y), 1.0, 1.0).unwrap().data();
    [px[0], px[1], px[2]]
}

/// Checks that every cell of the canvas has the colour of its weight.
fn assert_heatmap_shows(root: &HtmlElement, tokens: &[String], a: &Matrix) {
    assert!(heatmap_fits(root, tokens), "the canvas does not have the size of a map of {} tokens", tokens.len());
    for i in 0..a.rows {
        for j in 0..a.cols {
            let (got, want) = (pixel_at_cell(root, tokens, i, j), cell_color(a[(i, j)]));
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
    assert_heatmap_shows(&root, &expected.tokens, expected.weights(0, 0).unwrap());
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
    assert_heatmap_shows(&root, &expected.tokens, expected.weights(0, 0).unwrap());

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
    settle("head 1 drawn", || pixel_at_cell(&root, &expected.tokens, i, j) == cell_color(head_1[(i, j)])).await;
    assert_heatmap_shows(&root, &expected.tokens, head_1);
    root.remove();
}

// ── Explain mode, lessons and the head catalog ───────────────────────────────

use crate::explain::{num, vector};
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
    settle(&format!("{ready} shown"), || root.query_selector(ready).ok().flatten().is_some()).await;
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

    // Clicking a token button moves the query.
    select_all(&root, "#explain-tokens button")[5].clone().dyn_into::<HtmlElement>().unwrap().click();
    settle("the step view follows token 5", || text_of(&root, "#step-q .full") == vector(d.q.row(5))).await;
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
    assert_eq!(find::<HtmlElement>(&root, "#catalog-0-3").get_attribute("aria-selected").as_deref(), Some("true"));
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
    settle("ranking shown", || texts(&root, "#found-heads li").len() == heads.len().min(10)).await;
    let want: Vec<String> = heads.iter().take(10).map(|m| format!("L{} · H{}: {}", m.layer, m.head, num(m.weight))).collect();
    assert_eq!(texts(&root, "#found-heads li"), want);
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
    settle("lines drawn", || canvas.height() == ((n as f64 * 20.0 + 8.0) * dpr).round() as u32).await;

    // A click on the third word on the left follows it.
    let rect = js_sys::Reflect::get(&canvas, &"getBoundingClientRect".into()).unwrap();
    let rect = js_sys::Function::from(rect).call0(&canvas).unwrap();
    let at = |k: &str| js_sys::Reflect::get(&rect, &k.into()).unwrap().as_f64().unwrap();
    let init = js_sys::Object::new();
    js_sys::Reflect::set(&init, &"bubbles".into(), &true.into()).unwrap();
    js_sys::Reflect::set(&init, &"clientX".into(), &(at("left") + 60.0).into()).unwrap();
    js_sys::Reflect::set(&init, &"clientY".into(), &(at("top") + 4.0 + 2.5 * 20.0).into()).unwrap();
    let ctor: js_sys::Function = js_sys::Reflect::get(&js_sys::global(), &"MouseEvent".into()).unwrap().into();
    let event = js_sys::Reflect::construct(&ctor, &js_sys::Array::of2(&"click".into(), &init)).unwrap();
    canvas.dispatch_event(event.unchecked_ref()).unwrap();
    let select: web_sys::HtmlSelectElement = find(&root, "select#explain-query");
    settle("query 2 chosen", || select.value() == "2").await;
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
        (0..head_1.rows).all(|i| (0..head_1.cols).all(|j| pixel_at_cell(&root, &first.tokens, i, j) == cell_color(head_1[(i, j)])))
    })
    .await;

    let text = "the verdant forest roamed a fluffy blue creature";
    let other = TeachingModel::new().run(text).unwrap();
    let area: HtmlTextAreaElement = find(&root, "textarea#compare-text");
    type_into(&area, text);
    let a = other.weights(0, 1).unwrap();
    let layout = Layout::new(&other.tokens, a.rows, a.cols, 1.0);
    let dpr = web_sys::window().unwrap().device_pixel_ratio().max(1.0);
    let canvas: HtmlCanvasElement = find(&root, "canvas#compare-heatmap");
    let (w, h) = layout.size();
    settle("second map drawn", || (canvas.width(), canvas.height()) == ((w * dpr).round() as u32, (h * dpr).round() as u32)).await;
    let ctx: CanvasRenderingContext2d = canvas.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    let pixel = |i: usize, j: usize| {
        let (x, y) = layout.cell_origin(i, j);
        let centre = |v: f64| ((v + layout.cell / 2.0) * dpr).floor();
        let px = ctx.get_image_data(centre(x), centre(y), 1.0, 1.0).unwrap().data();
        [px[0], px[1], px[2]]
    };
    settle("head 1 of the other sentence", || (0..a.rows).all(|i| (0..a.cols).all(|j| pixel(i, j) == cell_color(a[(i, j)])))).await;
    // The main map still shows the first sentence.
    assert_heatmap_shows(&root, &first.tokens, first.weights(0, 1).unwrap());

    // Emptying the box hides the comparison.
    type_into(&area, "");
    settle("comparison hidden", || find::<HtmlElement>(&root, "figure.compare").has_attribute("hidden")).await;
    root.remove();
}
