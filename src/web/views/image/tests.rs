//! The Image tab in the browser, on the committed numpy vision trace
//! (a class token and a register before 3 × 4 patches) opened by the session
//! as the worker opens it: the picture, its grid, the caption's share, the
//! query chosen by a special token's button, a click on a patch and the keys.

use super::ImageView;
use crate::compute::Engine;
use crate::state::{Appearance, Results, Selection};
use crate::test_support::*;
use crate::url_state::UrlState;
use crate::views::beyond::Analysis;
use attnscope::session::{
    FromWorker, HeadDetail, ModelId, RunOptions, RunSummary, Session, ToWorker,
};
use leptos::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;
use web_sys::{HtmlCanvasElement, HtmlElement};

const VISION: &[u8] =
    include_bytes!("../../../../tests/fixtures/tracefile/numpy_vision.safetensors");

/// A session with the trace open and run (id 1), as the worker holds it, and the run's summary.
fn session() -> (Session, RunSummary) {
    let mut s = Session::new();
    let source =
        attnscope::tracefile::SeekSource::new(std::io::Cursor::new(VISION.to_vec())).unwrap();
    s.open_trace(Box::new(source)).unwrap();
    let run = ToWorker::Run {
        id: 1,
        model: ModelId::Trace,
        text: String::new(),
        options: RunOptions::default(),
    };
    let FromWorker::Result(summary) = s.handle(run, &|| 0.0) else { panic!("no summary") };
    (s, *summary)
}

/// The trace's summary and head (layer 1, head 1), as the session sends them.
fn opened() -> (RunSummary, HeadDetail) {
    let (mut s, summary) = session();
    let head = ToWorker::Head { id: 1, layer: 1, head: 1, with_layer: true };
    let FromWorker::Head(detail) = s.handle(head, &|| 0.0) else { panic!("no head") };
    (summary, *detail)
}

fn mount() -> (HtmlElement, Selection, Results, Analysis) {
    let root = root_at("?view=image");
    let state = std::rc::Rc::new(std::cell::Cell::new(None::<(Selection, Results, Analysis)>));
    let keep = state.clone();
    leptos::mount::mount_to(root.clone(), move || {
        let start = UrlState::current();
        let (sel, res) = (Selection::new(&start), Results::new());
        provide_context(sel);
        provide_context(res);
        provide_context(Appearance::new(&start));
        provide_context(Engine::empty());
        let an = Analysis::provide(res);
        keep.set(Some((sel, res, an)));
        view! {
            <div style="width: 600px; height: 500px">
                <ImageView />
            </div>
        }
    })
    .forget();
    let (sel, res, an) = state.get().unwrap();
    (root, sel, res, an)
}

