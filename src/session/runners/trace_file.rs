//! A trace file's runner (docs/trace-format.md): the page's views answered
//! from the file instead of a model. The header is read on
//! opening; a head's bytes only when a view asks for that head, so a trace
//! larger than memory opens (in the browser the bytes come through
//! `Blob.slice`, `src/worker/blob_source.rs`).

use super::super::runner::{Held, Ran, Runner};
use super::super::{
    FromWorker, HeadDetail, Latest, ModelId, RunOptions, RunSummary, Session, Thumbnail, ToWorker,
    VisionSummary, EXPORT_MAX_WEIGHTS,
};
use crate::analysis::rollout::roll;
use crate::analysis::{head_stats, HeadMatch, HeadStats};
use crate::attention::{apply_mask, softmax_rows, Mask};
use crate::tensor::Matrix;
use crate::trace::layered::Layered;
use crate::trace::ModelInfo;
use crate::trace::THUMB_MAX;
use crate::tracefile::{ByteSource, MaskSpec, TraceFileError, TraceReader};

/// Above this many bytes of weights the summary skips the head catalog,
/// which needs every head's full A (the overview uses the stored thumbnails).
pub const CATALOG_MAX_BYTES: u64 = 128 << 20;

impl ByteSource for Box<dyn ByteSource> {
    fn size(&self) -> u64 {
        (**self).size()
    }

    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        (**self).read_at(offset, buf)
    }
}

/// The trace file the session holds.
pub struct OpenTrace {
    reader: TraceReader<Box<dyn ByteSource>>,
    /// The overview and catalog, read once.
    overview: Option<(Vec<Vec<Thumbnail>>, Vec<HeadStats>)>,
    /// A vision trace's picture and grid, read once.
    vision: Option<Box<VisionSummary>>,
}

type Result<T> = std::result::Result<T, TraceFileError>;

impl OpenTrace {
    /// Reads and checks the header only.
    pub fn open(source: Box<dyn ByteSource>) -> Result<Self> {
        Ok(Self { reader: TraceReader::open(source)?, overview: None, vision: None })
    }

    /// What the page learns about the run: tokens, the overview, the catalog.
    /// The session sets its id and time.
    fn summary(&mut self, options_changed: bool) -> Result<RunSummary> {
        let d = self.reader.description().clone();
        let weights_bytes = self.weight_bytes();
        let catalog_skipped = weights_bytes > CATALOG_MAX_BYTES;
        let has_qk = self.reader.index().has_all_queries_keys();
        let info = self.info();
        if self.overview.is_none() {
            self.overview = Some(self.read_overview(catalog_skipped)?);
        }
        let (overview, catalog) = self.overview.clone().unwrap_or_default();
        if let (Some(grid), None) = (d.patches, &self.vision) {
            let image = self.reader.image()?.ok_or_else(|| {
                TraceFileError::Corrupted("it has a patch grid but no image".into())
            })?;
            let (width, height, rgb) = (image.width, image.height, image.rgb);
            self.vision = Some(Box::new(VisionSummary { grid, width, height, rgb }));
        }
        let mut notes = vec![format!(
            "Trace file{}: its text is fixed; typing, comparing and the switches need a live model.",
            d.writer.as_ref().map(|w| format!(" written by {w}")).unwrap_or_default()
        )];
        if let Some(grid) = d.patches {
            notes.push(format!(
                "A vision trace: {} × {} patches of its picture and {} other tokens; the Image tab draws a query's attention over the picture.",
                grid.rows,
                grid.cols,
                d.tokens.len() - grid.patches()
            ));
        }
        if !has_qk {
            notes.push("It holds no queries and keys: only the weights A are shown, under the trace's own mask.".into());
        }
        if catalog_skipped {
            notes.push(format!(
                "The head catalog is left out: it needs every head's full weights ({:.0} MB here).",
                weights_bytes as f64 / 1e6
            ));
        }
        if options_changed {
            notes.push("The switches do not apply: the numbers are the trace's as stored.".into());
        }
        Ok(RunSummary {
            id: 0,
            info,
            tokens: d.tokens.clone(),
            token_ids: d.token_ids.clone(),
            notice: Some(notes.join(" ")),
            overview,
            kv_head_of: (0..d.n_heads).map(|h| d.kv_head_of(h)).collect(),
            catalog,
            head_notes: Vec::new(),
            top_next: d
                .top_next
                .as_ref()
                .map(|top| top.iter().map(|t| (t.token.clone(), t.probability)).collect()),
            sentence_embedding_norm: None,
            compute_ms: 0.0,
            memory_bytes: None,
            memory_workers: 1,
            threads: 1,
            alone: None,
            translation: None,
            written: None,
            vision: self.vision.clone(),
        })
    }

