//! The fuzz target `exports`: its body is `attnscope_fuzz::exports::run` (fuzz/src/exports.rs),
//! which the test command also runs over the committed seeds (tests/fuzz_corpus.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| attnscope_fuzz::exports::run(data));
