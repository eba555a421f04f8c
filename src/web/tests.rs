//! The page's components in a real browser (headless Chromium through
//! wasm-bindgen-test-runner): mount, then read the DOM and the canvas pixels
//! and compare them with what the model computes.
//!
//! Run: `cargo test --target wasm32-unknown-unknown --bin attnscope-web`
//! (with CHROMEDRIVER set, as scripts/test.sh does).

use crate::app::Page;
use crate::url_state::DEFAULT_TEXT;
use crate::heatmap::{cell_color, Layout};
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
    let (width, height) = Layout::new(tokens, tokens.len(), tokens.len()).size();
    let dpr = web_sys::window().unwrap().device_pixel_ratio().max(1.0);
    let canvas: HtmlCanvasElement = find(root, "canvas#heatmap");
    (canvas.width(), canvas.height()) == ((width * dpr).round() as u32, (height * dpr).round() as u32)
}

/// The colour at the centre of cell (i, j) of a map of `tokens`.
fn pixel_at_cell(root: &HtmlElement, tokens: &[String], i: usize, j: usize) -> [u8; 3] {
    let canvas: HtmlCanvasElement = find(root, "canvas#heatmap");
    let ctx: CanvasRenderingContext2d = canvas.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    let dpr = web_sys::window().unwrap().device_pixel_ratio().max(1.0);
    let layout = Layout::new(tokens, tokens.len(), tokens.len());
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
