//! WAV files, read into the 16 kHz mono samples Whisper's front end takes
//! (the command line's audio; the page decodes audio with the browser's
//! Web Audio instead).
//!
//! A RIFF file: "RIFF", a u32 size, "WAVE", then chunks of a four-byte id,
//! a u32 length and that many bytes (padded to an even length). `fmt `
//! gives the encoding, `data` the interleaved samples; others are skipped.
//! Read: 8-, 16-, 24- and 32-bit integer PCM and 32-bit float, any number
//! of channels (averaged into one), at any rate: [`Clip::for_whisper`]
//! brings it to 16 kHz (`resample`).

use crate::error::{Error, Result};

/// The samples of a clip: mono, in −1 … 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    pub sample_rate: u32,
    pub samples: Vec<f32>,
}

fn bad(message: &str) -> Error {
    Error::Invalid(format!("not a WAV file attnscope can read: {message}"))
}

/// The encodings this reader knows.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Encoding {
    Int,
    Float,
}

struct Format {
    encoding: Encoding,
    channels: usize,
    rate: u32,
    bits: usize,
}

fn u16_at(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[i], b[i + 1]])
}

fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

fn format(chunk: &[u8]) -> Result<Format> {
    if chunk.len() < 16 {
        return Err(bad("its `fmt ` chunk is shorter than 16 bytes"));
    }
    let mut tag = u16_at(chunk, 0);
    // WAVE_FORMAT_EXTENSIBLE: the real tag is the first two bytes of the sub-format GUID.
    if tag == 0xFFFE {
        if chunk.len() < 26 {
            return Err(bad("its extensible `fmt ` chunk is cut short"));
        }
        tag = u16_at(chunk, 24);
    }
    let channels = usize::from(u16_at(chunk, 2));
    let rate = u32_at(chunk, 4);
    let bits = usize::from(u16_at(chunk, 14));
    let encoding = match (tag, bits) {
        (1, 8 | 16 | 24 | 32) => Encoding::Int,
        (3, 32) => Encoding::Float,
        _ => {
            let read = "8- to 32-bit PCM or 32-bit float are read";
            return Err(bad(&format!("its samples are format {tag} of {bits} bits ({read})")));
        }
    };
    if channels == 0 {
        return Err(bad("it has no channels"));
    }
    Ok(Format { encoding, channels, rate, bits })
}

/// One sample of `bits` at the start of `b`, in −1 … 1.
fn sample(b: &[u8], f: &Format) -> f32 {
    match (f.encoding, f.bits) {
        // 8-bit WAV is unsigned, centred on 128.
        (Encoding::Int, 8) => (f32::from(b[0]) - 128.0) / 128.0,
        (Encoding::Int, 16) => f32::from(i16::from_le_bytes([b[0], b[1]])) / 32_768.0,
        (Encoding::Int, 24) => {
            (i32::from_le_bytes([0, b[0], b[1], b[2]]) >> 8) as f32 / 8_388_608.0
        }
        (Encoding::Int, _) => i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32 / 2_147_483_648.0,
        (Encoding::Float, _) => f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
    }
}

/// Reads a whole WAV file held in memory.
pub fn read(bytes: &[u8]) -> Result<Clip> {
    if bytes.len() < 12 || &bytes[..4] != b"RIFF" || &bytes[8..12] != b"WAVE" {
        return Err(bad("it does not start with RIFF … WAVE"));
    }
    let mut at = 12;
    let mut fmt = None;
    while bytes.len() - at >= 8 {
        let id = &bytes[at..at + 4];
        let len = u32_at(bytes, at + 4) as usize;
        let body_start = at + 8;
        // A recorder that stopped early may leave a `data` length past the end: read what is there.
        let body_end = body_start.saturating_add(len).min(bytes.len());
        let body = &bytes[body_start..body_end];
        match id {
            b"fmt " => fmt = Some(format(body)?),
            b"data" => {
                let f = fmt.ok_or_else(|| bad("its `data` comes before its `fmt `"))?;
                return clip(body, &f);
            }
            _ => {}
        }
        at = body_end.saturating_add(len & 1);
    }
    Err(bad("it has no `data` chunk"))
}

/// Sample rates a recording has: telephone's 8 kHz and below down to 1 kHz, studio rates up to 768 kHz.
const RATES: std::ops::RangeInclusive<u32> = 1_000..=768_000;

