//! What the stage shows: one folder per tab, each reading the page's state
//! from context, so a new view (cross-attention, a trace file's heads)
//! slots in as one more component.
//!
//! - `head/`: the heatmap of one head (and a second sentence beside it);
//! - `grid/`: the dot grids;
//! - `model/`: the whole model, every head at once (all heads);
//! - `explain/`: step by step, with the lines and the lessons' switches;
//! - `space/`: the Q·K space, a head's queries and keys as points of one plane;
//! - `catalog/`: the head catalog, find heads and the detectors;
//! - `beyond/`: beyond the weights: value norms, rollout, logit lens, knockout;
//! - `lesson/`: the guided lesson, which shows the other tabs' pictures;
//! - `worked/`: seed 003's worked example;
//! - `translation/`: a translation model's cross-attention;
//! - `speech/`: a clip heard by Whisper, its cross-attention over the sound;
//! - `image/`: a vision trace's attention over its picture's patches;
//! - `write/`: writing: the card in the rail, the step's bars, the timeline;
//! - `common/`: what several tabs share (axes, cells, stages, readout, numbers).
//!
//! Tabs use `common/` and each other's components (the lesson shows the
//! heatmap, the dot grids…) without circles: `common/` uses no tab.

pub mod beyond;
pub mod catalog;
pub mod common;
pub mod explain;
pub mod grid;
pub mod head;
pub mod image;
pub mod lesson;
pub mod model;
pub mod space;
pub mod speech;
pub mod translation;
pub mod worked;
pub mod write;
