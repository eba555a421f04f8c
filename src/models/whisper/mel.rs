//! Whisper's front end: 30 s of 16 kHz audio → an 80 × 3,000 log-mel
//! spectrogram, as OpenAI's whisper and transformers' `WhisperFeatureExtractor`
//! compute it (tests/whisper/mel.rs checks it against the latter).
//!
//! 1. The audio is cut to, or zero-padded to, 30 s (480,000 samples) before
//!    anything else: the padding is part of what the model was trained on,
//!    and it sets the clamp of step 5.
//! 2. Short-time Fourier transform: frames of 400 samples (25 ms) every 160
//!    (10 ms), each centred on its hop (200 samples of reflection added at
//!    both ends, as `torch.stft(center=True)` pads), through a periodic Hann
//!    window; 3,001 frames, of which the last is dropped.
//! 3. Power |X(f)|² of the 201 frequencies 0, 40, …, 8,000 Hz.
//! 4. 80 triangular mel filters (Slaney's mel scale and area normalisation,
//!    as librosa makes them) weigh the powers into 80 bands.
//! 5. log10 of each band (at least 1e-10), raised to 8 below the largest,
//!    then (x + 4) / 4, which brings speech to about −1 … 1.

use crate::tensor::Matrix;
use realfft::RealFftPlanner;

pub const SAMPLE_RATE: usize = 16_000;
/// The window and the transform's length: 25 ms.
pub const N_FFT: usize = 400;
/// The step between frames: 10 ms, so 100 frames a second.
pub const HOP: usize = 160;
pub const N_MELS: usize = 80;
/// 30 s, what the encoder reads at once.
pub const N_SAMPLES: usize = 30 * SAMPLE_RATE;
/// The frames of 30 s.
pub const N_FRAMES: usize = N_SAMPLES / HOP;
/// Frequencies of a real transform of N_FFT samples: 0 … Nyquist.
const N_FREQS: usize = N_FFT / 2 + 1;

/// One triangular filter: its weights over the frequencies `first ..`
/// (zero elsewhere, so only these are multiplied).
struct Filter {
    first: usize,
    weights: Vec<f32>,
}

/// Hz → mel on Slaney's scale: linear (3 mel per 200 Hz) below 1 kHz,
/// logarithmic above, as librosa's default (`htk=False`).
fn hz_to_mel(hz: f64) -> f64 {
    let (f_sp, min_log_hz, min_log_mel) = (200.0 / 3.0, 1000.0, 15.0);
    let log_step = 6.4f64.ln() / 27.0;
    if hz >= min_log_hz {
        min_log_mel + (hz / min_log_hz).ln() / log_step
    } else {
        hz / f_sp
    }
}

fn mel_to_hz(mel: f64) -> f64 {
    let (f_sp, min_log_hz, min_log_mel) = (200.0 / 3.0, 1000.0, 15.0);
    let log_step = 6.4f64.ln() / 27.0;
    if mel >= min_log_mel {
        min_log_hz * (log_step * (mel - min_log_mel)).exp()
    } else {
        mel * f_sp
    }
}

/// The 80 filters between 0 and 8 kHz. Their edges are 82 points evenly
/// spaced in mel; filter m rises from edge m to edge m + 1 and falls to
/// edge m + 2, and is scaled by 2 / (its width in Hz) so that every filter
/// has the same area (Slaney's normalisation): wide high bands do not
/// outweigh narrow low ones. Computed in f64, as librosa does.
fn filters() -> Vec<Filter> {
    let top = hz_to_mel(SAMPLE_RATE as f64 / 2.0);
    let edges: Vec<f64> =
        (0..N_MELS + 2).map(|i| mel_to_hz(top * i as f64 / (N_MELS + 1) as f64)).collect();
    let freq = |k: usize| k as f64 * SAMPLE_RATE as f64 / N_FFT as f64;
    (0..N_MELS)
        .map(|m| {
            let (lo, centre, hi) = (edges[m], edges[m + 1], edges[m + 2]);
            let norm = 2.0 / (hi - lo);
            let weight = |k: usize| {
                let f = freq(k);
                let rising = (f - lo) / (centre - lo);
                let falling = (hi - f) / (hi - centre);
                rising.min(falling).max(0.0) * norm
            };
            let first = (0..N_FREQS).find(|&k| weight(k) > 0.0).unwrap_or(N_FREQS);
            let last = (0..N_FREQS).rev().find(|&k| weight(k) > 0.0).map_or(first, |k| k + 1);
            Filter { first, weights: (first..last).map(|k| weight(k) as f32).collect() }
        })
        .collect()
}

