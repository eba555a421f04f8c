//! The page: a control bar, the stage (the picture of the view chosen,
//! filling the room the viewport leaves) with the tokens above it, and a
//! side panel (below the stage on a narrow screen). The numbers come from
//! a Web Worker running the built-in teaching model or a downloaded real
//! model; the state lives in a few context structs and in the URL.

use super::controls::{ControlBar, HeadPicker};
use super::offline::OfflineState;
use super::panel::{Rail, TokenList};
use crate::canvas::Look;
use crate::compute::{model_name, Engine};
use crate::downloads;
use crate::state::{Appearance, Found, LoadState, Results, Selection, Writing};
use crate::url_state::{UrlState, View};
use crate::views::catalog::CatalogView;
use crate::views::common::stages::StageMotion;
use crate::views::explain::ExplainView;
use crate::views::grid::dotgrid::GridView;
use crate::views::head::heatmap::HeadView;
use crate::views::lesson::LessonView;
use crate::views::model::overview::OverviewView;
use crate::views::worked::WorkedExampleView;
use attnscope::session::{FromWorker, ModelId, RunOptions, ToWorker};
use leptos::prelude::*;
use std::time::Duration;

/// How long typing (or dragging a slider) must pause before the address takes it.
const TYPING_PAUSE: Duration = Duration::from_millis(400);

/// The whole page, computing in a Web Worker.
#[component]
pub fn App() -> impl IntoView {
    view! { <Page in_page=false /> }
}

/// The page; `in_page` computes on the page's own thread and leaves the
/// service worker alone (component tests).
#[component]
pub fn Page(
    /// Compute without a worker.
    in_page: bool,
) -> impl IntoView {
    let mut start = UrlState::current();
    // The address's language, else the browser's. A notebook's page cannot fetch catalogs (it
    // runs from blob: addresses): it stays English.
    let lang = (!crate::hosted::is_hosted()).then(|| crate::i18n::starting(start.lang));
    // A page opened in another language without a text of its own reads that language's
    // sentence (the presets' adjective–noun one).
    if let Some(lang) = lang.filter(|&l| l != crate::i18n::Lang::En) {
        if !address_has_text() {
            start.text = super::presets::default_text(lang).to_string();
        }
    }
    let sel = Selection::new(&start);
    let app = Appearance::new(&start);
    let res = Results::new();
    let writing = Writing::new(&start);
    let engine = Engine::empty();
    let offline = OfflineState::new();
    let opened = super::open_model::OpenModel::new();
    provide_context(opened);
    provide_context(sel);
    provide_context(app);
    provide_context(app.look);
    provide_context(res);
    provide_context(engine);
    provide_context(writing);
    provide_context(offline);
    provide_context(StageMotion::new(sel));
    crate::views::beyond::Analysis::provide(res);
    let speech = crate::views::speech::Speech::provide();
    super::classroom::Class::provide(sel, app, writing);

    engine.set(in_page, on_reply(sel, res, engine, offline, opened, speech));
    compute_on_change(sel, res, engine);
    crate::views::write::follow::follow(crate::views::write::Flow::from_context());
    // A hosted page has no address of its own (about:srcdoc in a notebook's frame),
    // and must not add entries to its host's history.
    if !crate::hosted::is_hosted() {
        keep_url(sel, app, writing);
    }
    restyle(app);
    crate::views::translation::translate::follow_model(sel);
    crate::views::image::follow_vision(sel, res);
    if !in_page && !crate::hosted::is_hosted() {
        offline.register();
        offline.refresh_saved();
    }
    if let Some(lang) = lang.filter(|&l| l != crate::i18n::lang()) {
        leptos::task::spawn_local(async move {
            if let Err(reason) = crate::i18n::switch(lang).await {
                res.error.set(tr!("page-language-failed", language = lang.name(), reason = reason));
            }
        });
    }

    // Drawn again, whole, in another language (the state above is kept).
    move || {
        crate::i18n::lang();
        view! { <Shell /> }
    }
}

