//! The fuzz target `ctranslate2`: its body is `attnscope_fuzz::ctranslate2::run` (fuzz/src/ctranslate2.rs),
//! which the test command also runs over the committed seeds (tests/fuzz_corpus.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| attnscope_fuzz::ctranslate2::run(data));
