//! Whisper's runner: it listens rather than reads. A clip from the Speech
//! tab becomes a [`SpeechSummary`]: the transcript, the spectrogram the
//! encoder read, every decoder head's cross-attention over the clip's
//! frames (the padding's share summed), the alignment heads' mean, the
//! words' times, the decoder's causal self-attention and the encoder's
//! self-attention among the clip's frames, pooled into blocks of frames.
//! Typed text is not its input: a run says so.
//!
//! From the latest clip it keeps each decoder layer's cross-attention Q
//! (per head, tokens × d_k), K and V (per head, 1,500 frames × d_k): 4
//! layers × 6 heads × 1,500 × 64 × 2 × 4 bytes, about 18 MB, for the
//! step-by-step view of one token through one head ([`SpeechStep`]).
//! The encoder's 1,500 × 1,500 weights are never kept.

use super::super::messages::{
    HeardWord, Recording, SpeechStep, SpeechSummary, StepFrame, MAX_SECONDS, STEP_FRAMES,
};
use super::super::runner::{no_analyses, Ran, Runner};
use super::super::RunOptions;
use crate::attention::{attend, Attend, Mask, MultiHeadTrace, Scale};
use crate::error::{Error, Result};
use crate::formats::source::Bytes;
use crate::models::whisper::transcribe::Speech;
use crate::models::whisper::wav::Clip;
use crate::tensor::Matrix;
use crate::trace::layered::Layered;
use crate::trace::{ModelId, ModelInfo};

/// The highest sample rate a recording may claim (as the WAV reader's).
const MAX_RATE: u32 = 768_000;

/// The encoder's self-attention is sent as at most this many blocks of frames a side: 30 s is
/// 1,500 frames, and 24 heads of 1,500 × 1,500 would be 216 MB.
pub const ENCODER_CELLS: usize = 125;

pub struct Listener {
    speech: Speech,
    /// What the latest clip leaves for [`Runner::speech_step`].
    kept: Option<Heard>,
}

/// The latest clip's tokens and, per decoder layer, its cross-attention
/// with every head's S, A and Z let go of: Q, K, V, mask and scale remain.
struct Heard {
    tokens: Vec<String>,
    frames: usize,
    cross: Vec<MultiHeadTrace>,
}

impl Listener {
    /// From `model.bin`, `config.json` and `tokenizer.json`, in `ModelId::files()` order.
    pub fn from_files(files: &[Vec<u8>]) -> Result<Self> {
        let [model, config, tokenizer] = files else {
            return Err(Error::ModelFile(format!(
                "Whisper needs 3 files (model.bin, config.json, tokenizer.json), got {}",
                files.len()
            )));
        };
        let speech = Speech::load(&Bytes::new("model.bin", model), config, tokenizer)?;
        Ok(Listener { speech, kept: None })
    }
}

impl Runner for Listener {
    /// The decoder, whose tokens the transcript's views are about.
    fn info(&self) -> ModelInfo {
        let m = &self.speech.model;
        ModelInfo {
            id: ModelId::Whisper.slug().into(),
            name: "Whisper tiny.en (decoder)".into(),
            n_layers: m.decoder.len(),
            n_heads: m.n_heads,
            n_kv_heads: m.n_heads,
            d_model: m.d,
            d_head: m.d / m.n_heads.max(1),
            mask: Mask::Causal,
            max_tokens: m.max_tokens(),
        }
    }

    fn run(&mut self, _text: &str, _options: &RunOptions, _cached: bool) -> Result<Ran> {
        Err(Error::Invalid(
            "Whisper listens to sound: record or open a clip in the Speech tab.".into(),
        ))
    }

    fn layered(&self) -> Result<&dyn Layered> {
        Err(no_analyses(ModelId::Whisper))
    }

    fn listen(&mut self, recording: &Recording) -> Result<SpeechSummary> {
        // The clip before is let go of first: its 18 MB are not held beside a transcription.
        self.kept = None;
        let (summary, kept) = hear(&self.speech, recording)?;
        self.kept = Some(kept);
        Ok(summary)
    }

    fn speech_step(&self, layer: usize, head: usize, token: usize) -> Result<SpeechStep> {
        let kept = self.kept.as_ref().ok_or_else(|| {
            Error::Invalid("no clip heard yet: record or open one in the Speech tab".into())
        })?;
        step(kept, layer, head, token)
    }
}

