//! The command-line tool end to end: one test binary, since each links the whole crate. Each
//! module's own comment says what it checks.

#[path = "../common/mod.rs"]
mod common;

#[cfg(feature = "classroom")]
mod classroom;
mod commands;
mod generate;
