//! The fuzz target `tokenizer`: its body is `attnscope_fuzz::tokenizer::run` (fuzz/src/tokenizer.rs),
//! which the test command also runs over the committed seeds (tests/fuzz_corpus.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| attnscope_fuzz::tokenizer::run(data));
