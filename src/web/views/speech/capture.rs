//! Where a clip comes from: the microphone (raw samples at the sound
//! card's rate, with a level meter, at most 30 s), a file the browser can
//! decode (WAV, MP3, Ogg… decoded at 16 kHz, channels mixed), or one of
//! the example clips; and a stretch of it played back. Web Audio does the
//! decoding and the playing; the worker resamples a recording to 16 kHz.

use super::{Speech, Status};
use crate::views::common::format::fixed;
use attnscope::session::MAX_SECONDS;
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AudioBuffer, AudioContext, AudioProcessingEvent, MediaStream};

/// The example clips (www/audio/), synthesized by espeak-ng, and what was said.
const EXAMPLES: [(&str, &str); 2] = [
    ("audio/listen.wav", "Every word listens to the sound."),
    ("audio/fox.wav", "The quick brown fox jumps over the lazy dog."),
];

/// Samples the browser hands over per callback while recording.
const BLOCK: u32 = 4096;

/// A recording under way: what must be stopped, and the samples so far.
struct Recorder {
    context: AudioContext,
    stream: MediaStream,
    samples: Rc<RefCell<Vec<f32>>>,
    _on_audio: Closure<dyn FnMut(AudioProcessingEvent)>,
}

impl Recorder {
    /// Stops the microphone and returns the samples and their rate.
    fn stop(self) -> (Vec<f32>, f32) {
        let tracks = self.stream.get_tracks();
        for t in tracks.iter() {
            if let Ok(t) = t.dyn_into::<web_sys::MediaStreamTrack>() {
                t.stop();
            }
        }
        let rate = self.context.sample_rate();
        let _ = self.context.close();
        (self.samples.take(), rate)
    }
}

thread_local! {
    static RECORDER: RefCell<Option<Recorder>> = const { RefCell::new(None) };
}

