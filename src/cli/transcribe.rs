//! `attnscope transcribe`: speech to text with Whisper tiny.en, and the
//! cross-attention from every token of the transcript to the audio's frames,
//! as JSON.

use super::write;
use attnscope::formats::source::File;
use attnscope::models::whisper::transcribe::{Speech, Transcript};
use attnscope::models::whisper::wav;
use attnscope::Error;
use clap::Args;
use std::path::{Path, PathBuf};

/// The folder `scripts/fetch_models.py --extra` fills.
const MODEL: &str = "models-extra/whisper-tiny-en";

#[derive(Args)]
pub struct TranscribeArgs {
    /// The speech: a WAV file, 16 kHz (8- to 32-bit PCM or 32-bit float, channels averaged); only
    /// its first 30 s are read.
    #[arg(long, value_name = "FILE.wav")]
    audio: PathBuf,
    /// Write tokens, token_ids, text, frames, speech_frames, alignment_heads and
    /// cross_attentions [layer][head][token][frame] as JSON ("-" for stdout).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Folder holding model.bin, config.json and tokenizer.json (default: models-extra/whisper-tiny-en).
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
    if clip.samples.len() > attnscope::models::whisper::mel::N_SAMPLES {
        eprintln!(
            "attnscope: note: the clip is longer than 30 s; only its first 30 s are transcribed"
        );
    }
    let t = speech.transcribe(&clip.samples)?;
    match &args.json {
        Some(path) => write(path, export(&t, &speech).to_string().as_bytes())?,
        None => println!("{}", t.text.trim()),
    }
    Ok(())
}

fn export(t: &Transcript, speech: &Speech) -> serde_json::Value {
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
        "cross_attentions": cross,
    })
}