    /// The model the trace was written from, as the page describes it.
    fn info(&self) -> ModelInfo {
        let d = self.reader.description();
        let index = self.reader.index();
        ModelInfo {
            id: ModelId::Trace.slug().into(),
            name: d.model.name.clone(),
            n_layers: d.n_layers,
            n_heads: d.n_heads,
            n_kv_heads: d.n_kv_heads,
            d_model: 0,
            d_head: index.d_head(0).unwrap_or(0),
            mask: d.uniform_mask().and_then(MaskSpec::core).unwrap_or(Mask::Causal),
            max_tokens: d.tokens.len(),
        }
    }

    /// The bytes every layer's weights take in the file.
    fn weight_bytes(&self) -> u64 {
        let index = self.reader.index();
        (0..index.n_layers()).filter_map(|l| index.layer_attention(l).ok()).map(|s| s.len).sum()
    }

    /// The thumbnails (stored, else pooled a layer at a time) and, unless
    /// skipped, every head's measures, from one pass over the weights.
    fn read_overview(
        &mut self,
        skip_catalog: bool,
    ) -> Result<(Vec<Vec<Thumbnail>>, Vec<HeadStats>)> {
        let stored = self.reader.index().thumbnails().is_some();
        let mut thumbnails = if stored { self.reader.thumbnails()? } else { Vec::new() };
        let mut catalog = Vec::new();
        if !stored || !skip_catalog {
            for l in 0..self.reader.index().n_layers() {
                let heads = self.reader.layer_attention(l)?;
                if !stored {
                    thumbnails.push(
                        heads
                            .iter()
                            .map(|a| Thumbnail::new(&crate::trace::pool(a, THUMB_MAX)))
                            .collect(),
                    );
                }
                if !skip_catalog {
                    catalog.extend(heads.iter().enumerate().map(|(h, a)| head_stats(a, l, h)));
                }
            }
        }
        Ok((thumbnails, catalog))
    }

    /// One head: its weights, and with the stored queries and keys the
    /// scores and a what-if mask; the rest of a head's detail (V, the
    /// residual stream) is not in a trace file and is left empty.
    fn head(&mut self, id: u64, layer: usize, head: usize) -> Result<HeadDetail> {
        let weights = self.reader.attention(layer, head)?;
        let d = self.reader.description();
        let kv_head = d.kv_head_of(head);
        let spec = d.mask(layer);
        let scale = d.queries_keys.as_ref().map(|qk| qk.scale);
        let mask = spec.core().unwrap_or(Mask::None);
        let (q, k) = (self.reader.queries(layer, head)?, self.reader.keys(layer, kv_head)?);
        let empty = || Matrix::zeros(0, 0);
        let (scores, q, k, scale, what_if_mask, what_if_weights) = match (q, k, scale, spec.core())
        {
            (Some(q), Some(k), Some(scale), Some(_)) => {
                let scores = q.matmul_t(&k); // S = Q Kᵀ, T × T
                let what_if = if mask == Mask::None { Mask::Causal } else { Mask::None };
                let what_if_weights = softmax_rows(apply_mask(scores.map(|s| s * scale), what_if)); // softmax(S·scale + M'), T × T
                (scores, q, k, scale, what_if, what_if_weights)
            }
            // Without Q and K nothing can be recomputed: both grids show the stored weights.
            (q, k, scale, _) => (
                empty(),
                q.unwrap_or_else(empty),
                k.unwrap_or_else(empty),
                scale.unwrap_or(1.0),
                mask,
                weights.clone(),
            ),
        };
        Ok(HeadDetail {
            id,
            layer,
            head,
            kv_head,
            scale,
            mask,
            what_if_mask,
            scores,
            weights,
            what_if_weights,
            q,
            k,
            v: empty(),
            output: empty(),
            input: empty(),
            residual: empty(),
            delta: empty(),
            layer_left_out: false,
        })
    }

