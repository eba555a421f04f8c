//! How numbers cross between the page and its worker
//! (`#[serde(with = "crate::tensor::wire")]`): [`Matrix`](super::Matrix)
//! data, the overview's 16-bit thumbnail levels and a vision trace's
//! picture, as their little-endian bytes.
//!
//! A message is JSON. Encoded with [`to_json_and_buffers`], each array of
//! at least [`BESIDE_MIN`] bytes goes beside the JSON as a buffer of its
//! own (the JSON holds its index), which the worker transfers to the page
//! rather than copying it into text; every other array, and every message
//! encoded with plain `serde_json`, holds the base64 of its bytes.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde::de::{DeserializeOwned, Error, Visitor};
use serde::{Deserializer, Serialize, Serializer};
use std::cell::RefCell;
use std::marker::PhantomData;

/// A number with a fixed-size form, sent as its bytes in memory: those
/// are its little-endian bytes on every target this builds for (wasm,
/// x86-64, AArch64).
pub trait Le: bytemuck::Pod {}
impl Le for f32 {}
impl Le for u16 {}
impl Le for u8 {}

#[cfg(not(target_endian = "little"))]
compile_error!("tensor::wire sends numbers as their bytes in memory, which are little-endian only on a little-endian target");

/// Arrays from this many bytes on go beside the JSON (a head's matrices at
/// a few hundred tokens are megabytes; a thumbnail of a short text is not
/// worth a buffer of its own).
pub const BESIDE_MIN: usize = 4096;

/// The first part of the message the page sends its worker with a reply's
/// buffers once it has read them, `[SPARE_BUFFERS, buffer…]`: the worker
/// fills them with a later reply's numbers rather than making new ones.
pub const SPARE_BUFFERS: &str = "spare buffers";

/// A buffer beside a message as its receiver read it: bytes, or 4-byte
/// words, which an array of f32 then takes over as it is (a long text's
/// head is megabytes, each copy of them a few milliseconds in the page).
pub enum Buffer {
    Bytes(Vec<u8>),
    Words(Vec<u32>),
}

/// Takes each buffer beside a message being encoded.
type Sink = Box<dyn FnMut(&[u8])>;

/// Where the buffers beside the message being encoded go, or whence those
/// of the message being decoded come.
enum Beside {
    /// Each buffer handed to the sink as it is encoded; how many so far.
    Out(Sink, usize),
    In(Vec<Buffer>),
}

thread_local! {
    static BESIDE: RefCell<Option<Beside>> = const { RefCell::new(None) };
}

/// `msg` as JSON and the buffers beside it (see the module's note).
pub fn to_json_and_buffers<M: Serialize>(msg: &M) -> serde_json::Result<(String, Vec<Vec<u8>>)> {
    let buffers = std::rc::Rc::new(RefCell::new(Vec::new()));
    let kept = buffers.clone();
    let json = to_json_sending_buffers(msg, move |bytes| kept.borrow_mut().push(bytes.to_vec()))?;
    Ok((json, buffers.take()))
}

/// `msg` as JSON, each buffer beside it handed to `sink` in order (the
/// worker copies it straight out of its memory into one it transfers).
pub fn to_json_sending_buffers<M: Serialize>(
    msg: &M,
    sink: impl FnMut(&[u8]) + 'static,
) -> serde_json::Result<String> {
    with_beside(Beside::Out(Box::new(sink), 0), || serde_json::to_string(msg))
}

/// The message [`to_json_and_buffers`] encoded.
pub fn from_json_and_buffers<M: DeserializeOwned>(
    json: &str,
    buffers: Vec<Vec<u8>>,
) -> serde_json::Result<M> {
    from_json_and_read_buffers(json, buffers.into_iter().map(Buffer::Bytes).collect())
}

/// [`from_json_and_buffers`], the buffers as the receiver read them.
pub fn from_json_and_read_buffers<M: DeserializeOwned>(
    json: &str,
    buffers: Vec<Buffer>,
) -> serde_json::Result<M> {
    with_beside(Beside::In(buffers), || serde_json::from_str(json))
}

/// Runs `f` with `beside` in place, and none after it.
fn with_beside<R>(
    beside: Beside,
    f: impl FnOnce() -> serde_json::Result<R>,
) -> serde_json::Result<R> {
    BESIDE.with(|b| *b.borrow_mut() = Some(beside));
    let result = f();
    BESIDE.with(|b| b.borrow_mut().take());
    result
}

pub fn serialize<T: Le, S: Serializer>(xs: &[T], s: S) -> Result<S::Ok, S::Error> {
    let bytes: &[u8] = bytemuck::cast_slice(xs);
    if bytes.len() >= BESIDE_MIN {
        let index = BESIDE.with(|b| match &mut *b.borrow_mut() {
            Some(Beside::Out(sink, count)) => {
                sink(bytes);
                *count += 1;
                Some(*count - 1)
            }
            _ => None,
        });
        if let Some(index) = index {
            return s.serialize_u64(index as u64);
        }
    }
    s.serialize_str(&STANDARD.encode(bytes))
}

pub fn deserialize<'de, T: Le, D: Deserializer<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    d.deserialize_any(Numbers(PhantomData))
}

struct Numbers<T>(PhantomData<T>);

