//! Numbers that cross between the page and its worker as the base64 of
//! their little-endian bytes (`#[serde(with = "crate::tensor::base64_le")]`):
//! [`Matrix`](super::Matrix) data, and the overview's 16-bit thumbnail levels.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde::{de::Error, Deserialize, Deserializer, Serializer};

/// A number with a fixed-size little-endian form.
pub trait Le: Sized {
    const BYTES: usize;
    fn put(&self, out: &mut Vec<u8>);
    fn get(bytes: &[u8]) -> Self;
}

impl Le for f32 {
    const BYTES: usize = 4;
    fn put(&self, out: &mut Vec<u8>) {
        out.extend(self.to_le_bytes());
    }
    fn get(b: &[u8]) -> Self {
        f32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }
}

impl Le for u16 {
    const BYTES: usize = 2;
    fn put(&self, out: &mut Vec<u8>) {
        out.extend(self.to_le_bytes());
    }
    fn get(b: &[u8]) -> Self {
        u16::from_le_bytes([b[0], b[1]])
    }
}

pub fn serialize<T: Le, S: Serializer>(xs: &[T], s: S) -> Result<S::Ok, S::Error> {
    let mut bytes = Vec::with_capacity(xs.len() * T::BYTES);
    xs.iter().for_each(|x| x.put(&mut bytes));
    s.serialize_str(&STANDARD.encode(bytes))
}

pub fn deserialize<'de, T: Le, D: Deserializer<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    let text = <std::borrow::Cow<str>>::deserialize(d)?;
    let bytes = STANDARD.decode(text.as_bytes()).map_err(D::Error::custom)?;
    if bytes.len() % T::BYTES != 0 {
        return Err(D::Error::custom(format!("{} bytes are not a whole number of {}-byte numbers", bytes.len(), T::BYTES)));
    }
    Ok(bytes.chunks_exact(T::BYTES).map(T::get).collect())
}

#[cfg(test)]
mod tests {
    use crate::tensor::Matrix;

    #[test]
    fn a_matrix_crosses_json_exactly() {
        let m = Matrix::from_vec(2, 3, vec![0.1, -0.0, f32::NEG_INFINITY, f32::MIN_POSITIVE, 3.4e38, f32::NAN]);
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
        assert!(serde_json::from_str::<Matrix>(r#"{"rows":1,"cols":1,"data":"AAA="}"#).is_err(), "two bytes are no f32");
    }
}
