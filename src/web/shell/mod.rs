//! The page around the pictures: the control bar, the stage with its tabs
//! and tokens, the side panel, presets and offline use.

pub mod app;
pub mod controls;
pub mod offline;
pub mod open_model;
pub mod open_trace;
pub mod panel;
pub mod presets;