    /// The CLI's JSON (`attnscope attention --trace F --json`), of the stored weights.
    fn export(&mut self) -> std::result::Result<String, String> {
        let d = self.reader.description().clone();
        let t = d.tokens.len() as u64;
        let cells = (d.n_layers * d.n_heads) as u64 * t * t;
        if cells > EXPORT_MAX_WEIGHTS {
            return Err(format!(
                "this trace holds {cells} weights, too many to export as JSON in a browser tab; use `attnscope attention --trace FILE --json out.json`"
            ));
        }
        let attentions = (0..d.n_layers)
            .map(|l| Ok(self.reader.layer_attention(l)?.iter().map(Matrix::to_rows).collect()))
            .collect::<Result<Vec<_>>>()
            .map_err(|e| e.to_string())?;
        Ok(d.export(attentions, None).to_json())
    }

    /// Every head ranked by the weight `query` gives `key`, a layer read at a time.
    /// Rollout after every layer, read a layer at a time (for texts whose
    /// weights the analyses would keep: it multiplies T × T matrices per layer).
    fn rollout(&mut self) -> Result<Vec<Matrix>> {
        let n = self.reader.index().n_tokens();
        if n > crate::trace::KEEP_WEIGHTS_UP_TO {
            return Err(TraceFileError::Invalid(format!(
                "rollout runs on texts of up to {} tokens; this trace has {n}",
                crate::trace::KEEP_WEIGHTS_UP_TO
            )));
        }
        let mut layers: Vec<Matrix> = Vec::with_capacity(self.reader.index().n_layers());
        for l in 0..self.reader.index().n_layers() {
            let heads = self.reader.layer_attention(l)?;
            let weights: Vec<&Matrix> = heads.iter().collect();
            let next = roll(layers.last(), &weights, n);
            layers.push(next);
        }
        Ok(layers)
    }

    /// Every head read, to be compared with every other (the catalog's
    /// similar heads), within the catalog's limit on the weights' bytes.
    fn similar(
        &mut self,
        clusters: usize,
    ) -> crate::error::Result<crate::analysis::geometry::SimilarJob<'static>> {
        let bytes = self.weight_bytes();
        if bytes > CATALOG_MAX_BYTES {
            return Err(crate::error::Error::Invalid(format!(
                "similar heads reads every head's weights: {:.0} MB here, over the limit of {:.0} MB",
                bytes as f64 / 1e6,
                CATALOG_MAX_BYTES as f64 / 1e6
            )));
        }
        let invalid = |e: TraceFileError| crate::error::Error::Invalid(e.to_string());
        let layers = (0..self.reader.index().n_layers())
            .map(|l| self.reader.layer_attention(l).map_err(invalid))
            .collect::<crate::error::Result<Vec<_>>>()?;
        crate::analysis::geometry::SimilarJob::of_heads(layers, clusters)
    }

    /// Row `query` of every head of `layer`, [head][key]: one read of the layer.
    fn query_rows(&mut self, layer: usize, query: usize) -> Result<Matrix> {
        let n = self.reader.index().n_tokens();
        if query >= n {
            return Err(TraceFileError::Invalid(format!("no token {query} in this text")));
        }
        let heads = self.reader.layer_attention(layer)?;
        let rows: Vec<&[f32]> = heads.iter().map(|a| a.row(query)).collect();
        Ok(Matrix::from_rows(&rows))
    }

    fn find_heads(&mut self, query: usize, key: usize) -> Result<Vec<HeadMatch>> {
        let mut out = Vec::new();
        for l in 0..self.reader.index().n_layers() {
            let heads = self.reader.layer_attention(l)?;
            out.extend(heads.iter().enumerate().map(|(h, a)| HeadMatch {
                layer: l,
                head: h,
                weight: a[(query, key)],
            }));
        }
        out.sort_by(|x, y| y.weight.total_cmp(&x.weight));
        Ok(out)
    }
}

