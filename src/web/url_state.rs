//! The view lives in the URL (`?model=…&layer=…&head=…&view=…&token=…&text=…`),
//! so a link reproduces it and back/forward work: the text, model, layer,
//! head, view, chosen token, step of the computation, lesson step and the
//! lessons' settings, and the look (dark, presentation, orientation, embed).
//! Anything malformed or hostile in a URL falls back to the defaults: the
//! text is only ever shown as text.

use attnscope::session::Sampling;
use attnscope::session::{ModelId, RunOptions};
use attnscope::url_params::{cut_text, UrlParams};

/// Tokens one press of Write asks for, unless the URL says otherwise.
pub const WRITE_COUNT: usize = 20;

pub const DEFAULT_TEXT: &str = "a fluffy blue creature roamed the verdant forest";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum View {
    Overview,
    #[default]
    Head,
    Grid,
    /// One query's path through the formula, number by number, with the lessons.
    Explain,
    /// A head's queries and keys as points of one plane (`views/space/`).
    Space,
    /// The head catalog and "find heads".
    Catalog,
    /// Seed 003's 3×4 example, editable.
    Worked,
    /// The guided lesson, step by step.
    Lesson,
    /// Beyond the weights: value-weighted attention, rollout, logit lens, knockout
    /// (`views/beyond/`).
    Beyond,
    /// A translation model's cross-attention (`views/translation/`).
    Translate,
    /// Speech heard by Whisper, its cross-attention over the sound (`views/speech/`).
    Speech,
    /// A vision trace's attention over its picture (`views/image/`).
    Image,
}

impl View {
    pub const ALL: [View; 12] = [
        View::Head,
        View::Grid,
        View::Overview,
        View::Explain,
        View::Space,
        View::Catalog,
        View::Worked,
        View::Lesson,
        View::Beyond,
        View::Translate,
        View::Speech,
        View::Image,
    ];

    pub fn slug(self) -> &'static str {
        match self {
            View::Overview => "overview",
            View::Head => "head",
            View::Grid => "grid",
            View::Explain => "explain",
            View::Space => "space",
            View::Catalog => "catalog",
            View::Worked => "worked",
            View::Lesson => "lesson",
            View::Beyond => "beyond",
            View::Translate => "translate",
            View::Speech => "speech",
            View::Image => "image",
        }
    }

    /// The label split where a projector's tab row cuts it: the first part always shows, the
    /// second ("space", "weights") goes in presentation mode, so that every tab fits one row.
    pub fn label_parts(self) -> (String, String) {
        match self {
            View::Space => (tr!("page-view-space-first"), tr!("page-view-space-rest")),
            View::Beyond => (tr!("page-view-beyond-first"), tr!("page-view-beyond-rest")),
            View::Worked => (tr!("page-view-worked-first"), tr!("page-view-worked-rest")),
            v => (v.label(), String::new()),
        }
    }

    pub fn label(self) -> String {
        match self {
            View::Overview => tr!("page-view-overview"),
            View::Head => tr!("page-view-head"),
            View::Grid => tr!("page-view-grid"),
            View::Explain => tr!("page-view-explain"),
            View::Space => tr!("page-view-space"),
            View::Catalog => tr!("page-view-catalog"),
            View::Worked => tr!("page-view-worked"),
            View::Lesson => tr!("page-view-lesson"),
            View::Beyond => tr!("page-view-beyond"),
            View::Translate => tr!("page-view-translate"),
            View::Speech => tr!("page-view-speech"),
            View::Image => tr!("page-view-image"),
        }
    }
}

/// A step from scores to weights, S = QKᵀ → S·(1/√d_k) → + M → softmax,
/// which the heatmap and the dot grids show (`views/common/stages.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Stage {
    Scores,
    Scaled,
    Masked,
    #[default]
    Weights,
}

impl Stage {
    pub const ALL: [Stage; 4] = [Stage::Scores, Stage::Scaled, Stage::Masked, Stage::Weights];

    /// The step's notation, the same in every language.
    pub fn label(self) -> &'static str {
        match self {
            Stage::Scores => "QKᵀ",
            Stage::Scaled => "÷ √d_k",
            Stage::Masked => "+ M",
            Stage::Weights => "softmax",
        }
    }

    pub fn slug(self) -> &'static str {
        match self {
            Stage::Scores => "scores",
            Stage::Scaled => "scaled",
            Stage::Masked => "masked",
            Stage::Weights => "weights",
        }
    }

    pub fn from_slug(s: &str) -> Option<Stage> {
        Stage::ALL.into_iter().find(|x| x.slug() == s)
    }

    pub fn next(self) -> Option<Stage> {
        match self {
            Stage::Scores => Some(Stage::Scaled),
            Stage::Scaled => Some(Stage::Masked),
            Stage::Masked => Some(Stage::Weights),
            Stage::Weights => None,
        }
    }

    /// Whether the values are signed scores (else weights, 0…1).
    pub fn is_score(self) -> bool {
        self != Stage::Weights
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
    /// Download the exact weights (MiniLM's f32 file) instead of the smaller copy.
    pub exact: bool,
    /// Writing's settings (its temperature is `options.next_token_temperature`) and its count.
    pub writing: Sampling,
    pub write_count: usize,
    /// A class's teacher's writing, for students' pages to write again (only in a class's
    /// state: the page's own address never holds it).
    pub follow: Option<FollowedWriting>,
    /// The page's language, when the address names one the page has (`i18n::in_address`).
    pub lang: Option<crate::i18n::Lang>,
}