/// Everything the page shows.
#[component]
fn Shell() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let app = expect_context::<Appearance>();
    view! {
        <div
            class="shell"
            class:embed=app.embed
            data-view=move || sel.view.get().slug()
            data-lesson-step=move || {
                (sel.view.get() == View::Lesson).then(|| (sel.step.get() + 1).to_string())
            }
        >
            {(!app.embed).then(|| view! { <ControlBar /> })}
            <super::classroom::FollowBanner />
            <StageHeader />
            <TokenList />
            <crate::views::write::timeline::Timeline />
            <main class="stage-area" id="stage">
                <RunProgress />
                <StageView />
            </main>
            {(!app.embed).then(|| view! { <Rail /> })}
            <super::classroom::JoinCode />
            <super::classroom::QuestionCard />
            {app
                .embed
                .then(|| {
                    view! {
                        <a
                            class="open-full"
                            href=move || {
                                let mut s = UrlState::current();
                                s.embed = false;
                                s.to_query()
                            }
                            target="_blank"
                            rel="noopener"
                        >
                            {tr!("page-open-full")}
                        </a>
                    }
                })}
        </div>
    }
}

/// Whether the page's address names a text (else the page picks one).
fn address_has_text() -> bool {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|q| attnscope::url_params::UrlParams::parse(&q).text.is_some())
}

/// `#run-progress`, over the picture while a long text computes (seconds
/// at 1,000 tokens): how many of the model's layers are done. The picture
/// under it is the previous run's until the new one arrives.
#[component]
fn RunProgress() -> impl IntoView {
    let res = expect_context::<Results>();
    let shown = move || res.summary.with(|s| s.as_ref().map_or(0, |s| s.id));
    let progress =
        move || res.computing.get().filter(|&(id, ..)| id == res.asked.get() && id > shown());
    move || {
        progress().map(|(_, done, blocks, tokens)| {
            view! {
                <p id="run-progress" class="run-progress" role="status">
                    {tr!("page-run-progress", tokens = tokens, done = done, blocks = blocks)}
                    <progress max=blocks value=done></progress>
                </p>
            }
        })
    }
}

