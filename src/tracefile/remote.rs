//! A trace whose bytes live elsewhere and arrive by message: the notebook's
//! kernel holds the file (`attnscope.show`), the page asks for the parts a
//! view needs. Reads are synchronous and messages are not, so a read of
//! bytes not yet here fails at once, naming the pages it needs; the caller
//! fetches them ([`Pages::wanted`], [`Pages::give`]) and asks again. A
//! request is thus answered in rounds, each read from the start with more
//! of the file at hand; the reader never sees half a page.

use super::ByteSource;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

/// The unit fetched: 256 KiB, so a header, the overview's thumbnails or a
/// head of 256 tokens in f32 comes in one round.
pub const PAGE: u64 = 1 << 18;

/// The most bytes one range asks for: a long run of missing pages (a whole
/// layer's weights for the overview) is asked for in parts of this size.
pub const MAX_RANGE: u64 = 16 << 20;

/// Above this many bytes held, the pages are dropped between requests
/// ([`Pages::trim`]); within a request every page it needs is kept.
pub const MAX_HELD: u64 = 512 << 20;

/// The file's pages that have arrived, and those a read found missing.
#[derive(Debug)]
pub struct Pages {
    size: u64,
    have: HashMap<u64, Vec<u8>>,
    wanted: BTreeSet<u64>,
    held: u64,
}

/// The pages one source and its feeder share.
pub type SharedPages = Rc<RefCell<Pages>>;

impl Pages {
    /// No page yet of a file of `size` bytes.
    pub fn new(size: u64) -> SharedPages {
        Rc::new(RefCell::new(Self { size, have: HashMap::new(), wanted: BTreeSet::new(), held: 0 }))
    }

    pub fn size(&self) -> u64 {
        self.size
    }

    /// Whether a read since the last [`Pages::wanted`] found a page missing.
    pub fn wants(&self) -> bool {
        !self.wanted.is_empty()
    }

    /// The byte ranges `start..end` to fetch (runs of missing pages joined,
    /// up to [`MAX_RANGE`] each), and the want forgotten.
    pub fn wanted(&mut self) -> Vec<(u64, u64)> {
        let mut ranges: Vec<(u64, u64)> = Vec::new();
        for page in std::mem::take(&mut self.wanted) {
            let (start, end) = (page * PAGE, ((page + 1) * PAGE).min(self.size));
            match ranges.last_mut() {
                Some(last) if last.1 == start && end - last.0 <= MAX_RANGE => last.1 = end,
                _ => ranges.push((start, end)),
            }
        }
        ranges
    }

    /// Takes `bytes`, the file from byte `start` on: whole pages (the last
    /// page of the file may be short), as [`Pages::wanted`] asked for them.
    pub fn give(&mut self, start: u64, bytes: &[u8]) -> Result<(), String> {
        let end = start.checked_add(bytes.len() as u64).filter(|&e| e <= self.size);
        let whole = |at: u64| at.is_multiple_of(PAGE) || at == self.size;
        match end {
            Some(end) if whole(start) && whole(end) && start < end => {}
            _ => {
                return Err(format!(
                    "the bytes sent from {start} ({} of them) are not whole pages of a file of {} bytes",
                    bytes.len(),
                    self.size
                ))
            }
        }
        for (i, chunk) in bytes.chunks(PAGE as usize).enumerate() {
            let page = start / PAGE + i as u64;
            if let Some(old) = self.have.insert(page, chunk.to_vec()) {
                self.held -= old.len() as u64;
            }
            self.held += chunk.len() as u64;
        }
        Ok(())
    }

    /// Between requests: every page dropped if more than [`MAX_HELD`] are held.
    pub fn trim(&mut self) {
        if self.held > MAX_HELD {
            self.have.clear();
            self.held = 0;
        }
    }

    /// Copies the file from `offset` into `buf`, or notes the missing pages.
    fn read(&mut self, offset: u64, buf: &mut [u8]) -> bool {
        let end = offset + buf.len() as u64;
        let mut at = offset;
        let mut missing = false;
        while at < end {
            let (page, within) = (at / PAGE, (at % PAGE) as usize);
            let take = (PAGE - within as u64).min(end - at) as usize;
            match self.have.get(&page).and_then(|p| p.get(within..within + take)) {
                Some(part) if !missing => {
                    let from = (at - offset) as usize;
                    buf[from..from + take].copy_from_slice(part);
                }
                Some(_) => {}
                None => {
                    missing = true;
                    self.wanted.insert(page);
                }
            }
            at += take as u64;
        }
        !missing
    }
}

/// The trace read from [`Pages`]: a read of a missing page fails with
/// `WouldBlock` and leaves the page wanted.
pub struct RemoteSource {
    pages: SharedPages,
}

impl RemoteSource {
    pub fn new(pages: SharedPages) -> Self {
        Self { pages }
    }
}

