//! Buffers the page gives back once it has read a reply's numbers
//! (`tensor::wire::SPARE_BUFFERS`). A reply is posted in buffers of its
//! own, transferred to the page; a new buffer of megabytes costs far more
//! than filling one the page gave back, since the browser maps and zeroes
//! its memory first (docs/performance.md: another head of a long text).

use js_sys::{Array, ArrayBuffer, Uint8Array};
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};

/// At most this many, and this many bytes, are kept, the latest given back:
/// a reply has a buffer per large matrix, about ten, and a long text's
/// head is 13 MB of them.
const KEEP: usize = 24;
const KEEP_BYTES: usize = 64 << 20;

thread_local! {
    /// Oldest first.
    static SPARE: RefCell<Vec<ArrayBuffer>> = const { RefCell::new(Vec::new()) };
}

/// Keeps the buffers of a `[SPARE_BUFFERS, buffer…]` message; false for any other message.
pub fn keep(data: &JsValue) -> bool {
    let Some(parts) = data.dyn_ref::<Array>() else { return false };
    if parts.get(0).as_string().as_deref() != Some(attnscope::tensor::wire::SPARE_BUFFERS) {
        return false;
    }
    SPARE.with(|spare| {
        let mut spare = spare.borrow_mut();
        spare.extend(parts.iter().skip(1).filter_map(|b| b.dyn_into::<ArrayBuffer>().ok()));
        let mut bytes: usize = spare.iter().map(|b| b.byte_length() as usize).sum();
        while spare.len() > KEEP || bytes > KEEP_BYTES {
            bytes -= spare.remove(0).byte_length() as usize;
        }
    });
    true
}

/// `bytes` in a buffer to transfer: a spare one that fits (not more than
/// twice their size), else a new one.
pub fn filled(bytes: &[u8]) -> Uint8Array {
    let n = bytes.len();
    let fits = |b: &ArrayBuffer| (n..=2 * n).contains(&(b.byte_length() as usize));
    let spare = SPARE.with(|spare| {
        let mut spare = spare.borrow_mut();
        let best = spare
            .iter()
            .enumerate()
            .filter(|(_, b)| fits(b))
            .min_by_key(|(_, b)| b.byte_length())
            .map(|(i, _)| i);
        best.map(|i| spare.remove(i))
    });
    match spare {
        Some(buffer) => {
            let array = Uint8Array::new_with_byte_offset_and_length(&buffer, 0, n as u32);
            array.copy_from(bytes);
            array
        }
        None => Uint8Array::from(bytes),
    }
}
