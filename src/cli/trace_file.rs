//! Trace files (docs/trace-format.md) on the command line:
//! `attention --trace FILE` draws and exports from a file as from a model, and
//! `trace --model M --text T --out FILE` writes one from our own models.

use super::{
    print_matrix, run_checkpoint, run_model, write, write_figure, AttentionArgs, ModelArg, StageArg,
};
use attnscope::attention::{apply_mask, softmax_rows, Mask};
use attnscope::checkpoint::Checkpoint;
use attnscope::draw::{patch_overlay_png, Heatmap, PatchOverlay, ValueKind};
use attnscope::tracefile::{
    write_model_trace, Element, MaskSpec, PatchGrid, SeekSource, TraceReader, WriteOptions,
};
use attnscope::{Error, Matrix};
use clap::{Args, ValueEnum};
use std::fs::File;
use std::path::{Path, PathBuf};

/// `trace` flags that write a trace file instead of the worked example's JSON.
#[derive(Args)]
pub struct WriteArgs {
    /// Write the attention of --model on --text to this trace file (docs/trace-format.md)
    /// instead of the worked example.
    #[arg(long, value_name = "FILE", requires = "text", conflicts_with_all = ["json", "preset", "scale", "mask"])]
    pub out: Option<PathBuf>,
    /// With --out: the model to run (default: the teaching model).
    #[arg(long, value_enum, requires = "out")]
    model: Option<ModelArg>,
    /// With --out: run your own checkpoint instead (a Hugging Face folder or a .gguf file).
    #[arg(long, value_name = "PATH", requires = "out", conflicts_with_all = ["model", "models_dir", "no_positions"])]
    model_path: Option<PathBuf>,
    /// With --out: the text to tokenize and run.
    #[arg(long, requires = "out")]
    text: Option<String>,
    /// With --out: how weights, queries and keys are stored.
    #[arg(long, value_enum, default_value_t = DtypeArg::F16)]
    dtype: DtypeArg,
    /// With --out: leave out the queries and keys (no step by step from the file).
    #[arg(long, requires = "out")]
    no_queries_keys: bool,
    /// With --out: folder holding the model files (default: $ATTNSCOPE_MODELS, else www/models).
    #[arg(long, value_name = "DIR", requires = "out")]
    models_dir: Option<PathBuf>,
    /// With --out and the teaching model: leave out the positional encoding.
    #[arg(long, requires = "out")]
    no_positions: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum DtypeArg {
    /// Half the size; weights within 2.4e-4 of f32.
    F16,
    F32,
}

/// `trace --out FILE`.
pub fn write_trace_file(args: &WriteArgs, out: &Path) -> Result<(), Error> {
    let model = args.model.unwrap_or(ModelArg::Teaching);
    let text = args.text.as_deref().unwrap_or_default();
    let (trace, positions) = match &args.model_path {
        Some(path) => {
            (run_checkpoint(path, text, 1)?, Checkpoint::open(path)?.describe()?.positions)
        }
        None => {
            let positions = match model {
                ModelArg::Teaching if args.no_positions => "none",
                ModelArg::Teaching | ModelArg::Minilm => "input",
                ModelArg::Smollm2 => "rope",
            };
            (
                run_model(model, text, args.models_dir.clone(), args.no_positions, 1)?,
                positions.to_string(),
            )
        }
    };
    if let Some(notice) = &trace.notice {
        eprintln!("attnscope: note: {notice}");
    }
    // The format has no place for MPNet's score bias, so scores recomputed from Q and K would be
    // wrong.
    let queries_keys = !args.no_queries_keys && positions != "relative_bias";
    let options = WriteOptions {
        element: match args.dtype {
            DtypeArg::F16 => Element::F16,
            DtypeArg::F32 => Element::F32,
        },
        queries_keys,
        thumbnails: true,
        text: Some(text.to_string()),
        positions: Some(positions),
    };
    write_model_trace(&trace, &options, out)?;
    Ok(())
}

/// `attention --trace FILE`: the same figures and JSON as from a model.
pub fn attention_from_file(args: &AttentionArgs, path: &Path) -> Result<(), Error> {
    let in_file = |e: attnscope::tracefile::TraceFileError| {
        Error::Invalid(format!("{}: {e}", path.display()))
    };
    let mut reader = TraceReader::open_path(path).map_err(in_file)?;
    let what_if = args.mask.map(Mask::from);
    let n_layers = reader.index().n_layers();
    // Checks the layer and head before anything is read.
    reader.index().attention(args.layer, args.head).map_err(in_file)?;
    let d = reader.description().clone();

    if let Some(json) = &args.json {
        let attentions = (0..n_layers)
            .map(|l| {
                Ok(weights(&mut reader, l, what_if)?.into_iter().map(|m| m.to_rows()).collect())
            })
            .collect::<Result<Vec<_>, Error>>()?;
        write(json, d.export(attentions, what_if).to_json().as_bytes())?;
    }

    let (l, h) = (args.layer, args.head);
    if let Some(query) = &args.query {
        return patch_overlay(args, &mut reader, query).map_err(|e| match e {
            Error::Invalid(m) => Error::Invalid(format!("{}: {m}", path.display())),
            e => e,
        });
    }
    let spec = what_if.map_or(reader.index().mask(l), MaskSpec::from);
    let (values, kind, stage) = match args.stage {
        StageArg::Weights => (
            weights(&mut reader, l, what_if)?.swap_remove(h),
            ValueKind::Weights,
            "A = softmax(QKᵀ/√d_k + M)",
        ),
        StageArg::Scores => (scores(&mut reader, l, h)?.0, ValueKind::Signed, "S = QKᵀ"),
        StageArg::Scaled => {
            let (s, scale) = scores(&mut reader, l, h)?;
            (s.map(|x| x * scale), ValueKind::Signed, "S/√d_k")
        }
        StageArg::Masked => {
            let (s, scale) = scores(&mut reader, l, h)?;
            (masked(s.map(|x| x * scale), spec)?, ValueKind::Signed, "S/√d_k + M")
        }
    };
    let title = format!("{}\nlayer {l} · head {h} · {stage} · mask: {}", d.model.name, spec.name());
    let mask = spec.core().unwrap_or_default();
    let figure = Heatmap {
        title,
        row_labels: &d.tokens,
        col_labels: &d.tokens,
        values: &values,
        kind,
        mask,
        axes: attnscope::draw::AXES,
    };
    write_figure(&figure, args.svg.as_deref(), args.png.as_deref())?;
    if args.json.is_none() && args.svg.is_none() && args.png.is_none() {
        print_matrix(&d.tokens, &values);
    }
    Ok(())
}

type Reader = TraceReader<SeekSource<File>>;

/// `attention --trace FILE --query cls|ROW,COL --png OUT`: a vision trace's
/// query, its weights over the patches drawn on the picture.
fn patch_overlay(args: &AttentionArgs, reader: &mut Reader, query: &str) -> Result<(), Error> {
    let d = reader.description().clone();
    let Some(grid) = d.patches else {
        return Err(Error::Invalid(
            "--query needs a vision trace (one with a patch grid and an image); this one holds text"
                .into(),
        ));
    };
    let Some(png) = &args.png else {
        return Err(Error::Invalid("--query draws a PNG: give --png FILE".into()));
    };
    if args.svg.is_some() || args.stage != StageArg::Weights || args.mask.is_some() {
        return Err(Error::Invalid(
            "--query draws the weights as stored, as PNG only (no --svg, --stage or --mask)".into(),
        ));
    }
    let token = query_token(query, &grid)?;
    let image = reader.image()?.ok_or_else(|| Error::Invalid("the trace has no image".into()))?;
    let (a, what) = if args.rollout {
        (rollout(reader)?, format!("rollout after {} layers", d.n_layers))
    } else {
        (
            reader.attention(args.layer, args.head)?,
            format!("layer {} · head {}", args.layer, args.head),
        )
    }; // [T, T]
    let weights =
        grid.over_patches(a.row(token)).expect("the grid fits the tokens (checked on opening)");
    let name = &d.tokens[token];
    let figure = PatchOverlay {
        title: format!(
            "{}\n{what} · query {name} ({} × {} patches)",
            d.model.name, grid.rows, grid.cols
        ),
        rgb: &image.rgb,
        width: image.width,
        height: image.height,
        weights: &weights,
        query: grid.patch_of(token),
    };
    write(png, &patch_overlay_png(&figure)?)
}

/// Rollout after the last layer, R = Ā_L ⋯ Ā_1 (`analysis::rollout::roll`), read a layer at a time.
fn rollout(reader: &mut Reader) -> Result<Matrix, Error> {
    let n = reader.index().n_tokens();
    let mut r: Option<Matrix> = None;
    for l in 0..reader.index().n_layers() {
        let heads = reader.layer_attention(l)?;
        let weights: Vec<&Matrix> = heads.iter().collect();
        r = Some(attnscope::analysis::rollout::roll(r.as_ref(), &weights, n));
    }
    r.ok_or_else(|| Error::Invalid("the trace has no layers".into()))
}

/// The token `--query` names: `cls`, the first token when it comes before the patches, or a
/// patch as ROW,COL.
fn query_token(query: &str, grid: &PatchGrid) -> Result<usize, Error> {
    let q = query.trim();
    if q.eq_ignore_ascii_case("cls") {
        return match grid.first_patch {
            0 => Err(Error::Invalid(
                "this model has no token before its patches (no class token): choose a patch as ROW,COL".into(),
            )),
            _ => Ok(0),
        };
    }
    let parsed = q.split_once(',').and_then(|(r, c)| {
        Some((r.trim().parse::<usize>().ok()?, c.trim().parse::<usize>().ok()?))
    });
    let Some((r, c)) = parsed else {
        return Err(Error::Invalid(format!(
            "--query {q:?}: give cls or a patch as ROW,COL, e.g. 3,7"
        )));
    };
    grid.token(r, c).ok_or_else(|| {
        Error::Invalid(format!(
            "--query {r},{c} is outside the grid of {} × {} patches (rows 0–{}, columns 0–{})",
            grid.rows,
            grid.cols,
            grid.rows - 1,
            grid.cols - 1
        ))
    })
}

/// Every head's weights in `layer`: as stored, or recomputed from the stored
/// queries and keys under a what-if mask that differs from the layer's own.
fn weights(reader: &mut Reader, layer: usize, what_if: Option<Mask>) -> Result<Vec<Matrix>, Error> {
    match what_if {
        Some(mask) if reader.index().mask(layer).core() != Some(mask) => {
            (0..reader.index().n_heads())
                .map(|h| {
                    let (s, scale) = scores(reader, layer, h)?;
                    Ok(softmax_rows(apply_mask(s.map(|x| x * scale), mask)))
                })
                .collect()
        }
        _ => Ok(reader.layer_attention(layer)?),
    }
}

/// S = Q Kᵀ of one head from the stored queries and keys, and the model's scale.
fn scores(reader: &mut Reader, layer: usize, head: usize) -> Result<(Matrix, f32), Error> {
    let kv = reader.description().kv_head_of(head);
    let scale = reader.description().queries_keys.as_ref().map(|qk| qk.scale);
    match (reader.queries(layer, head)?, reader.keys(layer, kv)?, scale) {
        (Some(q), Some(k), Some(scale)) => Ok((q.matmul_t(&k), scale)),
        _ => Err(Error::Invalid(format!(
            "the trace file holds no queries and keys for layer {layer}: only the weights can be drawn (--stage weights, the file's own mask)"
        ))),
    }
}

/// S' + M under the layer's mask, sliding windows included.
fn masked(scaled: Matrix, spec: MaskSpec) -> Result<Matrix, Error> {
    if let Some(mask) = spec.core() {
        return Ok(apply_mask(scaled, mask));
    }
    let mut m = scaled;
    for i in 0..m.rows {
        for j in 0..m.cols {
            match spec.allows(i, j) {
                Some(true) => {}
                Some(false) => m[(i, j)] = f32::NEG_INFINITY,
                None => {
                    return Err(Error::Invalid(
                        "the trace's mask is of a kind this attnscope does not know".into(),
                    ))
                }
            }
        }
    }
    Ok(m)
}
