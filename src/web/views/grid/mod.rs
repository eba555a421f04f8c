//! The Dot grid tab: the unmasked and the causally masked grid of one head.

pub mod dotgrid;