/// The session's trace file: none until one is opened.
pub struct TraceFile {
    open: Option<OpenTrace>,
}

impl TraceFile {
    pub fn closed() -> Self {
        Self { open: None }
    }
}

impl Runner for TraceFile {
    fn info(&self) -> ModelInfo {
        match &self.open {
            Some(t) => t.info(),
            None => ModelInfo {
                id: ModelId::Trace.slug().into(),
                name: "no trace file".into(),
                n_layers: 0,
                n_heads: 0,
                n_kv_heads: 0,
                d_model: 0,
                d_head: 0,
                mask: Mask::None,
                max_tokens: 0,
            },
        }
    }

    /// The trace's summary: its text is fixed, so `text` is not read.
    fn run(
        &mut self,
        _text: &str,
        options: &RunOptions,
        _cached: bool,
    ) -> crate::error::Result<Ran> {
        let trace = self.open.as_mut().ok_or_else(|| super::missing(ModelId::Trace))?;
        let summary = trace
            .summary(*options != RunOptions::default())
            .map_err(|e| crate::error::Error::Invalid(e.to_string()))?;
        Ok(Ran {
            held: Held::Summary(Box::new(summary)),
            head_notes: Vec::new(),
            translation: None,
        })
    }

    fn layered(&self) -> crate::error::Result<&dyn Layered> {
        Err(super::missing_for_analyses(ModelId::Trace))
    }

    fn is_open(&self) -> bool {
        self.open.is_some()
    }

    fn rollout(&mut self) -> Option<crate::error::Result<Vec<Matrix>>> {
        let trace = self.open.as_mut()?;
        Some(trace.rollout().map_err(|e| crate::error::Error::Invalid(e.to_string())))
    }

    fn similar(
        &mut self,
        clusters: usize,
    ) -> Option<crate::error::Result<crate::analysis::geometry::SimilarJob<'static>>> {
        let trace = self.open.as_mut()?;
        Some(trace.similar(clusters))
    }

    fn answer(&mut self, msg: &ToWorker, shown: Option<u64>) -> Option<FromWorker> {
        let failed =
            |id: u64, e: &dyn std::fmt::Display| FromWorker::Failed { id, message: e.to_string() };
        let Some(id) = shown else {
            return match msg {
                ToWorker::Run { .. } if self.open.is_none() => Some(FromWorker::LoadFailed {
                    model: ModelId::Trace,
                    message: "no trace file is open".into(),
                }),
                ToWorker::Compare { id, .. } => Some(failed(
                    *id,
                    &"a trace file holds one fixed text: comparing another text needs a live model",
                )),
                ToWorker::Load { .. } => Some(match self.open {
                    Some(_) => FromWorker::Loaded { model: ModelId::Trace },
                    None => FromWorker::LoadFailed {
                        model: ModelId::Trace,
                        message: "open a trace file first".into(),
                    },
                }),
                _ => None,
            };
        };
        let trace = self.open.as_mut()?;
        match *msg {
            ToWorker::Head { id: asked, layer, head, .. } => Some(
                trace
                    .head(id, layer, head)
                    .map_or_else(|e| failed(asked, &e), |d| FromWorker::Head(Box::new(d))),
            ),
            ToWorker::Export { id: asked } => Some(match trace.export() {
                Ok(json) => FromWorker::Export { id: asked, json },
                Err(e) => failed(asked, &e),
            }),
            ToWorker::QueryRows { id: asked, layer, query } => {
                Some(match trace.query_rows(layer, query) {
                    Ok(rows) => FromWorker::QueryRows { id: asked, layer, query, rows },
                    Err(e) => failed(asked, &e),
                })
            }
            // Ranking reads every head of the file: never for a run no longer shown.
            ToWorker::FindHeads { id: asked, .. } if asked != id => {
                Some(failed(asked, &"that text is no longer shown"))
            }
            ToWorker::FindHeads { id: asked, query, key } => {
                let n = trace.reader.index().n_tokens();
                if query >= n || key >= n {
                    return Some(failed(
                        asked,
                        &format!("no token {} in this text", query.max(key)),
                    ));
                }
                Some(match trace.find_heads(query, key) {
                    Ok(heads) => FromWorker::Heads { id: asked, query, key, heads },
                    Err(e) => failed(asked, &e),
                })
            }
            _ => None,
        }
    }
}

