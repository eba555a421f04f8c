//! The lesson's third chapter, "Listening": cross-attention, where the
//! queries come from the words a decoder writes and the keys and values
//! from another sequence, here Whisper's encoding of a clip of sound. Its
//! numbers come from the clip the Speech tab heard last (its `Speech`
//! state); without one, the step's picture offers the examples and the
//! microphone.

use super::Picture;
use crate::url_state::Stage;
use crate::views::common::format::{fixed, num};
use crate::views::speech::{capture, heatmap, sound, token_text, HeadChoice, Speech};
use attnscope::session::SpeechSummary;
use leptos::prelude::*;

/// The chapter's first step, counted from 0 over the whole lesson.
pub const FIRST: usize = 12;

/// A step of the chapter: its title, picture and stage.
pub fn step(k: usize) -> (String, Picture, Option<Stage>) {
    match k - FIRST {
        0 => (tr!("lesson-step-cross"), Picture::Listen, None),
        _ => (tr!("lesson-step-timing"), Picture::Timing, None),
    }
}

/// Seconds with two decimals, in the page's language: frame `at` of 20 ms starts at `at / 50`.
fn seconds(s: f32) -> String {
    fixed(s as f64, 2)
}

/// What the chapter shows of the clip heard: the summary, the chosen token and its row of
/// cross-attention (for the chosen head, or the alignment heads' mean).
pub struct Heard<'a> {
    pub h: &'a SpeechSummary,
    pub token: usize,
    pub row: &'a [f32],
    /// The decoder layer and head drawn; None: the mean of the alignment heads.
    pub pick: Option<(usize, usize)>,
}

impl<'a> Heard<'a> {
    pub fn new(
        h: &'a SpeechSummary,
        token: Option<usize>,
        pick: Option<(usize, usize)>,
    ) -> Option<Self> {
        let w = h.weights(pick)?;
        let token = token.filter(|&t| t < w.rows)?;
        (w.cols > 0).then(|| Self { h, token, row: w.row(token), pick })
    }

    fn word(&self) -> String {
        token_text(&self.h.tokens[self.token]).trim().to_string()
    }

    /// The frame the token's query weighs most, and its weight.
    fn peak(&self) -> (usize, f32) {
        self.row
            .iter()
            .enumerate()
            .fold((0, f32::MIN), |b, (i, &a)| if a > b.1 { (i, a) } else { b })
    }

    fn which(&self) -> String {
        match self.pick {
            Some((l, h)) => tr!("lesson-which-head", layer = l + 1, head = h + 1),
            None => tr!("lesson-which-mean"),
        }
    }

    /// The word the token belongs to, with its span in seconds.
    fn span(&self) -> Option<(String, f32, f32)> {
        let t = self.token;
        let w = self.h.words.iter().find(|w| (w.tokens.0..w.tokens.1).contains(&t))?;
        Some((w.word.trim().to_string(), w.start, w.end))
    }

    /// What a step of the chapter says.
    pub fn says(&self, k: usize) -> String {
        let h = self.h;
        let (at, weight) = self.peak();
        let q = self.word();
        match k - FIRST {
            0 => tr!(
                "lesson-says-cross",
                text = h.text.as_str(),
                tokens = h.tokens.len(),
                frames = h.frames,
                which = self.which(),
                query = q,
                weight = num(weight),
                from = seconds(at as f32 / 50.0),
                to = seconds((at + 1) as f32 / 50.0),
            ),
            _ => {
                let heads: Vec<String> = h
                    .alignment_heads
                    .iter()
                    .map(|&(l, hd)| format!("{}.{}", l + 1, hd + 1))
                    .collect();
                let span = match self.span() {
                    Some((word, start, end)) => tr!(
                        "lesson-says-timing-span",
                        word = word,
                        start = seconds(start),
                        end = seconds(end),
                    ),
                    None => String::new(),
                };
                tr!(
                    "lesson-says-timing",
                    count = heads.len(),
                    heads = heads.join(", "),
                    span = span,
                )
            }
        }
    }

    /// The step's numbers, as (id, label, value).
    pub fn numbers(&self, k: usize) -> Vec<(&'static str, String, String)> {
        let h = self.h;
        let (at, weight) = self.peak();
        let on_clip: f32 = self.row.iter().sum();
        match k - FIRST {
            0 => vec![
                (
                    "lesson-listen-tokens",
                    tr!("lesson-label-listen-tokens"),
                    h.tokens.len().to_string(),
                ),
                (
                    "lesson-listen-frames",
                    tr!("lesson-label-listen-frames"),
                    tr!("lesson-value-frames", frames = h.frames),
                ),
                ("lesson-listen-scale", "1/√d_k".into(), num(h.scale)),
                (
                    "lesson-listen-peak",
                    tr!("lesson-label-listen-peak", query = self.word()),
                    tr!(
                        "lesson-value-peak",
                        weight = num(weight),
                        time = seconds(at as f32 / 50.0),
                    ),
                ),
                (
                    "lesson-listen-clip",
                    tr!("lesson-label-listen-clip"),
                    super::writing::pct(on_clip),
                ),
            ],
            _ => {
                let mut out = vec![(
                    "lesson-listen-heads",
                    tr!("lesson-label-listen-heads"),
                    h.alignment_heads.len().to_string(),
                )];
                out.push((
                    "lesson-listen-words",
                    tr!("lesson-label-listen-words"),
                    h.words.len().to_string(),
                ));
                if let Some((word, start, end)) = self.span() {
                    out.push((
                        "lesson-listen-span",
                        tr!("lesson-quoted", word = word),
                        format!("{}–{} s", seconds(start), seconds(end)),
                    ));
                }
                out
            }
        }
    }
}

/// The step's sentence when no clip has been heard yet.
pub fn no_clip() -> String {
    tr!("lesson-no-clip")
}

/// What to try on a step of the chapter.
pub fn try_this(k: usize) -> (String, Option<AnyView>) {
    match k - FIRST {
        0 => (tr!("lesson-try-cross"), None),
        _ => (tr!("lesson-try-timing"), Some(view! { <HeadChoice /> }.into_any())),
    }
}

/// The picture of a step: the inputs until a clip is heard, then the spectrogram (step 1) or
/// the token × time map (step 2).
#[component]
pub fn ListenPicture(timing: bool) -> impl IntoView {
    let speech = expect_context::<Speech>();
    let heard = move || speech.heard.with(Option::is_some);
    view! {
        <div class="speech lesson-speech">
            <Show when=move || !heard()>
                <capture::Inputs />
            </Show>
            <Show when=heard>
                {if timing {
                    view! { <heatmap::TokenTime /> }.into_any()
                } else {
                    view! { <sound::Spectrogram /> }.into_any()
                }}
            </Show>
        </div>
    }
}
