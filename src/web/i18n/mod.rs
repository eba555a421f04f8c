//! The page in the class's language. Every word the page shows comes from a
//! Fluent message catalog, `www/i18n/<language>/<part>.ftl`, one file per part
//! of the page (`PARTS`), through `tr!("message-id", name = value, …)`.
//!
//! English is built into the page (it is the fallback for a message another
//! catalog lacks); another language's files are fetched the first time it is
//! chosen (`switch`), so a visit in English downloads none of them. The page
//! is drawn again when the language changes (`shell/app.rs` reads `lang()`).
//! Words of the glossary, `www/i18n/GLOSSARY.md`, are translated the same way
//! in every catalog.
//!
//! Numbers in a readout use the language's decimal sign (`decimal_comma`);
//! files the page exports keep a dot.

mod lang;

pub use lang::Lang;

use fluent_bundle::{FluentArgs, FluentBundle, FluentResource};
use leptos::prelude::*;
use std::cell::{Cell, RefCell};

/// The parts of the page with a catalog of their own, in every language.
pub const PARTS: [&str; 8] =
    ["page", "presets", "lesson", "views", "analyses", "listening", "writing", "files"];

/// The English catalogs, in the order of `PARTS`.
const ENGLISH: [&str; 8] = [
    include_str!("../../../www/i18n/en/page.ftl"),
    include_str!("../../../www/i18n/en/presets.ftl"),
    include_str!("../../../www/i18n/en/lesson.ftl"),
    include_str!("../../../www/i18n/en/views.ftl"),
    include_str!("../../../www/i18n/en/analyses.ftl"),
    include_str!("../../../www/i18n/en/listening.ftl"),
    include_str!("../../../www/i18n/en/writing.ftl"),
    include_str!("../../../www/i18n/en/files.ftl"),
];

type Bundle = FluentBundle<FluentResource>;

thread_local! {
    /// The language the page is drawn in: its catalog is loaded. Reference-counted rather than
    /// owned by a component, so that drawing the page again never disposes of it.
    static SHOWN: ArcRwSignal<Lang> = ArcRwSignal::new(Lang::En);
    /// The language of the visitor's browser, which the address leaves out.
    static BROWSER: Cell<Lang> = const { Cell::new(Lang::En) };
    static ENGLISH_BUNDLE: Bundle = bundle(Lang::En, &ENGLISH);
    /// The catalog of the language shown, when it is not English.
    static OTHER: RefCell<Option<Bundle>> = const { RefCell::new(None) };
}

/// The message `id` in the language shown (`tr!` is the way in). A message the
/// language lacks is shown in English; one no catalog has shows its id (and
/// the catalogs' test fails).
pub fn text(id: &str, args: Option<&FluentArgs>) -> String {
    let shown = lang();
    if shown != Lang::En {
        if let Some(s) = OTHER.with_borrow(|b| b.as_ref().and_then(|b| format(b, id, args))) {
            return s;
        }
    }
    ENGLISH_BUNDLE.with(|b| format(b, id, args)).unwrap_or_else(|| {
        web_sys::console::warn_1(&format!("attnscope: no message {id:?} in any catalog").into());
        id.to_string()
    })
}

/// `tr!("id")`, or `tr!("id", tokens = n, name = s)`: the message in the page's
/// language, its variables filled in. Numbers choose plural forms; a decimal
/// number is passed as text written by `views::common::format::num`.
macro_rules! tr {
    ($id:literal) => {
        $crate::i18n::text($id, None)
    };
    ($id:literal, $($name:ident = $value:expr),+ $(,)?) => {{
        let mut args = ::fluent_bundle::FluentArgs::new();
        $( args.set(stringify!($name), $value); )+
        $crate::i18n::text($id, Some(&args))
    }};
}

fn format(bundle: &Bundle, id: &str, args: Option<&FluentArgs>) -> Option<String> {
    let pattern = bundle.get_message(id)?.value()?;
    let mut errors = Vec::new();
    let s = bundle.format_pattern(pattern, args, &mut errors);
    if !errors.is_empty() {
        web_sys::console::warn_1(&format!("attnscope: message {id:?}: {errors:?}").into());
    }
    Some(s.into_owned())
}

