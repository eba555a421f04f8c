//! The words' times, from the alignment heads' cross-attention, as OpenAI's
//! whisper finds them (`timing.py`, `find_alignment`):
//!
//! ```text
//!   W[h]  = A[h][rows, :n] renormalised         per alignment head: the rows that write a text
//!                                               token (or <|endoftext|>), the n frames of speech
//!   W[h]  = (W[h] − mean) / std                 over the rows, frame by frame
//!   W[h]  = median of 7 along the frames         (reflected at the ends)
//!   M     = mean over h of W[h]                  rows × n
//!   path  = DTW(−M)                              the cheapest monotone path, row 0 frame 0 → last
//!   t(r)  = the first frame the path gives row r, ÷ 50 frames a second
//!   word  = [t(first token), t(first token of the next word))
//! ```
//!
//! Row r is the query of the position before token r: it is the row that
//! chose token r, so its attention says where in the sound that token was
//! heard. Renormalising over the first n frames is the softmax of the scores
//! over those frames alone, which is what whisper computes.
//!
//! The words are the transcript's tokens joined as whisper joins them: a
//! token whose text starts with a space, or is punctuation, starts a word.
//! The adjustments whisper makes afterwards for display (punctuation merged
//! into its neighbour, long words clipped to twice the median) are left out:
//! the times here are the alignment's own.

use super::mel;
use super::transcribe::{Speech, Transcript};
use crate::error::{Error, Result};
use crate::formats::tokenizer::TextTokenizer;
use crate::tensor::Matrix;

/// Encoder frames a second (20 ms each).
pub const FRAMES_PER_SECOND: f64 = 50.0;
/// The median filter's width, whisper's `medfilt_width`.
const MEDIAN_WIDTH: usize = 7;
/// Python's `string.punctuation`: a word whose stripped text is a part of it
/// is a word of its own.
const PUNCTUATION: &str = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/// One word of the transcript and when it was said.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct WordTime {
    /// As written, with its leading space.
    pub word: String,
    /// Its tokens, as positions in [`Transcript::ids`].
    pub tokens: std::ops::Range<usize>,
    /// Seconds from the clip's start.
    pub start: f64,
    pub end: f64,
}

impl Speech {
    /// The words of `t` with their times, from this checkpoint's alignment heads.
    pub fn word_times(&self, t: &Transcript) -> Result<Vec<WordTime>> {
        word_times(t, &self.tokenizer, &self.alignment_heads, self.end)
    }
}

/// The words of `t` with their times, from the mean of `heads` (layer,
/// head). Empty when the transcript has no text.
pub fn word_times(
    t: &Transcript,
    tokenizer: &TextTokenizer,
    heads: &[(usize, usize)],
    end_of_text: u32,
) -> Result<Vec<WordTime>> {
    if heads.is_empty() {
        return Err(Error::ModelFile(
            "Whisper's config.json names no alignment heads: the words cannot be timed".into(),
        ));
    }
    // ids = <|startoftranscript|> <|notimestamps|> text… [<|endoftext|>]
    let written = t.ids.len() - usize::from(t.ids.last() == Some(&end_of_text));
    let text = &t.ids[2.min(written)..written];
    if text.is_empty() {
        return Ok(Vec::new());
    }
    // Rows 1 … written: the queries that chose each text token and then the end.
    let rows = 1..written;
    // whisper's frames: half the spectrogram's frames that hold the clip, rounded down.
    let frames = t.cross_attention[0].heads[0].weights.cols;
    let n = (t.samples / (2 * mel::HOP)).min(frames).max(1);
    let mut mean = Matrix::zeros(rows.len(), n);
    for &(l, h) in heads {
        let head = t.cross_attention[l].head(h);
        let mut w = Matrix::zeros(rows.len(), n);
        for (r, row) in rows.clone().enumerate() {
            let a = &head.weights.row(row)[..n];
            let sum: f32 = a.iter().sum();
            w.row_mut(r).iter_mut().zip(a).for_each(|(x, &v)| *x = v / sum);
        }
        standardise_columns(&mut w);
        let w = median_along_rows(&w, MEDIAN_WIDTH);
        mean.data.iter_mut().zip(&w.data).for_each(|(m, &x)| *m += x / heads.len() as f32);
    }
    let path = dtw(&mean);
    // The first frame of each row on the path.
    let mut first = vec![0usize; rows.len()];
    let mut seen = None;
    for &(r, f) in &path {
        if seen != Some(r) {
            first[r] = f;
            seen = Some(r);
        }
    }
    let mut words = Vec::new();
    for (word, range) in split_words(text, tokenizer)? {
        words.push(WordTime {
            word,
            tokens: range.start + 2..range.end + 2,
            start: first[range.start] as f64 / FRAMES_PER_SECOND,
            end: first[range.end] as f64 / FRAMES_PER_SECOND,
        });
    }
    Ok(words)
}

/// Each column to mean 0 and standard deviation 1 over the rows (a column
/// that does not vary becomes 0).
fn standardise_columns(w: &mut Matrix) {
    let (rows, cols) = w.shape();
    for c in 0..cols {
        let mean = (0..rows).map(|r| w[(r, c)]).sum::<f32>() / rows as f32;
        let var = (0..rows).map(|r| (w[(r, c)] - mean).powi(2)).sum::<f32>() / rows as f32;
        let std = var.sqrt();
        for r in 0..rows {
            w[(r, c)] = if std > 0.0 { (w[(r, c)] - mean) / std } else { 0.0 };
        }
    }
}

