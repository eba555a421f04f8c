//! A translator's runner, one per direction: a run translates the text
//! with every attention kept. The encoder's self-attention becomes the run's
//! trace (so the heatmap, dot grids, all-heads and step-by-step views show
//! it as they show any encoder), and the decoder's cross-attention travels
//! beside it as a [`TranslationSummary`] for the translation views. The
//! scaling switches are a what-if on the encoder's heads, applied within the run.

use super::super::messages::{CrossHead, TranslationSummary};
use super::super::runner::{apply_what_if, no_analyses, Ran, Runner};
use super::super::RunOptions;
use crate::attention::Mask;
use crate::error::{Error, Result};
use crate::models::marian::{Direction, Stop, Translation, Translator, MODEL_LICENSE, PROVENANCE};
use crate::tensor::Matrix;
use crate::trace::layered::Layered;
use crate::trace::ModelId;
use crate::trace::{ModelInfo, ModelTrace};

/// A loaded translation model and the direction it translates.
pub struct TranslatorRunner {
    model: ModelId,
    translator: Translator,
}

impl TranslatorRunner {
    /// Parses the model file, `tokenizer.json` and `shortlist.bin`, in `ModelId::files()` order.
    pub fn from_files(model: ModelId, files: &[Vec<u8>]) -> Result<Self> {
        let d = match model {
            ModelId::TranslateEnPt => Direction::EnPt,
            ModelId::TranslatePtEn => Direction::PtEn,
            _ => {
                return Err(Error::Invalid(format!("{} is not a translation model", model.slug())))
            }
        };
        let [m, tokenizer, shortlist] = files else {
            return Err(Error::ModelFile(format!(
                "{} needs 3 files, got {}",
                model.slug(),
                files.len()
            )));
        };
        Ok(Self { model, translator: Translator::from_bytes(d, m, tokenizer, Some(shortlist))? })
    }

    /// Translates `text`: the encoder's self-attention as a trace, and the translation.
    /// Empty text gives empty pictures and a notice, as the other models do.
    fn translate(&self, text: &str) -> Result<(ModelTrace, TranslationSummary)> {
        let t = &self.translator;
        let info = encoder_info(t, self.model);
        if text.trim().is_empty() {
            let summary = TranslationSummary {
                notices: vec!["There is nothing to translate: type a sentence.".into()],
                provenance: PROVENANCE.into(),
                license: MODEL_LICENSE.into(),
                ..Default::default()
            };
            return Ok((ModelTrace::empty(info), summary));
        }
        let translation = t.translate(text)?;
        let summary = summarize(&translation, t.info().d_head);
        let trace = ModelTrace {
            info,
            tokens: translation.source_tokens.clone(),
            token_ids: Some(translation.source_ids.clone()),
            notice: (!translation.notices.is_empty()).then(|| translation.notices.join(" ")),
            layers: translation.encoder,
            sentence_embedding: None,
            top_next: None,
        };
        Ok((trace, summary))
    }
}

impl Runner for TranslatorRunner {
    fn info(&self) -> ModelInfo {
        encoder_info(&self.translator, self.model)
    }

    fn run(&mut self, text: &str, options: &RunOptions, _cached: bool) -> Result<Ran> {
        let (mut trace, translation) = self.translate(text)?;
        apply_what_if(&mut trace, options)?;
        Ok(Ran { translation: Some(Box::new(translation)), ..Ran::trace(trace) })
    }

    fn layered(&self) -> Result<&dyn Layered> {
        Err(no_analyses(self.model))
    }
}

/// The encoder, described as the models of the other views are.
fn encoder_info(t: &Translator, model: ModelId) -> ModelInfo {
    let i = t.info();
    ModelInfo {
        id: model.slug().into(),
        name: format!("{} (encoder)", i.name),
        n_layers: i.encoder_layers,
        n_heads: i.heads,
        n_kv_heads: i.heads,
        d_model: i.d_model,
        d_head: i.d_head,
        mask: Mask::None,
        max_tokens: i.max_source_tokens,
    }
}

fn summarize(t: &Translation, d_head: usize) -> TranslationSummary {
    let heads: Vec<Vec<CrossHead>> = t
        .context
        .iter()
        .map(|layer| {
            let a = &layer.attention;
            a.heads
                .iter()
                .enumerate()
                .map(|(h, head)| CrossHead {
                    q: a.q[h].clone(),
                    k: a.k[a.kv_head_of[h]].clone(),
                    v: a.v[a.kv_head_of[h]].clone(),
                    scores: head.scores.clone(),
                    weights: head.weights.clone(),
                    output: head.output.clone(),
                })
                .collect()
        })
        .collect();
    let layer_mean = heads
        .iter()
        .filter_map(|l| Matrix::mean_of(&l.iter().map(|c| &c.weights).collect::<Vec<_>>()))
        .collect();
    let all: Vec<_> = heads.iter().flatten().map(|c| &c.weights).collect();
    TranslationSummary {
        source_tokens: t.source_tokens.clone(),
        target_tokens: t.target_tokens.clone(),
        translation: t.text.clone(),
        mean: Matrix::mean_of(&all),
        layer_mean,
        heads,
        scale: 1.0 / (d_head as f32).sqrt(),
        top: t.top.clone(),
        length_limit: t.stop == Stop::LengthLimit,
        notices: t.notices.clone(),
        provenance: PROVENANCE.into(),
        license: MODEL_LICENSE.into(),
    }
}

