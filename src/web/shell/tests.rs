//! The page as a whole in the browser: it opens on the default sentence,
//! recomputes as the visitor types, finds a preset's best head, and its
//! exports wait for one run's tokens and weights.

use crate::compute::Engine;
use crate::shell::panel::Exports;
use crate::state::{Results, Selection};
use crate::test_support::*;
use crate::url_state::{UrlState, DEFAULT_TEXT};
use crate::views::common::format::num;
use attnscope::models::teaching::TeachingModel;
use attnscope::session::{FromWorker, ModelId, RunOptions, Session};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;
use web_sys::{HtmlCanvasElement, HtmlElement, HtmlTextAreaElement};

#[wasm_bindgen_test]
async fn opens_with_the_default_sentence_its_tokens_and_heatmap() {
    let root = mount_app();
    let expected = TeachingModel::new().run(DEFAULT_TEXT).unwrap();
    settle("tokens shown", || !token_texts(&root).is_empty()).await;

    assert_eq!(find::<HtmlTextAreaElement>(&root, "textarea#text").value(), DEFAULT_TEXT);
    assert_eq!(token_texts(&root), expected.tokens);
    let status = text_of(&root, "#status");
    assert!(
        status.contains("computed in") && status.ends_with(" ms in your browser"),
        "status: {status:?}"
    );
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

/// A preset's best head is found on the run: for the fluffy creature, the
/// head in which "creature" attends most to "fluffy", ranked from A.
#[wasm_bindgen_test]
async fn a_presets_best_head_is_found_from_the_run() {
    let root = mount_app();
    settle("tokens shown", || !token_texts(&root).is_empty()).await;
    let (mut s, _) = engine_head(DEFAULT_TEXT, RunOptions::default(), 0);
    let FromWorker::Heads { heads, .. } =
        s.handle(attnscope::session::ToWorker::FindHeads { id: 1, query: 3, key: 1 }, &|| 0.0)
    else {
        panic!("no ranking")
    };
    let best = &heads[0];
    let want = format!(
        "“creature” → “fluffy” is strongest in layer {}, head {}: weight {}",
        best.layer,
        best.head,
        num(best.weight)
    );
    settle("the preset's suggestion", || {
        exists(&root, "#preset-note .suggestion")
            && text_of(&root, "#preset-note .suggestion") == want
    })
    .await;
    click(&root, "#preset-note .suggestion");
    let head: web_sys::HtmlSelectElement = find(&root, "select#head");
    settle("the suggested head selected", || head.value() == best.head.to_string()).await;

    // Another preset puts its sentence in the box.
    choose(&root, "select#preset", "repeat");
    settle("the repeated sequence computed", || token_texts(&root).len() == 12).await;
    let summary = Session::new()
        .run(
            1,
            ModelId::Teaching,
            crate::shell::presets::PRESETS[4].text,
            RunOptions::default(),
            &|| 0.0,
        )
        .unwrap();
    let (l, h, v) =
        crate::shell::presets::best_by(&summary, crate::views::catalog::Column::Previous).unwrap();
    settle("previous-token head found", || {
        texts(&root, "#preset-note .suggestion").first().is_some_and(|t| {
            *t == format!("Strongest “Previous token”: layer {l}, head {h} ({})", num(v))
        })
    })
    .await;
    root.remove();
}

fn disabled(root: &HtmlElement, selector: &str) -> bool {
    find::<HtmlElement>(root, selector).has_attribute("disabled")
}

#[wasm_bindgen_test]
async fn exports_wait_until_tokens_and_weights_are_of_one_run() {
    // Two runs of the session the worker runs: the one shown, then a new text.
    let mut session = Session::new();
    let old =
        session.run(1, ModelId::Teaching, DEFAULT_TEXT, RunOptions::default(), &|| 0.0).unwrap();
    let old_head = session.head(0, 0).unwrap();
    let new =
        session.run(2, ModelId::Teaching, "the cat sat", RunOptions::default(), &|| 0.0).unwrap();
    let new_head = session.head(0, 0).unwrap();
    assert_ne!(old.tokens.len(), new.tokens.len());

    web_sys::window()
        .unwrap()
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("?"))
        .unwrap();
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
    // Typing asked for a new run: the picture is still the old run's, the worker's newest trace
    // soon is not.
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