/// What a student's page needs to write the teacher's generation itself: the prompt (the
/// text's first `prompt_chars` characters), the tokens written after it, and the timeline's
/// step the teacher shows (None: now).
#[derive(Clone, Debug, PartialEq)]
pub struct FollowedWriting {
    pub prompt_chars: usize,
    pub ids: Vec<u32>,
    pub at: Option<usize>,
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
            exact: false,
            writing: Sampling::default(),
            write_count: WRITE_COUNT,
            follow: None,
            lang: None,
        }
    }
}

impl UrlState {
    /// Reads a query string such as `?text=hi&model=minilm` (checked by
    /// `attnscope::url_params`, which the fuzzer runs on any string).
    pub fn parse(query: &str) -> Self {
        let d = Self::default();
        let p = UrlParams::parse(query);
        let mut options = d.options;
        options.temperature_factor = p.temp.unwrap_or(options.temperature_factor);
        options.next_token_temperature = p.ntemp.unwrap_or(options.next_token_temperature);
        options.unscaled = p.raw.unwrap_or(false);
        options.positional_encoding = p.pos.unwrap_or(true);
        Self {
            text: p.text.unwrap_or(d.text),
            model: p.model.unwrap_or(d.model),
            layer: p.layer.unwrap_or(0),
            head: p.head.unwrap_or(0),
            view: p
                .view
                .and_then(|v| View::ALL.into_iter().find(|x| x.slug() == v))
                .unwrap_or(d.view),
            token: p.token,
            stage: p.stage.as_deref().and_then(Stage::from_slug).unwrap_or(d.stage),
            step: p.step.map_or(0, |x| x - 1),
            options,
            columns_are_queries: p.cq.unwrap_or(false),
            dark: p.dark,
            present: p.present.unwrap_or(false),
            embed: p.embed.unwrap_or(false),
            exact: p.exact.unwrap_or(false),
            writing: Sampling {
                greedy: !p.sample.unwrap_or(false),
                temperature: 1.0,
                top_k: p.topk.unwrap_or(0),
                top_p: p.topp.unwrap_or(1.0),
                seed: p.seed.unwrap_or(0),
            },
            write_count: p.n.unwrap_or(WRITE_COUNT),
            follow: match (p.wp, p.wids) {
                (Some(prompt_chars), Some(ids)) => {
                    Some(FollowedWriting { prompt_chars, ids, at: p.wat })
                }
                _ => None,
            },
            lang: p.lang.as_deref().and_then(crate::i18n::Lang::parse),
        }
    }

    /// The query string; settings at their defaults are left out, and the
    /// text is cut as the computation cuts it.
    pub fn to_query(&self) -> String {
        let default = RunOptions::default();
        let o = &self.options;
        UrlParams {
            text: Some(cut_text(&self.text).0.to_string()),
            model: Some(self.model),
            layer: Some(self.layer),
            head: Some(self.head),
            view: Some(self.view.slug().to_string()),
            token: self.token,
            stage: (self.stage != Stage::Weights).then(|| self.stage.slug().to_string()),
            step: (self.view == View::Lesson).then_some(self.step + 1),
            temp: (o.temperature_factor != default.temperature_factor)
                .then_some(o.temperature_factor),
            raw: o.unscaled.then_some(true),
            pos: (!o.positional_encoding).then_some(false),
            ntemp: (o.next_token_temperature != default.next_token_temperature)
                .then_some(o.next_token_temperature),
            cq: self.columns_are_queries.then_some(true),
            dark: self.dark,
            present: self.present.then_some(true),
            embed: self.embed.then_some(true),
            exact: self.exact.then_some(true),
            sample: (!self.writing.greedy).then_some(true),
            topk: (self.writing.top_k != 0).then_some(self.writing.top_k),
            topp: (self.writing.top_p != 1.0).then_some(self.writing.top_p),
            seed: (self.writing.seed != 0).then_some(self.writing.seed),
            n: (self.write_count != WRITE_COUNT).then_some(self.write_count),
            wp: self.follow.as_ref().map(|f| f.prompt_chars),
            wids: self.follow.as_ref().map(|f| f.ids.clone()),
            wat: self.follow.as_ref().and_then(|f| f.at),
            lang: self.lang.map(|l| l.code().to_string()),
        }
        .to_query()
    }

    /// Whether going from `self` to `next` is a step a visitor goes back
    /// from (a new history entry): another model, layer, head, view or lesson
    /// step. Typing, dragging a slider, choosing a token or changing the look
    /// replace the entry instead.
    pub fn is_navigation_to(&self, next: &UrlState) -> bool {
        (self.model, self.layer, self.head, self.view, self.step)
            != (next.model, next.layer, next.head, next.view, next.step)
    }

    /// The state in the page's address now.
    pub fn current() -> Self {
        // A hosted page's start comes from its host (`attnscope.show(…, layer=, head=)`).
        if let Some(query) = crate::hosted::host().map(|h| h.query) {
            return Self::parse(&query);
        }
        web_sys::window()
            .and_then(|w| w.location().search().ok())
            .map(|q| Self::parse(&q))
            .unwrap_or_default()
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
