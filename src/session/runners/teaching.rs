//! The teaching model's runner: its switches go into its forward (the
//! positional encoding, and the scale: 1/√d_k, or the temperature factor
//! alone when unscaled); the temperature on top of 1/√d_k multiplies each
//! head's scale after the forward, as it always has (so the layer's ΔE is
//! the model's own).

use super::super::runner::{check_what_if, rescale, Ran, Runner};
use super::super::RunOptions;
use crate::attention::{Mask, Scale};
use crate::error::{Error, Result};
use crate::models::teaching::{TeachingModel, TeachingOptions};
use crate::trace::layered::Layered;
use crate::trace::ModelInfo;

/// The hand-designed model: built afresh for each run's switches.
pub struct Teaching;

impl Runner for Teaching {
    fn info(&self) -> ModelInfo {
        TeachingModel::new().info()
    }

    fn run(&mut self, text: &str, options: &RunOptions, _cached: bool) -> Result<Ran> {
        let scale = if options.unscaled {
            Scale::Factor(options.temperature_factor)
        } else {
            Scale::InvSqrtDk
        };
        let teaching = TeachingModel::with_options(TeachingOptions {
            positional_encoding: options.positional_encoding,
            mask: Mask::None,
            scale,
        });
        let head_notes =
            teaching.heads.iter().map(|h| format!("{}: {}", h.name, h.behaviour)).collect();
        let mut trace = teaching.run(text)?;
        if !options.unscaled && options.temperature_factor != 1.0 {
            rescale(&mut trace, options.temperature_factor);
        }
        check_what_if(&trace, options)?;
        Ok(Ran { head_notes, ..Ran::trace(trace) })
    }

    fn layered(&self) -> Result<&dyn Layered> {
        Err(Error::Invalid(
            "the teaching model is drawn by hand, without W_O or an output matrix: choose MiniLM or SmolLM2 for this analysis".into(),
        ))
    }
}
