//! `attnscope transcribe` end to end: a committed clip transcribed as the reference transcribes it
//! (tests/fixtures/whisper/transcribe.json), its JSON read back, and bad input refused with a
//! message rather than a panic. Skipped, saying so, when www/models/whisper-tiny-en is absent.

use crate::common::{self, temp};
use attnscope::testing::fixture_path;
use std::path::{Path, PathBuf};
use std::process::Output;

/// The model's folder, or None (the skip said on stderr) when `model.bin` is absent.
fn model_dir() -> Option<PathBuf> {
    common::page_model("whisper-tiny-en", "model.bin")
        .and_then(|bin| bin.parent().map(Path::to_path_buf))
}

/// The reference's record of listen.wav (tests/fixtures/whisper/transcribe.json).
fn listen() -> serde_json::Value {
    let path = fixture_path("whisper/transcribe.json");
    let fixture: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    fixture["clips"][2].clone()
}

fn transcribe(audio: &Path, model: &Path, json: Option<&Path>) -> Output {
    transcribe_with(audio, model, json, &[])
}

fn transcribe_with(audio: &Path, model: &Path, json: Option<&Path>, more: &[&str]) -> Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_attnscope"));
    cmd.args(["transcribe", "--audio"]).arg(audio).arg("--model-dir").arg(model);
    if let Some(json) = json {
        cmd.arg("--json").arg(json);
    }
    cmd.args(more).output().unwrap()
}

#[test]
fn transcribe_writes_the_reference_transcript_and_its_cross_attention() {
    let Some(model) = model_dir() else { return };
    let clip = &listen();
    let audio = fixture_path(&format!("whisper/{}", clip["file"].as_str().unwrap()));
    let json = temp("listen.json");
    let out = transcribe(&audio, &model, Some(&json));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(v["text"], clip["text"]);
    assert_eq!(v["token_ids"], clip["ids"]);
    let n = v["tokens"].as_array().unwrap().len();
    assert_eq!(n, clip["ids"].as_array().unwrap().len());
    assert_eq!(v["frames"], 1500);
    assert_eq!(v["speech_frames"], clip["speech_frames"]);
    let cross = v["cross_attentions"].as_array().unwrap();
    assert_eq!(cross.len(), 4, "four decoder layers");
    for layer in cross {
        let heads = layer.as_array().unwrap();
        assert_eq!(heads.len(), 6, "six heads");
        for head in heads {
            let rows = head.as_array().unwrap();
            assert_eq!(rows.len(), n);
            for row in rows {
                let row = row.as_array().unwrap();
                assert_eq!(row.len(), 1500);
                let sum: f64 = row.iter().map(|w| w.as_f64().unwrap()).sum();
                assert!((sum - 1.0).abs() < 1e-4, "a row sums to {sum}");
            }
        }
    }
    assert_eq!(v["alignment_heads"].as_array().unwrap().len(), 8);
    // The words, as the reference times them, in seconds.
    let words: Vec<_> = v["words"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["word"].clone(), w["start"].as_f64().unwrap(), w["end"].as_f64().unwrap()))
        .collect();
    let want: Vec<_> = clip["words"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w[0].clone(), w[1].as_f64().unwrap(), w[2].as_f64().unwrap()))
        .collect();
    assert_eq!(words.len(), want.len());
    for ((word, a, b), (want_word, want_a, want_b)) in words.iter().zip(&want) {
        assert_eq!(word, want_word);
        assert!((a - want_a).abs() < 1e-9 && (b - want_b).abs() < 1e-9, "{word}: {a}–{b}");
    }
    // Without --json the text alone is printed.
    let out = transcribe(&audio, &model, None);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), clip["text"].as_str().unwrap().trim());
}

