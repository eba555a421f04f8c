//! A clip at any sample rate brought to Whisper's 16 kHz, by the Fourier
//! method (as `scipy.signal.resample`): the clip's spectrum is kept up to
//! the lower of the two rates' Nyquist frequencies and transformed back at
//! the new length. Band-limited and exact for a signal that is, at the
//! price of treating the clip as periodic (its two ends are near silence in
//! speech, so the wrap is inaudible).

use realfft::num_complex::Complex;
use realfft::RealFftPlanner;

/// `x` at `from` Hz, resampled to `to` Hz (its length scaled by `to / from`, rounded).
pub fn resample(x: &[f32], from: u32, to: u32) -> Vec<f32> {
    let n = x.len();
    let m = ((n as u64 * u64::from(to) + u64::from(from) / 2) / u64::from(from).max(1)) as usize;
    if from == to || n == 0 || m == 0 {
        return if m == 0 { Vec::new() } else { x.to_vec() };
    }
    let mut planner = RealFftPlanner::<f32>::new();
    let mut input = x.to_vec();
    let forward = planner.plan_fft_forward(n);
    let mut spectrum = forward.make_output_vec();
    // Lengths match by construction, so the transforms cannot fail.
    let _ = forward.process(&mut input, &mut spectrum);
    let inverse = planner.plan_fft_inverse(m);
    let mut kept = inverse.make_input_vec();
    let shorter = n.min(m);
    let bins = shorter / 2 + 1;
    kept[..bins].copy_from_slice(&spectrum[..bins]);
    if shorter.is_multiple_of(2) {
        // The shorter length's Nyquist bin holds both halves of that frequency's energy.
        kept[shorter / 2] *= if m < n { 2.0 } else { 0.5 };
    }
    // A real signal's first (and, at an even length, last) bin has no imaginary part.
    kept[0].im = 0.0;
    if m.is_multiple_of(2) {
        let last = kept.len() - 1;
        kept[last] = Complex::new(kept[last].re, 0.0);
    }
    let mut out = inverse.make_output_vec();
    let _ = inverse.process(&mut kept, &mut out);
    // The inverse is unnormalised: ÷ n brings the amplitude back.
    out.iter_mut().for_each(|v| *v /= n as f32);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sine(rate: u32, len: usize, hz: f32) -> Vec<f32> {
        (0..len)
            .map(|i| (std::f32::consts::TAU * hz * i as f32 / rate as f32).sin() * 0.5)
            .collect()
    }

    #[test]
    fn a_sine_keeps_its_frequency_and_amplitude() {
        // 0.1 s of 440 Hz: 44 whole periods, so the periodic view is exact.
        let up = resample(&sine(16_000, 1_600, 440.0), 16_000, 48_000);
        assert_eq!(up.len(), 4_800);
        let want = sine(48_000, 4_800, 440.0);
        let worst = up.iter().zip(&want).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
        assert!(worst < 1e-4, "{worst}");
        let down = resample(&want, 48_000, 8_000);
        let want8 = sine(8_000, 800, 440.0);
        let worst = down.iter().zip(&want8).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
        assert!(worst < 1e-4, "{worst}");
    }

    #[test]
    fn up_then_down_gives_the_clip_back() {
        let x: Vec<f32> = (0..1_001).map(|i| ((i * 7919) % 211) as f32 / 211.0 - 0.5).collect();
        let back = resample(&resample(&x, 16_000, 44_100), 44_100, 16_000);
        assert_eq!(back.len(), x.len());
        let worst = back.iter().zip(&x).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
        assert!(worst < 1e-4, "{worst}");
    }

    #[test]
    fn frequencies_above_the_new_nyquist_are_removed() {
        // 6 kHz cannot be held at 8 kHz (Nyquist 4 kHz): it is taken out, not folded down.
        let high = resample(&sine(16_000, 1_600, 6_000.0), 16_000, 8_000);
        assert!(high.iter().all(|v| v.abs() < 1e-4));
        assert!(resample(&[], 8_000, 16_000).is_empty());
        assert_eq!(resample(&[0.25; 3], 16_000, 16_000), [0.25; 3]);
    }
}
