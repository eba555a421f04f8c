//! The fuzz target `url`: its body is `attnscope_fuzz::url::run` (fuzz/src/url.rs),
//! which the test command also runs over the committed seeds (tests/fuzz_corpus.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| attnscope_fuzz::url::run(data));