#[cfg(test)]
mod tests {
    use crate::session::{FromWorker, ModelId, RunOptions, Session, ToWorker};

    fn files(model: ModelId) -> Option<Vec<Vec<u8>>> {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("www/models").join(model.slug());
        model.files().iter().map(|f| std::fs::read(dir.join(&f.name)).ok()).collect()
    }

    #[test]
    fn a_run_translates_and_keeps_every_attention() {
        let model = ModelId::TranslateEnPt;
        let Some(files) = files(model) else {
            eprintln!("skipped: run scripts/fetch_models.py translate-enpt");
            return;
        };
        let mut s = Session::new();
        s.install(model, files).unwrap();
        assert!(s.is_loaded(model) && !s.is_loaded(ModelId::TranslatePtEn));
        let text = "a fluffy blue creature roamed the verdant forest";
        let msg = ToWorker::Run { id: 3, model, text: text.into(), options: RunOptions::default() };
        let msg: ToWorker = serde_json::from_str(&serde_json::to_string(&msg).unwrap()).unwrap();
        let FromWorker::Result(r) = s.handle(msg, &|| 0.0) else { panic!("expected a result") };
        let r: crate::session::RunSummary =
            serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
        let t = r.translation.as_deref().expect("a translation");
        assert_eq!(t.translation, "uma criatura azul fofa vagueou a floresta verdejante");
        assert_eq!(r.tokens, t.source_tokens);
        assert_eq!((r.info.n_layers, r.info.n_heads, r.overview.len()), (6, 8, 6));
        assert_eq!((t.heads.len(), t.heads[0].len()), (2, 8));
        let (n_t, n_s) = (t.target_tokens.len(), t.source_tokens.len());
        for w in
            t.heads.iter().flatten().map(|c| &c.weights).chain(&t.layer_mean).chain(t.mean.as_ref())
        {
            assert_eq!(w.shape(), (n_t, n_s));
            for i in 0..n_t {
                let sum: f32 = (0..n_s).map(|j| w[(i, j)]).sum();
                assert!((sum - 1.0).abs() < 1e-4, "row {i} sums to {sum}");
            }
        }
        let c = &t.heads[1][3];
        // Σ a·v of a row is that row's output.
        let z = c.weights.matmul(&c.v);
        assert!(z.max_abs_diff(&c.output) < 1e-5);
        assert_eq!(t.weights(Some(1), Some(3)).unwrap(), c.weights);
        // The export: the CLI's field names, every cross-attention head's weights.
        let json: serde_json::Value =
            serde_json::from_str(&t.export_json(model, text).unwrap()).unwrap();
        assert_eq!(
            (json["model"].as_str(), json["from"].as_str(), json["to"].as_str()),
            (Some("translate-enpt"), Some("en"), Some("pt"))
        );
        assert_eq!(json["translation"], t.translation.as_str());
        assert_eq!(json["stop"], "end_of_sentence");
        let cross: Vec<Vec<Vec<Vec<f32>>>> =
            serde_json::from_value(json["cross_attentions"].clone()).unwrap();
        assert_eq!((cross.len(), cross[1].len()), (t.heads.len(), t.heads[1].len()));
        assert_eq!(cross[1][3], c.weights.to_rows());
        assert!(json.get("encoder_attentions").is_none() && json.get("source_ids").is_none());
        assert_eq!(t.export_json(ModelId::MiniLm, text), None);
        // The encoder's heads are the run's heads.
        let d = s.head(5, 2).unwrap();
        assert_eq!(d.weights.shape(), (n_s, n_s));
        // Empty text: empty pictures and a notice, not an error.
        let FromWorker::Result(r) = s.handle(
            ToWorker::Run { id: 4, model, text: "  ".into(), options: RunOptions::default() },
            &|| 0.0,
        ) else {
            panic!("expected a result")
        };
        assert!(r.tokens.is_empty());
        assert!(r.translation.unwrap().notices[0].contains("nothing to translate"));
        // The other direction is not loaded: a clear message.
        let FromWorker::Failed { message, .. } = s.handle(
            ToWorker::Run {
                id: 5,
                model: ModelId::TranslatePtEn,
                text: "olá".into(),
                options: RunOptions::default(),
            },
            &|| 0.0,
        ) else {
            panic!("expected a failure")
        };
        assert!(message.contains("not loaded"), "{message}");
    }

    #[test]
    fn wrong_files_are_a_clear_error() {
        let mut s = Session::new();
        let e = s.install(ModelId::TranslateEnPt, vec![vec![1, 2, 3]]).unwrap_err();
        assert!(e.to_string().contains("3 files"), "{e}");
        let e = s
            .install(ModelId::TranslateEnPt, vec![vec![0; 64], b"{}".to_vec(), vec![]])
            .unwrap_err();
        assert!(!e.to_string().is_empty());
        assert!(!s.is_loaded(ModelId::TranslateEnPt));
    }
}
