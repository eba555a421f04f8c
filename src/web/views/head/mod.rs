//! The Heatmap tab: one head as a heatmap (`heatmap.rs`), drawn through
//! `picture.rs`, and a second sentence for the same head beside it
//! (`compare.rs`).

pub mod compare;
pub mod heatmap;
pub mod picture;
#[cfg(test)]
mod tests;
