//! The fuzz target `safetensors`: its body is `attnscope_fuzz::safetensors::run` (fuzz/src/safetensors.rs),
//! which the test command also runs over the committed seeds (tests/fuzz_corpus.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| attnscope_fuzz::safetensors::run(data));
