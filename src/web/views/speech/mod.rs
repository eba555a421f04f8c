//! The Speech tab: a clip (recorded, opened or one of the examples,
//! `capture.rs`) goes to Whisper in the extra worker, and its transcript
//! comes back with the decoder's cross-attention over the sound: drawn over
//! the spectrogram for one chosen token, with the words' times as spans
//! (`sound.rs`), as a token × time heatmap (`heatmap.rs`), the encoder's
//! own self-attention among the frames (`encoder.rs`), and the decoder's
//! causal self-attention among the tokens (`decoder.rs`), and one token
//! through one head of the cross-attention, step by step (`step.rs`).
//!
//! The tab keeps its own state ([`Speech`], by context): a clip is not the
//! text being typed, so the other tabs keep showing that text's run.

pub mod capture;
pub mod decoder;
pub mod encoder;
pub mod heatmap;
pub mod sound;
pub mod step;
#[cfg(test)]
pub(crate) mod tests;

use crate::compute::Engine;
use crate::state::{LoadState, Results};
use crate::views::common::format::fixed;
use attnscope::session::{ModelId, Recording, SpeechStep, SpeechSummary, ToWorker};
use attnscope::Matrix;
use leptos::prelude::*;
use std::sync::Arc;

/// Speech requests' ids start here, apart from the text runs' (which the
/// rest of the page compares with `Engine::latest`).
const FIRST_ID: u64 = 1 << 40;

/// What the tab is doing.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    Idle,
    /// Recording from the microphone: seconds so far and the level (0 … 1).
    Recording {
        seconds: f32,
        level: f32,
    },
    /// Decoding a file or an example.
    Reading,
    /// Waiting for Whisper (its download, then the transcript).
    Listening,
    Failed(String),
}

/// The tab's state, provided by context.
#[derive(Clone, Copy)]
pub struct Speech {
    pub heard: RwSignal<Option<Arc<SpeechSummary>>>,
    pub status: RwSignal<Status>,
    /// The chosen token (row of the cross-attention).
    pub token: RwSignal<Option<usize>>,
    /// The chosen (layer, head); None: the mean of the alignment heads.
    pub pick: RwSignal<Option<(usize, usize)>>,
    /// The encoder layer and head whose self-attention is drawn.
    pub encoder_layer: RwSignal<usize>,
    pub encoder_head: RwSignal<usize>,
    /// The clip as heard, for playing a word back: mono samples and their rate.
    pub clip: StoredValue<Option<(Vec<f32>, f32)>, LocalStorage>,
    /// The id of the latest clip sent; replies to older ones are dropped.
    asked: StoredValue<u64>,
    /// The id of the clip `heard` holds: a failure under it is a step's, not the clip's.
    heard_id: StoredValue<u64>,
    /// The latest step by step from the worker (`step.rs` shows it when it is the
    /// token and head chosen), or why it could not be computed.
    pub step: RwSignal<Option<std::result::Result<Arc<SpeechStep>, String>>>,
    /// The clip waiting for Whisper's download to finish.
    waiting: StoredValue<Option<Recording>>,
    /// Kept from the page's context: a clip arrives in an async task, which has none.
    res: Results,
    engine: Engine,
}

impl Speech {
    pub fn provide() -> Speech {
        let s = Speech {
            res: expect_context::<Results>(),
            engine: expect_context::<Engine>(),
            heard: RwSignal::new(None),
            status: RwSignal::new(Status::Idle),
            token: RwSignal::new(None),
            pick: RwSignal::new(None),
            encoder_layer: RwSignal::new(0),
            encoder_head: RwSignal::new(0),
            clip: StoredValue::new_local(None),
            asked: StoredValue::new(FIRST_ID),
            heard_id: StoredValue::new(0),
            step: RwSignal::new(None),
            waiting: StoredValue::new(None),
        };
        provide_context(s);
        s.send_when_loaded();
        s
    }

    /// Sends `samples` (mono, at `rate`) to Whisper, loading it first if it is not.
    pub fn hear(&self, samples: Vec<f32>, rate: f32) {
        let recording = Recording::from_f32(&samples, rate.round() as u32);
        self.clip.set_value(Some((samples, rate)));
        self.status.set(Status::Listening);
        match self.res.load_state(ModelId::Whisper) {
            LoadState::Ready => self.send(recording),
            LoadState::Loading { .. } => self.waiting.set_value(Some(recording)),
            LoadState::NotLoaded | LoadState::Failed(_) => {
                self.waiting.set_value(Some(recording));
                self.engine.send(ToWorker::Load { model: ModelId::Whisper, exact: false });
            }
        }
    }

