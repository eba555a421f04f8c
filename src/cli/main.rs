//! `attnscope`: the command-line face of the library, for figures on slides
//! and for checking numbers against a reference.

use attnscope::attention::{Mask, Scale};
use attnscope::checkpoint::minilm::MiniLm;
use attnscope::checkpoint::smollm2::SmolLm2;
use attnscope::checkpoint::{Checkpoint, Model};
use attnscope::draw::{heatmap_png, heatmap_svg, Heatmap, ValueKind};
use attnscope::export::AttentionExport;
use attnscope::models::seed::WorkedExample;
use attnscope::models::teaching::{TeachingModel, TeachingOptions};
use attnscope::models::two_threads;
use attnscope::trace::ModelId;
use attnscope::trace::ModelTrace;
use attnscope::{Error, Matrix};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod analyze;
#[cfg(feature = "classroom")]
mod classroom;
mod generate;
mod trace_file;
mod transcribe;
mod translate;

#[derive(Parser)]
#[command(
    name = "attnscope",
    version,
    about = "Compute and export self-attention: A = softmax(QKᵀ/√d_k + M), for every layer and head."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Beyond the weights: value-weighted attention, rollout, logit lens, head knockout and the
    /// importance map, head detectors, as JSON (definitions in `attnscope analyze --help`).
    Analyze(analyze::AnalyzeArgs),
    /// Run a model on a text and export its attention (JSON, PNG, SVG).
    Attention(AttentionArgs),
    /// Serve the page and its models to a room, and relay a class: the teacher's page leads,
    /// students follow on their phones and answer.
    #[cfg(feature = "classroom")]
    Classroom(classroom::ClassroomArgs),
    /// What a checkpoint is, from its header and configuration alone, as JSON: architecture,
    /// layers, heads, key/value heads, parameters, file size and the memory it needs.
    Describe(DescribeArgs),
    /// A decoder writes: a continuation token by token, greedy or sampled (temperature, top-k,
    /// top-p, seed), with each step's distribution and each new token's attention (table, JSON,
    /// PNG, SVG).
    Generate(generate::GenerateArgs),
    /// Every step of a worked example, from X to Z, as JSON; or, with --out, a model's attention as
    /// a trace file.
    Trace(TraceArgs),
    /// Speech to text with Whisper tiny.en, and each token's cross-attention over the audio (JSON).
    Transcribe(transcribe::TranscribeArgs),
    /// Translate English ↔ Portuguese and export the cross-attention (JSON, PNG, SVG).
    Translate(translate::TranslateArgs),
}

#[derive(Args)]
struct AttentionArgs {
    /// Which model: the built-in teaching model, or a real one (its files must be fetched first:
    /// `python3 scripts/fetch_models.py`).
    #[arg(long, value_enum, default_value_t = ModelArg::Teaching)]
    model: ModelArg,
    /// Run your own checkpoint instead: a Hugging Face folder (config.json, tokenizer.json,
    /// model.safetensors or its shards) or a .gguf file.
    #[arg(long, value_name = "PATH", conflicts_with = "model")]
    model_path: Option<PathBuf>,
    /// The text to tokenize and run.
    #[arg(long, required_unless_present = "trace")]
    text: Option<String>,
    /// Draw and export from a trace file (docs/trace-format.md) instead of running a model.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["model", "model_path", "text", "models_dir", "no_positions"])]
    trace: Option<PathBuf>,
    /// Write tokens, token ids and attentions [layer][head][query][key] as JSON ("-" for stdout).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Draw the selected head's heatmap as PNG.
    #[arg(long, value_name = "FILE")]
    png: Option<PathBuf>,
    /// Draw the selected head's heatmap as SVG.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Write the selected head's values (at --stage) as CSV, a row per query ("-" for stdout): one
    /// head of a long text, where the JSON of every head would run to gigabytes.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// A vision trace only: draw, as --png, where this query looks on the picture: `cls` (the
    /// class token) or a patch as ROW,COL (0-based).
    #[arg(long, value_name = "cls|ROW,COL", requires = "trace")]
    query: Option<String>,
    /// With --query: draw rollout through every layer (each layer's heads averaged, the residual
    /// path added, multiplied from the first layer on) instead of one head's weights.
    #[arg(long, requires = "query")]
    rollout: bool,
    /// Layer to draw (0-based).
    #[arg(long, default_value_t = 0)]
    layer: usize,
    /// Head to draw (0-based).
    #[arg(long, default_value_t = 0)]
    head: usize,
    /// Mask to apply: the model's own by default; the other one is a what-if computed from the same
    /// Q and K.
    #[arg(long, value_enum)]
    mask: Option<MaskArg>,
    /// Which step to draw: the weights A, or the raw, scaled or masked scores.
    #[arg(long, value_enum, default_value_t = StageArg::Weights)]
    stage: StageArg,
    /// Folder holding the model files (default: $ATTNSCOPE_MODELS, else www/models).
    #[arg(long, value_name = "DIR")]
    models_dir: Option<PathBuf>,
    /// Teaching model only: leave out the positional encoding.
    #[arg(long)]
    no_positions: bool,
    /// Threads to compute on: with 2, a second thread takes part of every
    /// weight product (the same numbers, bit for bit).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    threads: u8,
}

