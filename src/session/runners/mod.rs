//! One runner per model kind ([`super::runner::Runner`]), each in its file,
//! and their registration: which kind runs which [`ModelId`], and how a
//! model's downloaded files become its runner.
//!
//! **Adding a model kind is one runner and one registration**: a file here
//! implementing `Runner` (its run applies the [`RunOptions`] itself), its
//! `mod` line below behind the feature it needs, and its arm in
//! [`from_files`] (a model downloaded as files) or an `install_…` of the
//! session (a model built elsewhere, or opened by the visitor). The session's
//! run, its analyses and the worker's messages then reach it by its
//! `ModelId` without knowing its kind.
//!
//! [`RunOptions`]: super::RunOptions

#[cfg(feature = "pretrained")]
pub mod decoder;
#[cfg(feature = "pretrained")]
pub mod encoder;
#[cfg(feature = "extras")]
pub mod listener;
pub mod teaching;
#[cfg(any(feature = "extras", feature = "tracefile"))]
pub mod trace_file;
#[cfg(feature = "extras")]
pub mod translator;

#[cfg(feature = "pretrained")]
use super::runner::not_loaded;
use super::runner::{Runner, Runners};
use crate::error::{Error, Result};
use crate::trace::ModelId;

/// The runners every session starts with: the teaching model, which needs
/// no files, and (where trace files are built) an empty trace file.
pub(super) fn built_in() -> Runners {
    let mut runners = Runners::new();
    runners.insert(ModelId::Teaching, Box::new(teaching::Teaching) as Box<dyn Runner>);
    #[cfg(any(feature = "extras", feature = "tracefile"))]
    runners.insert(ModelId::Trace, Box::new(trace_file::TraceFile::closed()));
    runners
}

/// The runner of `model` from its downloaded files (in `ModelId::files()` order).
#[cfg_attr(not(feature = "pretrained"), allow(unused_variables))]
pub(super) fn from_files(model: ModelId, files: &[Vec<u8>]) -> Result<Option<Box<dyn Runner>>> {
    #[cfg(feature = "pretrained")]
    let file = |i: usize| {
        files.get(i).map(Vec::as_slice).ok_or_else(|| {
            Error::ModelFile(format!("{} needs {} files", model.slug(), model.files().len()))
        })
    };
    let runner: Box<dyn Runner> = match model {
        ModelId::Teaching => return Ok(None),
        #[cfg(feature = "pretrained")]
        ModelId::MiniLm => Box::new(encoder::EncoderRunner::minilm(
            crate::checkpoint::minilm::MiniLm::from_bytes(file(0)?, file(1)?, file(2)?)?,
        )),
        #[cfg(feature = "pretrained")]
        ModelId::SmolLm2 => Box::new(decoder::DecoderRunner::new(
            crate::checkpoint::smollm2::SmolLm2::from_gguf_bytes(file(0)?)?,
        )),
        #[cfg(feature = "extras")]
        ModelId::TranslateEnPt | ModelId::TranslatePtEn => {
            Box::new(translator::TranslatorRunner::from_files(model, files)?)
        }
        #[cfg(feature = "extras")]
        ModelId::Whisper => Box::new(listener::Listener::from_files(files)?),
        ModelId::Custom => {
            return Err(Error::Invalid(
                "a model of your own is opened from its files (`Session::install_custom`)".into(),
            ))
        }
        #[cfg(feature = "extras")]
        ModelId::Trace => {
            return Err(Error::Invalid(
                "a trace file is opened with \"Open a trace…\", not downloaded".into(),
            ))
        }
        #[cfg(not(feature = "extras"))]
        _ => return Err(not_built(model)),
    };
    #[allow(unreachable_code)] // without the real models every arm returns
    Ok(Some(runner))
}

/// Why `model` has no runner to run: not loaded yet, or not in this build.
pub(super) fn missing(model: ModelId) -> Error {
    match model {
        ModelId::Trace => {
            Error::Invalid("a trace file is read, not run: open it with \"Open a trace…\"".into())
        }
        #[cfg(feature = "pretrained")]
        ModelId::MiniLm | ModelId::SmolLm2 => not_loaded(model),
        #[cfg(feature = "extras")]
        ModelId::Custom | ModelId::TranslateEnPt | ModelId::TranslatePtEn | ModelId::Whisper => {
            not_loaded(model)
        }
        _ => not_built(model),
    }
}

/// Why the analyses beyond the weights cannot run on `model`, which has no runner.
pub(super) fn missing_for_analyses(model: ModelId) -> Error {
    match model {
        #[cfg(feature = "pretrained")]
        ModelId::MiniLm | ModelId::SmolLm2 => not_loaded(model),
        #[cfg(feature = "extras")]
        ModelId::Custom => not_loaded(model),
        #[cfg(feature = "pretrained")]
        _ => super::runner::no_analyses(model),
        #[cfg(not(feature = "pretrained"))]
        _ => not_built(model),
    }
}

fn not_built(model: ModelId) -> Error {
    Error::Invalid(format!(
        "the {} model is not part of this build (features `pretrained` and `extras`)",
        model.slug()
    ))
}