/// Periodic Hann window of N_FFT samples (`torch.hann_window`'s default):
/// 0.5 − 0.5 cos(2π n / N), the window's period being the frame's length.
fn hann() -> Vec<f32> {
    (0..N_FFT)
        .map(|n| (0.5 - 0.5 * (2.0 * std::f64::consts::PI * n as f64 / N_FFT as f64).cos()) as f32)
        .collect()
}

/// The 30 s the encoder reads: the first 30 s of `audio` (16 kHz mono,
/// samples in −1 … 1), zero-padded, with N_FFT / 2 samples reflected at
/// both ends (the reflection leaves out the edge sample itself, as numpy's
/// and torch's "reflect" do). A sample that is not a number is read as
/// silence: one NaN would otherwise spread through the clamp's maximum to
/// every value of the spectrogram.
fn padded(audio: &[f32]) -> Vec<f32> {
    let half = N_FFT / 2;
    let finite = |x: &f32| if x.is_finite() { *x } else { 0.0 };
    let mut chunk: Vec<f32> = audio[..audio.len().min(N_SAMPLES)].iter().map(finite).collect();
    chunk.resize(N_SAMPLES, 0.0);
    let mut out = Vec::with_capacity(N_SAMPLES + 2 * half);
    out.extend((1..=half).rev().map(|i| chunk[i]));
    out.extend_from_slice(&chunk);
    out.extend((1..=half).map(|i| chunk[N_SAMPLES - 1 - i]));
    out
}