/// What to do with each reply of the worker (or of the page's own session).
fn on_reply(
    sel: Selection,
    res: Results,
    engine: Engine,
    offline: OfflineState,
    opened: super::open_model::OpenModel,
    speech: crate::views::speech::Speech,
) -> impl Fn(FromWorker) + 'static {
    let analysis = expect_context::<crate::views::beyond::Analysis>();
    let writing = crate::views::write::Flow::from_context();
    // A step of writing waits here for its head's detail, so that the views
    // change once a token, with the new run and its head together.
    let held = StoredValue::new(None::<attnscope::session::RunSummary>);
    let held_id = move || held.with_value(|h| h.as_ref().map(|s| s.id));
    let show_held = move || {
        if let Some(s) = held.try_update_value(Option::take).flatten() {
            res.summary.set(Some(s));
        }
    };
    move |msg: FromWorker| match msg {
        FromWorker::Ready => res.worker_ready.set(true),
        FromWorker::Progress { model, loaded, total } => res.loads.update(|m| {
            m.insert(model, LoadState::Loading { loaded, total });
        }),
        FromWorker::Loaded { model } => {
            res.loads.update(|m| {
                m.insert(model, LoadState::Ready);
            });
            offline.refresh_saved();
        }
        FromWorker::LoadFailed { model, message } => {
            res.loads.update(|m| {
                m.insert(model, LoadState::Failed(message.clone()));
            });
            res.error.set(tr!("page-load-failed", model = model_name(model), message = message));
        }
        FromWorker::Computing { id, done, blocks, tokens } => {
            res.computing.set(Some((id, done, blocks, tokens)))
        }
        FromWorker::Result(s) if s.id == engine.latest() => {
            let (layers, heads) = (s.info.n_layers, s.info.n_heads);
            // A hosted page opens at its host's layer and head once its trace is in
            // (the teaching model's run before it cut them to its own size).
            if crate::hosted::first_trace_run(&s.info.id) {
                let start = UrlState::current();
                sel.layer.set(start.layer);
                sel.head.set(start.head);
            }
            // Keep the selection inside the model (a URL may ask for more).
            if sel.layer.get_untracked() >= layers {
                sel.layer.set(0);
            }
            if sel.head.get_untracked() >= heads {
                sel.head.set(0);
            }
            if sel.token.get_untracked().is_some_and(|t| t >= s.tokens.len()) {
                sel.token.set(None);
            }
            res.error.set(String::new());
            engine.send(ToWorker::Head {
                id: s.id,
                layer: sel.layer.get_untracked(),
                head: sel.head.get_untracked(),
                with_layer: true,
            });
            // After the head: a next step of writing computes while this one is drawn.
            writing.take(&s);
            // A step held before is overtaken (its head failed to come).
            show_held();
            if s.written.is_some() {
                held.set_value(Some(*s));
            } else {
                res.summary.set(Some(*s));
            }
        }
        // Also the run shown's (or held), while writing asks for the next run.
        FromWorker::Head(mut d)
            if d.id == engine.latest()
                || Some(d.id) == held_id()
                || Some(d.id) == res.summary.with_untracked(|s| s.as_ref().map(|s| s.id)) =>
        {
            if Some(d.id) == held_id() {
                show_held();
            }
            if d.layer_left_out && !res.lend_layer(&mut d) {
                // The head before, whose layer this one shares, was replaced meanwhile: ask again
                // for the whole.
                engine.send(ToWorker::Head {
                    id: d.id,
                    layer: d.layer,
                    head: d.head,
                    with_layer: true,
                });
                return;
            }
            res.detail.set(Some(*d))
        }
        FromWorker::Heads { id, query, key, heads } if id == engine.latest() => {
            res.found.set(Some(Found { id, query, key, heads }))
        }
        FromWorker::QueryRows { id, layer, query, rows } if id == engine.latest() => {
            res.query_rows.set(Some(crate::state::QueryRows { id, layer, query, rows }))
        }
        FromWorker::Compared { id, tokens, detail } if id == engine.latest() => {
            res.compared.set(Some(crate::state::Compared {
                tokens,
                detail: *detail,
                what: tr!("page-other-sentence"),
            }))
        }
        FromWorker::Analysis { id, reply } if id == engine.latest() => analysis.take(id, *reply),
        FromWorker::Export { json, .. } => {
            downloads::save("attention.json", "application/json", &json)
        }
        FromWorker::Failed { id, message } if speech.owns(id) => speech.failed(id, message),
        // The head of a step held: the step is shown without it.
        FromWorker::Failed { id, message } if Some(id) == held_id() && id != engine.latest() => {
            show_held();
            res.error.set(message)
        }
        FromWorker::Failed { id, message } if id == 0 || id == engine.latest() => {
            show_held();
            analysis.failed(&message);
            writing.failed();
            res.error.set(message)
        }
        FromWorker::Custom(reply) => opened.receive(reply, sel, res),
        FromWorker::Heard { id, speech: heard } => speech.take(id, *heard),
        FromWorker::SpeechStep { id, step } => speech.take_step(id, *step),
        _ => {} // a reply about text that has since changed
    }
}

