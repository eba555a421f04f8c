//! What the stage shows: one component per view, each reading the page's
//! state from context, so a new view (cross-attention, a trace file's
//! heads) slots in as one more component.

pub mod axes;
pub mod beyond;
pub mod catalog;
pub mod compare;
pub mod detectors;
pub mod dotgrid;
pub mod explain;
pub mod heatmap;
pub mod knockout;
pub mod lesson;
pub mod lines;
pub mod logit_lens;
pub mod overview;
pub mod readout;
pub mod rollout;
pub mod stages;
pub mod switches;
pub mod translate;
pub mod translate_export;
pub mod translate_heatmap;
pub mod translate_lines;
pub mod translate_step;
pub mod vectors;
pub mod worked;
