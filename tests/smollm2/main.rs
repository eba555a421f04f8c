//! SmolLM2-135M end to end: one test binary, since each links the whole crate and the model, read
//! once (tests/common), serves them all. Each module's own comment says what it checks.

#[path = "../common/mod.rs"]
mod common;

mod bad_input;
mod generate;
mod patching;
mod reference;