/// Text, model, options or readiness changed: compute (or first load the
/// model); the selected head changed: fetch its detail; the comparison
/// follows its text, the head and every run.
fn compute_on_change(sel: Selection, res: Results, engine: Engine) {
    let writing = crate::views::write::Flow::from_context();
    Effect::new(move |prev: Option<Option<(ModelId, RunOptions, bool)>>| {
        if !res.worker_ready.get() {
            return None;
        }
        let (m, text, options) = (sel.model.get(), sel.text.get(), sel.options.get());
        let now = Some((m, options, sel.exact.get()));
        let state = res.load_state(m);
        // The text a step of writing put in the box: that step's run is the latest already.
        if prev.flatten() == now && writing.w.produced.with_value(|p| p.as_deref() == Some(&text)) {
            return now;
        }
        writing.interrupt(&text, prev.flatten().is_none_or(|p| p.0 == m));
        match state {
            LoadState::Ready => {
                let id = engine.next_run();
                res.asked.set(id);
                engine.send(ToWorker::Run { id, model: m, text, options });
            }
            LoadState::NotLoaded => {
                let exact = sel.exact.get();
                res.loads.update(|l| {
                    l.insert(
                        m,
                        LoadState::Loading { loaded: 0, total: m.download_bytes_for(exact) },
                    );
                });
                engine.send(ToWorker::Load { model: m, exact });
            }
            _ => {}
        }
        now
    });
    Effect::new(move |prev: Option<(usize, usize)>| {
        let now = (sel.layer.get(), sel.head.get());
        if prev.is_some() && prev != Some(now) && res.summary.with_untracked(|s| s.is_some()) {
            let id = engine.latest();
            // Another head of the same layer: the page keeps the layer's E, E + ΔE and ΔE.
            engine.send(ToWorker::Head {
                id,
                layer: now.0,
                head: now.1,
                with_layer: !res.shows_layer(id, now.0),
            });
        }
        now
    });
    let analysis = expect_context::<crate::views::beyond::Analysis>();
    Effect::new(move |_| {
        let text = sel.compare_text.get();
        let (layer, head, options, model) =
            (sel.layer.get(), sel.head.get(), sel.options.get(), sel.model.get());
        let run = res.run_id();
        // A patched run opened from a map takes the place of the other sentence.
        if analysis.ask_patched_head(engine, sel, run, (layer, head)) {
            return;
        }
        if text.trim().is_empty() {
            res.compared.set(None);
        } else if run.is_some() && res.load_state(model) == LoadState::Ready {
            engine.send(ToWorker::Compare {
                id: engine.latest(),
                model,
                text,
                options,
                layer,
                head,
            });
        }
    });
}

/// Keeps the URL in step with the state: a new history entry for a new
/// model, layer, head, view or lesson step; the same entry, once the
/// visitor pauses, for typing, sliders, a chosen token or the look. Each
/// replacement is a navigation to the browser, which commits it and fetches
/// the favicon again, 15–25 ms of work in the browser and the page per
/// keystroke (measured in headless Chromium) that would compete with the
/// worker computing that keystroke. Back and forward restore the state.
fn keep_url(sel: Selection, app: Appearance, writing: Writing) {
    // The theme goes into the URL only where it is not the system's.
    let system_dark = web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches());
    let pending: StoredValue<Option<TimeoutHandle>> = StoredValue::new(None);
    // Cancels the pending replacement; says whether there was one.
    let cancel = move || {
        pending.try_update_value(Option::take).flatten().map(|handle| handle.clear()).is_some()
    };
    Effect::new(move |prev: Option<UrlState>| {
        let state = super::page_state::current(sel, app, writing, system_dark);
        if let Some(p) = &prev {
            // An embedded page never adds entries to its host's history.
            if p.is_navigation_to(&state) && !app.embed {
                // The entry being left keeps what was typed into it.
                if cancel() {
                    p.record(false);
                }
                state.record(true);
            } else if *p != state {
                cancel();
                let later = state.clone();
                let replace = move || {
                    pending.set_value(None);
                    later.record(false);
                };
                match set_timeout_with_handle(replace, TYPING_PAUSE) {
                    Ok(handle) => pending.set_value(Some(handle)),
                    Err(_) => state.record(false),
                }
            }
        }
        state
    });
    let on_pop = window_event_listener(leptos::ev::popstate, move |_| {
        // Too late to record what was typed just before: the address is
        // already the entry navigated to, which must not take it.
        cancel();
        super::page_state::apply(UrlState::current(), sel, app, writing, true);
    });
    on_cleanup(move || {
        on_pop.remove();
        cancel();
    });
}

/// Dark and presentation mode restyle the page; the canvases then take the new look.
fn restyle(app: Appearance) {
    Effect::new(move |_| {
        if let Some(root) =
            web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element())
        {
            let _ = root.class_list().toggle_with_force("dark", app.dark.get());
            let _ = root.class_list().toggle_with_force("present", app.present.get());
            let _ = root.class_list().toggle_with_force("embed", app.embed);
        }
        let now = Look::current();
        // Only a changed look redraws the canvases.
        app.look.maybe_update(|look| {
            let changed = *look != now;
            *look = now;
            changed
        });
    });
}

