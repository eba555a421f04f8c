//! The lexical shortlist: for each source word, the target words it is
//! likely to be translated into. Bergamot scores only the words of the
//! sentence's shortlist at each step (a few thousand of the 32000), which is
//! both faster and, being what the engine attnscope is checked against does,
//! needed for the same output: without it the model sometimes prefers a
//! word no source word leads to (an accented letter for an emoji, say).
//!
//! Marian's file (`lex.50.50.*.s2t.bin`) is stored by `scripts/fetch_models.py`
//! in a denser form of the same lists, to keep the download under 22 MB:
//!
//! ```text
//!   b"ATSL\x01\0\0\0"
//!   u32 first_num, best_num, n_source, n_target      little-endian
//!   n_source × u8                                    how many target words each source word has
//!   the lists, one after another, as LEB128 varints: the first id, then each gap − 1
//! ```
//!
//! [`Shortlist::select`] then does what Marian's `BinaryShortlistGenerator`
//! does for a sentence: the `first_num` most frequent target words, every
//! target word of every source word, the source words themselves (one
//! vocabulary serves both languages), and, as intgemm needed, the next unused
//! words from `first_num` on until the count is a multiple of 8.

use crate::error::{Error, Result};

const MAGIC: &[u8; 8] = b"ATSL\x01\0\0\0";

/// The target words each source word may be translated into.
#[derive(Clone, Debug)]
pub struct Shortlist {
    /// The most frequent target words, always allowed.
    pub first_num: usize,
    /// The longest list per source word when the file was made.
    pub best_num: usize,
    pub n_target: usize,
    /// `offsets[s]..offsets[s + 1]` indexes `ids` for source word s.
    offsets: Vec<u32>,
    ids: Vec<u16>,
}

fn bad(why: &str) -> Error {
    Error::ModelFile(format!("shortlist.bin is truncated or corrupted: {why}; fetch it again with `python3 scripts/fetch_models.py`"))
}

impl Shortlist {
    pub fn from_bytes(bytes: &[u8]) -> Result<Shortlist> {
        if bytes.len() < 24 || &bytes[..8] != MAGIC {
            return Err(Error::ModelFile(
                "shortlist.bin is not attnscope's shortlist file (it starts with \"ATSL\")".into(),
            ));
        }
        let u32_at = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize
        };
        let (first_num, best_num, n_source, n_target) =
            (u32_at(8), u32_at(12), u32_at(16), u32_at(20));
        if n_target == 0 || n_target > 1 << 16 || n_source > 1 << 20 {
            return Err(bad(&format!("{n_source} source and {n_target} target words")));
        }
        let counts = bytes
            .get(24..24 + n_source)
            .ok_or_else(|| bad(&format!("the {n_source} list lengths are cut short")))?;
        let total: usize = counts.iter().map(|&c| c as usize).sum();
        // Every id takes at least one byte.
        let mut rest = &bytes[24 + n_source..];
        if total > rest.len() {
            return Err(bad(&format!("{total} target words cannot fit in {} bytes", rest.len())));
        }
        let mut offsets = Vec::with_capacity(n_source + 1);
        let mut ids = Vec::with_capacity(total);
        offsets.push(0);
        for &count in counts {
            let mut previous: i64 = -1;
            for _ in 0..count {
                let (gap, used) =
                    leb128(rest).ok_or_else(|| bad("a list ends in the middle of a number"))?;
                rest = &rest[used..];
                let id = previous + 1 + gap as i64;
                if id >= n_target as i64 {
                    return Err(bad(&format!(
                        "target word {id} is outside the {n_target}-word vocabulary"
                    )));
                }
                ids.push(id as u16);
                previous = id;
            }
            offsets.push(ids.len() as u32);
        }
        if !rest.is_empty() {
            return Err(bad(&format!("{} bytes follow the last list", rest.len())));
        }
        Ok(Shortlist { first_num, best_num, n_target, offsets, ids })
    }

    /// The target words to score for a sentence of `source` ids, sorted.
    pub fn select(&self, source: &[u32]) -> Vec<u32> {
        let mut keep = vec![false; self.n_target];
        keep.iter_mut().take(self.first_num).for_each(|k| *k = true);
        for &s in source {
            let s = s as usize;
            if let Some(k) = keep.get_mut(s) {
                *k = true;
            }
            if s + 1 < self.offsets.len() {
                let list = &self.ids[self.offsets[s] as usize..self.offsets[s + 1] as usize];
                list.iter().for_each(|&t| keep[t as usize] = true);
            }
        }
        let mut count = keep.iter().filter(|&&k| k).count();
        for k in keep.iter_mut().skip(self.first_num) {
            if count.is_multiple_of(8) {
                break;
            }
            if !*k {
                *k = true;
                count += 1;
            }
        }
        keep.iter().enumerate().filter(|(_, &k)| k).map(|(i, _)| i as u32).collect()
    }
}

/// An unsigned LEB128 number (at most 3 bytes here) and the bytes it took.
fn leb128(bytes: &[u8]) -> Option<(u32, usize)> {
    let mut value = 0u32;
    for (i, &b) in bytes.iter().take(3).enumerate() {
        value |= ((b & 0x7f) as u32) << (7 * i);
        if b & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes lists the way scripts/fetch_models.py does.
    fn write(first_num: u32, n_target: u32, lists: &[Vec<u32>]) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for v in [first_num, 50, lists.len() as u32, n_target] {
            out.extend(v.to_le_bytes());
        }
        out.extend(lists.iter().map(|l| l.len() as u8));
        for l in lists {
            let mut previous = -1i64;
            for &t in l {
                let mut gap = (t as i64 - previous - 1) as u32;
                while gap >= 0x80 {
                    out.push((gap & 0x7f) as u8 | 0x80);
                    gap >>= 7;
                }
                out.push(gap as u8);
                previous = t as i64;
            }
        }
        out
    }

    #[test]
    fn selects_as_marian_does() {
        let lists = vec![vec![], vec![5, 300, 9000], vec![], vec![4, 5]];
        let s = Shortlist::from_bytes(&write(2, 10_000, &lists)).unwrap();
        // 0, 1 (first_num); source words 1 and 3 themselves; their lists; then padding from 2 up to
        // 8 words.
        assert_eq!(s.select(&[1, 3]), vec![0, 1, 2, 3, 4, 5, 300, 9000]);
        assert_eq!(s.select(&[]), vec![0, 1, 2, 3, 4, 5, 6, 7]);
        // Ids beyond the lists (or the vocabulary) add nothing but themselves.
        assert_eq!(s.select(&[9999, 20_000]).len(), 8);
    }

    #[test]
    fn corrupted_files_are_errors() {
        let good = write(2, 10_000, &[vec![5, 300, 9000], vec![1]]);
        assert!(Shortlist::from_bytes(&good).is_ok());
        for n in 0..good.len() {
            assert!(Shortlist::from_bytes(&good[..n]).is_err(), "{n} bytes");
        }
        let mut extra = good.clone();
        extra.push(0);
        assert!(Shortlist::from_bytes(&extra).is_err());
        let out_of_range = write(2, 100, &[vec![5, 300]]);
        assert!(Shortlist::from_bytes(&out_of_range).unwrap_err().to_string().contains("outside"));
        let mut huge = good.clone();
        huge[16..20].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(Shortlist::from_bytes(&huge).is_err());
        assert!(Shortlist::from_bytes(b"PK\x03\x04 not a shortlist at all").is_err());
    }
}
