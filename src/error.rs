//! Errors a user can cause (bad text, a bad or missing model file) become an
//! [`Error`] with a sentence fit to show in the page or the terminal; the
//! library never panics on input.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// A model file is missing, truncated, corrupted or of the wrong kind.
    ModelFile(String),
    /// The tokenizer could not process the text or could not be built.
    Tokenizer(String),
    /// The request itself is wrong (unknown layer, head, preset, …).
    Invalid(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::ModelFile(m) => write!(f, "model file problem: {m}"),
            Error::Tokenizer(m) => write!(f, "tokenizer problem: {m}"),
            Error::Invalid(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
