//! The control bar: model, preset, look, and the text the model reads;
//! the layer and head picker.

use super::megabytes;
use super::offline::OfflineState;
use super::presets::PresetPicker;
use crate::compute::model_name;
use crate::state::{Appearance, LoadState, Results, Selection};
use crate::views::model::overview::is_grouped;
use attnscope::trace::ModelId;
use leptos::prelude::*;

/// `header.bar`: the name and the text the model reads, the download's
/// progress and any error.
#[component]
pub fn ControlBar() -> impl IntoView {
    view! {
        <header class="bar">
            <div class="brand-box">
                <h1 class="brand">"attn"<span>"scope"</span></h1>
                <p class="tagline">{tr!("page-tagline")}</p>
                {(!crate::hosted::is_hosted()).then(|| view! { <LanguagePicker /> })}
            </div>
            <TextInput />
            <Progress />
            <ErrorLine />
        </header>
    }
}

/// `select#lang`: the page's language, each named in itself. The page switches once the
/// language's catalogs are in; if they cannot be fetched it stays as it is and says why.
#[component]
fn LanguagePicker() -> impl IntoView {
    use crate::i18n::{self, Lang};
    let res = expect_context::<Results>();
    let choose = move |ev: leptos::ev::Event| {
        let Some(lang) = Lang::parse(&event_target_value(&ev)) else { return };
        leptos::task::spawn_local(async move {
            if let Err(reason) = i18n::switch(lang).await {
                res.error.set(tr!("page-language-failed", language = lang.name(), reason = reason));
            }
        });
    };
    view! {
        <select id="lang" class="lang-picker" aria-label=tr!("page-language") on:change=choose>
            {Lang::ALL
                .map(|lang| {
                    view! {
                        <option
                            value=lang.code()
                            lang=lang.html_tag()
                            selected=lang == i18n::lang()
                        >
                            {lang.name()}
                        </option>
                    }
                })}
        </select>
    }
}

/// `section.controls`: model, preset, layer and head, and the look; at the
/// top of the rail beside the stage (above the stage on a narrow screen).
#[component]
pub fn Controls() -> impl IntoView {
    // A notebook's page shows its host's trace only: no model to choose, no class to hold.
    let hosted = crate::hosted::is_hosted();
    view! {
        <section class="controls" aria-label=tr!("page-settings")>
            {(!hosted)
                .then(|| {
                    view! {
                        <ModelPicker />
                        <ExactWeights />
                        <super::open_model::OpenModelControls />
                    }
                })}
            <super::open_trace::OpenTrace />
            {(!hosted).then(|| view! { <PresetPicker /> })}
            <HeadPicker />
            <Settings />
            {(!hosted).then(|| view! { <super::classroom::ClassControls /> })}
        </section>
    }
}

/// Theme and presentation mode.
#[component]
fn Settings() -> impl IntoView {
    let app = expect_context::<Appearance>();
    let toggle = move |id: &'static str, label: String, title: String, flag: RwSignal<bool>| {
        view! {
            <label class="toggle" title=title>
                <input
                    type="checkbox"
                    id=id
                    prop:checked=move || flag.get()
                    on:change=move |ev| flag.set(event_target_checked(&ev))
                />
                {label}
            </label>
        }
    };
    view! {
        <div class="settings">
            {toggle("dark", tr!("page-dark"), tr!("page-dark-title"), app.dark)}
            {toggle("present", tr!("page-present"), tr!("page-present-title"), app.present)}
            {toggle(
                "orientation",
                tr!("page-columns"),
                tr!("page-columns-title"),
                app.columns_are_queries,
            )}
        </div>
    }
}

/// Which model computes (`select#model`).
#[component]
fn ModelPicker() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let offline = expect_context::<OfflineState>();
    let option_label = move |m: ModelId| {
        let saved = offline.saved.with(|s| s.contains(&m));
        let size = move || {
            if saved {
                tr!("page-model-saved")
            } else {
                megabytes(m.download_bytes_for(sel.exact.get()))
            }
        };
        match m {
            ModelId::Teaching => tr!("page-model-teaching-option"),
            ModelId::MiniLm => tr!("page-model-minilm-option", size = size()),
            ModelId::SmolLm2 => tr!("page-model-smollm2-option", size = size()),
            ModelId::Custom => tr!("page-model-custom"),
            ModelId::Trace => tr!("page-model-trace-option"),
            m => format!("{} · {}", crate::compute::model_name(m), size()),
        }
    };
    view! {
        <div class="field">
            <label for="model">{tr!("page-model")}</label>
            <select
                id="model"
                on:change=move |ev| {
                    let slug = event_target_value(&ev);
                    if let Some(m) = ModelId::from_slug(&slug)
                        .or((slug == ModelId::Trace.slug()).then_some(ModelId::Trace))
                    {
                        sel.model.set(m)
                    }
                }
            >
                {ModelId::ALL
                    .into_iter()
                    .chain([ModelId::Trace])
                    .map(|m| {
                        view! {
                            <option
                                value=m.slug()
                                prop:selected=move || sel.model.get() == m
                                hidden=move || {
                                    m == ModelId::Trace && res.load_state(m) != LoadState::Ready
                                }
                            >
                                {move || option_label(m)}
                            </option>
                        }
                    })
                    .collect_view()}
                {super::open_model::custom_option(sel)}
            </select>
        </div>
    }
}