impl<T: Le> Visitor<'_> for Numbers<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(
            "the base64 of little-endian numbers, or the index of a buffer beside the message",
        )
    }

    fn visit_str<E: Error>(self, text: &str) -> Result<Vec<T>, E> {
        numbers(&STANDARD.decode(text.as_bytes()).map_err(E::custom)?)
    }

    fn visit_u64<E: Error>(self, index: u64) -> Result<Vec<T>, E> {
        let buffer = BESIDE.with(|b| match &mut *b.borrow_mut() {
            // Taken, not copied: each buffer is read once.
            Some(Beside::In(buffers)) => buffers
                .get_mut(index as usize)
                .map(|b| std::mem::replace(b, Buffer::Bytes(Vec::new()))),
            _ => None,
        });
        match buffer.ok_or_else(|| E::custom(format!("no buffer {index} beside the message")))? {
            Buffer::Bytes(bytes) => numbers(&bytes),
            // f32 words become the array as they are; other sizes are copied.
            Buffer::Words(words) => bytemuck::allocation::try_cast_vec(words)
                .or_else(|(_, words)| numbers(bytemuck::cast_slice(&words))),
        }
    }
}

fn numbers<T: Le, E: Error>(bytes: &[u8]) -> Result<Vec<T>, E> {
    let size = std::mem::size_of::<T>();
    if !bytes.len().is_multiple_of(size) {
        return Err(E::custom(format!(
            "{} bytes are not a whole number of {size}-byte numbers",
            bytes.len()
        )));
    }
    // A copy of the bytes, whatever their alignment.
    Ok(bytemuck::pod_collect_to_vec(bytes))
}

#[cfg(test)]
mod tests {
    use crate::tensor::Matrix;

    #[test]
    fn a_matrix_crosses_json_exactly() {
        let m = Matrix::from_vec(
            2,
            3,
            vec![0.1, -0.0, f32::NEG_INFINITY, f32::MIN_POSITIVE, 3.4e38, f32::NAN],
        );
        let text = serde_json::to_string(&m).unwrap();
        assert_eq!(
            text,
            format!(
                r#"{{"rows":2,"cols":3,"data":"{}"}}"#,
                base64::Engine::encode(
                    &base64::engine::general_purpose::STANDARD,
                    m.data.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()
                )
            )
        );
        let back: Matrix = serde_json::from_str(&text).unwrap();
        assert_eq!((back.rows, back.cols), (2, 3));
        assert!(back.data.iter().zip(&m.data).all(|(a, b)| a.to_bits() == b.to_bits()));
        assert!(
            serde_json::from_str::<Matrix>(r#"{"rows":1,"cols":1,"data":"AAA="}"#).is_err(),
            "two bytes are no f32"
        );
    }

    #[test]
    fn large_arrays_go_beside_the_json_and_come_back_exactly() {
        let big =
            Matrix::from_vec(32, 40, (0..1280).map(|i| (i as f32).sin() / (i as f32)).collect());
        let small = Matrix::from_vec(1, 3, vec![1.0, f32::INFINITY, -2.5]);
        let (json, buffers) = super::to_json_and_buffers(&(big.clone(), small.clone())).unwrap();
        assert_eq!(buffers.len(), 1, "only the big one is beside: {json}");
        assert_eq!(buffers[0].len(), 1280 * 4);
        assert!(json.contains(r#""data":0"#), "{json}");
        let (b, s): (Matrix, Matrix) =
            super::from_json_and_buffers(&json, buffers.clone()).unwrap();
        assert!(b.data.iter().zip(&big.data).all(|(x, y)| x.to_bits() == y.to_bits()));
        assert_eq!(s, small);
        // Plain JSON is untouched by the buffers: base64 everywhere.
        let plain = serde_json::to_string(&big).unwrap();
        assert!(!plain.contains(r#""data":0"#));
        assert_eq!(serde_json::from_str::<Matrix>(&plain).unwrap().data.len(), 1280);
        // A missing buffer, or one of the wrong length, is an error, not a panic.
        assert!(super::from_json_and_buffers::<(Matrix, Matrix)>(&json, Vec::new()).is_err());
        assert!(super::from_json_and_buffers::<(Matrix, Matrix)>(&json, vec![vec![0; 7]]).is_err());
        // Read as words, the f32 arrays come back the same.
        let words =
            buffers.iter().map(|b| super::Buffer::Words(bytemuck::pod_collect_to_vec(b))).collect();
        let (w, _): (Matrix, Matrix) = super::from_json_and_read_buffers(&json, words).unwrap();
        assert!(w.data.iter().zip(&big.data).all(|(x, y)| x.to_bits() == y.to_bits()));
        // Sent to a sink, the same buffers in the same order.
        let sunk = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let into = sunk.clone();
        let sent = super::to_json_sending_buffers(&(big.clone(), small.clone()), move |b| {
            into.borrow_mut().push(b.to_vec())
        })
        .unwrap();
        assert_eq!((sent, sunk.take()), (json.clone(), buffers.clone()));
        // After an error nothing is left beside the next message.
        assert!(serde_json::from_str::<Matrix>(r#"{"rows":1,"cols":1,"data":0}"#).is_err());
    }
}