/// Transcribes `recording` and gathers what the Speech tab draws, and what the step-by-step
/// view reads of the clip afterwards.
fn hear(speech: &Speech, recording: &Recording) -> Result<(SpeechSummary, Heard)> {
    if recording.rate == 0 || recording.rate > MAX_RATE {
        return Err(Error::Invalid(format!(
            "the clip's sample rate ({} Hz) is not one Whisper can be given: 1 Hz to 768 kHz",
            recording.rate
        )));
    }
    if recording.samples.is_empty() {
        return Err(Error::Invalid("the clip is empty: record or open some sound".into()));
    }
    let clip = Clip { sample_rate: recording.rate, samples: recording.to_f32() };
    let mut notices = Vec::new();
    if clip.seconds() > f64::from(MAX_SECONDS) {
        notices.push(format!(
            "The clip is {:.1} s long: Whisper hears its first 30 s.",
            clip.seconds()
        ));
    }
    let audio = clip.for_whisper();
    if audio.iter().all(|x| x.abs() < 1e-3) {
        notices.push("The clip is silent (or nearly): Whisper may write nothing, or invent words from the noise.".into());
    }
    let t = speech.transcribe(&audio)?;
    let words = speech.word_times(&t).unwrap_or_else(|e| {
        notices.push(e.to_string());
        Vec::new()
    });
    let frames = t.speech_frames.max(1);
    let (cross, padding) = cross_attention(&t.cross_attention, frames);
    let picked: Vec<&Matrix> =
        speech.alignment_heads.iter().filter_map(|&(l, h)| cross.get(l)?.get(h)).collect();
    let self_attention = t
        .self_attention
        .iter()
        .map(|layer| (0..layer.heads.len()).map(|h| layer.head(h).weights.clone()).collect())
        .collect();
    let encoder_block = frames.div_ceil(ENCODER_CELLS);
    let encoder = t
        .encoder
        .iter()
        .map(|layer| {
            (0..layer.heads.len())
                .map(|h| pooled(&layer.head(h).weights, frames, encoder_block))
                .collect()
        })
        .collect();
    let summary = SpeechSummary {
        tokens: t.tokens.clone(),
        text: t.text.trim().to_string(),
        seconds: t.samples as f32 / crate::models::whisper::mel::SAMPLE_RATE as f32,
        frames,
        mel: t.mel.cols_range(0, (2 * frames).min(t.mel.cols)),
        align: Matrix::mean_of(&picked),
        alignment_heads: speech.alignment_heads.clone(),
        cross,
        padding,
        self_attention,
        encoder_block,
        encoder,
        words: words
            .into_iter()
            .map(|w| HeardWord {
                word: w.word,
                tokens: (w.tokens.start, w.tokens.end),
                start: w.start as f32,
                end: w.end as f32,
            })
            .collect(),
        scale: t.cross_attention.first().and_then(|l| l.heads.first()).map_or(1.0, |h| h.scale),
        notices,
        compute_ms: 0.0,
        memory_bytes: None,
    };
    let mut cross = t.cross_attention;
    cross.iter_mut().for_each(MultiHeadTrace::let_go);
    Ok((summary, Heard { tokens: t.tokens, frames, cross }))
}

/// Token `token` through head `head` of decoder layer `layer`'s cross-attention, from the
/// kept q, K and V by [`attend`], as the decoder computed it: S = q Kᵀ, × scale, softmax
/// over all 1,500 frames, z = Σ a_j v_j.
fn step(kept: &Heard, layer: usize, head: usize, token: usize) -> Result<SpeechStep> {
    let att = kept.cross.get(layer).ok_or_else(|| {
        Error::Invalid(format!(
            "no decoder layer {layer}: Whisper tiny.en has {} (from 0)",
            kept.cross.len()
        ))
    })?;
    if head >= att.q.len() {
        return Err(Error::Invalid(format!(
            "no head {head} in decoder layer {layer}: it has {} (from 0)",
            att.q.len()
        )));
    }
    let q = &att.q[head];
    if token >= q.rows || token >= kept.tokens.len() {
        return Err(Error::Invalid(format!(
            "no token {token} in the transcript: it has {} (from 0)",
            kept.tokens.len()
        )));
    }
    let (t, kv) = (&att.heads[head], att.kv_head_of[head]);
    let (k, v) = (&att.k[kv], &att.v[kv]);
    let q_i = q.rows_range(token, 1); //                                        q       (1 × d_k)
    let one = attend(&q_i, k, v, Attend::new(t.mask, Scale::Factor(t.scale))); // a, z  (1 × n_k, 1 × d_v)
    let (scores, weights) = (one.scores.row(0), one.weights.row(0));
    let frames = kept.frames.min(weights.len());
    let mut order: Vec<usize> = (0..frames).collect();
    order.sort_by(|&a, &b| weights[b].total_cmp(&weights[a]).then(a.cmp(&b)));
    let top = order
        .into_iter()
        .take(STEP_FRAMES)
        .map(|j| StepFrame {
            frame: j,
            k: k.row(j).to_vec(),
            score: scores[j],
            scaled: scores[j] * one.scale,
            weight: weights[j],
        })
        .collect();
    Ok(SpeechStep {
        layer,
        head,
        token,
        text: kept.tokens[token].clone(),
        q: q_i.data,
        scale: one.scale,
        frames,
        keys: weights.len(),
        top,
        padding: weights[frames..].iter().sum(),
        clip: weights[..frames].iter().sum(),
        z: one.output.data,
    })
}