/// The view tabs above the stage (embedded: the layer and head picker,
/// the rail's being absent).
#[component]
fn StageHeader() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let app = expect_context::<Appearance>();
    let vision = crate::views::image::has_vision(expect_context::<Results>());
    // A hosted page's trace has no speech, and the lesson needs a live model.
    let hosted = crate::hosted::is_hosted();
    let tabs = NodeRef::<leptos::html::Nav>::new();
    // Where the tabs scroll sideways (a phone), the chosen one is scrolled into sight.
    Effect::new(move |_| {
        let v = sel.view.get();
        let Some(nav) = tabs.get() else { return };
        let Some(tab) = nav.query_selector(&format!("#tab-{}", v.slug())).ok().flatten() else {
            return;
        };
        let Ok(tab) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(tab) else { return };
        let (left, width, seen, scroll) = (
            tab.offset_left() - nav.offset_left(),
            tab.offset_width(),
            nav.client_width(),
            nav.scroll_left(),
        );
        if left < scroll || left + width > scroll + seen {
            nav.set_scroll_left((left - 24).max(0));
        }
    });
    view! {
        <div class="stage-header">
            {if app.embed {
                view! { <HeadPicker /> }.into_any()
            } else {
                view! {
                    <nav class="tabs" role="tablist" aria-label=tr!("page-views") node_ref=tabs>
                        {View::ALL
                            .into_iter()
                            .map(|v| {
                                view! {
                                    <button
                                        role="tab"
                                        id=format!("tab-{}", v.slug())
                                        class:lesson=v == View::Lesson
                                        hidden=move || {
                                            (v == View::Translate && !sel.model.get().is_translation())
                                                || (v == View::Image && !vision.get())
                                                || (hosted && matches!(v, View::Speech | View::Lesson))
                                        }
                                        aria-selected=move || (sel.view.get() == v).to_string()
                                        aria-controls="stage"
                                        title=v.label()
                                        on:click=move |_| sel.view.set(v)
                                    >
                                        {
                                            let (first, rest) = v.label_parts();
                                            view! {
                                                {first}
                                                <span class="long">{rest}</span>
                                            }
                                        }
                                    </button>
                                }
                            })
                            .collect_view()}
                    </nav>
                }
                    .into_any()
            }}
        </div>
    }
}

/// The view chosen; only it is built (some views make many nodes).
#[component]
fn StageView() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let view = Memo::new(move |_| sel.view.get());
    let (trace, no_qk) = super::open_trace::trace_shown();
    move || match view.get() {
        View::Lesson if trace.get() => view! { <super::open_trace::NeedsLiveModel /> }.into_any(),
        View::Explain | View::Space if no_qk.get() => {
            view! { <super::open_trace::NeedsQueriesKeys /> }.into_any()
        }
        View::Head => view! { <HeadView /> }.into_any(),
        View::Grid => view! { <GridView /> }.into_any(),
        View::Overview => view! { <OverviewView /> }.into_any(),
        View::Explain => view! { <ExplainView /> }.into_any(),
        View::Space => view! { <crate::views::space::SpaceView /> }.into_any(),
        View::Catalog => view! { <CatalogView /> }.into_any(),
        View::Worked => view! {
            <div class="view-document" id="view-worked">
                <WorkedExampleView />
            </div>
        }
        .into_any(),
        View::Lesson => view! { <LessonView /> }.into_any(),
        View::Beyond => view! { <crate::views::beyond::BeyondView /> }.into_any(),
        View::Translate => {
            view! { <crate::views::translation::translate::TranslateView /> }.into_any()
        }
        View::Speech => view! { <crate::views::speech::SpeechView /> }.into_any(),
        View::Image => view! { <crate::views::image::ImageView /> }.into_any(),
    }
}
