//! What the page's component tests share (each folder's `tests.rs`): mount
//! the app, read the DOM and the canvas pixels, wait for the page, act as a
//! user would, and compute the model's numbers natively to compare with.
//! The tests run in a real browser (headless Chromium through
//! wasm-bindgen-test-runner).
//!
//! Run: `cargo test --target wasm32-unknown-unknown --bin attnscope-web`
//! (with CHROMEDRIVER set, as scripts/test.sh does).

use crate::canvas::cell_color;
use crate::shell::app::Page;
use attnscope::session::{HeadDetail, ModelId, RunOptions, Session};
use attnscope::Matrix;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test_configure;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlElement, HtmlTextAreaElement};

// Once for the whole binary: every test of every `tests.rs` runs in the browser.
wasm_bindgen_test_configure!(run_in_browser);

/// A fresh element of its own in the document, with the URL at `query`:
/// the page keeps its state in the URL, so every test starts from a known one.
pub fn root_at(query: &str) -> HtmlElement {
    web_sys::window()
        .unwrap()
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(query))
        .unwrap();
    let document = web_sys::window().unwrap().document().unwrap();
    let root: HtmlElement = document.create_element("div").unwrap().dyn_into().unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    root
}

/// Mounts the whole app into a fresh element of its own, at `query` (its URL).
pub fn mount_at(query: &str) -> HtmlElement {
    let root = root_at(query);
    // In the page's own thread: the test runner serves no worker script.
    leptos::mount::mount_to(root.clone(), || leptos::view! { <Page in_page=true /> }).forget();
    root
}

pub fn mount_app() -> HtmlElement {
    mount_at("?")
}

pub fn find<T: JsCast>(root: &HtmlElement, selector: &str) -> T {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no {selector} on the page"))
        .dyn_into()
        .unwrap_or_else(|_| panic!("{selector} is not the expected kind of element"))
}

pub fn exists(root: &HtmlElement, selector: &str) -> bool {
    root.query_selector(selector).ok().flatten().is_some()
}

pub fn text_of(root: &HtmlElement, selector: &str) -> String {
    find::<HtmlElement>(root, selector).text_content().unwrap_or_default()
}

pub fn token_texts(root: &HtmlElement) -> Vec<String> {
    let list = find::<HtmlElement>(root, "#tokens").get_elements_by_class_name("token");
    (0..list.length()).map(|i| list.item(i).unwrap().text_content().unwrap_or_default()).collect()
}