#[test]
fn transcribe_draws_a_head_and_exports_the_encoder_attention() {
    let Some(model) = model_dir() else { return };
    let audio = fixture_path("whisper/attention.wav");
    let (json, png, svg) = (temp("enc.json"), temp("cross.png"), temp("cross.svg"));
    let out = transcribe_with(
        &audio,
        &model,
        Some(&json),
        &["--encoder-attention", "--layer", "2", "--head", "3", "--png"],
    );
    // --png needs its file: clap says so, no panic.
    assert!(!out.status.success());
    let mut more = vec!["--encoder-attention", "--layer", "2", "--head", "3"];
    let (png_s, svg_s) = (png.to_str().unwrap(), svg.to_str().unwrap());
    more.extend(["--png", png_s, "--svg", svg_s]);
    let out = transcribe_with(&audio, &model, Some(&json), &more);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let frames = v["speech_frames"].as_u64().unwrap() as usize;
    let encoder = v["encoder_attentions"].as_array().unwrap();
    assert_eq!(encoder.len(), 4);
    for head in encoder.iter().flat_map(|l| l.as_array().unwrap()) {
        let rows = head.as_array().unwrap();
        assert_eq!(rows.len(), frames);
        // Over the speech frames alone a row sums to at most 1 (the padding has the rest).
        for row in rows {
            let row = row.as_array().unwrap();
            assert_eq!(row.len(), frames);
            let sum: f64 = row.iter().map(|w| w.as_f64().unwrap()).sum();
            assert!(sum > 0.0 && sum <= 1.0 + 1e-4, "{sum}");
        }
    }
    let png = std::fs::read(&png).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.contains("layer 2 · head 3"), "the figure says which head");
    // A layer or head the model does not have is a message.
    for bad in [["--layer", "4"], ["--head", "6"], ["--layer", "x"]] {
        let mut args = bad.to_vec();
        args.extend(["--png", png_s]);
        let out = transcribe_with(&audio, &model, None, &args);
        assert!(!out.status.success(), "{bad:?}");
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(!e.contains("panicked") && (e.contains("layer") || e.contains("head")), "{e}");
    }
}

#[test]
fn a_clip_at_another_rate_is_resampled_to_16_khz() {
    use attnscope::models::whisper::{resample::resample, wav};
    let Some(model) = model_dir() else { return };
    let clip = &listen();
    let bytes = std::fs::read(fixture_path("whisper/listen.wav")).unwrap();
    let samples = wav::read(&bytes).unwrap().samples;
    // 44.1 kHz, as a phone or a laptop records: the reference's tokens, with a note.
    let cd = temp("listen-44k.wav");
    std::fs::write(&cd, wav::write_pcm16(&resample(&samples, 16_000, 44_100), 44_100)).unwrap();
    let json = temp("listen-44k.json");
    let out = transcribe(&cd, &model, Some(&json));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("44100 Hz"));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(v["token_ids"], clip["ids"]);
    // 8 kHz (a telephone's band): transcribed, whatever tiny.en makes of it.
    let phone = temp("listen-8k.wav");
    std::fs::write(&phone, wav::write_pcm16(&resample(&samples, 16_000, 8_000), 8_000)).unwrap();
    let out = transcribe(&phone, &model, None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!String::from_utf8_lossy(&out.stdout).trim().is_empty());
}

#[test]
fn a_config_without_alignment_heads_transcribes_with_untimed_words() {
    let Some(model) = model_dir() else { return };
    let dir = temp("no-alignment-heads");
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["model.bin", "tokenizer.json"] {
        let _ = std::fs::remove_file(dir.join(f));
        std::os::unix::fs::symlink(model.join(f), dir.join(f)).unwrap();
    }
    let mut config: serde_json::Value =
        serde_json::from_slice(&std::fs::read(model.join("config.json")).unwrap()).unwrap();
    config.as_object_mut().unwrap().remove("alignment_heads");
    std::fs::write(dir.join("config.json"), config.to_string()).unwrap();
    let json = temp("no-alignment-heads.json");
    let out = transcribe(&fixture_path("whisper/listen.wav"), &dir, Some(&json));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no alignment heads"));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(v["words"], serde_json::json!([]));
    assert!(!v["text"].as_str().unwrap().trim().is_empty());
}

#[test]
fn bad_audio_and_a_damaged_model_are_messages_not_panics() {
    let Some(model) = model_dir() else { return };
    let fail = |out: Output| {
        assert!(!out.status.success());
        let e = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!e.contains("panicked"), "{e}");
        e
    };
    let clip = fixture_path("whisper/attention.wav");
    // Not audio at all.
    let e = fail(transcribe(&fixture_path("whisper/mel.json"), &model, None));
    assert!(e.contains("not a WAV file"), "{e}");
    // A header that says 0 Hz: the message says what rates are read.
    let mut wav = std::fs::read(&clip).unwrap();
    wav[24..28].copy_from_slice(&0u32.to_le_bytes());
    let zero = temp("0hz.wav");
    std::fs::write(&zero, &wav).unwrap();
    let e = fail(transcribe(&zero, &model, None));
    assert!(e.contains("0 Hz") && e.contains("768,000"), "{e}");
    // A model.bin cut short: refused before anything runs.
    let damaged = temp("damaged");
    std::fs::create_dir_all(&damaged).unwrap();
    let bytes = std::fs::read(model.join("model.bin")).unwrap();
    std::fs::write(damaged.join("model.bin"), &bytes[..bytes.len() / 2]).unwrap();
    for f in ["config.json", "tokenizer.json"] {
        std::fs::copy(model.join(f), damaged.join(f)).unwrap();
    }
    let e = fail(transcribe(&clip, &damaged, None));
    assert!(e.contains("model.bin") && e.contains("truncated"), "{e}");
}