/// [layer][head]: each head's weights over the clip's first `frames`
/// frames, and per token the weight the padding's frames took.
fn cross_attention(
    layers: &[MultiHeadTrace],
    frames: usize,
) -> (Vec<Vec<Matrix>>, Vec<Vec<Vec<f32>>>) {
    layers
        .iter()
        .map(|layer| {
            (0..layer.heads.len())
                .map(|h| {
                    let a = &layer.head(h).weights;
                    let n = frames.min(a.cols);
                    let padding = (0..a.rows).map(|i| a.row(i)[n..].iter().sum()).collect();
                    (a.cols_range(0, n), padding)
                })
                .unzip()
        })
        .unzip()
}

/// The encoder's self-attention `a` (1,500 × 1,500) among its first `frames` frames, in blocks
/// of `block` frames a side: cell (I, J) is the mean, over the queries of block I, of the weight
/// they give the keys of block J. A row of cells sums to the share of attention that stayed on
/// the clip (the padding's frames take the rest).
fn pooled(a: &Matrix, frames: usize, block: usize) -> Matrix {
    let (n, block) = (frames.min(a.rows).min(a.cols), block.max(1));
    let cells = n.div_ceil(block);
    let mut out = Matrix::zeros(cells, cells);
    for bi in 0..cells {
        let queries = bi * block..((bi + 1) * block).min(n);
        let count = queries.len() as f32;
        for i in queries {
            for (j, &w) in a.row(i)[..n].iter().enumerate() {
                out[(bi, j / block)] += w / count;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::whisper::wav;
    use crate::session::{FromWorker, Session, ToWorker};

    /// [`hear`]'s summary alone.
    fn heard(speech: &Speech, recording: &Recording) -> Result<SpeechSummary> {
        hear(speech, recording).map(|(summary, _)| summary)
    }

    fn files() -> Option<Vec<Vec<u8>>> {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("www/models/whisper-tiny-en");
        ModelId::Whisper.files().iter().map(|f| std::fs::read(dir.join(&f.name)).ok()).collect()
    }

    fn clip(name: &str) -> Recording {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/whisper")
            .join(name);
        let c = wav::read(&std::fs::read(path).unwrap()).unwrap();
        Recording::from_f32(&c.samples, c.sample_rate)
    }

    #[test]
    fn a_clip_heard_through_the_session_gives_the_transcript_and_its_attention() {
        let Some(files) = files() else {
            eprintln!("skipped: run scripts/fetch_models.py whisper-tiny-en");
            return;
        };
        let mut s = Session::new();
        s.install(ModelId::Whisper, files).unwrap();
        let recording = clip("listen.wav");
        let msg = ToWorker::Listen { id: 7, model: ModelId::Whisper, recording: recording.clone() };
        let msg: ToWorker = serde_json::from_str(&serde_json::to_string(&msg).unwrap()).unwrap();
        let FromWorker::Heard { id: 7, speech } = s.handle(msg, &|| 0.0) else {
            panic!("expected Heard")
        };
        let h: SpeechSummary =
            serde_json::from_str(&serde_json::to_string(&speech).unwrap()).unwrap();
        // The same transcript and attention as the model's own, the padding's share apart.
        let speech = Listener::from_files(&self::files().unwrap()).unwrap().speech;
        let c = Clip { sample_rate: recording.rate, samples: recording.to_f32() };
        let t = speech.transcribe(&c.for_whisper()).unwrap();
        assert_eq!(h.tokens, t.tokens);
        assert_eq!(h.text, t.text.trim());
        assert_eq!(h.frames, t.speech_frames);
        assert_eq!(h.mel.shape(), (80, 2 * h.frames));
        assert_eq!((h.cross.len(), h.cross[0].len()), (4, 6));
        let n = h.tokens.len();
        for (l, layer) in h.cross.iter().enumerate() {
            for (hd, w) in layer.iter().enumerate() {
                assert_eq!(w.shape(), (n, h.frames));
                let full = &t.cross_attention[l].head(hd).weights;
                for i in 0..n {
                    let kept: f32 = w.row(i).iter().sum();
                    assert!((kept + h.padding[l][hd][i] - 1.0).abs() < 1e-4);
                    assert_eq!(w.row(i), &full.row(i)[..h.frames]);
                }
            }
        }
        // The encoder's self-attention, pooled: one cell checked against the full matrix, and
        // every row of cells a share of attention.
        let block = h.frames.div_ceil(ENCODER_CELLS);
        let cells = h.frames.div_ceil(block);
        assert_eq!((h.encoder.len(), h.encoder[0].len(), h.encoder_block), (4, 6, block));
        let full = &t.encoder[2].head(4).weights;
        let (bi, bj) = (cells / 2, cells / 3);
        let mut cell = 0.0f64;
        for i in bi * block..(bi + 1) * block {
            for j in bj * block..(bj + 1) * block {
                cell += f64::from(full[(i, j)]) / block as f64;
            }
        }
        let pooled = &h.encoder[2][4];
        assert_eq!(pooled.shape(), (cells, cells));
        assert!(
            (f64::from(pooled[(bi, bj)]) - cell).abs() < 1e-5,
            "{} vs {cell}",
            pooled[(bi, bj)]
        );
        for layer in &h.encoder {
            for m in layer {
                for i in 0..cells {
                    let sum: f32 = m.row(i).iter().sum();
                    assert!(sum > 0.0 && sum <= 1.0 + 1e-4, "a row of cells sums to {sum}");
                }
            }
        }
        assert_eq!(h.self_attention[3][5].shape(), (n, n));
        assert_eq!(h.self_attention[3][5][(0, 1)], 0.0, "causal: no weight on a later token");
        let align = h.align.as_ref().expect("tiny.en names alignment heads");
        assert_eq!(align.shape(), (n, h.frames));
        assert_eq!(h.weights(None), Some(align));
        let words: String = h.words.iter().map(|w| w.word.as_str()).collect();
        assert_eq!(words.trim(), h.text);
        assert!(h.words.iter().all(|w| w.start <= w.end && w.end <= h.seconds + 0.02));
        assert!(h.notices.is_empty(), "{:?}", h.notices);
        // A text run is not Whisper's input: a clear message.
        let FromWorker::Failed { message, .. } = s.handle(
            ToWorker::Run {
                id: 8,
                model: ModelId::Whisper,
                text: "hello".into(),
                options: Default::default(),
            },
            &|| 0.0,
        ) else {
            panic!("expected a failure")
        };
        assert!(message.contains("Speech tab"), "{message}");
    }

    #[test]
    fn a_step_of_cross_attention_is_the_summarys_weights_from_the_kept_q_k_and_v() {
        let Some(files) = files() else {
            eprintln!("skipped: run scripts/fetch_models.py whisper-tiny-en");
            return;
        };
        let mut s = Session::new();
        s.install(ModelId::Whisper, files).unwrap();
        let ask = |s: &mut Session, layer, head, token| {
            let msg = ToWorker::SpeechStep { id: 9, model: ModelId::Whisper, layer, head, token };
            let msg: ToWorker =
                serde_json::from_str(&serde_json::to_string(&msg).unwrap()).unwrap();
            s.handle(msg, &|| 0.0)
        };
        // Before any clip: a clear message.
        let FromWorker::Failed { id: 9, message } = ask(&mut s, 0, 0, 0) else {
            panic!("expected a failure before any clip")
        };
        assert!(message.contains("no clip heard yet"), "{message}");
        let msg =
            ToWorker::Listen { id: 9, model: ModelId::Whisper, recording: clip("listen.wav") };
        let FromWorker::Heard { speech: h, .. } = s.handle(msg, &|| 0.0) else {
            panic!("expected Heard")
        };
        let n = h.tokens.len();
        for (layer, head, token) in [(0, 0, 0), (2, 3, n / 2), (3, 5, n - 1)] {
            let FromWorker::SpeechStep { id: 9, step } = ask(&mut s, layer, head, token) else {
                panic!("expected a step")
            };
            let step: SpeechStep =
                serde_json::from_str(&serde_json::to_string(&step).unwrap()).unwrap();
            let (w, pad) = (&h.cross[layer][head], h.padding[layer][head][token]);
            assert_eq!((step.layer, step.head, step.token), (layer, head, token));
            assert_eq!(
                (step.text.as_str(), step.frames, step.keys),
                (h.tokens[token].as_str(), h.frames, 1_500)
            );
            assert_eq!((step.q.len(), step.z.len(), step.top.len()), (64, 64, STEP_FRAMES));
            assert_eq!(step.scale, h.scale);
            assert!((step.padding - pad).abs() < 1e-6, "{} vs {pad}", step.padding);
            assert!((step.clip + step.padding - 1.0).abs() < 1e-5);
            let clip: f32 = w.row(token).iter().sum();
            assert!((step.clip - clip).abs() < 1e-5, "{} vs {clip}", step.clip);
            // The strongest frames, strongest first, each weight the summary's.
            let best = w.row(token).iter().cloned().fold(0.0f32, f32::max);
            assert!((step.top[0].weight - best).abs() < 1e-6);
            for pair in step.top.windows(2) {
                assert!(pair[0].weight >= pair[1].weight);
            }
            for f in &step.top {
                let want = w[(token, f.frame)];
                assert!(f.frame < h.frames);
                assert!(
                    (f.weight - want).abs() < 1e-6,
                    "frame {}: {} vs {want}",
                    f.frame,
                    f.weight
                );
                // The score is q·k, and the scaled score that times the scale.
                let dot: f32 = step.q.iter().zip(&f.k).map(|(a, b)| a * b).sum();
                assert!((f.score - dot).abs() < 1e-3 * dot.abs().max(1.0), "{} vs {dot}", f.score);
                assert_eq!(f.scaled, f.score * step.scale);
            }
            // Every frame's weight, padding too, from the scaled scores: the weights of two
            // frames are in the ratio exp of their scores' difference.
            let (a, b) = (&step.top[0], &step.top[STEP_FRAMES - 1]);
            let ratio = (a.scaled - b.scaled).exp();
            assert!((a.weight / b.weight - ratio).abs() < 1e-3 * ratio, "{ratio}");
            assert!(step.z.iter().all(|x| x.is_finite()));
        }
        // Out of range: a clear message each, never a panic.
        for ((layer, head, token), says) in
            [((4, 0, 0), "no decoder layer 4"), ((0, 6, 0), "no head 6"), ((0, 0, n), "no token")]
        {
            let FromWorker::Failed { message, .. } = ask(&mut s, layer, head, token) else {
                panic!("expected a failure")
            };
            assert!(message.contains(says), "{message}");
        }
        // Another model hears no clips.
        let msg =
            ToWorker::SpeechStep { id: 9, model: ModelId::Teaching, layer: 0, head: 0, token: 0 };
        assert!(matches!(s.handle(msg, &|| 0.0), FromWorker::Failed { .. }));
    }

    #[test]
    fn bad_clips_are_clear_messages_or_notices() {
        let Some(files) = files() else {
            eprintln!("skipped: run scripts/fetch_models.py whisper-tiny-en");
            return;
        };
        let l = Listener::from_files(&files).unwrap();
        let e = heard(&l.speech, &Recording { rate: 16_000, samples: vec![] }).unwrap_err();
        assert!(e.to_string().contains("empty"), "{e}");
        let e = heard(&l.speech, &Recording { rate: 0, samples: vec![1; 100] }).unwrap_err();
        assert!(e.to_string().contains("sample rate"), "{e}");
        // Silence: transcribed, with a notice, and no NaN anywhere.
        let h = heard(&l.speech, &Recording { rate: 8_000, samples: vec![0; 8_000] }).unwrap();
        assert!(h.notices.iter().any(|n| n.contains("silent")), "{:?}", h.notices);
        assert_eq!(h.frames, 50);
        let finite = |m: &Matrix| m.data.iter().all(|x| x.is_finite());
        assert!(h.cross.iter().flatten().all(finite) && finite(&h.mel));
        // Longer than 30 s: the first 30 s, with a notice.
        let long = Recording::from_f32(&vec![0.01; 16_000 * 40], 16_000);
        assert_eq!(long.samples.len(), 16_000 * 30 + 8_000, "a message carries at most 30.5 s");
        let h = heard(&l.speech, &long).unwrap();
        assert!(h.notices.iter().any(|n| n.contains("first 30 s")), "{:?}", h.notices);
        assert_eq!((h.frames, h.mel.cols), (1_500, 3_000));
        // The wrong files: a clear error.
        let e = Listener::from_files(&[vec![0; 10]]).err().unwrap();
        assert!(e.to_string().contains("3 files"), "{e}");
        let e =
            Listener::from_files(&[vec![0; 64], files[1].clone(), files[2].clone()]).err().unwrap();
        assert!(!e.to_string().is_empty());
    }
}