fn bundle(lang: Lang, sources: &[impl AsRef<str>]) -> Bundle {
    let mut bundle = FluentBundle::new(vec![lang.identifier()]);
    // The page's text is one direction; isolation marks would only end up in copied text.
    bundle.set_use_isolating(false);
    for source in sources {
        let resource = FluentResource::try_new(source.as_ref().to_string()).unwrap_or_else(
            |(resource, errors)| {
                let message = format!("attnscope: {} catalog: {errors:?}", lang.code());
                web_sys::console::warn_1(&message.into());
                resource
            },
        );
        if let Err(errors) = bundle.add_resource(resource) {
            let message = format!("attnscope: {} catalog: {errors:?}", lang.code());
            web_sys::console::warn_1(&message.into());
        }
    }
    bundle
}

/// The language the page is drawn in (tracked: a view reading it is drawn again on a switch).
pub fn lang() -> Lang {
    SHOWN.with(|s| s.get())
}

/// Whether readouts write decimals with a comma (`0,25`).
pub fn decimal_comma() -> bool {
    lang().decimal_comma()
}

/// The language the address names, if the page should say it: any language but the
/// browser's own English (a link opens in the language it was made in).
pub fn in_address() -> Option<Lang> {
    let shown = lang();
    (shown != Lang::En || BROWSER.get() != Lang::En).then_some(shown)
}

/// The language to start in: the address's `lang`, else the first of the browser's languages
/// the page has, else English.
pub fn starting(address: Option<Lang>) -> Lang {
    let browser: Vec<String> = web_sys::window()
        .map(|w| w.navigator().languages().iter().filter_map(|l| l.as_string()).collect())
        .unwrap_or_default();
    let from_browser = Lang::first_known(browser.iter().map(String::as_str));
    BROWSER.set(from_browser);
    address.unwrap_or(from_browser)
}

/// Shows the page in `lang`, fetching its catalogs first (once); the page stays in its
/// language if they cannot be fetched (offline before they were kept), and says so.
pub async fn switch(lang: Lang) -> Result<(), String> {
    if lang == Lang::En {
        OTHER.set(None);
    } else if OTHER.with_borrow(|b| b.as_ref().map(|b| b.locales[0].clone()))
        != Some(lang.identifier())
    {
        let mut sources = Vec::with_capacity(PARTS.len());
        for part in PARTS {
            sources.push(fetch_text(&format!("i18n/{}/{part}.ftl", lang.code())).await?);
        }
        OTHER.set(Some(bundle(lang, &sources)));
    }
    set_document_lang(lang);
    SHOWN.with(|s| s.set(lang));
    Ok(())
}

/// Shows the page in `lang` with the given catalog sources instead of fetched ones (tests).
#[cfg(test)]
pub fn switch_to_sources(lang: Lang, sources: &[&str]) {
    OTHER.set((lang != Lang::En).then(|| bundle(lang, sources)));
    SHOWN.with(|s| s.set(lang));
}

fn set_document_lang(lang: Lang) {
    if let Some(root) = web_sys::window().and_then(|w| w.document()?.document_element()) {
        let _ = root.set_attribute("lang", lang.html_tag());
    }
}

async fn fetch_text(url: &str) -> Result<String, String> {
    use wasm_bindgen::JsCast;
    let failed = |e: wasm_bindgen::JsValue| {
        format!(
            "{url} could not be fetched ({})",
            e.as_string().unwrap_or_else(|| format!("{e:?}"))
        )
    };
    let window = web_sys::window().ok_or("no window")?;
    let response =
        wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(url)).await.map_err(failed)?;
    let response: web_sys::Response = response.dyn_into().map_err(failed)?;
    if !response.ok() {
        return Err(format!("{url} could not be fetched (HTTP {})", response.status()));
    }
    let text = wasm_bindgen_futures::JsFuture::from(response.text().map_err(failed)?)
        .await
        .map_err(failed)?;
    text.as_string().ok_or_else(|| format!("{url} is not text"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn a_message_the_language_lacks_is_shown_in_english_and_an_unknown_id_as_itself() {
        switch_to_sources(Lang::De, &["page-language = Sprache\n"]);
        assert_eq!(tr!("page-language"), "Sprache");
        assert_eq!(tr!("page-open-full"), "Open in attnscope ↗", "English, never a blank");
        let failed = tr!("page-language-failed", language = "Deutsch", reason = "offline");
        assert_eq!(failed, "The page could not switch to Deutsch: offline");
        assert!(decimal_comma());
        switch_to_sources(Lang::En, &[]);
        assert_eq!(tr!("page-language"), "Language");
        assert!(!decimal_comma());
    }
}
