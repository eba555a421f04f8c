//! The tiny random checkpoints of every architecture (tests/fixtures/tiny/): one test binary, since
//! each links the whole crate. Each module's own comment says what it checks.

#[path = "../common/mod.rs"]
mod common;

mod bad_input;
mod reference;
