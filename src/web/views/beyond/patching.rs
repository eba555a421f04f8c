//! Activation patching (decoders): the page's text is the clean prompt; a
//! corrupted prompt of the same length, a right and a wrong answer, and the
//! maps of how much of the clean answer each patched activation restores,
//! computed by the worker a slice at a time (`session/analysis.rs`). A cell
//! of a map opens its patched run in the head view, beside the clean run.

use super::{Analysis, Definition};
use crate::canvas::paint::{css, signed_color};
use crate::compute::Engine;
use crate::state::{Compared, Results, Selection};
use crate::url_state::View;
use crate::views::common::format::{markup_text, num};
use attnscope::analysis::patching::{self, Fit, PatchMap, Patching, Site};
use attnscope::attention::Mask;
use attnscope::session::{AnalysisRequest, HeadDetail};
use leptos::prelude::*;

/// Where patching stands.
#[derive(Clone, Debug, PartialEq)]
pub enum PatchState {
    Idle,
    Running { done: usize, total: usize },
    Done(Box<Patching>),
    Cancelled,
}

/// What the visitor asked for: kept in the analyses' context, so a tab
/// switched to and back keeps it.
#[derive(Clone, Copy)]
pub struct PatchForm {
    pub corrupt: RwSignal<String>,
    pub right: RwSignal<String>,
    pub wrong: RwSignal<String>,
    /// "residual", "heads", "heads-last" or "blocks".
    pub what: RwSignal<String>,
    /// "exact", "pad" or "trim": prompts of different lengths.
    pub fit: RwSignal<String>,
    /// The visitor typed in the prompts or answers since the last preset: the
    /// form no longer follows the page's text.
    pub typed: RwSignal<bool>,
}

impl PatchForm {
    pub fn new() -> Self {
        let p = &PRESETS[0];
        PatchForm {
            corrupt: RwSignal::new(p.corrupt.into()),
            right: RwSignal::new(p.right.into()),
            wrong: RwSignal::new(p.wrong.into()),
            what: RwSignal::new("residual".into()),
            fit: RwSignal::new("exact".into()),
            typed: RwSignal::new(false),
        }
    }

    /// Follows the page's text until the visitor types in the form: a
    /// preset's own prompt pair, or else the text itself as the corrupted
    /// prompt (to change a word of) and the model's two likeliest next tokens
    /// as the answers.
    fn follow(&self, text: &str, top_next: Option<&[(String, f32)]>) {
        if self.typed.get_untracked() {
            return;
        }
        let set = |signal: RwSignal<String>, value: &str| {
            if signal.get_untracked() != value {
                signal.set(value.to_string())
            }
        };
        if let Some(p) = PRESETS.iter().find(|p| p.clean == text) {
            set(self.corrupt, p.corrupt);
            set(self.right, p.right);
            set(self.wrong, p.wrong);
            return;
        }
        set(self.corrupt, text);
        if let Some([(right, _), (wrong, _), ..]) = top_next {
            set(self.right, right);
            set(self.wrong, wrong);
        }
    }
}

/// A map cell whose patched run the head view shows: the run of the page it
/// belongs to, the request (its layer and head set at each ask) and a
/// sentence on what was patched.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenCell {
    pub run: u64,
    pub request: AnalysisRequest,
    pub what: String,
}

impl Analysis {
    /// Opens the run of cell (`l`, `c`) of a `site` map in the head view, the
    /// cell's layer (and, for a head, the head) selected.
    /// Maps of a text since changed are not opened (their run is not the page's): it says so.
    fn open_patched(
        &self,
        (sel, run): (Selection, Option<u64>),
        site: Site,
        (l, c): (usize, usize),
        what: String,
    ) {
        if run != Some(self.patch_of.get_untracked()) {
            self.error.set(tr!("beyond-patch-stale"));
            return;
        }
        let Some(AnalysisRequest::Patch { corrupt, right, wrong, last_only, fit, .. }) =
            self.patch_asked.get_value()
        else {
            return;
        };
        let request = AnalysisRequest::PatchedHead {
            corrupt,
            right,
            wrong,
            last_only,
            fit,
            site,
            cell: (l, c),
            layer: l,
            head: 0,
        };
        self.compared.set(None);
        self.patch_open.set(Some(OpenCell { run: self.patch_of.get_untracked(), request, what }));
        sel.layer.set(l);
        if site == Site::Heads {
            sel.head.set(c);
        }
        sel.view.set(View::Head);
    }