    fn send(&self, recording: Recording) {
        let id = self.asked.get_value() + 1;
        self.asked.set_value(id);
        self.engine.send(ToWorker::Listen { id, model: ModelId::Whisper, recording });
    }

    /// A clip waiting for the model goes once it is loaded; a failed load is
    /// the tab's message too.
    fn send_when_loaded(self) {
        Effect::new(move |_| match self.res.load_state(ModelId::Whisper) {
            LoadState::Ready => {
                if let Some(r) = self.waiting.try_update_value(Option::take).flatten() {
                    self.send(r)
                }
            }
            LoadState::Failed(message) if self.waiting.with_value(Option::is_some) => {
                self.waiting.set_value(None);
                self.status.set(Status::Failed(tr!(
                    "speech-whisper-load-failed",
                    message = message.as_str()
                )));
            }
            _ => {}
        });
    }

    /// Whether reply `id` is about a clip (any, not only the latest).
    pub fn owns(&self, id: u64) -> bool {
        id > FIRST_ID
    }

    /// The worker's transcript of clip `id`.
    pub fn take(&self, id: u64, heard: SpeechSummary) {
        if id != self.asked.get_value() {
            return;
        }
        // The first word's first token, so that a picture shows at once.
        let first = heard.words.first().map(|w| w.tokens.0).filter(|&t| t < heard.tokens.len());
        self.token.set(first);
        self.pick.update(|p| {
            if p.is_some_and(|(l, h)| heard.cross.get(l).and_then(|l| l.get(h)).is_none()) {
                *p = None
            }
        });
        self.heard_id.set_value(id);
        self.step.set(None);
        self.heard.set(Some(Arc::new(heard)));
        self.status.set(Status::Idle);
    }

    pub fn failed(&self, id: u64, message: String) {
        if id != self.asked.get_value() {
            return;
        }
        if id == self.heard_id.get_value() {
            // The clip was heard: what failed is a step asked about it.
            self.step.set(Some(Err(message)));
        } else {
            self.status.set(Status::Failed(message));
        }
    }

    /// Asks the worker for token `token` of the clip through head `head` of decoder layer
    /// `layer`, step by step; answered by [`Speech::take_step`].
    pub fn ask_step(&self, layer: usize, head: usize, token: usize) {
        let id = self.heard_id.get_value();
        if id == 0 || id != self.asked.get_value() {
            return; // no clip, or another on its way: asked again when it comes
        }
        if self.step.with_untracked(|s| matches!(s, Some(Err(_)))) {
            self.step.set(None); // the failure was about the step asked before
        }
        self.engine.send(ToWorker::SpeechStep { id, model: ModelId::Whisper, layer, head, token });
    }

    /// The worker's step by step about clip `id`.
    pub fn take_step(&self, id: u64, step: SpeechStep) {
        if id == self.asked.get_value() && id == self.heard_id.get_value() {
            self.step.set(Some(Ok(Arc::new(step))));
        }
    }

    /// The (layer, head) step by step shows: the chosen head, else the first alignment head
    /// (`true`: the mean was chosen, so the page says which head stands for it).
    pub fn step_head(&self) -> (usize, usize, bool) {
        match self.pick.get() {
            Some((l, h)) => (l, h, false),
            None => {
                let first = self
                    .heard
                    .with(|h| h.as_ref().and_then(|h| h.alignment_heads.first().copied()));
                let (l, h) = first.unwrap_or((0, 0));
                (l, h, true)
            }
        }
    }

    /// "layer 3, head 2" or "the alignment heads' mean", for captions.
    pub fn which(&self) -> String {
        match self.pick.get() {
            Some((l, h)) => tr!("speech-which-head", layer = l + 1, head = h + 1),
            None => tr!("speech-which-alignment"),
        }
    }
}

/// How a token reads on screen (Whisper's byte-level pieces: Ġ is a space).
pub fn token_text(t: &str) -> String {
    t.replace('Ġ', " ").replace('Ċ', "⏎")
}

/// `w` as an image of one pixel a cell, each row scaled to its own peak: where a row of
/// attention over sound looks most is what the tab's pictures say, not how small its weights
/// are.
fn rows_to_their_peaks(w: &Matrix) -> Result<web_sys::HtmlCanvasElement, wasm_bindgen::JsValue> {
    let peaks: Vec<f32> =
        (0..w.rows).map(|i| w.row(i).iter().cloned().fold(0.0f32, f32::max).max(1e-9)).collect();
    crate::canvas::cell_image(w.rows, w.cols, |k| {
        let [r, g, b] = crate::canvas::cell_color(w.data[k] / peaks[k / w.cols]);
        [r, g, b, 255]
    })
}

