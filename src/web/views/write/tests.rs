//! Writing's card, bars, timeline and URL settings in the browser, with
//! made-up runs (the component tests have no decoder: only the teaching
//! model computes in the page).

use super::bars::Bars;
use super::card::WriteCard;
use super::timeline::Timeline;
use crate::compute::Engine;
use crate::state::{Appearance, Results, Selection, Step, WriteState, Writing};
use crate::test_support::*;
use crate::url_state::UrlState;
use attnscope::attention::Mask;
use attnscope::models::sampling::Written;
use attnscope::models::sampling::{choose, Sampling};
use attnscope::session::{ModelId, RunOptions, RunSummary, Session};
use leptos::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;
use web_sys::{HtmlElement, HtmlInputElement};

type Contexts = (Selection, Results, Writing);

/// Mounts `view` with the page's contexts (no worker: the engine answers nothing).
fn mount_with<V: IntoView + 'static>(query: &str, view: fn() -> V) -> (HtmlElement, Contexts) {
    let root = root_at(query);
    let state = std::rc::Rc::new(std::cell::Cell::new(None::<Contexts>));
    let keep = state.clone();
    leptos::mount::mount_to(root.clone(), move || {
        let start = UrlState::current();
        let (sel, res, w) = (Selection::new(&start), Results::new(), Writing::new(&start));
        provide_context(sel);
        provide_context(res);
        provide_context(w);
        provide_context(Appearance::new(&start));
        provide_context(Engine::empty());
        keep.set(Some((sel, res, w)));
        view()
    })
    .forget();
    (root, state.get().unwrap())
}

/// A run's summary as a model with `mask` would send it (the teaching model's, relabelled).
fn summary(mask: Mask) -> RunSummary {
    let mut s = Session::new();
    let mut r = s.run(1, ModelId::Teaching, "the cat sat", RunOptions::default(), &|| 0.0).unwrap();
    r.info.mask = mask;
    r
}

/// A step of writing from made-up logits: token i has logit −i/2.
fn step(settings: &Sampling, n: u64) -> Step {
    let logits: Vec<f32> = (0..40).map(|i| -(i as f32) / 2.0).collect();
    let choice = choose(&logits, settings, n, 10, None).unwrap();
    let candidates = choice.candidates.iter().map(|c| format!("t{}", c.id)).collect();
    let token = format!("t{}", choice.id);
    Step {
        written: Written { step: n, choice, token, candidates, stop: None },
        tokens: 4 + n as usize,
    }
}

#[wasm_bindgen_test]
async fn the_card_is_offered_for_decoders_only() {
    let (root, (sel, res, _)) = mount_with("?", || view! { <WriteCard /> });
    res.summary.set(Some(summary(Mask::Causal)));
    sleep_ms(10).await;
    assert!(!exists(&root, "#write-card"), "the teaching model writes nothing: no card");

    sel.model.set(ModelId::SmolLm2);
    settle("the card for SmolLM2", || exists(&root, "#write-go")).await;
    let card: HtmlElement = find(&root, "#write-card");
    assert_eq!(card.get_attribute("data-state").as_deref(), Some("idle"));
    assert_eq!(card.get_attribute("data-steps").as_deref(), Some("0"));
    for id in ["#write-step", "#write-pause", "#write-stop", "#write-count", "#write-mode"] {
        assert!(exists(&root, id), "{id} is missing");
    }
    assert_eq!(find::<HtmlInputElement>(&root, "#write-count").value(), "20");

    // An opened decoder writes; an opened encoder says why it does not.
    sel.model.set(ModelId::Custom);
    settle("the card for an opened decoder", || exists(&root, "#write-go")).await;
    res.summary.set(Some(summary(Mask::None)));
    settle("the encoder's note", || exists(&root, "#write-card") && !exists(&root, "#write-go"))
        .await;
    assert!(text_of(&root, "#write-card").contains("encoder"));
    sel.model.set(ModelId::Trace);
    settle("the trace file's note", || text_of(&root, "#write-card").contains("trace file")).await;
    root.remove();
}

#[wasm_bindgen_test]
async fn the_bars_grey_the_cut_and_mark_the_chosen_token() {
    let (root, (_, _, w)) = mount_with("?", || view! { <Bars /> });
    let settings = Sampling { greedy: false, temperature: 1.0, top_k: 3, top_p: 1.0, seed: 7 };
    let s = step(&settings, 0);
    let chosen = s.written.choice.id;
    w.steps.set(vec![s]);
    settle("the bars", || exists(&root, "#write-bars li")).await;
    assert_eq!(select_all(&root, "#write-bars li:not(.cut-line)").len(), 10);
    assert_eq!(select_all(&root, "#write-bars li.cut").len(), 7, "top-k 3 greys the other 7");
    assert_eq!(select_all(&root, "#write-bars li.cut-line").len(), 1);
    let marked = texts(&root, "#write-bars li.chosen code");
    assert_eq!(marked, [format!("{:?}", format!("t{chosen}"))]);
    assert!(chosen < 3, "the draw keeps to the kept tokens");
    let kept = text_of(&root, "#write-bars .kept");
    assert!(kept.starts_with("kept 3 tokens, ") && kept.ends_with("renormalized"), "{kept}");
    assert!(text_of(&root, "#write-bars .chosen-note").contains("renormalized (draw 0."));
    root.remove();
}

#[wasm_bindgen_test]
async fn the_timeline_spans_the_steps_and_now() {
    let (root, (_, _, w)) = mount_with("?", || view! { <Timeline /> });
    sleep_ms(10).await;
    assert!(!exists(&root, "#write-timeline"), "no generation, no timeline");
    let greedy = Sampling::default();
    w.steps.set((0..3).map(|n| step(&greedy, n)).collect());
    w.state.set(WriteState::Done);
    settle("the timeline", || exists(&root, "#write-timeline")).await;
    let range: HtmlInputElement = find(&root, "#write-timeline");
    assert_eq!((range.min(), range.max(), range.value()), ("1".into(), "4".into(), "4".into()));
    range.set_value("2");
    fire(&range, "input");
    settle("step 2 shown", || {
        w.at.get_untracked() == Some(2) && text_of(&root, ".write-timeline").contains("step 2 of 3")
    })
    .await;
    range.set_value("4");
    fire(&range, "input");
    settle("now again", || w.at.get_untracked().is_none()).await;
    root.remove();
}

#[wasm_bindgen_test]
fn writing_settings_round_trip_through_the_url() {
    let s = UrlState::parse("?model=smollm2&sample=1&topk=40&topp=0.95&seed=7&n=12&ntemp=0.8");
    let want = Sampling { greedy: false, temperature: 1.0, top_k: 40, top_p: 0.95, seed: 7 };
    assert_eq!((s.writing, s.write_count), (want, 12));
    assert_eq!(s.options.next_token_temperature, 0.8);
    let q = s.to_query();
    assert!(q.contains("sample=1&topk=40&topp=0.950&seed=7&n=12"), "{q}");
    assert_eq!(UrlState::parse(&q), s);
    // Defaults stay out of the link.
    let plain = UrlState::default().to_query();
    assert!(!plain.contains("sample") && !plain.contains("seed") && !plain.contains("n="));
}