/// Waits `ms` milliseconds on the browser's clock (replies go through tasks).
pub async fn sleep_ms(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

/// Lets the reactive system run its pending effects until `done` holds.
pub async fn settle(what: &str, done: impl Fn() -> bool) {
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
pub fn fire(target: &web_sys::EventTarget, name: &str) {
    let init = js_sys::Object::new();
    js_sys::Reflect::set(&init, &"bubbles".into(), &true.into()).unwrap();
    let ctor: js_sys::Function =
        js_sys::Reflect::get(&js_sys::global(), &"Event".into()).unwrap().into();
    let event =
        js_sys::Reflect::construct(&ctor, &js_sys::Array::of2(&name.into(), &init)).unwrap();
    target.dispatch_event(event.unchecked_ref()).unwrap();
}

/// A key pressed (`keydown`) on `target`, bubbling as a real one does.
pub fn press(target: &web_sys::EventTarget, key: &str) {
    let init = js_sys::Object::new();
    js_sys::Reflect::set(&init, &"key".into(), &key.into()).unwrap();
    js_sys::Reflect::set(&init, &"bubbles".into(), &true.into()).unwrap();
    let ctor: js_sys::Function =
        js_sys::Reflect::get(&js_sys::global(), &"KeyboardEvent".into()).unwrap().into();
    let event =
        js_sys::Reflect::construct(&ctor, &js_sys::Array::of2(&"keydown".into(), &init)).unwrap();
    target.dispatch_event(event.unchecked_ref()).unwrap();
}

/// A mouse event `name` at (x, y) of `target`'s box, as a pointer would make it.
pub fn mouse(target: &HtmlElement, name: &str, ctor: &str, x: f64, y: f64) {
    let rect = target.get_bounding_client_rect();
    let init = js_sys::Object::new();
    js_sys::Reflect::set(&init, &"bubbles".into(), &true.into()).unwrap();
    js_sys::Reflect::set(&init, &"clientX".into(), &(rect.left() + x).into()).unwrap();
    js_sys::Reflect::set(&init, &"clientY".into(), &(rect.top() + y).into()).unwrap();
    js_sys::Reflect::set(&init, &"pointerType".into(), &"mouse".into()).unwrap();
    let ctor: js_sys::Function =
        js_sys::Reflect::get(&js_sys::global(), &ctor.into()).unwrap().into();
    let event =
        js_sys::Reflect::construct(&ctor, &js_sys::Array::of2(&name.into(), &init)).unwrap();
    target.dispatch_event(event.unchecked_ref()).unwrap();
}

/// What a user's typing causes: a new value, then an `input` event.
pub fn type_into(area: &HtmlTextAreaElement, text: &str) {
    area.set_value(text);
    fire(area, "input");
}

/// Where a canvas says its cells are (it writes its layout on itself).
#[derive(Debug)]
pub struct Cells {
    pub cell: f64,
    pub left: f64,
    pub top: f64,
}

pub fn cells(canvas: &HtmlCanvasElement) -> Option<Cells> {
    let attr = |name: &str| canvas.get_attribute(name)?.parse::<f64>().ok();
    Some(Cells { cell: attr("data-cell")?, left: attr("data-left")?, top: attr("data-top")? })
}

/// True once `selector` holds a map of `n × n` cells (a fresh canvas is
/// 300 × 150 until the first drawing, an empty one 0 × 0).
pub fn map_fits(root: &HtmlElement, selector: &str, n: usize) -> bool {
    let canvas: HtmlCanvasElement = find(root, selector);
    let dpr = web_sys::window().unwrap().device_pixel_ratio().max(1.0);
    cells(&canvas).is_some_and(|c| {
        let (w, h) = (c.left + c.cell * n as f64 + 4.0, c.top + c.cell * n as f64 + 4.0);
        (canvas.width(), canvas.height()) == ((w * dpr).round() as u32, (h * dpr).round() as u32)
    })
}

pub fn heatmap_fits(root: &HtmlElement, tokens: &[String]) -> bool {
    map_fits(root, "canvas#heatmap", tokens.len())
}

/// The colour inside cell (i, j) of the map in `selector`, near its top-left
/// corner (big cells carry their number in the middle).
pub fn pixel_in(root: &HtmlElement, selector: &str, i: usize, j: usize) -> [u8; 3] {
    let canvas: HtmlCanvasElement = find(root, selector);
    let ctx: CanvasRenderingContext2d =
        canvas.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    let dpr = web_sys::window().unwrap().device_pixel_ratio().max(1.0);
    let c = cells(&canvas).expect("the canvas has no layout yet");
    let at = |origin: f64, k: usize| {
        ((origin + c.cell * k as f64 + (0.15 * c.cell).max(1.0)) * dpr).floor()
    };
    let px = ctx.get_image_data(at(c.left, j), at(c.top, i), 1.0, 1.0).unwrap().data();
    [px[0], px[1], px[2]]
}

pub fn pixel_at_cell(root: &HtmlElement, i: usize, j: usize) -> [u8; 3] {
    pixel_in(root, "canvas#heatmap", i, j)
}

/// Checks that every cell of the heatmap has the colour of its weight.
pub fn assert_heatmap_shows(root: &HtmlElement, tokens: &[String], a: &Matrix) {
    assert!(
        heatmap_fits(root, tokens),
        "the canvas does not have the size of a map of {} tokens",
        tokens.len()
    );
    for i in 0..a.rows {
        for j in 0..a.cols {
            let (got, want) = (pixel_at_cell(root, i, j), cell_color(a[(i, j)]));
            assert_eq!(got, want, "cell ({i}, {j}) of weight {} has the wrong colour", a[(i, j)]);
        }
    }
}

/// The teaching model's detail of `head` for `text`, computed natively by the
/// same session the worker runs.
pub fn engine_head(text: &str, options: RunOptions, head: usize) -> (Session, HeadDetail) {
    let mut s = Session::new();
    s.run(1, ModelId::Teaching, text, options, &|| 0.0).unwrap();
    let d = s.head(0, head).unwrap();
    (s, d)
}

/// Every element matching `selector` (querySelectorAll through JS: web-sys's
/// `NodeList` is not among our features).
pub fn select_all(root: &HtmlElement, selector: &str) -> Vec<web_sys::Element> {
    let f: js_sys::Function =
        js_sys::Reflect::get(root, &"querySelectorAll".into()).unwrap().into();
    let list = f.call1(root, &selector.into()).unwrap();
    js_sys::Array::from(&list).iter().map(|e| e.unchecked_into()).collect()
}

pub fn texts(root: &HtmlElement, selector: &str) -> Vec<String> {
    select_all(root, selector).iter().map(|e| e.text_content().unwrap_or_default()).collect()
}

pub fn click(root: &HtmlElement, selector: &str) {
    find::<HtmlElement>(root, selector).click();
}

pub fn choose(root: &HtmlElement, selector: &str, value: &str) {
    let select: web_sys::HtmlSelectElement = find(root, selector);
    select.set_value(value);
    fire(&select, "change");
}

/// Opens the tab `slug` and waits until `ready` is on the page.
pub async fn open_tab(root: &HtmlElement, slug: &str, ready: &str) {
    click(root, &format!("#tab-{slug}"));
    settle(&format!("{ready} shown"), || exists(root, ready)).await;
}