impl Session {
    /// Opens a trace file (its header only); the next `Run` of
    /// [`ModelId::Trace`] shows it.
    pub fn open_trace(&mut self, source: Box<dyn ByteSource>) -> Result<()> {
        // The old trace is closed first: a file that fails leaves none open.
        if matches!(self.last, Some((_, Latest::InRunner(ModelId::Trace)))) {
            self.last = None;
        }
        self.runners.insert(ModelId::Trace, Box::new(TraceFile::closed()));
        let open = OpenTrace::open(source)?;
        self.runners.insert(ModelId::Trace, Box::new(TraceFile { open: Some(open) }));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::RunOptions;
    use std::path::Path;

    fn clock() -> f64 {
        0.0
    }

    fn fixture(name: &str) -> Vec<u8> {
        std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tracefile").join(name),
        )
        .unwrap()
    }

    fn open(bytes: Vec<u8>) -> Session {
        let mut s = Session::new();
        s.open_trace(Box::new(
            crate::tracefile::SeekSource::new(std::io::Cursor::new(bytes)).unwrap(),
        ))
        .unwrap();
        s
    }

    fn run(s: &mut Session, id: u64) -> FromWorker {
        s.handle(
            ToWorker::Run {
                id,
                model: ModelId::Trace,
                text: "ignored".into(),
                options: RunOptions::default(),
            },
            &clock,
        )
    }

