use std::fmt;

/// Why a trace file cannot be read (or written), in a sentence fit for the
/// page or the terminal. The kind lets a caller (and a test) tell them apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceFileError {
    /// Not a safetensors file at all (a picture, a text file, random bytes).
    NotSafetensors(String),
    /// A safetensors file, but not an attnscope trace (model weights, say).
    NotATrace(String),
    /// Written in a newer major version of the format than this build reads.
    NewerVersion { found: String },
    /// The file ends before what its header promises.
    Truncated(String),
    /// The file breaks a rule of the format (bad description, wrong shape,
    /// a weight that is not a number, bytes after the last tensor).
    Corrupted(String),
    /// The request does not fit the file (a layer or head it does not have),
    /// or the model trace cannot be written as a trace file.
    Invalid(String),
    /// The bytes could not be read or written (the message says which).
    Io(String),
}

impl fmt::Display for TraceFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotSafetensors(m) => write!(f, "not a trace file: {m}"),
            Self::NotATrace(m) => write!(f, "not an attnscope trace: {m}"),
            Self::NewerVersion { found } => write!(
                f,
                "this trace file has format version {found}, newer than this attnscope reads ({}.x): update attnscope to open it",
                super::MAJOR_VERSION
            ),
            Self::Truncated(m) => write!(f, "the trace file is cut short: {m}"),
            Self::Corrupted(m) => write!(f, "the trace file is damaged: {m}"),
            Self::Invalid(m) => write!(f, "{m}"),
            Self::Io(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for TraceFileError {}

impl From<TraceFileError> for crate::Error {
    fn from(e: TraceFileError) -> Self {
        crate::Error::Invalid(e.to_string())
    }
}