    /// Asks for head (`layer`, `head`) of the patched run open, if one is and
    /// it belongs to `run` (the page's latest): whether it asked. A run of
    /// another text is closed.
    pub fn ask_patched_head(
        &self,
        engine: Engine,
        sel: Selection,
        run: Option<u64>,
        (layer, head): (usize, usize),
    ) -> bool {
        match self.patch_open.get() {
            Some(open) if Some(open.run) == run => {
                let mut request = open.request;
                if let AnalysisRequest::PatchedHead { layer: l, head: h, .. } = &mut request {
                    (*l, *h) = (layer, head);
                }
                Analysis::ask(engine, sel, request);
                true
            }
            Some(_) if run.is_some() => {
                self.patch_open.set(None);
                false
            }
            _ => false,
        }
    }

    /// A head of the patched run open arrived: the head view draws it.
    pub(super) fn show_patched(
        &self,
        site: Site,
        cell: (usize, usize),
        tokens: Vec<String>,
        detail: HeadDetail,
    ) {
        let Some(open) = self.patch_open.get_untracked() else { return };
        let AnalysisRequest::PatchedHead { site: s, cell: c, .. } = open.request else { return };
        if (s, c) == (site, cell) {
            self.compared.set(Some(Compared { tokens, detail, what: open.what }));
        }
    }

    /// Closes the patched run open.
    pub fn close_patched(&self) {
        self.patch_open.set(None);
        self.compared.set(None);
    }
}

impl Default for PatchForm {
    fn default() -> Self {
        Self::new()
    }
}

/// A prompt pair to start from, with what to look for. The prompts are the model's input and stay
/// English; the name (the option's value) is shown in the page's language.
struct Preset {
    name: &'static str,
    clean: &'static str,
    corrupt: &'static str,
    right: &'static str,
    wrong: &'static str,
}

const PRESETS: [Preset; 3] = [
    Preset {
        name: "Indirect object",
        clean: "When Mary and John went to the store, John gave a drink to",
        corrupt: "When Mary and John went to the store, Mary gave a drink to",
        right: " Mary",
        wrong: " John",
    },
    Preset {
        name: "Factual recall",
        clean: "The Eiffel Tower is in the city of",
        corrupt: "The Colosseum is in the city of",
        right: " Paris",
        wrong: " Rome",
    },
    Preset {
        name: "Repeated sequence",
        clean: "Harry Potter went home. Harry",
        corrupt: "Harry Smith went home. Harry",
        right: " Potter",
        wrong: " Smith",
    },
];

impl Preset {
    /// The preset's name in the page's language.
    fn label(&self) -> String {
        match self.name {
            "Indirect object" => tr!("beyond-patch-preset-indirect"),
            "Factual recall" => tr!("beyond-patch-preset-factual"),
            _ => tr!("beyond-patch-preset-repeated"),
        }
    }

    /// What to look for, in the page's language.
    fn hint(&self) -> String {
        match self.name {
            "Indirect object" => tr!("beyond-patch-preset-indirect-note"),
            "Factual recall" => tr!("beyond-patch-preset-factual-note"),
            _ => tr!("beyond-patch-preset-repeated-note"),
        }
    }
}

/// The form's "Patch" choices (the sites of [`sites`]) and their labels.
fn what_choices() -> Vec<(&'static str, String)> {
    vec![
        ("residual", tr!("beyond-patch-what-residual")),
        ("heads", tr!("beyond-patch-what-heads")),
        ("heads-last", tr!("beyond-patch-what-heads-last")),
        ("blocks", tr!("beyond-patch-what-blocks")),
    ]
}

/// The form's length choices (the fits of [`fit`]) and their labels.
fn fit_choices() -> Vec<(&'static str, String)> {
    vec![
        ("exact", tr!("beyond-patch-fit-exact")),
        ("pad", tr!("beyond-patch-fit-pad")),
        ("trim", tr!("beyond-patch-fit-trim")),
    ]
}

/// A site's name (the core's `Site::name`) in the page's language.
fn site_name(site: Site) -> String {
    match site {
        Site::Residual => tr!("beyond-patch-site-residual"),
        Site::Heads => tr!("beyond-patch-site-heads"),
        Site::Attention => tr!("beyond-patch-site-attention"),
        Site::FeedForward => tr!("beyond-patch-site-feed-forward"),
    }
}

