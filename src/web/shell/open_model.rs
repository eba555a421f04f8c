//! "Open a model…": the visitor's own checkpoint, from a file picker, a
//! folder picker or files dropped on the page. The files go to the worker as
//! `File` handles (read there, never uploaded); its preflight is shown with
//! Load and Cancel, and a loaded model joins the model choice under its name.
//! The worker keeps it in the browser's storage; "Forget" removes it.

use super::megabytes;
use crate::compute::Engine;
use crate::state::{LoadState, Results, Selection};
use crate::views::common::format::fixed;
use attnscope::session::custom::{CustomReply, CustomRequest, Preflight};
use attnscope::session::{ModelId, ToWorker};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{File, FileSystemDirectoryEntry, FileSystemEntry, FileSystemFileEntry};

/// What is known of the visitor's model, provided by context.
#[derive(Clone, Copy)]
pub struct OpenModel {
    /// The summary waiting for Load or Cancel.
    pub preflight: RwSignal<Option<Preflight>>,
    /// Why the chosen files were refused, or what became of the storage.
    pub message: RwSignal<String>,
    /// The opened (or kept) model's name: it is in the model choice.
    pub name: RwSignal<Option<String>>,
    /// Whether the browser's storage keeps it for a reload.
    pub saved: RwSignal<bool>,
    /// Files are being read or loaded.
    pub busy: RwSignal<bool>,
}

impl OpenModel {
    pub fn new() -> Self {
        Self {
            preflight: RwSignal::new(None),
            message: RwSignal::new(String::new()),
            name: RwSignal::new(None),
            saved: RwSignal::new(false),
            busy: RwSignal::new(false),
        }
    }

    /// The worker's answer about the opened model.
    pub fn receive(&self, reply: CustomReply, sel: Selection, res: Results) {
        match reply {
            CustomReply::Preflight(p) => {
                self.busy.set(false);
                self.message.set(String::new());
                self.preflight.set(Some(*p));
            }
            CustomReply::Refused { message } | CustomReply::Failed { message } => {
                self.busy.set(false);
                self.preflight.set(None);
                self.message.set(tr!("files-cannot-open", message = message));
            }
            CustomReply::Loaded { name } => {
                self.busy.set(false);
                self.name.set(Some(name));
                self.message.set(String::new());
                sel.model.set(ModelId::Custom);
            }
            CustomReply::Saved { name, note } => {
                self.saved.set(name.is_some());
                if let Some(name) = name.filter(|_| self.name.with_untracked(Option::is_none)) {
                    self.name.set(Some(name));
                }
                if let Some(note) = note.filter(|_| self.name.with_untracked(Option::is_some)) {
                    self.message.set(note);
                }
            }
            CustomReply::Forgotten => {
                self.saved.set(false);
                self.name.set(None);
                self.message.set(tr!("files-model-removed"));
                res.loads.update(|l| {
                    l.remove(&ModelId::Custom);
                });
                if sel.model.get_untracked() == ModelId::Custom {
                    sel.model.set(ModelId::Teaching);
                }
            }
        }
    }
}

impl Default for OpenModel {
    fn default() -> Self {
        Self::new()
    }
}

/// Sends the chosen files (with their paths inside a chosen folder) to the worker.
fn open(files: Vec<(String, File)>, open: OpenModel, engine: Engine) {
    let (list, paths) = (js_sys::Array::new(), js_sys::Array::new());
    for (path, file) in files {
        list.push(&file);
        paths.push(&JsValue::from_str(&path));
    }
    let msg = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&msg, &"attnscopeOpen".into(), &list);
    let _ = js_sys::Reflect::set(&msg, &"paths".into(), &paths);
    open.preflight.set(None);
    if engine.post_files(&msg) {
        open.busy.set(true);
        open.message.set(tr!("files-reading"));
    } else {
        open.message.set(tr!("files-no-worker"));
    }
}

fn file_list(input: &web_sys::HtmlInputElement) -> Vec<(String, File)> {
    let Some(list) = input.files() else { return Vec::new() };
    (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|f| {
            let relative = js_sys::Reflect::get(&f, &"webkitRelativePath".into())
                .ok()
                .and_then(|p| p.as_string())
                .unwrap_or_default();
            (if relative.is_empty() { f.name() } else { relative }, f)
        })
        .collect()
}