/// The median of each `width` values centred on a column, the row reflected
/// at its ends (as whisper's filter, which leaves a row too short to reflect as it is).
fn median_along_rows(w: &Matrix, width: usize) -> Matrix {
    let (rows, cols) = w.shape();
    let half = width / 2;
    if cols <= half {
        return w.clone();
    }
    let mut out = Matrix::zeros(rows, cols);
    let mut window = vec![0f32; width];
    for r in 0..rows {
        let row = w.row(r);
        let at = |i: isize| -> f32 {
            // Reflect without repeating the end: −1 → 1, cols → cols − 2.
            let i = i.unsigned_abs();
            row[if i < cols { i } else { 2 * (cols - 1) - i }]
        };
        for c in 0..cols {
            for (k, x) in window.iter_mut().enumerate() {
                *x = at(c as isize + k as isize - half as isize);
            }
            window.sort_by(f32::total_cmp);
            out[(r, c)] = window[half];
        }
    }
    out
}

/// The cheapest path through `cost` from (0, 0) to the last row and column,
/// moving one row, one column or both at a time; as (row, column) pairs in order.
/// On a tie, a diagonal step loses to a row step, and both lose to a column
/// step, as whisper's `dtw_cpu` decides.
fn dtw(m: &Matrix) -> Vec<(usize, usize)> {
    let (n, f) = m.shape();
    // cost[i][j]: the cheapest way to (i − 1, j − 1); row and column 0 are the start.
    // In f32, as whisper keeps it, so that near-ties fall the same way.
    let mut cost = vec![f32::INFINITY; (n + 1) * (f + 1)];
    let mut step = vec![0u8; (n + 1) * (f + 1)];
    let at = |i: usize, j: usize| i * (f + 1) + j;
    cost[0] = 0.0;
    for j in 1..=f {
        for i in 1..=n {
            let (c0, c1, c2) = (cost[at(i - 1, j - 1)], cost[at(i - 1, j)], cost[at(i, j - 1)]);
            let (c, s) = if c0 < c1 && c0 < c2 {
                (c0, 0)
            } else if c1 < c0 && c1 < c2 {
                (c1, 1)
            } else {
                (c2, 2)
            };
            cost[at(i, j)] = -m[(i - 1, j - 1)] + c;
            step[at(i, j)] = s;
        }
    }
    // Back from the end. Row 1 only ever steps left and column 1 only up, each
    // towards (1, 1), whose diagonal step reaches the start: the path never
    // leaves the cells.
    let (mut i, mut j) = (n, f);
    let mut path = Vec::with_capacity(n + f);
    while i > 0 && j > 0 {
        path.push((i - 1, j - 1));
        match step[at(i, j)] {
            0 => (i, j) = (i - 1, j - 1),
            1 => i -= 1,
            _ => j -= 1,
        }
    }
    path.reverse();
    path
}

/// The text tokens joined into words as whisper joins English ones: first
/// into pieces that decode to whole characters, then a piece that starts
/// with a space or is punctuation starts a word. Each word with its tokens'
/// range in `text`.
fn split_words(
    text: &[u32],
    tokenizer: &TextTokenizer,
) -> Result<Vec<(String, std::ops::Range<usize>)>> {
    let mut pieces: Vec<(String, std::ops::Range<usize>)> = Vec::new();
    let mut from = 0;
    for to in 1..=text.len() {
        let piece = tokenizer.decode(&text[from..to])?;
        if !piece.contains('\u{FFFD}') || to == text.len() {
            pieces.push((piece, from..to));
            from = to;
        }
    }
    let mut words: Vec<(String, std::ops::Range<usize>)> = Vec::new();
    for (piece, range) in pieces {
        let punctuation = PUNCTUATION.contains(piece.trim());
        match words.last_mut() {
            Some((word, r)) if !piece.starts_with(' ') && !punctuation => {
                word.push_str(&piece);
                r.end = range.end;
            }
            _ => words.push((piece, range)),
        }
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dtw_follows_the_cheap_diagonal_and_ties_as_whisper() {
        // A band: each row's high values are its own frames, every other cell costs.
        let m = Matrix::from_rows(&[
            [5.0, 5.0, -1.0, -1.0, -1.0],
            [-1.0, -1.0, 5.0, -1.0, -1.0],
            [-1.0, -1.0, -1.0, 5.0, 5.0],
        ]);
        assert_eq!(dtw(&m), vec![(0, 0), (0, 1), (1, 2), (2, 3), (2, 4)]);
        // All equal: ties take the column step, so the path comes back along the last row.
        let flat = Matrix::zeros(2, 3);
        assert_eq!(dtw(&flat), vec![(0, 0), (1, 0), (1, 1), (1, 2)]);
    }

    #[test]
    fn the_median_reflects_at_the_ends() {
        let w = Matrix::from_rows(&[[9.0, 1.0, 2.0, 3.0, 4.0]]);
        // Width 3: column 0 sees (1, 9, 1) → 1; column 4 sees (3, 4, 3) → 3.
        assert_eq!(median_along_rows(&w, 3).row(0), [1.0, 2.0, 2.0, 3.0, 3.0]);
        // Too short to reflect: left as it is.
        let short = Matrix::from_rows(&[[1.0, 2.0, 3.0]]);
        assert_eq!(median_along_rows(&short, 7).row(0), [1.0, 2.0, 3.0]);
    }

    #[test]
    fn columns_are_standardised_and_a_flat_one_is_zero() {
        let mut w = Matrix::from_rows(&[[1.0, 2.0], [3.0, 2.0]]);
        standardise_columns(&mut w);
        assert_eq!(w.data, vec![-1.0, 0.0, 1.0, 0.0]);
    }
}
