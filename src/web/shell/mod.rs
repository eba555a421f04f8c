//! The page around the pictures: the control bar, the stage with its tabs
//! and tokens, the side panel, presets and offline use.

pub mod app;
pub mod classroom;
pub mod controls;
pub mod offline;
pub mod open_model;
pub mod open_trace;
pub mod page_state;
pub mod panel;
pub mod presets;
#[cfg(test)]
mod tests;

/// A download's size as the page writes it, in the page's decimal sign.
pub fn megabytes(bytes: u64) -> String {
    format!("{} MB", crate::views::common::format::fixed(bytes as f64 / 1_000_000.0, 1))
}