/// The fit of a choice of the form.
fn fit(choice: &str) -> Fit {
    match choice {
        "pad" => Fit::Pad,
        "trim" => Fit::Trim,
        _ => Fit::Exact,
    }
}

/// The sites of a choice of the form.
fn sites(what: &str) -> (Vec<Site>, bool) {
    match what {
        "heads" => (vec![Site::Heads], false),
        "heads-last" => (vec![Site::Heads], true),
        "blocks" => (vec![Site::Attention, Site::FeedForward], false),
        _ => (vec![Site::Residual], false),
    }
}

#[component]
pub fn PatchingPanel() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let engine = expect_context::<Engine>();
    let an = expect_context::<Analysis>();
    let form = an.patch_form;
    let decoder =
        move || res.summary.with(|s| s.as_ref().is_some_and(|s| s.info.mask != Mask::None));
    let start = move |_| {
        let (sites, last_only) = sites(&form.what.get_untracked());
        an.patch_of.set(engine.latest());
        an.patch.set(PatchState::Running { done: 0, total: 0 });
        let request = AnalysisRequest::Patch {
            corrupt: form.corrupt.get_untracked(),
            right: form.right.get_untracked(),
            wrong: form.wrong.get_untracked(),
            sites,
            last_only,
            fit: fit(&form.fit.get_untracked()),
        };
        an.patch_asked.set_value(Some(request.clone()));
        Analysis::ask(engine, sel, request);
    };
    let cancel = move |_| {
        an.patch.set(PatchState::Cancelled);
        Analysis::ask(engine, sel, AnalysisRequest::CancelPatch);
    };
    // A newer run (the text changed) makes the patching under way stale: the worker drops it.
    Effect::new(move |_| {
        let run = res.run_id();
        if matches!(an.patch.get_untracked(), PatchState::Running { .. })
            && run != Some(an.patch_of.get_untracked())
        {
            an.patch.set(PatchState::Idle);
        }
    });
    // The form follows the text (and its next tokens) until the visitor types in it.
    Effect::new(move |_| {
        let text = sel.text.get();
        res.summary.with(|s| form.follow(&text, s.as_ref().and_then(|s| s.top_next.as_deref())));
    });
    let preset = move |ev| {
        let Some(p) = PRESETS.iter().find(|p| p.name == event_target_value(&ev)) else { return };
        form.typed.set(false);
        form.corrupt.set(p.corrupt.into());
        form.right.set(p.right.into());
        form.wrong.set(p.wrong.into());
        sel.text.set(p.clean.into());
    };
    let note = move || {
        let text = sel.text.get();
        PRESETS.iter().find(|p| p.clean == text).map(Preset::hint)
    };
    let running = move || matches!(an.patch.get(), PatchState::Running { .. });
    let status = move || match an.patch.get() {
        PatchState::Idle => tr!("beyond-not-computed"),
        PatchState::Running { done, total } => {
            tr!("beyond-patch-running", done = done, total = total)
        }
        PatchState::Cancelled => tr!("beyond-cancelled"),
        PatchState::Done(p) => {
            let at: Vec<String> =
                p.differ_at.iter().map(|&i| format!("{i} “{}”", p.clean_tokens[i])).collect();
            let notes: Vec<String> =
                [&p.right.note, &p.wrong.note].into_iter().flatten().cloned().collect();
            let notes: Vec<String> = notes.into_iter().chain(p.fitted.clone()).collect();
            tr!(
                "beyond-patch-done",
                at = at.join(", "),
                right = format!("{:?}", p.right.token),
                wrong = format!("{:?}", p.wrong.token),
                clean = num(p.clean_logit_diff),
                corrupt = num(p.corrupt_logit_diff),
                notes = notes
                    .iter()
                    .map(|n| format!(" {}", tr!("beyond-patch-note", note = n.as_str())))
                    .collect::<String>(),
            )
        }
    };
    let progress = move || match an.patch.get() {
        PatchState::Running { done, total } if total > 0 => {
            (done as f64 / total as f64).to_string()
        }
        _ => "0".into(),
    };
    let maps = move || match an.patch.get() {
        PatchState::Done(p) => p
            .maps
            .iter()
            .enumerate()
            .map(|(k, m)| view! { <PatchTable p=p.clone() map=m.clone() k /> })
            .collect_view()
            .into_any(),
        _ => ().into_any(),
    };
    let text_input = move |id: &'static str, label: String, value: RwSignal<String>| {
        view! {
            <label class="patch-field">
                {label}
                <input
                    id=id
                    type="text"
                    maxlength="2000"
                    prop:value=move || value.get()
                    on:input=move |ev| {
                        form.typed.set(true);
                        value.set(event_target_value(&ev));
                    }
                />
            </label>
        }
    };
    // A select bound to `value`, its options (value, label).
    let choice = |id: &'static str,
                  label: String,
                  value: RwSignal<String>,
                  options: Vec<(&'static str, String)>| {
        view! {
            <label class="patch-field">
                {label}
                <select
                    id=id
                    prop:value=move || value.get()
                    on:change=move |ev| value.set(event_target_value(&ev))
                >
                    {options
                        .into_iter()
                        .map(|(v, text)| view! { <option value=v>{text}</option> })
                        .collect_view()}
                </select>
            </label>
        }
    };
    view! {
        <section class="analysis" id="patching">
            <h2>{tr!("beyond-patch-title")}</h2>
            <Definition text=patching::DEFINITION />
            <Show
                when=decoder
                fallback=|| {
                    view! {
                        <p class="note" id="patch-decoders-only">
                            {tr!("beyond-patch-decoders-only")}
                        </p>
                    }
                }
            >
                <p class="note">{tr!("beyond-patch-clean-note")}</p>
                <div class="patch-form">
                    <label class="patch-field">
                        {tr!("beyond-patch-preset")} <select id="patch-preset" on:change=preset>
                            <option value="">{tr!("beyond-patch-choose")}</option>
                            {PRESETS
                                .iter()
                                .map(|p| view! { <option value=p.name>{p.label()}</option> })
                                .collect_view()}
                        </select>
                    </label>
                    {text_input("patch-corrupt", tr!("beyond-patch-corrupt"), form.corrupt)}
                    {text_input("patch-right", tr!("beyond-patch-right"), form.right)}
                    {text_input("patch-wrong", tr!("beyond-patch-wrong"), form.wrong)}
                    {choice("patch-what", tr!("beyond-patch-what"), form.what, what_choices())}
                    {choice("patch-fit", tr!("beyond-patch-fit"), form.fit, fit_choices())}
                </div>
                {move || {
                    note()
                        .map(|n| {
                            view! {
                                <p class="note" id="patch-note">
                                    {n}
                                </p>
                            }
                        })
                }}
                <div class="switch-row">
                    <button id="patch-run" on:click=start disabled=running>
                        {tr!("beyond-patch-run")}
                    </button>
                    <button id="patch-cancel" on:click=cancel disabled=move || !running()>
                        {tr!("beyond-cancel")}
                    </button>
                    <progress
                        id="patch-progress"
                        max="1"
                        value=progress
                        aria-label=tr!("beyond-patch-progress")
                    ></progress>
                </div>
                <p id="patch-status" role="status">
                    {status}
                </p>
                {maps}
            </Show>
        </section>
    }
}