/// A callback-style API as a future.
async fn promised(
    start: impl FnOnce(&js_sys::Function, &js_sys::Function),
) -> Result<JsValue, JsValue> {
    let mut start = Some(start);
    let promise = js_sys::Promise::new(&mut |resolve, reject| {
        if let Some(start) = start.take() {
            start(&resolve, &reject)
        }
    });
    wasm_bindgen_futures::JsFuture::from(promise).await
}

/// Every file under a dropped entry, with its path from the dropped folder.
async fn entry_files(entry: FileSystemEntry, out: &mut Vec<(String, File)>) {
    let mut stack = vec![entry];
    while let Some(entry) = stack.pop() {
        let path = entry.full_path().trim_start_matches('/').to_string();
        if let Some(file_entry) = entry.dyn_ref::<FileSystemFileEntry>() {
            if let Ok(file) =
                promised(|ok, err| file_entry.file_with_callback_and_callback(ok, err)).await
            {
                if let Ok(file) = file.dyn_into::<File>() {
                    out.push((path, file));
                }
            }
        } else if let Some(dir) = entry.dyn_ref::<FileSystemDirectoryEntry>() {
            let reader = dir.create_reader();
            // readEntries answers in batches until an empty one.
            while let Ok(batch) = promised(|ok, err| {
                let _ = reader.read_entries_with_callback_and_callback(ok, err);
            })
            .await
            {
                let batch: js_sys::Array = batch.unchecked_into();
                if batch.length() == 0 {
                    break;
                }
                stack.extend(batch.iter().map(JsCast::unchecked_into::<FileSystemEntry>));
            }
        }
    }
}

/// Files or a folder dropped on the page.
fn on_drop(ev: web_sys::DragEvent, open_model: OpenModel, engine: Engine) {
    let Some(data) = ev.data_transfer().filter(|d| !super::open_trace::is_trace_drop(d)) else {
        return;
    };
    ev.prevent_default();
    let items = data.items();
    let entries: Vec<FileSystemEntry> = (0..items.length())
        .filter_map(|i| items.get(i))
        .filter_map(|item| item.webkit_get_as_entry().ok().flatten())
        .collect();
    if entries.is_empty() {
        let files = data
            .files()
            .map(|l| (0..l.length()).filter_map(|i| l.item(i)).map(|f| (f.name(), f)).collect())
            .unwrap_or_default();
        return open(files, open_model, engine);
    }
    leptos::task::spawn_local(async move {
        let mut files = Vec::new();
        for entry in entries {
            entry_files(entry, &mut files).await;
        }
        open(files, open_model, engine);
    });
}

/// `.open-model`: the buttons that open a model, the kept model's Forget,
/// and the preflight summary.
#[component]
pub fn OpenModelControls() -> impl IntoView {
    let open_model = expect_context::<OpenModel>();
    let engine = expect_context::<Engine>();
    let res = expect_context::<Results>();
    let files_input = NodeRef::<leptos::html::Input>::new();
    let folder_input = NodeRef::<leptos::html::Input>::new();
    // Ask the worker once what the storage keeps.
    Effect::new(move |asked: Option<bool>| {
        if asked == Some(true) || !res.worker_ready.get() {
            return asked.unwrap_or(false);
        }
        engine.send(ToWorker::Custom(CustomRequest::Saved));
        true
    });
    // The folder picker is webkitdirectory, which Leptos has no attribute for.
    Effect::new(move |_| {
        if let Some(input) = folder_input.get() {
            let _ = input.set_attribute("webkitdirectory", "");
        }
    });
    let on_choose = move |ev: leptos::ev::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let files = file_list(&input);
        input.set_value("");
        if !files.is_empty() {
            open(files, open_model, engine);
        }
    };
    let drop = window_event_listener(leptos::ev::drop, move |ev| on_drop(ev, open_model, engine));
    let drag = window_event_listener(leptos::ev::dragover, |ev| {
        if ev.data_transfer().is_some_and(|d| d.types().includes(&"Files".into(), 0)) {
            ev.prevent_default();
        }
    });
    on_cleanup(move || {
        drop.remove();
        drag.remove();
    });
    view! {
        <div class="open-model">
            <input
                type="file"
                id="open-files"
                multiple
                class="sr-only"
                tabindex="-1"
                aria-hidden="true"
                accept=".gguf,.json,.safetensors,.txt"
                node_ref=files_input
                on:change=on_choose
            />
            <input
                type="file"
                id="open-folder"
                class="sr-only"
                tabindex="-1"
                aria-hidden="true"
                node_ref=folder_input
                on:change=on_choose
            />
            <button
                id="open-model"
                title=tr!("files-open-model-title")
                on:click=move |_| {
                    if let Some(i) = files_input.get() {
                        i.click()
                    }
                }
            >
                {tr!("files-open-model")}
            </button>
            <button
                id="open-model-folder"
                title=tr!("files-folder-title")
                on:click=move |_| {
                    if let Some(i) = folder_input.get() {
                        i.click()
                    }
                }
            >
                {tr!("files-folder")}
            </button>
            {move || {
                open_model
                    .saved
                    .get()
                    .then(|| {
                        view! {
                            <button
                                id="forget-model"
                                title=tr!("files-forget-title")
                                on:click=move |_| {
                                    engine.send(ToWorker::Custom(CustomRequest::Forget))
                                }
                            >
                                {tr!("files-forget")}
                            </button>
                        }
                    })
            }}
            <p class="open-message" id="open-message" role="status">
                {move || open_model.message.get()}
            </p>
            <PreflightSummary />
        </div>
    }
}

