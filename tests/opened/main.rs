//! Models opened from files, as the worker holds them: one test binary, since each links the whole
//! crate. Each module's own comment says what it checks.

mod session;
mod writing;
