//! Trace files (src/tracefile/): one test binary, since each links the whole crate. Each module's
//! own comment says what it checks.

#[path = "../common/mod.rs"]
mod common;

mod bad;
mod cli;
mod python;
mod smollm2;
mod vision;