#[derive(Args)]
struct DescribeArgs {
    /// A Hugging Face folder or a .gguf file.
    #[arg(long, value_name = "PATH")]
    model_path: PathBuf,
}

#[derive(Args)]
struct TraceArgs {
    /// The worked example to run.
    #[arg(long, value_enum, default_value_t = PresetArg::Seed3x4)]
    preset: PresetArg,
    /// Score scaling: 1/√d_k (Vaswani et al.), the seed's own 1/√d_input, or none.
    #[arg(long, value_enum, default_value_t = ScaleArg::Dk)]
    scale: ScaleArg,
    #[arg(long, value_enum, default_value_t = MaskArg::None)]
    mask: MaskArg,
    /// Write x, q, k, v, scores, scaled, masked, weights, output as JSON ("-" for stdout).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    #[command(flatten)]
    file: trace_file::WriteArgs,
}

#[derive(Clone, Copy, ValueEnum)]
enum ModelArg {
    /// Built in, hand-designed heads.
    Teaching,
    /// all-MiniLM-L6-v2: BERT encoder, 6 layers × 12 heads, bidirectional.
    Minilm,
    /// SmolLM2-135M: Llama decoder, 30 layers × 9 heads over 3 key/value heads, causal.
    Smollm2,
}

#[derive(Clone, Copy, ValueEnum)]
enum MaskArg {
    None,
    Causal,
}

#[derive(Clone, Copy, ValueEnum, PartialEq)]
enum StageArg {
    Weights,
    Scores,
    Scaled,
    Masked,
}

#[derive(Clone, Copy, ValueEnum)]
enum PresetArg {
    #[value(name = "seed-3x4")]
    Seed3x4,
}

#[derive(Clone, Copy, ValueEnum)]
enum ScaleArg {
    /// 1/√d_k
    Dk,
    /// 1/√(input width), as the seed-003 write-up does
    Seed,
    /// no scaling
    None,
}