#[wasm_bindgen_test]
async fn the_picture_is_cut_into_its_patches_and_a_patch_or_a_special_token_is_the_query() {
    let (root, sel, res, an) = mount();
    settle("the note without a vision trace", || exists(&root, "#image-none")).await;

    let (summary, detail) = opened();
    let row = |q: usize| detail.weights.row(q).to_vec();
    sel.layer.set(1);
    sel.head.set(1);
    res.summary.set(Some(summary));
    res.detail.set(Some(detail.clone()));
    settle("the picture drawn", || exists(&root, "#image-overlay[data-query]")).await;
    let canvas: HtmlCanvasElement = find(&root, "#image-overlay");
    assert_eq!(canvas.get_attribute("data-rows").as_deref(), Some("3"));
    assert_eq!(canvas.get_attribute("data-cols").as_deref(), Some("4"));
    assert_eq!(canvas.get_attribute("data-query").as_deref(), Some("0"));
    // The caption's share: the class token's weights on tokens 2…13, the patches.
    let share: f32 = row(0)[2..14].iter().sum();
    let caption = text_of(&root, "#image-caption");
    assert!(caption.starts_with("Layer 1 · head 1: where [CLS] looks"), "{caption}");
    assert!(
        caption.contains(&format!("{:.0}% of its weight goes to the 12 patches", share * 100.0)),
        "{caption}"
    );
    assert!(caption.contains("the 2 special tokens"), "{caption}");
    let top = row(0)[2..14].iter().copied().fold(0.0f32, f32::max);
    assert!(caption.contains(&format!("{top:.3}")), "{caption}");

    // The register's button chooses it.
    assert_eq!(texts(&root, ".image-special"), ["[CLS]", "[REG]"]);
    click(&root, "#image-special-1");
    settle("the register as the query", || sel.token.get_untracked() == Some(1)).await;
    settle("its caption", || text_of(&root, "#image-caption").contains("where [REG] looks")).await;
    assert_eq!(
        find::<HtmlElement>(&root, "#image-special-1").get_attribute("aria-pressed").as_deref(),
        Some("true")
    );

    // A click in patch (1, 2) chooses its token, 2 + 1·4 + 2 = 8.
    let picture: Vec<f64> = canvas
        .get_attribute("data-picture")
        .unwrap()
        .split(',')
        .map(|v| v.parse().unwrap())
        .collect();
    let (x, y, w, h) = (picture[0], picture[1], picture[2], picture[3]);
    assert!(w > 100.0 && h > 50.0, "{picture:?}");
    mouse(&canvas, "click", "MouseEvent", x + w * 2.5 / 4.0, y + h * 1.5 / 3.0);
    settle("patch 1,2 as the query", || sel.token.get_untracked() == Some(8)).await;
    settle("its caption", || text_of(&root, "#image-caption").contains("where patch 1,2 looks"))
        .await;
    // Its readout names the patch it weighs most.
    let cells = &row(8)[2..14];
    let most = (0..12).max_by(|&a, &b| cells[a].total_cmp(&cells[b])).unwrap();
    let readout = text_of(&root, "#image-readout");
    assert!(
        readout.starts_with(&format!("Most weight: patch {},{}", most / 4, most % 4)),
        "{readout}"
    );

    // The lesson's notions on the picture: patch 1,2 as the query, every token a key, and the
    // weight of the key it weighs most (this trace holds weights only).
    let steps = text_of(&root, "#image-steps");
    let all = row(8);
    let key = (0..all.len()).max_by(|&a, &b| all[a].total_cmp(&all[b])).unwrap();
    let key_name = if key < 2 {
        ["[CLS]", "[REG]"][key].to_string()
    } else {
        format!("patch {},{}", (key - 2) / 4, (key - 2) % 4)
    };
    assert!(steps.contains("patch 1,2 (the trace holds no queries and keys)"), "{steps}");
    assert!(steps.contains("all 14 tokens, the 12 patches and 2 special"), "{steps}");
    assert!(steps.contains(&format!("weighs most is {key_name}, with {:.4}", all[key])), "{steps}");

    // The arrow keys move it a patch at a time, and stop at the edge.
    let key = |name: &str| press(&canvas, name);
    key("ArrowUp");
    settle("patch 0,2", || sel.token.get_untracked() == Some(4)).await;
    key("ArrowUp");
    key("ArrowLeft");
    settle("patch 0,1", || sel.token.get_untracked() == Some(3)).await;
    assert!(!text_of(&root, "#view-image").contains("NaN"));

    // Rollout: the session's R after the last layer, row 3 (patch 0,1), over the patches.
    let (mut s, _) = session();
    let ask = ToWorker::Analyze {
        id: 1,
        model: ModelId::Trace,
        text: String::new(),
        request: attnscope::session::AnalysisRequest::Rollout,
    };
    let FromWorker::Analysis { reply, .. } = s.handle(ask, &|| 0.0) else { panic!("no rollout") };
    let attnscope::session::AnalysisReply::Rollout { layers, .. } = &*reply else { panic!() };
    let share: f32 = layers[1].row(3)[2..14].iter().sum();
    let want = format!("{:.0}% comes from the 12 patches", share * 100.0);
    choose(&root, "#image-source", "rollout");
    settle("asked", || text_of(&root, "#image-caption").starts_with("Rollout: computing")).await;
    an.take(1, *reply);
    settle("the rollout's caption", || text_of(&root, "#image-caption").contains(&want)).await;
    choose(&root, "#image-source", "head");

    // Every head of the layer side by side, from the session's rows for the query; a click on
    // the first copy chooses head 1 (the page has no worker here: the reply is set as it comes).
    let details: HtmlElement = find(&root, "#image-heads-details");
    details.set_attribute("open", "").unwrap();
    fire(&details, "toggle");
    let (mut s, _) = session();
    let ask = ToWorker::QueryRows { id: 1, layer: 1, query: 3 };
    let FromWorker::QueryRows { id, layer, query, rows } = s.handle(ask, &|| 0.0) else {
        panic!("no rows")
    };
    res.query_rows.set(Some(crate::state::QueryRows { id, layer, query, rows }));
    settle("the heads drawn", || exists(&root, "#image-heads[data-heads='2']")).await;
    let heads: HtmlCanvasElement = find(&root, "#image-heads");
    mouse(&heads, "click", "MouseEvent", 20.0, 20.0);
    settle("head 1 chosen", || sel.head.get_untracked() == 0).await;
    root.remove();
}
