//! Whisper's encoder: the log-mel spectrogram → one vector per 20 ms.
//!
//! ```text
//!   x = GELU(conv1(mel))                 3,000 frames × d     (kernel 3, padding 1)
//!   x = GELU(conv2(x)) + positions       1,500 frames × d     (kernel 3, stride 2, padding 1)
//!   per layer:  x += W_O · attention(LayerNorm(x))            every frame sees every frame
//!               x += fc2(GELU(fc1(LayerNorm(x))))
//!   audio = LayerNorm(x)
//! ```
//!
//! Each layer's heads are 1,500 × 1,500: kept, S and A of the four layers
//! would take 430 MB, so each head's weights are let go of as soon as its
//! output is made and the layer keeps Q, K and V, from which
//! [`MultiHeadTrace::head`] computes any head again, with the same numbers,
//! when it is asked for.

use super::model::{Ffn, Linear, Whisper};
use crate::attention::{gather, split_heads, HeadTrace, Mask, MultiHeadTrace, Scale};
use crate::kernels::fused;
use crate::tensor::{self, Matrix};

/// What the encoder made of a clip.
pub struct Encoded {
    /// The audio's vectors, frames × d: the cross-attention's keys and values.
    pub audio: Matrix,
    /// Each layer's self-attention, its heads let go of (Q, K, V kept).
    pub layers: Vec<MultiHeadTrace>,
}

/// GELU with erf, in place.
pub(super) fn gelu(m: &mut Matrix) {
    let erf = tensor::loop_constants(tensor::ERF);
    m.data.iter_mut().for_each(|x| *x = erf.gelu(*x));
}

/// A convolution of kernel 3 and padding 1 as one product: row t of the
/// result holds the frames t·stride − 1, t·stride, t·stride + 1 (zero
/// outside), channel by channel, in the order of the weight's [out, in, 3].
fn frames_of_three(x: &Matrix, stride: usize) -> Matrix {
    let (frames, channels) = x.shape();
    let out = (frames + 2 - 3) / stride + 1;
    let mut m = Matrix::zeros(out, 3 * channels);
    for t in 0..out {
        let row = m.row_mut(t);
        for k in 0..3 {
            let Some(src) = (t * stride + k).checked_sub(1).filter(|&s| s < frames) else {
                continue;
            };
            for (c, v) in x.row(src).iter().enumerate() {
                row[c * 3 + k] = *v;
            }
        }
    }
    m
}

fn conv(x: &Matrix, layer: &Linear, stride: usize) -> Matrix {
    let mut y = layer.forward(&frames_of_three(x, stride));
    gelu(&mut y);
    y
}

impl Ffn {
    /// fc2(GELU(fc1(LayerNorm(x)))).
    pub fn forward(&self, x: &Matrix) -> Matrix {
        let mut up = self.fc1.forward(&self.norm.forward(x));
        gelu(&mut up);
        self.fc2.forward(&up)
    }
}

impl Whisper {
    /// The encoder over a log-mel spectrogram of n_mels × 3,000 frames.
    pub fn encode(&self, mel: &Matrix) -> Encoded {
        let x = conv(&mel.transpose(), &self.conv1, 1); //               3,000 × d
        let mut x = conv(&x, &self.conv2, 2); //                           1,500 × d
        let n = x.rows.min(self.encoder_positions.rows);
        x.truncate_rows(n);
        x = x.add(&self.encoder_positions.rows_range(0, n));
        let mut layers = Vec::with_capacity(self.encoder.len());
        for layer in &self.encoder {
            let qkv = layer.qkv.forward(&layer.attn_norm.forward(&x)); //  n × 3d
            let d = self.d;
            let (q, k, v) = (qkv.cols_range(0, d), qkv.cols_range(d, d), qkv.cols_range(2 * d, d));
            // Each head by the fused kernel: 1,500 × 1,500 weights a head, never stored.
            let h = self.n_heads;
            let (q, k, v) = (split_heads(&q, h), split_heads(&k, h), split_heads(&v, h));
            let scale = Scale::InvSqrtDk.factor(d / h);
            let heads = (0..h)
                .map(|h| {
                    let z = fused::attend(&q[h], &k[h], &v[h], Mask::None, scale); // no overview of the encoder
                    HeadTrace::output_only(z, scale, Mask::None)
                })
                .collect();
            let mut t = gather(q, k, v, heads);
            x = x.add(&layer.out.forward(&t.concat));
            t.let_go();
            layers.push(t);
            x = x.add(&layer.ffn.forward(&x));
        }
        Encoded { audio: self.encoder_norm.forward(&x), layers }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_frames_per_row_with_zero_padding_and_stride() {
        // 4 frames of 2 channels: frame t holds (t, 10 t).
        let x = Matrix::from_rows(&[[0.0, 0.0], [1.0, 10.0], [2.0, 20.0], [3.0, 30.0]]);
        let m = frames_of_three(&x, 1);
        assert_eq!(m.shape(), (4, 6));
        // Row 0: frames −1 (zero), 0, 1, channel by channel.
        assert_eq!(m.row(0), [0.0, 0.0, 1.0, 0.0, 0.0, 10.0]);
        assert_eq!(m.row(3), [2.0, 3.0, 0.0, 20.0, 30.0, 0.0]);
        let s = frames_of_three(&x, 2);
        assert_eq!(s.shape(), (2, 6));
        assert_eq!(s.row(1), [1.0, 2.0, 3.0, 10.0, 20.0, 30.0]);
    }
}