impl From<MaskArg> for Mask {
    fn from(m: MaskArg) -> Mask {
        match m {
            MaskArg::None => Mask::None,
            MaskArg::Causal => Mask::Causal,
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let rendered = e.to_string();
            // The first paragraph: the sentence, and the flags it lists on the lines below it.
            let first = rendered
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect::<Vec<_>>()
                .join(" ");
            eprintln!("attnscope: {} (see attnscope --help)", first.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Analyze(args) => analyze::analyze(args),
        Command::Attention(args) => attention(args),
        #[cfg(feature = "classroom")]
        Command::Classroom(args) => classroom::classroom(args),
        Command::Describe(args) => describe(args),
        Command::Generate(args) => generate::generate(args),
        Command::Trace(args) => trace(args),
        Command::Transcribe(args) => transcribe::transcribe(args),
        Command::Translate(args) => translate::translate(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("attnscope: {e}");
            ExitCode::FAILURE
        }
    }
}

/// "`what` not found in `dir`", and how to fetch it.
fn missing(what: &str, dir: &Path) -> Error {
    Error::ModelFile(format!(
        "{what} not found in {}: run `python3 scripts/fetch_models.py` (or pass --models-dir)",
        dir.display()
    ))
}

/// The most weights `attention --json` writes (every head, as numbers in
/// memory and then as text): about 270 MB and 700 MB of JSON, within a
/// 3 GiB address space with the model loaded.
const JSON_MAX_WEIGHTS: u64 = 64 << 20;

/// MiniLM from the models folder `dir` (`scripts/fetch_models.py` fills it).
fn load_minilm(dir: &Path) -> Result<MiniLm, Error> {
    let d = dir.join("minilm");
    if !d.join("model.safetensors").is_file() {
        return Err(missing("minilm/model.safetensors", dir));
    }
    MiniLm::load_dir(&d)
}

/// SmolLM2 from the models folder `dir`.
fn load_smollm2(dir: &Path) -> Result<SmolLm2, Error> {
    let file = ModelId::SmolLm2
        .files()
        .into_iter()
        .next()
        .map(|f| dir.join("smollm2").join(f.name))
        .unwrap_or_default();
    if !file.is_file() {
        return Err(missing("the SmolLM2 GGUF file", dir));
    }
    SmolLm2::load(&file)
}

fn models_dir(flag: Option<PathBuf>) -> PathBuf {
    flag.or_else(|| std::env::var_os("ATTNSCOPE_MODELS").map(PathBuf::from)).unwrap_or_else(|| {
        let here = PathBuf::from("www/models");
        if here.is_dir() {
            here
        } else {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("www/models")
        }
    })
}

/// `attention --model-path PATH`: a Hugging Face folder or a .gguf file, checked like the built-in
/// models.
fn run_checkpoint(path: &Path, text: &str, threads: u8) -> Result<ModelTrace, Error> {
    let name = path.file_name().map_or("model".into(), |n| n.to_string_lossy().into_owned());
    let mut model = Checkpoint::open(path)?.load(&name)?;
    if threads > 1 {
        match &mut model {
            Model::Encoder(e) => two_threads::thread::share(e.as_mut()),
            Model::Decoder(d) => two_threads::thread::share(d.as_mut()),
        }
    }
    let trace = model.run(text)?;
    trace.check_finite()?;
    Ok(trace)
}

fn run_model(
    model: ModelArg,
    text: &str,
    models_dir_flag: Option<PathBuf>,
    no_positions: bool,
    threads: u8,
) -> Result<ModelTrace, Error> {
    let trace = run_model_unchecked(model, text, models_dir_flag, no_positions, threads)?;
    trace.check_finite()?;
    Ok(trace)
}

fn run_model_unchecked(
    model: ModelArg,
    text: &str,
    models_dir_flag: Option<PathBuf>,
    no_positions: bool,
    threads: u8,
) -> Result<ModelTrace, Error> {
    let dir = models_dir(models_dir_flag);
    match model {
        ModelArg::Minilm => {
            let mut m = load_minilm(&dir)?;
            if threads > 1 {
                two_threads::thread::share(&mut *m);
            }
            m.run(text)
        }
        ModelArg::Smollm2 => {
            let mut m = load_smollm2(&dir)?;
            if threads > 1 {
                two_threads::thread::share(&mut *m);
            }
            m.run(text)
        }
        ModelArg::Teaching => TeachingModel::with_options(TeachingOptions {
            positional_encoding: !no_positions,
            ..Default::default()
        })
        .run(text),
    }
}

fn describe(args: DescribeArgs) -> Result<(), Error> {
    let description = Checkpoint::open(&args.model_path)?.describe()?;
    let json = serde_json::to_string_pretty(&description)
        .map_err(|e| Error::Invalid(format!("cannot write the description: {e}")))?;
    println!("{json}");
    Ok(())
}

fn attention(args: AttentionArgs) -> Result<(), Error> {
    if let Some(path) = &args.trace {
        return trace_file::attention_from_file(&args, path);
    }
    let text = args.text.as_deref().unwrap_or_default();
    let mut trace = match &args.model_path {
        Some(path) => run_checkpoint(path, text, args.threads)?,
        None => {
            run_model(args.model, text, args.models_dir.clone(), args.no_positions, args.threads)?
        }
    };
    if let Some(notice) = &trace.notice {
        eprintln!("attnscope: note: {notice}");
    }
    let mask = args.mask.map(Mask::from).unwrap_or(trace.info.mask);
    if mask != trace.info.mask {
        trace.apply_what_if_mask(mask);
    }
    let (n_layers, n_heads) = (trace.layers.len(), trace.info.n_heads);
    if args.layer >= n_layers || args.head >= n_heads {
        return Err(Error::Invalid(format!(
            "{} has layers 0–{} and heads 0–{}; asked for layer {} head {}",
            trace.info.name,
            n_layers.saturating_sub(1),
            n_heads.saturating_sub(1),
            args.layer,
            args.head
        )));
    }
    if let Some(path) = &args.json {
        let heads = trace.layers.iter().map(|l| l.attention.heads.len()).sum();
        attnscope::export::check_export_size(trace.tokens.len(), heads, JSON_MAX_WEIGHTS)?;
        let export = AttentionExport::from_trace(&trace);
        if path.as_os_str() == "-" {
            write(path, export.to_json().as_bytes())?;
        } else {
            let failed =
                |e: std::io::Error| Error::Invalid(format!("cannot write {}: {e}", path.display()));
            let file = std::fs::File::create(path).map_err(failed)?;
            let mut w = std::io::BufWriter::new(file);
            export.write_json(&mut w).map_err(failed)?;
            std::io::Write::flush(&mut w).map_err(failed)?;
        }
    }
    let head = trace.layers[args.layer].attention.head(args.head);
    let (values, kind, stage) = match args.stage {
        StageArg::Weights => {
            (head.weights.clone(), ValueKind::Weights, "A = softmax(QKᵀ/√d_k + M)")
        }
        StageArg::Scores => (head.scores.clone(), ValueKind::Signed, "S = QKᵀ"),
        StageArg::Scaled => (head.scaled(), ValueKind::Signed, "S/√d_k"),
        StageArg::Masked => (head.masked(), ValueKind::Signed, "S/√d_k + M"),
    };
    // The head's own mask: a sliding-window layer's differs from the model's.
    let title = format!(
        "{}\nlayer {} · head {} · {} · mask: {}",
        trace.info.name,
        args.layer,
        args.head,
        stage,
        head.mask.name()
    );
    let figure = Heatmap {
        title,
        row_labels: &trace.tokens,
        col_labels: &trace.tokens,
        values: &values,
        kind,
        mask: head.mask,
        axes: attnscope::draw::AXES,
    };
    write_figure(&figure, args.svg.as_deref(), args.png.as_deref())?;
    if let Some(path) = &args.csv {
        write(path, attnscope::export::head_csv(&trace.tokens, &values).as_bytes())?;
    }
    if args.json.is_none() && args.svg.is_none() && args.png.is_none() && args.csv.is_none() {
        print_matrix(&trace.tokens, &values);
    }
    Ok(())
}

fn trace(args: TraceArgs) -> Result<(), Error> {
    if let Some(out) = &args.file.out {
        return trace_file::write_trace_file(&args.file, out);
    }
    let PresetArg::Seed3x4 = args.preset;
    let example = WorkedExample::seed_3x4();
    let scale = match args.scale {
        ScaleArg::Dk => Scale::InvSqrtDk,
        ScaleArg::Seed => example.seed_scale(),
        ScaleArg::None => Scale::None,
    };
    let t = example.run(args.mask.into(), scale);
    let rows = |m: &Matrix| {
        m.to_rows()
            .into_iter()
            .map(|r| r.into_iter().map(finite_or_null).collect::<Vec<_>>())
            .collect::<Vec<_>>()
    };
    let json = serde_json::json!({
        "preset": "seed-3x4",
        "scale": t.head.scale,
        "mask": t.head.mask.name(),
        "heads": [{
            "x": rows(&t.x), "q": rows(&t.q), "k": rows(&t.k), "v": rows(&t.v),
            "scores": rows(&t.head.scores), "scaled": rows(&t.head.scaled()), "masked": rows(&t.head.masked()),
            "weights": rows(&t.head.weights), "output": rows(&t.head.output),
        }],
    });
    match &args.json {
        Some(path) => write(path, json.to_string().as_bytes()),
        None => {
            println!("{}", serde_json::to_string_pretty(&json).unwrap_or_default());
            Ok(())
        }
    }
}

/// JSON has no −∞: masked cells are written as null.
fn finite_or_null(x: f32) -> serde_json::Value {
    if x.is_finite() {
        serde_json::json!(x)
    } else {
        serde_json::Value::Null
    }
}

/// A heatmap drawn as SVG and as PNG, to whichever of the two paths are given.
fn write_figure(figure: &Heatmap<'_>, svg: Option<&Path>, png: Option<&Path>) -> Result<(), Error> {
    if let Some(path) = svg {
        write(path, heatmap_svg(figure)?.as_bytes())?;
    }
    if let Some(path) = png {
        write(path, &heatmap_png(figure)?)?;
    }
    Ok(())
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    if path == Path::new("-") {
        use std::io::Write;
        return std::io::stdout()
            .write_all(bytes)
            .map_err(|e| Error::Invalid(format!("cannot write to stdout: {e}")));
    }
    std::fs::write(path, bytes)
        .map_err(|e| Error::Invalid(format!("cannot write {}: {e}", path.display())))
}

/// Prints the matrix as a table; a closed pipe (e.g. `| head`) just ends the output.
fn print_matrix(tokens: &[String], m: &Matrix) {
    use std::fmt::Write as _;
    let width = tokens.iter().map(|t| t.chars().count()).max().unwrap_or(4).clamp(4, 14);
    let cut = |t: &str, n: usize| t.chars().take(n).collect::<String>();
    let mut out = format!("{:>width$} ", "");
    for t in tokens {
        let _ = write!(out, "{:>7} ", cut(t, 7));
    }
    out.push('\n');
    for (i, t) in tokens.iter().enumerate() {
        let _ = write!(out, "{:>width$} ", cut(t, width));
        for v in m.row(i) {
            let _ = if v.is_finite() {
                write!(out, "{v:>7.3} ")
            } else {
                write!(out, "{:>7} ", "-inf")
            };
        }
        out.push('\n');
    }
    use std::io::Write as _;
    let _ = std::io::stdout().write_all(out.as_bytes());
}