fn message(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

/// Why the microphone cannot be used here, if it cannot.
fn no_microphone() -> Option<String> {
    let window = web_sys::window()?;
    if !window.is_secure_context() {
        return Some(tr!("speech-needs-secure"));
    }
    if window.navigator().media_devices().is_err() {
        return Some(tr!("speech-no-microphone"));
    }
    None
}

/// Starts recording; the level and time go to `speech.status`.
async fn record(speech: Speech) -> Result<(), String> {
    // The audio graph's context first: made after the microphone opened, it
    // would miss the first moments of the sound.
    let context = AudioContext::new().map_err(message)?;
    match connect(&context, speech).await {
        Ok((stream, samples, on_audio)) => {
            let r = Recorder { context, stream, samples, _on_audio: on_audio };
            RECORDER.with(|slot| *slot.borrow_mut() = Some(r));
            speech.status.set(Status::Recording { seconds: 0.0, level: 0.0 });
            Ok(())
        }
        Err(m) => {
            let _ = context.close();
            Err(m)
        }
    }
}

type Connected = (MediaStream, Rc<RefCell<Vec<f32>>>, Closure<dyn FnMut(AudioProcessingEvent)>);

/// Opens the microphone and connects it, through a block-by-block
/// collector, to `context`'s output.
async fn connect(context: &AudioContext, speech: Speech) -> Result<Connected, String> {
    let window = web_sys::window().ok_or("no window")?;
    let devices = window.navigator().media_devices().map_err(message)?;
    let constraints = web_sys::MediaStreamConstraints::new();
    // The sound as the microphone hears it: the browser's echo cancelling,
    // noise suppression and gain control would change what Whisper hears.
    let audio = js_sys::Object::new();
    for key in ["echoCancellation", "noiseSuppression", "autoGainControl"] {
        let _ = js_sys::Reflect::set(&audio, &key.into(), &JsValue::FALSE);
    }
    constraints.set_audio(&audio);
    let stream =
        JsFuture::from(devices.get_user_media_with_constraints(&constraints).map_err(message)?)
            .await
            .map_err(|e| {
                let m = message(e);
                if m.contains("denied") || m.contains("ermission") {
                    tr!("speech-microphone-refused", message = m.as_str())
                } else {
                    tr!("speech-microphone-failed", message = m.as_str())
                }
            })?
            .dyn_into::<MediaStream>()
            .map_err(message)?;
    let rate = context.sample_rate();
    let source = context.create_media_stream_source(&stream).map_err(message)?;
    let processor = context
        .create_script_processor_with_buffer_size_and_number_of_input_channels_and_number_of_output_channels(BLOCK, 1, 1)
        .map_err(message)?;
    let samples = Rc::new(RefCell::new(Vec::new()));
    let kept = samples.clone();
    let on_audio =
        Closure::<dyn FnMut(AudioProcessingEvent)>::new(move |ev: AudioProcessingEvent| {
            let Ok(block) = ev.input_buffer().and_then(|b| b.get_channel_data(0)) else { return };
            let level =
                (block.iter().map(|x| x * x).sum::<f32>() / block.len().max(1) as f32).sqrt();
            let mut all = kept.borrow_mut();
            all.extend_from_slice(&block);
            let seconds = all.len() as f32 / rate;
            drop(all);
            if seconds >= MAX_SECONDS {
                stop(speech);
            } else if matches!(speech.status.get_untracked(), Status::Recording { .. }) {
                // A level meter reads better on a square root scale.
                speech
                    .status
                    .set(Status::Recording { seconds, level: (level * 4.0).sqrt().min(1.0) });
            }
        });
    processor.set_onaudioprocess(Some(on_audio.as_ref().unchecked_ref()));
    source.connect_with_audio_node(&processor).map_err(message)?;
    // A script processor runs only while connected to the output (it writes silence there).
    processor.connect_with_audio_node(&context.destination()).map_err(message)?;
    Ok((stream, samples, on_audio))
}

/// Stops a recording under way and sends what it heard.
pub fn stop(speech: Speech) {
    let Some(recorder) = RECORDER.with(|r| r.borrow_mut().take()) else { return };
    let (samples, rate) = recorder.stop();
    if samples.is_empty() {
        speech.status.set(Status::Failed(tr!("speech-nothing-recorded")));
    } else {
        speech.hear(samples, rate);
    }
}

/// Decodes a whole file's bytes at 16 kHz (Web Audio resamples) and mixes its channels.
async fn decode(bytes: js_sys::ArrayBuffer) -> Result<(Vec<f32>, f32), String> {
    let options = web_sys::AudioContextOptions::new();
    options.set_sample_rate(16_000.0);
    let context = AudioContext::new_with_context_options(&options).map_err(message)?;
    let decoded = JsFuture::from(context.decode_audio_data(&bytes).map_err(message)?).await;
    let _ = context.close();
    let buffer: AudioBuffer = decoded
        .map_err(|e| tr!("speech-not-decodable", message = message(e)))?
        .dyn_into()
        .map_err(message)?;
    let channels = buffer.number_of_channels().max(1);
    let mut mono = vec![0.0f32; buffer.length() as usize];
    for c in 0..channels {
        let data = buffer.get_channel_data(c).map_err(message)?;
        for (m, x) in mono.iter_mut().zip(data) {
            *m += x / channels as f32;
        }
    }
    Ok((mono, buffer.sample_rate()))
}

/// Reads a chosen file, or fetches an example, and sends it to Whisper.
fn open(
    speech: Speech,
    bytes: impl std::future::Future<Output = Result<JsValue, JsValue>> + 'static,
) {
    speech.status.set(Status::Reading);
    leptos::task::spawn_local(async move {
        let decoded = match bytes.await {
            Ok(b) => decode(b.unchecked_into()).await,
            Err(e) => Err(tr!("speech-file-unreadable", message = message(e))),
        };
        match decoded {
            Ok((samples, _)) if samples.is_empty() => {
                speech.status.set(Status::Failed(tr!("speech-file-empty")))
            }
            Ok((samples, rate)) => speech.hear(samples, rate),
            Err(m) => speech.status.set(Status::Failed(m)),
        }
    });
}

async fn fetch_bytes(url: &'static str) -> Result<JsValue, JsValue> {
    let window = web_sys::window().ok_or("no window")?;
    let response: web_sys::Response =
        JsFuture::from(window.fetch_with_str(url)).await?.dyn_into()?;
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()).into());
    }
    JsFuture::from(response.array_buffer()?).await
}

