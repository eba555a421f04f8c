//! `attnscope transcribe`: speech to text with Whisper tiny.en, and the
//! cross-attention from every token of the transcript to the audio's frames,
//! as JSON (with the words' times) or drawn as a token × time heatmap.

use super::translate::Pick;
use super::{write, write_figure};
use attnscope::attention::Mask;
use attnscope::draw::{Heatmap, ValueKind};
use attnscope::formats::source::File;
use attnscope::models::whisper::transcribe::{Speech, Transcript};
use attnscope::models::whisper::wav;
use attnscope::models::whisper::words::WordTime;
use attnscope::{Error, Matrix};
use clap::Args;
use std::path::{Path, PathBuf};

/// The folder `scripts/fetch_models.py --extra` fills.
const MODEL: &str = "www/models/whisper-tiny-en";

#[derive(Args)]
pub struct TranscribeArgs {
    /// The speech: a WAV file (8- to 32-bit PCM or 32-bit float, channels averaged, any rate,
    /// resampled to 16 kHz); only its first 30 s are read.
    #[arg(long, value_name = "FILE.wav")]
    audio: PathBuf,
    /// Write tokens, token_ids, text, frames, speech_frames, alignment_heads, words (each with
    /// its start and end in seconds) and cross_attentions [layer][head][token][frame] as JSON
    /// ("-" for stdout).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Draw the chosen cross-attention as a PNG heatmap: the tokens down, the frames that hold
    /// the clip across (20 ms each; the padding after them is left out).
    #[arg(long, value_name = "FILE")]
    png: Option<PathBuf>,
    /// The same heatmap as SVG.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Decoder layer to draw, from 0, "avg" for the mean over all layers, or "align" for the
    /// mean of the alignment heads (the heads that time the words; then --head is not read).
    #[arg(long, default_value = "align")]
    layer: String,
    /// Head to draw, from 0, or "avg" for the mean over all heads.
    #[arg(long, default_value = "avg")]
    head: Pick,
    /// Add encoder_attentions [layer][head][frame][frame] to the JSON: the encoder's
    /// self-attention among the frames that hold the clip (the whole 1,500 × 1,500 of all
    /// heads would be some 400 MB of JSON).
    #[arg(long)]
    encoder_attention: bool,
    /// Folder holding model.bin, config.json and tokenizer.json (default: www/models/whisper-tiny-en).
    #[arg(long, value_name = "DIR")]
    model_dir: Option<PathBuf>,
}

fn model_dir(flag: Option<PathBuf>) -> PathBuf {
    flag.unwrap_or_else(|| {
        let here = PathBuf::from(MODEL);
        if here.is_dir() {
            here
        } else {
            Path::new(env!("CARGO_MANIFEST_DIR")).join(MODEL)
        }
    })
}

fn read(path: &Path) -> Result<Vec<u8>, Error> {
    std::fs::read(path).map_err(|e| Error::Invalid(format!("cannot read {}: {e}", path.display())))
}

pub fn transcribe(args: TranscribeArgs) -> Result<(), Error> {
    let clip = wav::read(&read(&args.audio)?)?;
    let dir = model_dir(args.model_dir);
    if !dir.join("model.bin").is_file() {
        return Err(Error::ModelFile(format!(
            "model.bin not found in {}: run `python3 scripts/fetch_models.py whisper-tiny-en` (or pass --model-dir)",
            dir.display()
        )));
    }
    let model = File::open(&dir.join("model.bin"))?;
    let speech = Speech::load(
        &model,
        &read(&dir.join("config.json"))?,
        &read(&dir.join("tokenizer.json"))?,
    )?;
    if clip.seconds() > 30.0 {
        eprintln!(
            "attnscope: note: the clip is longer than 30 s; only its first 30 s are transcribed"
        );
    }
    if clip.sample_rate != 16_000 {
        eprintln!(
            "attnscope: note: the clip is at {} Hz; it is resampled to the 16,000 Hz Whisper reads",
            clip.sample_rate
        );
    }
    // Checked before the transcript is made, so a wrong layer costs nothing.
    let layer = layer_pick(&args.layer, speech.model.decoder.len())?;
    let t = speech.transcribe(&clip.for_whisper())?;
    // A checkpoint without alignment heads still transcribes; its words are not timed.
    let words = speech.word_times(&t).unwrap_or_else(|e| {
        eprintln!("attnscope: note: {e}");
        Vec::new()
    });
    if let Some(path) = &args.json {
        let mut json = export(&t, &speech, &words);
        if args.encoder_attention {
            json["encoder_attentions"] = encoder_attentions(&t);
        }
        write(path, json.to_string().as_bytes())?;
    }
    if args.png.is_some() || args.svg.is_some() {
        let (values, what) = chosen(&t, &speech, layer, args.head)?;
        let times: Vec<String> =
            (0..values.cols).map(|f| format!("{:.2} s", f as f32 / 50.0)).collect();
        let figure = Heatmap {
            title: format!("whisper-tiny-en: {:?}\n{what}", t.text.trim()),
            row_labels: &t.tokens,
            col_labels: &times,
            values: &values,
            kind: ValueKind::Weights,
            mask: Mask::None,
            axes: attnscope::draw::AXES,
        };
        write_figure(&figure, args.svg.as_deref(), args.png.as_deref())?;
    }
    if args.json.is_none() && args.png.is_none() && args.svg.is_none() {
        println!("{}", t.text.trim());
    }
    Ok(())
}