/// The table's HTML, written as one string: a map of 30 × 14 cells as
/// reactive nodes would cost the page's bundle far more than it draws.
fn table_html(p: &Patching, map: &PatchMap) -> String {
    let heads = map.columns == "head";
    let mut html =
        format!("<thead><tr><th scope=\"col\">{}</th>", markup_text(&tr!("beyond-layer")));
    for c in 0..map.effect.first().map_or(0, Vec::len) {
        let (label, differs) = if heads {
            (c.to_string(), false)
        } else {
            (markup_text(&p.clean_tokens[c]), p.differ_at.contains(&c))
        };
        let class = if differs { " class=\"differs\"" } else { "" };
        html += &format!("<th scope=\"col\"{class}>{label}</th>");
    }
    html += "</tr></thead><tbody>";
    for (l, row) in map.effect.iter().enumerate() {
        html += &format!("<tr><th scope=\"row\">{l}</th>");
        for (c, &e) in row.iter().enumerate() {
            let colour = css(signed_color(e.clamp(-1.0, 1.0), 1.0));
            html += &format!("<td data-at=\"{l},{c}\" style=\"background:{colour}\"></td>");
        }
        html += "</tr>";
    }
    html + "</tbody>"
}

/// One map as a table: a row per layer, a column per position or head, each
/// cell coloured by its effect (red restores the clean answer, white
/// nothing, blue pushes away from it) and read out exactly on hover or tap.
#[component]
fn PatchTable(p: Box<Patching>, map: PatchMap, k: usize) -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let an = expect_context::<Analysis>();
    let picked = RwSignal::new(None::<(usize, usize)>);
    // The cell clicked or tapped last (pointing alone reads out): the one "Open" opens.
    let chosen = RwSignal::new(None::<(usize, usize)>);
    // Each cell's effect and d, read out and carried to the run it opens.
    let cells = StoredValue::new((map.effect.clone(), map.logit_diff.clone()));
    let effects: Vec<String> = map
        .effect
        .iter()
        .map(|r| r.iter().map(|e| format!("{e:.6}")).collect::<Vec<_>>().join(","))
        .collect();
    let title = if map.columns == "head" {
        tr!("beyond-patch-map-title-heads", site = site_name(map.site))
    } else {
        tr!("beyond-patch-map-title-positions", site = site_name(map.site))
    };
    let html = table_html(&p, &map);
    let heads = map.columns == "head";
    let tokens = StoredValue::new(p.clean_tokens.clone());
    let column = move |c: usize| {
        if heads {
            tr!("beyond-patch-column-head", head = c)
        } else {
            tokens.with_value(|t| {
                tr!("beyond-patch-column-position", position = c, token = t[c].as_str())
            })
        }
    };
    let readout = move || match picked.get() {
        Some((l, c)) => {
            let column = column(c);
            tr!(
                "beyond-patch-readout",
                layer = l,
                column = column,
                effect = num(cells.with_value(|(e, _)| e[l][c])),
                d = num(cells.with_value(|(_, d)| d[l][c])),
            )
        }
        None => tr!("beyond-patch-readout-hint"),
    };
    // One listener for every cell: the cell pointed at says where it is.
    let pick = move |ev: web_sys::Event, click: bool| {
        use wasm_bindgen::JsCast;
        let Some(td) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
            return;
        };
        let Some(at) = td.get_attribute("data-at") else { return };
        let Some((l, c)) = at.split_once(',') else { return };
        if let (Ok(l), Ok(c)) = (l.parse(), c.parse()) {
            if let Some(table) = td.closest("table").ok().flatten() {
                if let Ok(Some(old)) = table.query_selector("td.picked") {
                    let _ = old.class_list().remove_1("picked");
                }
            }
            let _ = td.class_list().add_1("picked");
            picked.set(Some((l, c)));
            if click {
                chosen.set(Some((l, c)));
            }
        }
    };
    let site = map.site;
    let open = move |_| {
        let Some((l, c)) = chosen.get_untracked() else { return };
        // The cell's numbers as the map gave them (the run computed again alone may differ
        // from the map's batched runs in the last bits).
        let what = tr!(
            "beyond-patch-open-what",
            site = site_name(site),
            layer = l,
            column = column(c),
            effect = num(cells.with_value(|(e, _)| e[l][c])),
            d = num(cells.with_value(|(_, d)| d[l][c])),
        );
        an.open_patched((sel, res.run_id()), site, (l, c), what);
    };
    let open_label = move || match chosen.get() {
        Some((l, c)) => tr!("beyond-patch-open", layer = l, column = column(c)),
        None => tr!("beyond-patch-open-hint"),
    };
    let id = format!("patch-map-{k}");
    view! {
        <h3>{title}</h3>
        <div class="lens-grid-box">
            <table
                class="patch-map"
                id=id.clone()
                data-effect=effects.join(";")
                inner_html=html
                on:pointerover=move |ev| pick(ev.into(), false)
                on:click=move |ev| pick(ev.into(), true)
            ></table>
        </div>
        <p class="readout" id=format!("{id}-readout")>
            {readout}
        </p>
        <button
            class="patch-open"
            id=format!("{id}-open")
            disabled=move || chosen.with(Option::is_none)
            on:click=open
        >
            {open_label}
        </button>
        <p class="caption">{tr!("beyond-patch-caption")}</p>
    }
}
