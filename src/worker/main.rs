//! The page's Web Worker: all computation happens here, so typing never
//! waits for a model. It is a thin shell over [`attnscope::session::Session`]:
//! JSON messages in, JSON messages out.
//!
//! Requests are coalesced: of the runs, head details, comparisons… that
//! arrive while one is being computed, only the newest of each kind is
//! computed next (`session::Pending`; the page drops stale replies anyway).

#[cfg(all(target_arch = "wasm32", feature = "extras"))]
mod blob_source;
#[cfg(target_arch = "wasm32")]
mod fetch;
#[cfg(target_arch = "wasm32")]
mod held;
#[cfg(all(target_arch = "wasm32", feature = "extras"))]
mod hosted;
#[cfg(target_arch = "wasm32")]
mod kept;
#[cfg(all(target_arch = "wasm32", feature = "extras"))]
mod open_files;
#[cfg(target_arch = "wasm32")]
mod shell;
#[cfg(target_arch = "wasm32")]
mod spare;
#[cfg(target_arch = "wasm32")]
mod two_threads;

/// This wasm instance's memory, which only grows (so also its peak).
#[cfg(target_arch = "wasm32")]
fn wasm_memory_bytes() -> u64 {
    use wasm_bindgen::JsCast;
    wasm_bindgen::memory()
        .unchecked_into::<js_sys::WebAssembly::Memory>()
        .buffer()
        .unchecked_into::<js_sys::ArrayBuffer>()
        .byte_length() as u64
}

#[cfg(target_arch = "wasm32")]
pub fn main() {
    shell::start();
}

#[cfg(not(target_arch = "wasm32"))]
pub fn main() {
    eprintln!("attnscope-worker is the page's Web Worker; it is built for the browser by `trunk build` (see README.md).");
}
