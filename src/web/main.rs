//! attnscope's web app: a Leptos page that runs the core in the browser.
//!
//! Built with `trunk build --release` (see index.html and Trunk.toml); served
//! by `scripts/serve.sh`. The app only exists on wasm32, but `cargo test`
//! builds every binary natively too, so the native `main` just says where the
//! app is.

#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
mod catalog;
#[cfg(target_arch = "wasm32")]
mod compare;
#[cfg(target_arch = "wasm32")]
mod compute;
#[cfg(target_arch = "wasm32")]
mod dotgrid;
#[cfg(target_arch = "wasm32")]
mod downloads;
#[cfg(target_arch = "wasm32")]
mod explain;
#[cfg(target_arch = "wasm32")]
mod heatmap;
#[cfg(target_arch = "wasm32")]
mod lessons;
#[cfg(target_arch = "wasm32")]
mod lines;
#[cfg(target_arch = "wasm32")]
mod overview;
#[cfg(all(test, target_arch = "wasm32"))]
mod tests;
#[cfg(target_arch = "wasm32")]
mod url_state;
#[cfg(target_arch = "wasm32")]
mod worked;
#[cfg(target_arch = "wasm32")]
mod worker_client;

#[cfg(target_arch = "wasm32")]
fn main() {
    // A panic would otherwise only say "unreachable" in the console.
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("attnscope-web is the browser app; build and open it with `scripts/serve.sh`.");
}