/// Plays `from`…`to` seconds of the clip heard.
pub fn play(speech: Speech, from: f32, to: f32) {
    let Some((samples, rate)) = speech.clip.with_value(|c| c.clone()) else { return };
    let played = (|| -> Result<(), JsValue> {
        let context = AudioContext::new()?;
        let buffer = context.create_buffer(1, samples.len().max(1) as u32, rate)?;
        buffer.copy_to_channel(&samples, 0)?;
        let source = context.create_buffer_source()?;
        source.set_buffer(Some(&buffer));
        source.connect_with_audio_node(&context.destination())?;
        let from = f64::from(from.max(0.0));
        source.start_with_when_and_grain_offset_and_grain_duration(
            0.0,
            from,
            f64::from(to).max(from + 0.05) - from,
        )?;
        Ok(())
    })();
    if let Err(e) = played {
        web_sys::console::warn_2(&"speech: playing failed:".into(), &e);
    }
}

/// The buttons: record/stop with its meter, open a file, the examples, and the status.
#[component]
pub fn Inputs() -> impl IntoView {
    let speech = expect_context::<Speech>();
    let res = expect_context::<crate::state::Results>();
    let why_not = no_microphone();
    let can_record = why_not.is_none();
    let recording = move || matches!(speech.status.get(), Status::Recording { .. });
    let busy = move || matches!(speech.status.get(), Status::Reading | Status::Listening);
    let on_record = move |_| {
        if recording() {
            stop(speech);
        } else {
            leptos::task::spawn_local(async move {
                if let Err(m) = record(speech).await {
                    speech.status.set(Status::Failed(m));
                }
            });
        }
    };
    let on_file = move |ev: web_sys::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        input.set_value("");
        open(speech, JsFuture::from(file.array_buffer()));
    };
    let status = move || match speech.status.get() {
        Status::Idle => String::new(),
        Status::Recording { seconds, .. } => {
            tr!("speech-recording", seconds = fixed(seconds as f64, 1))
        }
        Status::Reading => tr!("speech-reading"),
        Status::Listening => match res.load_state(attnscope::session::ModelId::Whisper) {
            crate::state::LoadState::Loading { loaded, total } => tr!(
                "speech-downloading",
                loaded = fixed(loaded as f64 / 1e6, 0),
                total = fixed(total as f64 / 1e6, 0),
            ),
            _ => tr!("speech-listening"),
        },
        Status::Failed(m) => m,
    };
    let level = move || match speech.status.get() {
        Status::Recording { level, .. } => format!("width: {:.0}%", level * 100.0),
        _ => "width: 0%".into(),
    };
    let size = attnscope::session::ModelId::Whisper.download_bytes() as f64 / 1e6;
    view! {
        <div class="speech-inputs">
            <button
                id="speech-record"
                class="primary"
                disabled=move || !can_record || busy()
                on:click=on_record
            >
                {move || if recording() { tr!("speech-stop") } else { tr!("speech-record") }}
            </button>
            <span class="speech-meter" aria-hidden="true" hidden=move || !recording()>
                <span class="speech-level" style=level></span>
            </span>
            <label class="button speech-file">
                {tr!("speech-open-file")}
                <input
                    id="speech-file"
                    type="file"
                    accept="audio/*,.wav,.mp3,.ogg,.flac,.m4a"
                    disabled=busy
                    on:change=on_file
                />
            </label>
            {EXAMPLES
                .into_iter()
                .enumerate()
                .map(|(i, (url, said))| {
                    view! {
                        <button
                            class="speech-example"
                            id=format!("speech-example-{i}")
                            disabled=busy
                            title=tr!("speech-example-title")
                            on:click=move |_| open(speech, fetch_bytes(url))
                        >
                            {format!("▶ “{said}”")}
                        </button>
                    }
                })
                .collect_view()}
        </div>
        <p class="speech-note">
            {why_not.unwrap_or_default()} " " {tr!("speech-download-note", size = fixed(size, 0))}
        </p>
        <p
            class="speech-status"
            id="speech-status"
            aria-live="polite"
            class:error=move || matches!(speech.status.get(), Status::Failed(_))
        >
            {status}
        </p>
    }
}