    #[test]
    fn a_trace_answers_run_head_export_and_find_heads_with_its_own_numbers() {
        let bytes = fixture("smollm2_capital.safetensors");
        let mut s = open(bytes.clone());
        let FromWorker::Result(r) = run(&mut s, 3) else { panic!("expected a summary") };
        let mut reader = TraceReader::open(&bytes[..]).unwrap();
        let d = reader.description().clone();
        assert_eq!(
            (r.tokens.clone(), r.info.n_layers, r.info.n_heads),
            (d.tokens.clone(), d.n_layers, d.n_heads)
        );
        assert_eq!(r.overview, reader.thumbnails().unwrap());
        assert_eq!(r.catalog.len(), d.n_layers * d.n_heads);
        let FromWorker::Head(h) =
            s.handle(ToWorker::Head { id: 3, layer: 2, head: 4, with_layer: true }, &clock)
        else {
            panic!("expected a head")
        };
        assert_eq!(h.weights, reader.attention(2, 4).unwrap());
        assert_eq!(h.q, reader.queries(2, 4).unwrap().unwrap());
        // With Q and K, the causal softmax of the scores gives back the stored weights.
        let again = softmax_rows(apply_mask(h.scores.map(|x| x * h.scale), h.mask));
        assert!(again.max_abs_diff(&h.weights) < 2e-3, "{}", again.max_abs_diff(&h.weights));
        let FromWorker::Export { json, .. } = s.handle(ToWorker::Export { id: 3 }, &clock) else {
            panic!("expected an export")
        };
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["attentions"][2][4][1][0].as_f64().unwrap() as f32, h.weights[(1, 0)]);
        let FromWorker::Heads { heads, .. } =
            s.handle(ToWorker::FindHeads { id: 3, query: 1, key: 0 }, &clock)
        else {
            panic!()
        };
        assert_eq!(heads.len(), d.n_layers * d.n_heads);
        // Ranking for an earlier run (the page's preset note) is refused, not computed over the
        // file.
        let FromWorker::Failed { id: 2, .. } =
            s.handle(ToWorker::FindHeads { id: 2, query: 1, key: 0 }, &clock)
        else {
            panic!()
        };
        assert!(matches!(
            s.handle(ToWorker::Head { id: 3, layer: 99, head: 0, with_layer: true }, &clock),
            FromWorker::Failed { .. }
        ));
        // A model's run replaces the trace as the latest; the trace stays open.
        let teaching = ToWorker::Run {
            id: 4,
            model: ModelId::Teaching,
            text: "a cat".into(),
            options: RunOptions::default(),
        };
        assert!(matches!(s.handle(teaching, &clock), FromWorker::Result(_)));
        let FromWorker::Head(t) =
            s.handle(ToWorker::Head { id: 4, layer: 0, head: 0, with_layer: true }, &clock)
        else {
            panic!()
        };
        assert_eq!(t.weights.rows, 2);
        assert!(matches!(run(&mut s, 5), FromWorker::Result(_)));
    }

    #[test]
    fn a_vision_trace_sends_its_picture_and_grid_once_and_across_the_wire_exactly() {
        let bytes = fixture("numpy_vision.safetensors");
        let mut s = open(bytes.clone());
        let FromWorker::Result(r) = run(&mut s, 1) else { panic!("expected a summary") };
        let mut reader = TraceReader::open(&bytes[..]).unwrap();
        let image = reader.image().unwrap().unwrap();
        let v = r.vision.clone().expect("a vision trace's summary has its picture");
        assert_eq!(Some(v.grid), reader.description().patches);
        assert_eq!((v.width, v.height, &v.rgb), (image.width, image.height, &image.rgb));
        assert!(r
            .notice
            .as_deref()
            .unwrap()
            .contains("3 × 4 patches of its picture and 2 other tokens"));
        // The picture crosses to the page beside the JSON (2,304 bytes: base64 in it) and back.
        let (json, buffers) = crate::tensor::wire::to_json_and_buffers(&*r).unwrap();
        let back: RunSummary = crate::tensor::wire::from_json_and_buffers(&json, buffers).unwrap();
        assert_eq!(back.vision, r.vision);
        // Every head's row for one query, as the file holds them.
        let FromWorker::QueryRows { rows, layer: 1, query: 8, .. } =
            s.handle(ToWorker::QueryRows { id: 1, layer: 1, query: 8 }, &clock)
        else {
            panic!("expected the rows")
        };
        for h in 0..2 {
            assert_eq!(rows.row(h), reader.attention(1, h).unwrap().row(8));
        }
        for bad in [
            ToWorker::QueryRows { id: 1, layer: 2, query: 0 },
            ToWorker::QueryRows { id: 1, layer: 0, query: 14 },
        ] {
            assert!(matches!(s.handle(bad, &clock), FromWorker::Failed { .. }));
        }
        // Rollout from the file, a layer at a time, as of a trace held in memory.
        let request = crate::session::AnalysisRequest::Rollout;
        let msg = ToWorker::Analyze { id: 1, model: ModelId::Trace, text: String::new(), request };
        let FromWorker::Analysis { reply, .. } = s.handle(msg, &clock) else {
            panic!("expected the rollout")
        };
        let crate::session::AnalysisReply::Rollout { layers, .. } = *reply else { panic!() };
        assert_eq!(layers.len(), 2);
        let mut held = crate::models::teaching::TeachingModel::new()
            .run("a b c d e f g h i j k l m n")
            .unwrap();
        assert_eq!(held.tokens.len(), 14);
        held.layers.truncate(1);
        let mut second = held.layers[0].clone();
        for (l, layer) in [&mut held.layers[0], &mut second].into_iter().enumerate() {
            let stored = reader.layer_attention(l).unwrap();
            layer.attention.heads.truncate(2);
            for (h, head) in layer.attention.heads.iter_mut().enumerate() {
                head.weights = stored[h].clone();
            }
        }
        held.layers.push(second);
        let want = crate::analysis::rollout::rollout(&held);
        for (l, m) in layers.iter().enumerate() {
            assert_eq!(m.to_rows(), want.layers[l]);
        }
        // Similar heads from the file (the catalog), as of the same heads held in memory.
        let request = crate::session::AnalysisRequest::SimilarHeads { clusters: 2 };
        let msg = ToWorker::Analyze { id: 1, model: ModelId::Trace, text: String::new(), request };
        assert!(matches!(s.handle(msg, &clock), FromWorker::Analysis { .. }));
        let map = loop {
            let Some(FromWorker::Analysis { reply, .. }) = s.continue_analysis(&clock) else {
                panic!("similar heads stopped")
            };
            if let crate::session::AnalysisReply::SimilarHeads(map) = *reply {
                break map;
            }
        };
        let mut job = crate::analysis::geometry::SimilarJob::start(&held, 2).unwrap();
        while !job.is_finished() {
            job.step();
        }
        let want = job.finish();
        assert_eq!((map.heads.len(), &map.distance), (4, &want.distance));
        // A text trace has none.
        let mut text = open(fixture("numpy_f32.safetensors"));
        let FromWorker::Result(r) = run(&mut text, 2) else { panic!() };
        assert!(r.vision.is_none());
    }

    #[test]
    fn a_trace_without_queries_and_keys_or_thumbnails_shows_its_weights() {
        let bytes = fixture("numpy_bare.safetensors");
        let mut s = open(bytes.clone());
        let FromWorker::Result(r) = run(&mut s, 1) else { panic!("expected a summary") };
        assert!(r.notice.unwrap().contains("no queries and keys"));
        let mut reader = TraceReader::open(&bytes[..]).unwrap();
        let a = reader.attention(0, 0).unwrap();
        assert_eq!(r.overview[0][0], Thumbnail::new(&crate::trace::pool(&a, THUMB_MAX)));
        let FromWorker::Head(h) =
            s.handle(ToWorker::Head { id: 1, layer: 0, head: 0, with_layer: true }, &clock)
        else {
            panic!()
        };
        assert_eq!(
            (h.weights.clone(), h.scores.rows, h.what_if_weights.clone()),
            (a.clone(), 0, a)
        );
    }

    #[test]
    fn damaged_traces_are_refused_with_a_sentence_and_nothing_is_open() {
        let bytes = fixture("numpy_f16.safetensors");
        let mut s = Session::new();
        let cut = bytes[..bytes.len() - 10].to_vec();
        let e = s
            .open_trace(Box::new(
                crate::tracefile::SeekSource::new(std::io::Cursor::new(cut)).unwrap(),
            ))
            .unwrap_err();
        assert!(e.to_string().contains("cut short"), "{e}");
        assert!(matches!(run(&mut s, 1), FromWorker::LoadFailed { .. }));
        assert!(matches!(
            s.handle(ToWorker::Load { model: ModelId::Trace, exact: false }, &clock),
            FromWorker::LoadFailed { .. }
        ));
    }
}
