//! The All heads tab: the whole model, every layer's heads at once.

pub mod overview;
