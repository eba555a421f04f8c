//! What several tabs share: how a head's cells lie on a picture (`axes.rs`),
//! the pointer and keys on a grid of cells (`cells.rs`), the steps from
//! scores to weights (`stages.rs`), the readout of a cell (`readout.rs`),
//! how numbers are written (`format.rs`) and points of a plane in a box
//! (`plane.rs`).

pub mod axes;
pub mod cells;
pub mod format;
pub mod plane;
pub mod readout;
pub mod stages;
