//! The view lives in the URL (`?model=…&layer=…&head=…&view=…&token=…&text=…`),
//! so a link reproduces it and back/forward work: the text, model, layer,
//! head, view, chosen token, step of the computation, lesson step and the
//! lessons' settings, and the look (dark, presentation, orientation, embed).
//! Anything malformed or hostile in a URL falls back to the defaults: the
//! text is only ever shown as text.

use crate::views::stages::Stage;
use attnscope::session::{ModelId, RunOptions};

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
    /// The guided lesson, step by step.
    Lesson,
}

impl View {
    pub const ALL: [View; 7] = [View::Head, View::Grid, View::Overview, View::Explain, View::Catalog, View::Worked, View::Lesson];

    pub fn slug(self) -> &'static str {
        match self {
            View::Overview => "overview",
            View::Head => "head",
            View::Grid => "grid",
            View::Explain => "explain",
            View::Catalog => "catalog",
            View::Worked => "worked",
            View::Lesson => "lesson",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            View::Overview => "All heads",
            View::Head => "Heatmap",
            View::Grid => "Dot grid",
            View::Explain => "Step by step",
            View::Catalog => "Catalog",
            View::Worked => "Worked 3×4",
            View::Lesson => "Lesson",
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
    pub token: Option<usize>,
    pub stage: Stage,
    /// The lesson's step, from 0 (the URL counts from 1).
    pub step: usize,
    pub options: RunOptions,
    pub columns_are_queries: bool,
    /// None: follow the system's colour scheme.
    pub dark: Option<bool>,
    pub present: bool,
    pub embed: bool,
}

impl Default for UrlState {
    fn default() -> Self {
        Self {
            text: DEFAULT_TEXT.into(),
            model: ModelId::Teaching,
            layer: 0,
            head: 0,
            view: View::Head,
            token: None,
            stage: Stage::Weights,
            step: 0,
            options: RunOptions::default(),
            columns_are_queries: false,
            dark: None,
            present: false,
            embed: false,
        }
    }
}

/// A factor from the URL: finite, within the sliders' range, else None.
fn factor(v: Option<String>) -> Option<f32> {
    v?.parse::<f32>().ok().filter(|f| f.is_finite() && (0.1..=10.0).contains(f))
}

fn flag(v: Option<String>) -> Option<bool> {
    match v?.as_str() {
        "1" | "true" | "on" => Some(true),
        "0" | "false" | "off" => Some(false),
        _ => None,
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
        let small = |v: Option<String>| v.and_then(|x| x.parse::<usize>().ok()).filter(|&x| x < 100_000);
        s.layer = small(params.get("layer")).filter(|&x| x < 1000).unwrap_or(0);
        s.head = small(params.get("head")).filter(|&x| x < 1000).unwrap_or(0);
        s.token = small(params.get("token"));
        if let Some(v) = params.get("view").and_then(|v| View::ALL.into_iter().find(|x| x.slug() == v)) {
            s.view = v;
        }
        if let Some(stage) = params.get("stage").as_deref().and_then(Stage::from_slug) {
            s.stage = stage;
        }
        s.step = small(params.get("step")).filter(|&x| x >= 1).map_or(0, |x| x - 1);
        if let Some(f) = factor(params.get("temp")) {
            s.options.temperature_factor = f;
        }
        if let Some(f) = factor(params.get("ntemp")) {
            s.options.next_token_temperature = f;
        }
        s.options.unscaled = flag(params.get("raw")).unwrap_or(false);
        s.options.positional_encoding = flag(params.get("pos")).unwrap_or(true);
        s.columns_are_queries = flag(params.get("cq")).unwrap_or(false);
        s.dark = flag(params.get("dark"));
        s.present = flag(params.get("present")).unwrap_or(false);
        s.embed = flag(params.get("embed")).unwrap_or(false);
        s
    }

    /// The query string; settings at their defaults are left out.
    pub fn to_query(&self) -> String {
        let Ok(params) = web_sys::UrlSearchParams::new() else { return String::new() };
        let default = RunOptions::default();
        params.append("model", self.model.slug());
        params.append("layer", &self.layer.to_string());
        params.append("head", &self.head.to_string());
        params.append("view", self.view.slug());
        if let Some(t) = self.token {
            params.append("token", &t.to_string());
        }
        if self.stage != Stage::Weights {
            params.append("stage", self.stage.slug());
        }
        if self.view == View::Lesson {
            params.append("step", &(self.step + 1).to_string());
        }
        if self.options.temperature_factor != default.temperature_factor {
            params.append("temp", &format!("{:.3}", self.options.temperature_factor));
        }
        if self.options.unscaled {
            params.append("raw", "1");
        }
        if !self.options.positional_encoding {
            params.append("pos", "0");
        }
        if self.options.next_token_temperature != default.next_token_temperature {
            params.append("ntemp", &format!("{:.3}", self.options.next_token_temperature));
        }
        if self.columns_are_queries {
            params.append("cq", "1");
        }
        if let Some(d) = self.dark {
            params.append("dark", if d { "1" } else { "0" });
        }
        if self.present {
            params.append("present", "1");
        }
        if self.embed {
            params.append("embed", "1");
        }
        params.append("text", &self.text);
        format!("?{}", String::from(params.to_string()))
    }

    /// Whether going from `self` to `next` is a step a visitor goes back
    /// from (a new history entry): another model, layer, head, view or lesson
    /// step. Typing, dragging a slider, choosing a token or changing the look
    /// replace the entry instead.
    pub fn is_navigation_to(&self, next: &UrlState) -> bool {
        (self.model, self.layer, self.head, self.view, self.step) != (next.model, next.layer, next.head, next.view, next.step)
    }

    /// The state in the page's address now.
    pub fn current() -> Self {
        web_sys::window().and_then(|w| w.location().search().ok()).map(|q| Self::parse(&q)).unwrap_or_default()
    }

    /// Records the state: a new history entry when `push`, else the current one is replaced.
    pub fn record(&self, push: bool) {
        let Some(history) = web_sys::window().and_then(|w| w.history().ok()) else { return };
        let url = self.to_query();
        if web_sys::window().and_then(|w| w.location().search().ok()).is_some_and(|q| q == url) {
            return;
        }
        let _ = if push {
            history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
        } else {
            history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url))
        };
    }
}
