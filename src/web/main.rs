//! attnscope's web app: a Leptos page that runs the core in the browser.
//!
//! Built with `trunk build --release` (see index.html and Trunk.toml); served
//! by `scripts/serve.sh`. The app only exists on wasm32, but `cargo test`
//! builds every binary natively too, so the native `main` just says where the
//! app is.
//!
//! - `shell/`: the page's layout and controls (bar, stage, panel, presets, offline);
//! - `views/`: what the stage shows, one folder per tab (`views/mod.rs`);
//! - `canvas/`: the kit every picture is drawn with;
//! - `state.rs`, `url_state.rs`: the state, provided by context and kept in the URL;
//! - `compute.rs`, `worker_client.rs`, `downloads.rs`: the worker and the exports;
//! - `i18n/`: the page's words in six languages, from the catalogs in `www/i18n/`;
//! - `hosted.rs`: the page inside a notebook or a standalone HTML file, showing its host's trace;
//! - `test_support.rs`: what the component tests share; each folder's tests
//!   are in a `tests.rs` beside its code.

// First, so that `tr!` is in scope in every module after it.
#[cfg(target_arch = "wasm32")]
#[macro_use]
mod i18n;
#[cfg(target_arch = "wasm32")]
mod canvas;
#[cfg(target_arch = "wasm32")]
mod compute;
#[cfg(target_arch = "wasm32")]
mod downloads;
#[cfg(target_arch = "wasm32")]
mod hosted;
#[cfg(target_arch = "wasm32")]
mod shell;
#[cfg(target_arch = "wasm32")]
mod state;
#[cfg(all(test, target_arch = "wasm32"))]
mod test_support;
#[cfg(target_arch = "wasm32")]
mod url_state;
#[cfg(target_arch = "wasm32")]
mod views;
#[cfg(target_arch = "wasm32")]
mod worker_client;

#[cfg(target_arch = "wasm32")]
fn main() {
    // A panic would otherwise only say "unreachable" in the console.
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(shell::app::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("attnscope-web is the browser app; build and open it with `scripts/serve.sh`.");
}