/// `#preflight`: what the files hold, with Load and Cancel (or why not).
#[component]
fn PreflightSummary() -> impl IntoView {
    let open_model = expect_context::<OpenModel>();
    let engine = expect_context::<Engine>();
    let close = move || {
        open_model.preflight.set(None);
        engine.send(ToWorker::Custom(CustomRequest::Cancel));
    };
    move || {
        open_model.preflight.get().map(|p| {
            let refused = p.refusal.clone();
            let heads = if p.kv_heads == p.heads {
                p.heads.to_string()
            } else {
                tr!("files-kv-heads", heads = p.heads, kv = p.kv_heads)
            };
            let rows = [
                (tr!("files-architecture"), format!("{} ({})", p.architecture, p.found)),
                (tr!("files-layers"), p.layers.to_string()),
                (tr!("files-heads"), format!("{heads}, d_k = {}", p.d_head)),
                (
                    tr!("files-parameters"),
                    tr!("files-millions", millions = fixed(p.parameters as f64 / 1e6, 1)),
                ),
                (
                    tr!("files-files"),
                    format!("{} · {}", megabytes(p.file_bytes), p.files.join(", ")),
                ),
                (tr!("files-weights"), p.weights_format.clone()),
                (tr!("files-memory"), megabytes(p.memory_bytes)),
            ];
            view! {
                <section
                    class="preflight"
                    id="preflight"
                    role="dialog"
                    aria-label=tr!("files-preflight-label")
                >
                    <h2>{p.name.clone()}</h2>
                    <dl>
                        {rows
                            .into_iter()
                            .map(|(k, v)| {
                                view! {
                                    <dt>{k}</dt>
                                    <dd>{v}</dd>
                                }
                            })
                            .collect_view()}
                    </dl>
                    {refused
                        .clone()
                        .map(|why| {
                            view! {
                                <p class="refusal" role="alert">
                                    {tr!("files-cannot-load", why = why)}
                                </p>
                            }
                        })}
                    <div class="preflight-actions">
                        {refused
                            .is_none()
                            .then(|| {
                                view! {
                                    <button
                                        id="preflight-load"
                                        class="primary"
                                        on:click=move |_| {
                                            open_model.preflight.set(None);
                                            open_model.busy.set(true);
                                            open_model.message.set(tr!("files-loading"));
                                            engine.send(ToWorker::Custom(CustomRequest::Load));
                                        }
                                    >
                                        {tr!("files-load")}
                                    </button>
                                }
                            })} <button id="preflight-cancel" on:click=move |_| close()>
                            {if refused.is_some() {
                                tr!("files-close")
                            } else {
                                tr!("files-cancel")
                            }}
                        </button>
                    </div>
                </section>
            }
        })
    }
}

/// The model choice's entry for the visitor's model, once there is one.
pub fn custom_option(sel: Selection) -> impl IntoView {
    let open_model = expect_context::<OpenModel>();
    let res = expect_context::<Results>();
    move || {
        open_model.name.get().map(|name| {
            let state = match res.load_state(ModelId::Custom) {
                LoadState::Ready => tr!("files-your-files"),
                _ if open_model.saved.get() => tr!("files-saved"),
                _ => tr!("files-your-files"),
            };
            view! {
                <option
                    value=ModelId::Custom.slug()
                    prop:selected=move || sel.model.get() == ModelId::Custom
                >
                    {format!("{name} · {state}")}
                </option>
            }
        })
    }
}