/// A decoder layer, all of them, or the alignment heads.
#[derive(Clone, Copy)]
enum LayerPick {
    Layers(Pick),
    Alignment,
}

fn layer_pick(s: &str, layers: usize) -> Result<LayerPick, Error> {
    if s == "align" || s == "alignment" {
        return Ok(LayerPick::Alignment);
    }
    let pick: Pick = s.parse().map_err(|_| {
        Error::Invalid(format!(
            "--layer: expected a number from 0, \"avg\" or \"align\", not {s:?}"
        ))
    })?;
    // Checked here, before the clip is transcribed.
    pick.indices(layers, "layers")?;
    Ok(LayerPick::Layers(pick))
}

/// The cross-attention to draw, over the frames that hold the clip, and a line saying which.
fn chosen(
    t: &Transcript,
    speech: &Speech,
    layer: LayerPick,
    head: Pick,
) -> Result<(Matrix, String), Error> {
    let heads = head.indices(speech.model.n_heads, "heads")?;
    let (pairs, what): (Vec<(usize, usize)>, String) = match layer {
        LayerPick::Alignment => (
            speech.alignment_heads.clone(),
            format!("mean of the {} alignment heads", speech.alignment_heads.len()),
        ),
        LayerPick::Layers(p) => {
            let layers = p.indices(t.cross_attention.len(), "layers")?;
            let pairs = layers.iter().flat_map(|&l| heads.iter().map(move |&h| (l, h))).collect();
            (pairs, format!("{} · {}", p.describe("layer"), head.describe("head")))
        }
    };
    let frames = t.speech_frames.max(1);
    let cropped: Vec<Matrix> = pairs
        .iter()
        .map(|&(l, h)| {
            let w = &t.cross_attention[l].heads[h].weights;
            w.cols_range(0, frames.min(w.cols))
        })
        .collect();
    let values = Matrix::mean_of(&cropped.iter().collect::<Vec<_>>())
        .ok_or_else(|| Error::Invalid("there is no attention to draw".into()))?;
    Ok((values, format!("cross-attention (token × 20 ms frame) · {what}")))
}

/// [layer][head][frame][frame], the encoder's self-attention among the frames that hold the clip.
fn encoder_attentions(t: &Transcript) -> serde_json::Value {
    let n = t.speech_frames.max(1);
    let layers: Vec<Vec<Vec<Vec<f32>>>> = t
        .encoder
        .iter()
        .map(|layer| {
            (0..layer.heads.len())
                .map(|h| {
                    let head = layer.head(h);
                    (0..n.min(head.weights.rows))
                        .map(|r| head.weights.row(r)[..n].to_vec())
                        .collect()
                })
                .collect()
        })
        .collect();
    serde_json::json!(layers)
}

fn export(t: &Transcript, speech: &Speech, words: &[WordTime]) -> serde_json::Value {
    let cross: Vec<Vec<Vec<Vec<f32>>>> = t
        .cross_attention
        .iter()
        .map(|layer| (0..layer.heads.len()).map(|h| layer.head(h).weights.to_rows()).collect())
        .collect();
    serde_json::json!({
        "model": "whisper-tiny-en",
        "text": t.text,
        "tokens": t.tokens,
        "token_ids": t.ids,
        "frames": speech.model.audio_frames(),
        "speech_frames": t.speech_frames,
        "frame_seconds": 0.02,
        "alignment_heads": speech.alignment_heads,
        "words": words,
        "cross_attentions": cross,
    })
}