/// The log-mel spectrogram of `audio` (16 kHz mono, −1 … 1; only its
/// first 30 s are read): N_MELS rows (low to high bands) × N_FRAMES
/// columns (10 ms each), the layout the encoder's first convolution reads.
pub fn log_mel(audio: &[f32]) -> Matrix {
    let signal = padded(audio);
    let window = hann();
    let filters = filters();
    let fft = RealFftPlanner::<f32>::new().plan_fft_forward(N_FFT);
    let mut frame = fft.make_input_vec();
    let mut spectrum = fft.make_output_vec();
    let mut scratch = fft.make_scratch_vec();
    let mut power = vec![0f32; N_FREQS];
    let mut mel = Matrix::zeros(N_MELS, N_FRAMES);
    for t in 0..N_FRAMES {
        let start = t * HOP;
        for ((x, s), w) in frame.iter_mut().zip(&signal[start..start + N_FFT]).zip(&window) {
            *x = s * w;
        }
        // The lengths are the plan's own, so the transform cannot fail.
        fft.process_with_scratch(&mut frame, &mut spectrum, &mut scratch)
            .expect("buffers made by the plan");
        for (p, c) in power.iter_mut().zip(&spectrum) {
            *p = c.norm_sqr();
        }
        for (m, f) in filters.iter().enumerate() {
            let band: f32 = f.weights.iter().zip(&power[f.first..]).map(|(w, p)| w * p).sum();
            mel[(m, t)] = band.max(1e-10).log10();
        }
    }
    let max = mel.data.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    mel.map(|x| (x.max(max - 8.0) + 4.0) / 4.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mel_scale_is_linear_below_1_khz_and_logarithmic_above() {
        assert!((hz_to_mel(1000.0) - 15.0).abs() < 1e-12);
        assert!((hz_to_mel(500.0) - 7.5).abs() < 1e-12);
        // An octave above 1 kHz is 27 · ln 2 / ln 6.4 mel.
        let octave = hz_to_mel(4000.0) - hz_to_mel(2000.0);
        assert!((octave - 27.0 * 2f64.ln() / 6.4f64.ln()).abs() < 1e-9);
        for hz in [0.0, 300.0, 999.0, 1000.0, 3210.5, 8000.0] {
            assert!((mel_to_hz(hz_to_mel(hz)) - hz).abs() < 1e-9, "{hz}");
        }
    }

    #[test]
    fn filters_are_triangles_of_equal_area_that_tile_the_spectrum() {
        let fs = filters();
        assert_eq!(fs.len(), N_MELS);
        let bin = SAMPLE_RATE as f32 / N_FFT as f32;
        for (m, f) in fs.iter().enumerate() {
            assert!(!f.weights.is_empty(), "filter {m} covers no frequency");
            // Rises then falls: one peak.
            let peak = f
                .weights
                .iter()
                .enumerate()
                .fold(0, |p, (i, w)| if *w > f.weights[p] { i } else { p });
            assert!(f.weights[..=peak].windows(2).all(|w| w[0] <= w[1]), "filter {m}");
            assert!(f.weights[peak..].windows(2).all(|w| w[0] >= w[1]), "filter {m}");
            // Slaney's normalisation: area 1 in Hz, which the 40 Hz bins
            // sample closely only where a filter spans ten or more of them.
            let area: f32 = f.weights.iter().sum::<f32>() * bin;
            if f.weights.len() >= 10 {
                assert!((area - 1.0).abs() < 0.01, "filter {m}: area {area}");
            }
        }
        // Higher bands start higher.
        assert!(fs.windows(2).all(|p| p[0].first <= p[1].first));
    }

    #[test]
    fn silence_is_the_floor_everywhere() {
        let mel = log_mel(&[0.0; 16_000]);
        assert_eq!(mel.shape(), (N_MELS, N_FRAMES));
        // log10(1e-10) = −10 everywhere, so the clamp changes nothing: (−10 + 4) / 4.
        assert!(mel.data.iter().all(|&x| x == -1.5));
        assert_eq!(log_mel(&[]).data, mel.data);
        // Samples that are not numbers are silence too, not NaN everywhere.
        assert_eq!(log_mel(&[f32::NAN, f32::INFINITY, 0.0]).data, mel.data);
    }

    #[test]
    fn a_tone_lights_the_band_of_its_frequency_while_it_sounds() {
        // 1 s of 1 kHz, then silence.
        let tone: Vec<f32> = (0..SAMPLE_RATE)
            .map(|n| {
                0.5 * (2.0 * std::f32::consts::PI * 1000.0 * n as f32 / SAMPLE_RATE as f32).sin()
            })
            .collect();
        let mel = log_mel(&tone);
        let fs = filters();
        let loudest =
            |t: usize| (0..N_MELS).max_by(|&a, &b| mel[(a, t)].total_cmp(&mel[(b, t)])).unwrap();
        let band = loudest(50);
        // The loudest band is one whose filter covers 1 kHz (bin 25).
        let covers = |m: usize| (fs[m].first..fs[m].first + fs[m].weights.len()).contains(&25);
        assert!(covers(band), "band {band}");
        // The clamp: nothing is more than 2 (8 / 4) below the largest value.
        let max = mel.data.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        assert!(max - mel[(band, 50)] < 0.01, "the tone is the loudest sound");
        assert!(mel.data.iter().all(|&x| x >= max - 2.0));
        // After the tone (and the window's reach) every band is at the floor.
        assert!((0..N_MELS).all(|m| mel[(m, 150)] == max - 2.0));
    }

    #[test]
    fn reflection_and_the_cut_at_30_seconds() {
        let audio: Vec<f32> = (0..N_SAMPLES + 1000).map(|n| n as f32).collect();
        let p = padded(&audio);
        assert_eq!(p.len(), N_SAMPLES + N_FFT);
        // Left: x[200], …, x[1], then x[0].
        assert_eq!(&p[..3], &[200.0, 199.0, 198.0]);
        assert_eq!(&p[199..202], &[1.0, 0.0, 1.0]);
        // Right: the last kept sample, then the ones before it, mirrored.
        let last = (N_SAMPLES - 1) as f32;
        let end = 200 + N_SAMPLES;
        assert_eq!(&p[end - 1..end + 2], &[last, last - 1.0, last - 2.0]);
        // A short clip is zero-padded first, so its right reflection is silence.
        assert!(padded(&[1.0; 10])[210..].iter().all(|&x| x == 0.0));
    }
}
