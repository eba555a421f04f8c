//! The lesson's third chapter, "Listening": cross-attention, where the
//! queries come from the words a decoder writes and the keys and values
//! from another sequence, here Whisper's encoding of a clip of sound. Its
//! numbers come from the clip the Speech tab heard last (its `Speech`
//! state); without one, the step's picture offers the examples and the
//! microphone.

use super::Picture;
use crate::url_state::Stage;
use crate::views::common::format::num;
use crate::views::speech::{capture, heatmap, sound, token_text, HeadChoice, Speech};
use attnscope::session::SpeechSummary;
use leptos::prelude::*;

/// The chapter's first step, counted from 0 over the whole lesson.
pub const FIRST: usize = 12;

/// A step of the chapter: its title, picture and stage.
pub fn step(k: usize) -> (&'static str, Picture, Option<Stage>) {
    match k - FIRST {
        0 => ("Cross-attention: a word listens to the sound", Picture::Listen, None),
        _ => ("Where each word was said", Picture::Timing, None),
    }
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
            Some((l, h)) => format!("decoder layer {}, head {}", l + 1, h + 1),
            None => "the mean of the alignment heads".into(),
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
            0 => format!(
                "Whisper heard “{}” and wrote it as {} tokens. Each token's query is compared with keys that come from another sequence: the encoder's 1,500 frames of sound (20 ms each; the clip fills {} of them, silence the rest). Same formula, softmax(q Kᵀ/√d_k), with no mask: every token may listen anywhere. Here ({}) the query of “{q}” puts its largest weight, {}, on {:.2}–{:.2} s.",
                h.text,
                h.tokens.len(),
                h.frames,
                self.which(),
                num(weight),
                at as f32 / 50.0,
                (at + 1) as f32 / 50.0,
            ),
            _ => {
                let heads: Vec<String> =
                    h.alignment_heads.iter().map(|&(l, hd)| format!("{}.{}", l + 1, hd + 1)).collect();
                let span = match self.span() {
                    Some((word, start, end)) => {
                        format!(" “{word}” was said from {start:.2} s to {end:.2} s.")
                    }
                    None => String::new(),
                };
                format!(
                    "Most heads do not follow time, but a few do: the checkpoint names {} alignment heads (layer.head {}). Their mean, row by row, steps through the sound as the words go on; dynamic time warping along it gives each word its start and end.{span}",
                    heads.len(),
                    heads.join(", "),
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
                ("lesson-listen-tokens", "tokens written".into(), h.tokens.len().to_string()),
                (
                    "lesson-listen-frames",
                    "frames of sound (keys)".into(),
                    format!("{} of the clip, 1,500 in all", h.frames),
                ),
                ("lesson-listen-scale", "1/√d_k".into(), num(h.scale)),
                (
                    "lesson-listen-peak",
                    format!("largest weight of “{}”", self.word()),
                    format!("{} at {:.2} s", num(weight), at as f32 / 50.0),
                ),
                (
                    "lesson-listen-clip",
                    "share on the clip".into(),
                    format!("{:.1}%", 100.0 * on_clip),
                ),
            ],
            _ => {
                let mut out = vec![(
                    "lesson-listen-heads",
                    "alignment heads".into(),
                    h.alignment_heads.len().to_string(),
                )];
                out.push(("lesson-listen-words", "words timed".into(), h.words.len().to_string()));
                if let Some((word, start, end)) = self.span() {
                    out.push((
                        "lesson-listen-span",
                        format!("“{word}”"),
                        format!("{start:.2}–{end:.2} s"),
                    ));
                }
                out
            }
        }
    }
}

/// The step's sentence when no clip has been heard yet.
pub const NO_CLIP: &str = "This chapter listens. Play one of the examples under the picture (or record a sentence of your own): Whisper tiny.en writes what it hears, in your browser, and the lesson goes on with its numbers.";

/// What to try on a step of the chapter.
pub fn try_this(k: usize) -> (&'static str, Option<AnyView>) {
    match k - FIRST {
        0 => (
            "Tap another word's span under the spectrogram: its first token becomes the query, and the stretch plays.",
            None,
        ),
        _ => (
            "Choose one head instead of the alignment heads' mean: most heads listen all over the clip.",
            Some(view! { <HeadChoice /> }.into_any()),
        ),
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
