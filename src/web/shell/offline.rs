//! Offline use: the service worker (`www/sw.js`, copied next to the page)
//! keeps the page's own files; the worker keeps the model files in Cache
//! Storage. The page says when it is ready to work offline, and which real
//! models are saved on this device.

use attnscope::trace::ModelId;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The worker's cache of model files (src/worker/fetch.rs).
const MODELS_CACHE: &str = "attnscope-models-v1";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offline {
    /// No service worker here (an old browser, or a page not served over http(s)).
    Unavailable,
    Preparing,
    Ready,
}

/// Whether the page works offline, and the models saved for it.
#[derive(Clone, Copy)]
pub struct OfflineState {
    pub status: RwSignal<Offline>,
    pub saved: RwSignal<Vec<ModelId>>,
}

impl Default for OfflineState {
    fn default() -> Self {
        Self::new()
    }
}

impl OfflineState {
    pub fn new() -> Self {
        Self { status: RwSignal::new(Offline::Unavailable), saved: RwSignal::new(Vec::new()) }
    }

    /// Registers the service worker and waits for it to hold the page's files.
    pub fn register(&self) {
        let Some(navigator) = web_sys::window().map(|w| w.navigator()) else { return };
        // Absent where the page is not served from a secure origin.
        if !js_sys::Reflect::has(&navigator, &"serviceWorker".into()).unwrap_or(false) {
            return;
        }
        let container = navigator.service_worker();
        let status = self.status;
        status.set(Offline::Preparing);
        leptos::task::spawn_local(async move {
            if JsFuture::from(container.register("./sw.js")).await.is_err() {
                status.set(Offline::Unavailable);
                return;
            }
            // `ready` settles once a service worker is active, that is once
            // its install step has stored every file of the page.
            let Ok(ready) = container.ready() else { return };
            if JsFuture::from(ready).await.is_ok() {
                status.set(Offline::Ready);
            }
        });
    }

    /// Looks up which models have all their files in the cache.
    pub fn refresh_saved(&self) {
        let saved = self.saved;
        leptos::task::spawn_local(async move {
            let Some(caches) = web_sys::window().and_then(|w| w.caches().ok()) else { return };
            let Ok(cache) = JsFuture::from(caches.open(MODELS_CACHE)).await else { return };
            let Ok(cache) = cache.dyn_into::<web_sys::Cache>() else { return };
            let mut found = Vec::new();
            for model in [
                ModelId::MiniLm,
                ModelId::SmolLm2,
                ModelId::TranslateEnPt,
                ModelId::TranslatePtEn,
                ModelId::Whisper,
            ] {
                let mut all = true;
                for file in model.files() {
                    let hit = JsFuture::from(cache.match_with_str(&model.url(&file))).await;
                    all &= hit.is_ok_and(|h| !h.is_undefined());
                }
                if all {
                    found.push(model);
                }
            }
            saved.set(found);
        });
    }
}

/// `#offline`: whether the page is ready to work without a network.
#[component]
pub fn OfflineBadge() -> impl IntoView {
    let state = expect_context::<OfflineState>();
    move || match state.status.get() {
        Offline::Unavailable => None,
        Offline::Preparing => Some(
            view! {
                <span class="badge" id="offline" data-ready="false">
                    {tr!("page-offline-saving")}
                </span>
            }
            .into_any(),
        ),
        Offline::Ready => Some(
            view! {
                <span
                    class="badge ready"
                    id="offline"
                    data-ready="true"
                    title=tr!("page-offline-ready-title")
                >
                    {tr!("page-offline-ready")}
                </span>
            }
            .into_any(),
        ),
    }
}
