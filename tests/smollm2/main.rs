//! SmolLM2-135M end to end, in one test binary: each binary links the whole crate and
//! loads its models once, so the files below share one link and one load.
//! Each module's own comment says what it checks.

#[path = "../common/mod.rs"]
mod common;

mod bad_input;
mod generate;
mod reference;