fn clip(data: &[u8], f: &Format) -> Result<Clip> {
    if !RATES.contains(&f.rate) {
        return Err(bad(&format!(
            "it says its sample rate is {} Hz (1,000 to 768,000 are read)",
            f.rate
        )));
    }
    let width = f.bits / 8;
    let frame = width * f.channels;
    let samples = data
        .chunks_exact(frame)
        .map(|fr| {
            let sum: f32 = fr.chunks_exact(width).map(|b| sample(b, f)).sum();
            let mono = sum / f.channels as f32;
            // A float file may hold NaN or values beyond ±1; the model reads neither.
            if mono.is_finite() {
                mono.clamp(-1.0, 1.0)
            } else {
                0.0
            }
        })
        .collect();
    Ok(Clip { sample_rate: f.rate, samples })
}

impl Clip {
    /// The clip as Whisper reads it: its first 30 s, at 16 kHz.
    pub fn for_whisper(&self) -> Vec<f32> {
        let first = (self.sample_rate as usize * 30).min(self.samples.len());
        let mut x = super::resample::resample(&self.samples[..first], self.sample_rate, 16_000);
        x.truncate(super::mel::N_SAMPLES);
        x
    }

    pub fn seconds(&self) -> f64 {
        self.samples.len() as f64 / f64::from(self.sample_rate)
    }
}

/// A 16-bit PCM mono WAV file of `samples` at `rate` (for tests and examples).
pub fn write_pcm16(samples: &[f32], rate: u32) -> Vec<u8> {
    let data: Vec<u8> = samples
        .iter()
        .flat_map(|s| ((s.clamp(-1.0, 1.0) * 32_767.0).round() as i16).to_le_bytes())
        .collect();
    let mut b = b"RIFF".to_vec();
    b.extend((36 + data.len() as u32).to_le_bytes());
    b.extend(b"WAVEfmt ");
    b.extend(16u32.to_le_bytes());
    b.extend(1u16.to_le_bytes());
    b.extend(1u16.to_le_bytes());
    b.extend(rate.to_le_bytes());
    b.extend((rate * 2).to_le_bytes());
    b.extend(2u16.to_le_bytes());
    b.extend(16u16.to_le_bytes());
    b.extend(b"data");
    b.extend((data.len() as u32).to_le_bytes());
    b.extend(data);
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_it_writes() {
        let samples = [0.0, 0.5, -0.5, 1.0, -1.0];
        let clip = read(&write_pcm16(&samples, 16_000)).unwrap();
        assert_eq!(clip.sample_rate, 16_000);
        for (a, b) in clip.samples.iter().zip(samples) {
            assert!((a - b).abs() < 1e-4, "{a} {b}");
        }
    }

    #[test]
    fn stereo_is_averaged_and_other_chunks_skipped() {
        let mut b = write_pcm16(&[0.5, -0.5, 0.25, 0.25], 16_000);
        b[22] = 2; // two channels
                   // A LIST chunk of odd length (padded) before `data`.
        let data_at = 36;
        let mut list = b"LIST".to_vec();
        list.extend(3u32.to_le_bytes());
        list.extend([1, 2, 3, 0]);
        b.splice(data_at..data_at, list);
        let clip = read(&b).unwrap();
        assert_eq!(clip.samples.len(), 2);
        assert!(clip.samples[0].abs() < 1e-4 && (clip.samples[1] - 0.25).abs() < 1e-4);
    }

    #[test]
    fn other_rates_are_resampled_and_broken_files_are_clear_errors() {
        let c = read(&write_pcm16(&[0.0; 441], 44_100)).unwrap();
        assert_eq!((c.sample_rate, c.for_whisper().len()), (44_100, 160));
        let e = read(&write_pcm16(&[0.0; 4], 0)).unwrap_err().to_string();
        assert!(e.contains("0 Hz"), "{e}");
        let long = Clip { sample_rate: 8_000, samples: vec![0.0; 8_000 * 31] };
        assert_eq!(long.for_whisper().len(), 16_000 * 30, "only the first 30 s");
        let good = write_pcm16(&[0.1; 8], 16_000);
        // Every truncation: an error or, once `data` has begun, fewer samples; never a panic.
        for cut in 0..good.len() {
            if let Ok(c) = read(&good[..cut]) {
                assert!(cut >= 44 && c.samples.len() == (cut - 44) / 2, "cut {cut}");
            }
        }
        let mut mulaw = good.clone();
        mulaw[20] = 7;
        assert!(read(&mulaw).unwrap_err().to_string().contains("format 7"));
        let mut huge = good.clone();
        huge[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        huge[40..44].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(read(&huge).unwrap().samples.len(), 8);
        assert!(read(b"OggS....").is_err());
    }
}
