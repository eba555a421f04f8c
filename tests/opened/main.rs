//! Models opened from files, as the worker holds them, in one test binary: each binary links the whole crate and
//! loads its models once, so the files below share one link and one load.
//! Each module's own comment says what it checks.

mod session;
mod writing;
