//! The fuzz target `gguf`: its body is `attnscope_fuzz::gguf::run` (fuzz/src/gguf.rs),
//! which the test command also runs over the committed seeds (tests/fuzz_corpus.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| attnscope_fuzz::gguf::run(data));
