//! The fuzz target `session`: its body is `attnscope_fuzz::session::run` (fuzz/src/session.rs),
//! which the test command also runs over the committed seeds (tests/fuzz_corpus.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| attnscope_fuzz::session::run(data));