/// The tab.
#[component]
pub fn SpeechView() -> impl IntoView {
    let speech = expect_context::<Speech>();
    view! {
        <div class="view-document speech" id="view-speech">
            <p class="speech-intro">
                {tr!("speech-intro")} <em>{tr!("speech-intro-cross")}</em> {tr!("speech-intro-end")}
            </p>
            <capture::Inputs />
            <Transcript />
            <Show when=move || speech.heard.with(Option::is_some)>
                <HeadChoice />
                <sound::Spectrogram />
                <heatmap::TokenTime />
                <step::SpeechStep />
                <encoder::EncoderMap />
                <decoder::DecoderMap />
            </Show>
        </div>
    }
}

/// The transcript, its tokens as buttons, the notices and the time it took.
#[component]
fn Transcript() -> impl IntoView {
    let speech = expect_context::<Speech>();
    let tokens = move || {
        let heard = speech.heard.get()?;
        Some(
            heard
                .tokens
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let label = token_text(t);
                    view! {
                        <button
                            class="token speech-token"
                            aria-pressed=move || (speech.token.get() == Some(i)).to_string()
                            on:click=move |_| speech.token.set(Some(i))
                        >
                            {label}
                        </button>
                    }
                })
                .collect_view(),
        )
    };
    view! {
        <Show when=move || speech.heard.with(Option::is_some)>
            <p class="speech-text" id="speech-text">
                {move || speech.heard.get().map(|h| h.text.clone())}
            </p>
            <p class="speech-facts">
                {move || {
                    speech
                        .heard
                        .get()
                        .map(|h| {
                            let memory = h
                                .memory_bytes
                                .map(|b| tr!("speech-facts-memory", mb = fixed(b as f64 / 1e6, 0)))
                                .unwrap_or_default();
                            tr!(
                                "speech-facts",
                                seconds = fixed(h.seconds as f64, 1),
                                frames = h.frames,
                                tokens = h.tokens.len(),
                                ms = fixed(h.compute_ms, 0),
                                memory = memory,
                            )
                        })
                }}
            </p>
            <ul class="notices">
                {move || {
                    speech
                        .heard
                        .get()
                        .map(|h| {
                            h.notices.iter().map(|n| view! { <li>{n.clone()}</li> }).collect_view()
                        })
                }}
            </ul>
            <div class="token-row speech-tokens" role="group" aria-label=tr!("speech-tokens-label")>
                {tokens}
            </div>
        </Show>
    }
}

/// The decoder layer and head whose cross-attention is drawn.
#[component]
pub fn HeadChoice() -> impl IntoView {
    let speech = expect_context::<Speech>();
    let options = move || {
        let heard = speech.heard.get()?;
        let mut all = vec![("align".to_string(), tr!("speech-alignment-mean"))];
        for (l, layer) in heard.cross.iter().enumerate() {
            for h in 0..layer.len() {
                let star = if heard.alignment_heads.contains(&(l, h)) { " ★" } else { "" };
                let label = tr!("speech-layer-head", layer = l + 1, head = h + 1);
                all.push((format!("{l}-{h}"), format!("{label}{star}")));
            }
        }
        Some(
            all.into_iter()
                .map(|(value, label)| view! { <option value=value>{label}</option> })
                .collect_view(),
        )
    };
    let value = move || match speech.pick.get() {
        Some((l, h)) => format!("{l}-{h}"),
        None => "align".into(),
    };
    view! {
        <label class="speech-head">
            {tr!("speech-cross-of")} " "
            <select
                id="speech-head"
                prop:value=value
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    let pick = v
                        .split_once('-')
                        .and_then(|(l, h)| Some((l.parse().ok()?, h.parse().ok()?)));
                    speech.pick.set(pick);
                }
            >
                {options}
            </select>
        </label>
    }
}

/// A `select` of `n` layers or heads, numbered from 1 (its values from 0), bound to `pick`:
/// the encoder's and the decoder's maps each choose their own.
fn numbered_pick(
    id: &'static str,
    label: String,
    n: Signal<usize>,
    pick: RwSignal<usize>,
) -> impl IntoView {
    view! {
        <label class="speech-head">
            {label}
            <select
                id=id
                prop:value=move || pick.get().to_string()
                on:change=move |ev| {
                    if let Ok(v) = event_target_value(&ev).parse::<usize>() {
                        pick.set(v);
                    }
                }
            >
                {move || {
                    (0..n.get())
                        .map(|i| {
                            view! { <option value=i.to_string()>{(i + 1).to_string()}</option> }
                        })
                        .collect_view()
                }}
            </select>
        </label>
    }
}
