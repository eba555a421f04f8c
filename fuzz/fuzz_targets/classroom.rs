//! The fuzz target `classroom`: its body is `attnscope_fuzz::classroom::run` (fuzz/src/classroom.rs),
//! which the test command also runs over the committed seeds (tests/fuzz_corpus.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| attnscope_fuzz::classroom::run(data));