/// `#exact`: for a model with a smaller download (MiniLM's f16 copy), the
/// switch to the weights as published; the model is loaded again.
#[component]
fn ExactWeights() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let shown = move || sel.model.get().has_smaller_copy();
    let label =
        move || tr!("page-exact", size = megabytes(sel.model.get().download_bytes_for(true)));
    view! {
        <label class="toggle exact" hidden=move || !shown() title=tr!("page-exact-title")>
            <input
                type="checkbox"
                id="exact"
                prop:checked=move || sel.exact.get()
                on:change=move |ev| {
                    let m = sel.model.get_untracked();
                    res.loads
                        .update(|l| {
                            l.remove(&m);
                        });
                    sel.exact.set(event_target_checked(&ev));
                }
            />
            {label}
        </label>
    }
}

/// `#progress`: the chosen model's download, or a retry after a failure.
#[component]
fn Progress() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let line = move |loaded: u64, total: u64| {
        let (model, loaded, total) =
            (model_name(sel.model.get()), megabytes(loaded), megabytes(total));
        if sel.model.get() == ModelId::Custom {
            tr!("page-reading", model = model, loaded = loaded, total = total)
        } else {
            tr!("page-downloading", model = model, loaded = loaded, total = total)
        }
    };
    move || match res.load_state(sel.model.get()) {
        LoadState::Loading { loaded, total } => view! {
            <div class="progress" id="progress">
                <progress
                    max=total.to_string()
                    value=loaded.to_string()
                    aria-label=tr!("page-download")
                ></progress>
                <span>{line(loaded, total)}</span>
            </div>
        }
        .into_any(),
        LoadState::Failed(_) => view! {
            <div class="progress failed">
                <button
                    id="retry"
                    on:click=move |_| {
                        let m = sel.model.get_untracked();
                        res.loads
                            .update(|l| {
                                l.remove(&m);
                            });
                        res.error.set(String::new());
                        sel.model.set(m);
                    }
                >
                    {tr!("page-retry")}
                </button>
                <button on:click=move |_| {
                    sel.model.set(ModelId::Teaching)
                }>{tr!("page-use-teaching")}</button>
            </div>
        }
        .into_any(),
        _ => ().into_any(),
    }
}

#[component]
fn ErrorLine() -> impl IntoView {
    let res = expect_context::<Results>();
    view! {
        <p id="error" role="alert">
            {move || res.error.get()}
        </p>
    }
}

/// The text the model reads (`textarea#text`).
#[component]
pub fn TextInput() -> impl IntoView {
    let sel = expect_context::<Selection>();
    view! {
        <div class="text-row">
            <label for="text" class="sr-only">
                {tr!("page-text")}
            </label>
            <textarea
                id="text"
                rows="1"
                spellcheck="false"
                placeholder=move || {
                    if sel.model.get() == ModelId::Trace && crate::hosted::is_hosted() {
                        tr!("page-text-hosted-trace")
                    } else if sel.model.get() == ModelId::Trace {
                        tr!("page-text-trace")
                    } else {
                        tr!("page-text-placeholder")
                    }
                }
                // A trace file's text is fixed (its tokens are above the picture).
                readonly=move || sel.model.get() == ModelId::Trace
                prop:value=move || {
                    if sel.model.get() == ModelId::Trace { String::new() } else { sel.text.get() }
                }
                on:input=move |ev| sel.text.set(event_target_value(&ev))
            ></textarea>
        </div>
    }
}

/// `select#layer` and `select#head`.
#[component]
pub fn HeadPicker() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let dims =
        move || {
            res.summary.with(|s| {
                s.as_ref()
                    .map(|s| (s.info.n_layers, s.info.n_heads, s.kv_head_of.clone()))
                    .unwrap_or((1, 1, vec![0]))
            })
        };
    view! {
        <div class="head-picker">
            <label for="layer">{tr!("page-layer")}</label>
            <select
                id="layer"
                on:change=move |ev| sel.layer.set(event_target_value(&ev).parse().unwrap_or(0))
            >
                {move || {
                    (0..dims().0)
                        .map(|l| {
                            view! {
                                <option
                                    value=l.to_string()
                                    prop:selected=move || sel.layer.get() == l
                                >
                                    {l.to_string()}
                                </option>
                            }
                        })
                        .collect_view()
                }}
            </select>
            <label for="head">{tr!("page-head")}</label>
            <select
                id="head"
                title=tr!("page-head-title")
                on:change=move |ev| sel.head.set(event_target_value(&ev).parse().unwrap_or(0))
            >
                {move || {
                    let (_, heads, kv) = dims();
                    let grouped = is_grouped(&kv, heads);
                    (0..heads)
                        .map(|h| {
                            let name = if grouped {
                                format!("{h} (kv {})", kv[h])
                            } else {
                                h.to_string()
                            };
                            view! {
                                <option
                                    value=h.to_string()
                                    prop:selected=move || sel.head.get() == h
                                >
                                    {name}
                                </option>
                            }
                        })
                        .collect_view()
                }}
            </select>
        </div>
    }
}
