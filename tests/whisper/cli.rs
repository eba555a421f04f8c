//! `attnscope transcribe` end to end: a committed clip transcribed as the reference transcribes it
//! (tests/fixtures/whisper/transcribe.json), its JSON read back, and bad input refused with a
//! message rather than a panic. Skipped, saying so, when models-extra/whisper-tiny-en is absent.

use crate::common::{self, temp};
use attnscope::testing::fixture_path;
use std::path::{Path, PathBuf};
use std::process::Output;

/// The model's folder, or None (the skip said on stderr) when `model.bin` is absent.
fn model_dir() -> Option<PathBuf> {
    common::extra("whisper-tiny-en", "model.bin")
        .and_then(|bin| bin.parent().map(Path::to_path_buf))
}

fn transcribe(audio: &Path, model: &Path, json: Option<&Path>) -> Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_attnscope"));
    cmd.args(["transcribe", "--audio"]).arg(audio).arg("--model-dir").arg(model);
    if let Some(json) = json {
        cmd.arg("--json").arg(json);
    }
    cmd.output().unwrap()
}

#[test]
fn transcribe_writes_the_reference_transcript_and_its_cross_attention() {
    let Some(model) = model_dir() else { return };
    let fixture: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixture_path("whisper/transcribe.json")).unwrap())
            .unwrap();
    let clip = &fixture["clips"][2];
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
    // Without --json the text alone is printed.
    let out = transcribe(&audio, &model, None);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), clip["text"].as_str().unwrap().trim());
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
    // 44.1 kHz: the message says what rate is needed.
    let mut wav = std::fs::read(&clip).unwrap();
    wav[24..28].copy_from_slice(&44_100u32.to_le_bytes());
    let resampled = temp("44k.wav");
    std::fs::write(&resampled, &wav).unwrap();
    let e = fail(transcribe(&resampled, &model, None));
    assert!(e.contains("16,000 Hz"), "{e}");
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
