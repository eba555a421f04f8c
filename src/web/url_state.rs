//! The view lives in the URL (`?model=…&layer=…&head=…&view=…&text=…`), so a
//! link reproduces it and back/forward work. Anything malformed or hostile
//! in a URL falls back to the defaults: the text is only ever shown as text.

use attnscope::session::ModelId;

pub const DEFAULT_TEXT: &str = "a fluffy blue creature roamed the verdant forest";
/// Longest text a URL may carry; the box itself accepts more and cuts with a notice.
pub const MAX_URL_TEXT: usize = 10_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum View {
    Overview,
    #[default]
    Head,
    Grid,
    /// One query's path through the formula, number by number, with the lessons.
    Explain,
    /// The head catalog and "find heads".
    Catalog,
    /// Seed 003's 3×4 example, editable.
    Worked,
}

impl View {
    pub const ALL: [View; 6] = [View::Head, View::Overview, View::Grid, View::Explain, View::Catalog, View::Worked];

    pub fn slug(self) -> &'static str {
        match self {
            View::Overview => "overview",
            View::Head => "head",
            View::Grid => "grid",
            View::Explain => "explain",
            View::Catalog => "catalog",
            View::Worked => "worked",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            View::Overview => "All heads",
            View::Head => "Heatmap",
            View::Grid => "Dot grid",
            View::Explain => "Step by step",
            View::Catalog => "Head catalog",
            View::Worked => "Worked 3×4",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct UrlState {
    pub text: String,
    pub model: ModelId,
    pub layer: usize,
    pub head: usize,
    pub view: View,
}

impl Default for UrlState {
    fn default() -> Self {
        Self { text: DEFAULT_TEXT.into(), model: ModelId::Teaching, layer: 0, head: 0, view: View::Head }
    }
}

impl UrlState {
    /// Reads a query string such as `?text=hi&model=minilm`.
    pub fn parse(query: &str) -> Self {
        let mut s = Self::default();
        let Ok(params) = web_sys::UrlSearchParams::new_with_str(query) else { return s };
        if let Some(t) = params.get("text") {
            s.text = t.chars().take(MAX_URL_TEXT).collect();
        }
        if let Some(m) = params.get("model").as_deref().and_then(ModelId::from_slug) {
            s.model = m;
        }
        let small = |v: Option<String>| v.and_then(|x| x.parse::<usize>().ok()).filter(|&x| x < 1000);
        s.layer = small(params.get("layer")).unwrap_or(0);
        s.head = small(params.get("head")).unwrap_or(0);
        if let Some(v) = params.get("view").and_then(|v| View::ALL.into_iter().find(|x| x.slug() == v)) {
            s.view = v;
        }
        s
    }

    pub fn to_query(&self) -> String {
        let Ok(params) = web_sys::UrlSearchParams::new() else { return String::new() };
        params.append("model", self.model.slug());
        params.append("layer", &self.layer.to_string());
        params.append("head", &self.head.to_string());
        params.append("view", self.view.slug());
        params.append("text", &self.text);
        format!("?{}", String::from(params.to_string()))
    }

    /// The state in the page's address now.
    pub fn current() -> Self {
        web_sys::window().and_then(|w| w.location().search().ok()).map(|q| Self::parse(&q)).unwrap_or_default()
    }

    /// Records the state: a new history entry when `push`, else the current one is replaced
    /// (typing should not fill the history with one entry per key).
    pub fn record(&self, push: bool) {
        let Some(history) = web_sys::window().and_then(|w| w.history().ok()) else { return };
        if Self::current() == *self {
            return;
        }
        let url = self.to_query();
        let _ = if push {
            history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
        } else {
            history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
        };
    }
}
