//! Whisper's log-mel front end (src/models/whisper/mel.rs) against transformers'
//! WhisperFeatureExtractor on the committed clips (tests/fixtures/whisper/*.wav, spoken by
//! espeak-ng): every value of the frames the speech reaches within [`TOLERANCE`], and every
//! frame of the 30 s padding at the clamp's floor. The fixture, tests/fixtures/whisper/mel.json,
//! is made by scripts/reference/whisper_mel_reference.py.

use attnscope::models::whisper::{mel, wav};
use attnscope::testing::fixture_path;
use serde::Deserialize;

/// transformers computes in float64 and we in f32; the log and the clamp keep the
/// difference far below this (the fixture rounds to 1e-5).
const TOLERANCE: f32 = 1e-4;

#[derive(Deserialize)]
struct Fixture {
    n_mels: usize,
    n_frames: usize,
    clips: Vec<Clip>,
}

#[derive(Deserialize)]
struct Clip {
    file: String,
    samples: usize,
    /// Frames 0 .. `frames` are given whole.
    frames: usize,
    /// [mel bin][frame].
    mel: Vec<Vec<f32>>,
    padding_value: f32,
}

#[test]
fn log_mel_matches_transformers_on_the_committed_clips() {
    let fixture: Fixture =
        serde_json::from_slice(&std::fs::read(fixture_path("whisper/mel.json")).unwrap()).unwrap();
    assert_eq!((fixture.n_mels, fixture.n_frames), (mel::N_MELS, mel::N_FRAMES));
    assert!(!fixture.clips.is_empty());
    for clip in &fixture.clips {
        let bytes = std::fs::read(fixture_path(&format!("whisper/{}", clip.file))).unwrap();
        let audio = wav::read(&bytes).unwrap();
        assert_eq!(audio.samples.len(), clip.samples, "{}", clip.file);
        let m = mel::log_mel(&audio.samples);
        assert_eq!(m.shape(), (mel::N_MELS, mel::N_FRAMES));
        let mut worst = 0f32;
        for (b, row) in clip.mel.iter().enumerate() {
            assert_eq!(row.len(), clip.frames);
            for (t, want) in row.iter().enumerate() {
                let d = (m[(b, t)] - want).abs();
                assert!(
                    d <= TOLERANCE,
                    "{}: bin {b}, frame {t}: {} vs {want}",
                    clip.file,
                    m[(b, t)]
                );
                worst = worst.max(d);
            }
        }
        for t in clip.frames..mel::N_FRAMES {
            for b in 0..mel::N_MELS {
                let d = (m[(b, t)] - clip.padding_value).abs();
                assert!(d <= TOLERANCE, "{}: padding frame {t}, bin {b}: {}", clip.file, m[(b, t)]);
            }
        }
        eprintln!("{}: largest difference {worst:.2e} over {} frames", clip.file, clip.frames);
    }
}

#[test]
fn the_clips_are_what_the_page_and_the_fixture_say() {
    // 16 kHz mono 16-bit, a few seconds each: small enough to commit, long enough to say a sentence.
    for name in ["fox.wav", "attention.wav", "listen.wav"] {
        let bytes = std::fs::read(fixture_path(&format!("whisper/{name}"))).unwrap();
        assert_eq!(&bytes[20..24], &[1, 0, 1, 0], "{name}: PCM, one channel");
        assert_eq!(u32::from_le_bytes(bytes[24..28].try_into().unwrap()), 16_000, "{name}");
        let clip = wav::read(&bytes).unwrap();
        let seconds = clip.samples.len() as f32 / 16_000.0;
        assert!((1.0..5.0).contains(&seconds), "{name}: {seconds} s");
        // Speech, not silence: the loudest sample is well above the noise floor.
        assert!(clip.samples.iter().fold(0f32, |m, s| m.max(s.abs())) > 0.1, "{name}");
    }
}