impl ByteSource for RemoteSource {
    fn size(&self) -> u64 {
        self.pages.borrow().size
    }

    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        let mut pages = self.pages.borrow_mut();
        if offset.checked_add(buf.len() as u64).is_none_or(|end| end > pages.size) {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        if pages.read(offset, buf) {
            Ok(())
        } else {
            Err(std::io::Error::new(
                std::io::ErrorKind::WouldBlock,
                "this part of the trace has not arrived yet",
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i * 7 % 251) as u8).collect()
    }

    /// Reads `offset..offset+len` in rounds, feeding what is wanted from `data`; the rounds taken.
    fn read_in_rounds(
        pages: &SharedPages,
        data: &[u8],
        offset: u64,
        len: usize,
    ) -> (Vec<u8>, usize) {
        let mut source = RemoteSource::new(pages.clone());
        let mut buf = vec![0; len];
        for round in 0.. {
            match source.read_at(offset, &mut buf) {
                Ok(()) => return (buf, round),
                Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::WouldBlock),
            }
            let ranges = pages.borrow_mut().wanted();
            assert!(!ranges.is_empty());
            for (s, e) in ranges {
                pages.borrow_mut().give(s, &data[s as usize..e as usize]).unwrap();
            }
        }
        unreachable!()
    }

    #[test]
    fn a_read_across_pages_comes_in_one_round_and_equals_the_file() {
        let data = file(3 * PAGE as usize + 1000);
        let pages = Pages::new(data.len() as u64);
        let at = PAGE - 10;
        let (got, rounds) = read_in_rounds(&pages, &data, at, PAGE as usize + 20);
        assert_eq!(got, &data[at as usize..at as usize + PAGE as usize + 20]);
        assert_eq!(rounds, 1);
        // Held now: the same bytes again need no round.
        let (again, rounds) = read_in_rounds(&pages, &data, at + 5, 100);
        assert_eq!((again.as_slice(), rounds), (&data[at as usize + 5..at as usize + 105], 0));
        // The short last page.
        let end = data.len() as u64;
        let (tail, _) = read_in_rounds(&pages, &data, end - 50, 50);
        assert_eq!(tail, &data[data.len() - 50..]);
    }

    #[test]
    fn missing_pages_are_asked_for_as_joined_ranges() {
        let pages = Pages::new(5 * PAGE);
        let mut source = RemoteSource::new(pages.clone());
        let mut buf = vec![0; 2 * PAGE as usize];
        pages.borrow_mut().give(2 * PAGE, &vec![1; PAGE as usize]).unwrap();
        assert!(source.read_at(PAGE / 2, &mut buf).is_err());
        assert!(source.read_at(4 * PAGE, &mut [0; 8]).is_err());
        assert_eq!(pages.borrow_mut().wanted(), [(0, 2 * PAGE), (4 * PAGE, 5 * PAGE)]);
        assert!(!pages.borrow().wants());
        // A long run comes in parts of at most MAX_RANGE.
        let big = Pages::new(3 * MAX_RANGE + 5);
        assert!(RemoteSource::new(big.clone())
            .read_at(0, &mut vec![0; (3 * MAX_RANGE + 5) as usize])
            .is_err());
        let parts = big.borrow_mut().wanted();
        assert_eq!(parts.len(), 4, "{parts:?}");
        assert!(parts.iter().all(|(s, e)| e - s <= MAX_RANGE));
        assert_eq!((parts[0].0, parts[3].1), (0, 3 * MAX_RANGE + 5));
        assert!(parts.windows(2).all(|w| w[0].1 == w[1].0));
    }

    #[test]
    fn bytes_that_are_not_whole_pages_or_past_the_end_are_refused() {
        let pages = Pages::new(PAGE + 10);
        let mut p = pages.borrow_mut();
        assert!(p.give(1, &[0; 10]).is_err());
        assert!(p.give(0, &[0; 10]).is_err());
        assert!(p.give(PAGE, &[0; 11]).is_err());
        assert!(p.give(PAGE, &[]).is_err());
        assert!(p.give(u64::MAX - 3, &[0; 8]).is_err());
        assert!(p.give(PAGE, &[0; 10]).is_ok());
        assert!(p.give(0, &vec![0; PAGE as usize + 10]).is_ok());
        drop(p);
        let mut source = RemoteSource::new(pages);
        let e = source.read_at(PAGE, &mut [0; 11]).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::UnexpectedEof);
    }

    #[test]
    fn a_trace_opens_and_reads_in_rounds_as_from_the_file() {
        use crate::tracefile::{SeekSource, TraceReader};
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/tracefile/numpy_vision.safetensors"
        );
        let data = std::fs::read(path).unwrap();
        let pages = Pages::new(data.len() as u64);
        let feed = |pages: &SharedPages| {
            let ranges = pages.borrow_mut().wanted();
            for (s, e) in &ranges {
                pages.borrow_mut().give(*s, &data[*s as usize..*e as usize]).unwrap();
            }
            !ranges.is_empty()
        };
        let mut reader = loop {
            match TraceReader::open(RemoteSource::new(pages.clone())) {
                Ok(r) => break r,
                Err(_) => assert!(feed(&pages), "failed with nothing wanted"),
            }
        };
        let mut file =
            TraceReader::open(SeekSource::new(std::fs::File::open(path).unwrap()).unwrap())
                .unwrap();
        let a = loop {
            match reader.attention(1, 0) {
                Ok(a) => break a,
                Err(_) => assert!(feed(&pages)),
            }
        };
        assert_eq!(a, file.attention(1, 0).unwrap());
    }
}
