//! `attnscope analyze`: what a run means beyond its attention weights
//! (src/analysis/): value-weighted attention, rollout, the logit lens, head
//! knockout and the importance map, activation patching, head detectors, as JSON.

use attnscope::analysis::{
    detectors, geometry, knockout, logit_lens, patching, rollout, value_norms,
};
use attnscope::checkpoint::{Checkpoint, Model};
use attnscope::trace::layered::Layered;
use attnscope::Error;
use clap::{Args, ValueEnum};
use serde::Serialize;
use std::path::PathBuf;

/// The definitions, one line each, shown below the options in `--help`.
fn definitions() -> String {
    let mut lines = vec![
        format!("value-norms: {}", value_norms::DEFINITION),
        format!("rollout:     {}", rollout::DEFINITION),
        format!("logit-lens:  {}", logit_lens::DEFINITION),
        format!("knockout:    {}", knockout::DEFINITION),
        format!("importance:  {}", knockout::IMPORTANCE_DEFINITION),
        format!("patch-*:     {}", patching::DEFINITION),
        format!("qk:          {}", geometry::QK_DEFINITION),
        format!("similar-heads: {}", geometry::SIMILAR_DEFINITION),
        format!("--corpus:    {}", geometry::corpus::CORPUS_DEFINITION),
    ];
    lines.extend(detectors::DEFINITIONS.iter().map(|(_, d)| format!("detectors:   {d}")));
    format!(
        "Definitions:\n  {}\n\nLayers and heads count from 0. The JSON is {{\"model\", \"text\", \"what\", \"definition\", \"result\"}}.",
        lines.join("\n  ")
    )
}

#[derive(Args)]
#[command(after_help = definitions())]
pub struct AnalyzeArgs {
    /// Which model (its files must be fetched first: `python3 scripts/fetch_models.py`).
    #[arg(long, value_enum, required_unless_present = "model_path")]
    model: Option<AnalyzedModel>,
    /// Analyze your own checkpoint instead: a Hugging Face folder or a .gguf file.
    #[arg(long, value_name = "PATH", conflicts_with = "model")]
    model_path: Option<PathBuf>,
    /// The text to run (not needed for detectors, which run on random tokens or --prompt-text);
    /// for patching, the clean prompt.
    #[arg(long, default_value = "")]
    text: String,
    /// What to compute (definitions below).
    #[arg(long, value_enum)]
    what: What,
    /// knockout: the heads to remove together, as layer.head separated by commas (e.g. 0.3,4.1).
    #[arg(long, value_name = "L.H,...")]
    heads: Option<String>,
    /// knockout, importance: zero the head's output, or replace it with its mean over the
    /// positions.
    #[arg(long, value_enum, default_value_t = AblationArg::Zero)]
    ablation: AblationArg,
    /// logit-lens: the position to read (from 0; default the last token).
    #[arg(long)]
    position: Option<usize>,
    /// logit-lens: also the top token of every position after every layer.
    #[arg(long)]
    grid: bool,
    /// logit-lens, knockout: how many tokens to list.
    #[arg(long, default_value_t = 5)]
    top_k: usize,
    /// patch-*: the corrupted prompt (as many tokens as --text, or see --fit).
    #[arg(long, value_name = "TEXT")]
    corrupt: Option<String>,
    /// patch-*: prompts of different lengths: pad the shorter with spaces, or trim the longer,
    /// where their words differ (default: refuse).
    #[arg(long, value_enum, default_value_t = FitArg::Exact)]
    fit: FitArg,
    /// patch-*: the answer the clean prompt should give (its first token is used).
    #[arg(long, value_name = "TOKEN")]
    right: Option<String>,
    /// patch-*: the answer the corrupted prompt gives instead.
    #[arg(long, value_name = "TOKEN")]
    wrong: Option<String>,
    /// patch-heads: patch each head at the last position only (default: at every position).
    #[arg(long)]
    last_position: bool,
    /// qk: the layer (from 0).
    #[arg(long, default_value_t = 0)]
    layer: usize,
    /// qk: the query head (from 0).
    #[arg(long, default_value_t = 0)]
    head: usize,
    /// qk: move every key by mean(Q) − mean(K) (A is unchanged; the two clouds share a centre).
    #[arg(long)]
    translate_keys: bool,
    /// qk, similar-heads: over the built-in corpus (a few hundred sentences) rather than --text
    /// alone; qk places --text, when given, on the corpus's axes.
    #[arg(long)]
    corpus: bool,
    /// qk: also place the points by t-SNE (exact, seeded; neighbours kept, distances not),
    /// as "tsne": {"queries", "keys"}.
    #[arg(long)]
    tsne: bool,
    /// qk --tsne: the perplexity (about how many neighbours each point keeps).
    #[arg(long, default_value_t = 30.0)]
    perplexity: f64,
    /// qk --tsne: the seed of the starting positions.
    #[arg(long, default_value_t = 1)]
    tsne_seed: u64,
    /// similar-heads: how many clusters to group the heads into.
    #[arg(long, default_value_t = 6)]
    clusters: usize,
    /// detectors: random tokens per copy (the prompt is these, twice).
    #[arg(long, default_value_t = 16)]
    period: usize,
    /// detectors: seed of the random tokens.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// detectors: run on this text's tokens repeated twice instead of random tokens.
    #[arg(long, value_name = "TEXT")]
    prompt_text: Option<String>,
    /// Write the result as JSON ("-" or no flag: stdout).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Folder holding the model files (default: $ATTNSCOPE_MODELS, else www/models).
    #[arg(long, value_name = "DIR")]
    models_dir: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
enum AnalyzedModel {
    /// all-MiniLM-L6-v2 (BERT encoder).
    Minilm,
    /// SmolLM2-135M (Llama decoder).
    Smollm2,
}

#[derive(Clone, Copy, ValueEnum, PartialEq)]
enum What {
    ValueNorms,
    Rollout,
    LogitLens,
    Knockout,
    Importance,
    Detectors,
    /// The residual stream entering each layer at each position (layers × positions).
    PatchResidual,
    /// Each head's output (layers × heads).
    PatchHeads,
    /// The attention block's and the feed-forward block's outputs (layers × positions, two maps).
    PatchBlocks,
    /// One head's queries and keys on their two principal axes (--layer, --head).
    Qk,
    /// The distance between every two heads, the heads' map and clusters.
    SimilarHeads,
}

#[derive(Clone, Copy, ValueEnum)]
enum FitArg {
    Exact,
    Pad,
    Trim,
}

#[derive(Clone, Copy, ValueEnum)]
enum AblationArg {
    Zero,
    Mean,
}

#[derive(Serialize)]
struct Report<'a, T: Serialize> {
    model: &'a str,
    text: &'a str,
    what: &'a str,
    definition: String,
    result: T,
}

pub fn analyze(args: AnalyzeArgs) -> Result<(), Error> {
    let dir = super::models_dir(args.models_dir.clone());
    if let Some(path) = &args.model_path {
        let name = path.file_name().map_or("model".into(), |n| n.to_string_lossy().into_owned());
        return match Checkpoint::open(path)?.load(&name)? {
            Model::Encoder(m) => run(&args, &*m, &|t| m.run(t)),
            Model::Decoder(m) => run(&args, &*m, &|t| m.run(t)),
        };
    }
    match args.model.expect("clap requires --model without --model-path") {
        AnalyzedModel::Minilm => {
            let m = super::load_minilm(&dir)?;
            run(&args, &*m, &|t| m.run(t))
        }
        AnalyzedModel::Smollm2 => {
            let m = super::load_smollm2(&dir)?;
            run(&args, &*m, &|t| m.run(t))
        }
    }
}

/// The corpus job run to the end, its progress on stderr.
fn run_corpus(
    model: &dyn Layered,
    mut job: geometry::corpus::CorpusJob,
) -> Result<geometry::corpus::Corpus, Error> {
    let start = std::time::Instant::now();
    while !job.is_finished() {
        job.step(model)?;
        let (done, total) = job.sentences_done();
        if !job.done().is_multiple_of(20) && !job.is_finished() {
            continue;
        }
        eprint!(
            "\rattnscope: corpus {done}/{total} sentences, {}/{} steps",
            job.done(),
            job.total()
        );
    }
    let corpus = job.finish(model)?;
    eprintln!(
        "\nattnscope: corpus of {} sentences ({} tokens) in {:.1} s, {:.1} MB of points kept",
        corpus.tokens.sentences(),
        corpus.tokens.tokens.len(),
        start.elapsed().as_secs_f64(),
        corpus.bytes() as f64 / 1e6
    );
    Ok(corpus)
}

fn run(
    args: &AnalyzeArgs,
    model: &dyn Layered,
    trace_of: &dyn Fn(&str) -> Result<attnscope::ModelTrace, Error>,
) -> Result<(), Error> {
    let info = model.info();
    let ablation = match args.ablation {
        AblationArg::Zero => knockout::Ablation::Zero,
        AblationArg::Mean => knockout::Ablation::Mean,
    };
    let text = args.text.as_str();
    let out = |what: &str, definition: String, result: serde_json::Value| -> Result<(), Error> {
        let report = Report { model: &info.id, text, what, definition, result };
        let json = serde_json::to_string(&report)
            .map_err(|e| Error::Invalid(format!("cannot write the result: {e}")))?
            + "\n";
        super::write(args.json.as_deref().unwrap_or(std::path::Path::new("-")), json.as_bytes())
    };
    let value = |r: Result<serde_json::Value, serde_json::Error>| {
        r.map_err(|e| Error::Invalid(format!("cannot write the result: {e}")))
    };
    let checked = |t: &str| -> Result<attnscope::ModelTrace, Error> {
        let trace = trace_of(t)?;
        trace.check_finite()?;
        if trace.tokens.is_empty() {
            return Err(Error::Invalid("the text has no tokens: type some text".into()));
        }
        Ok(trace)
    };
    match args.what {
        What::ValueNorms => {
            let trace = checked(text)?;
            let r = value_norms::value_norms(&trace, model, None)?;
            out(
                "value-norms",
                value_norms::DEFINITION.into(),
                serde_json::json!({"tokens": trace.tokens, "layers": r.layers}),
            )
        }
        What::Rollout => {
            let trace = checked(text)?;
            let r = rollout::rollout(&trace);
            out(
                "rollout",
                rollout::DEFINITION.into(),
                serde_json::json!({"tokens": trace.tokens, "layers": r.layers}),
            )
        }
        What::LogitLens => {
            let r = logit_lens::logit_lens(model, text, args.position, args.top_k, args.grid)?;
            out("logit-lens", logit_lens::DEFINITION.into(), value(serde_json::to_value(r))?)
        }
        What::Knockout => {
            let heads = knockout::parse_heads(args.heads.as_deref().unwrap_or(""))?;
            let r = knockout::knockout(model, text, &heads, ablation, args.top_k)?;
            out("knockout", knockout::DEFINITION.into(), value(serde_json::to_value(r))?)
        }
        What::Importance => {
            let total = info.n_layers * info.n_heads;
            let r = knockout::importance(model, text, ablation, &mut |done, _| {
                if done % info.n_heads == 0 {
                    eprint!("\rattnscope: {done}/{total} heads");
                }
                true
            })?;
            eprintln!();
            let r = r.ok_or_else(|| Error::Invalid("cancelled".into()))?;
            out(
                "importance",
                knockout::IMPORTANCE_DEFINITION.into(),
                value(serde_json::to_value(r))?,
            )
        }
        What::PatchResidual | What::PatchHeads | What::PatchBlocks => {
            let (what, sites) = match args.what {
                What::PatchResidual => ("patch-residual", &[patching::Site::Residual][..]),
                What::PatchHeads => ("patch-heads", &[patching::Site::Heads][..]),
                _ => {
                    ("patch-blocks", &[patching::Site::Attention, patching::Site::FeedForward][..])
                }
            };
            let needed = |v: &Option<String>, flag: &str| {
                v.clone().ok_or_else(|| Error::Invalid(format!("{what} needs {flag}")))
            };
            let corrupt = needed(&args.corrupt, "--corrupt TEXT (the corrupted prompt)")?;
            let right = needed(&args.right, "--right TOKEN (the clean prompt's answer)")?;
            let wrong = needed(&args.wrong, "--wrong TOKEN (the corrupted prompt's answer)")?;
            let r = patching::patching(
                model,
                (text, &corrupt),
                (&right, &wrong),
                sites,
                args.last_position,
                match args.fit {
                    FitArg::Exact => patching::Fit::Exact,
                    FitArg::Pad => patching::Fit::Pad,
                    FitArg::Trim => patching::Fit::Trim,
                },
                &mut |done, total| {
                    eprint!("\rattnscope: {done}/{total} layers patched");
                    true
                },
            )?;
            eprintln!();
            let r = r.ok_or_else(|| Error::Invalid("cancelled".into()))?;
            for note in [&r.right.note, &r.wrong.note, &r.fitted].into_iter().flatten() {
                eprintln!("attnscope: note: {note}");
            }
            out(what, patching::DEFINITION.into(), value(serde_json::to_value(r))?)
        }
        What::Qk if args.corpus && args.tsne => Err(Error::Invalid(
            "--tsne places one text's queries and keys; the corpus keeps its points on the principal axes only".into(),
        )),
        What::Qk | What::SimilarHeads if args.corpus => {
            let similar = args.what == What::SimilarHeads;
            let job = geometry::corpus::CorpusJob::start(model, None, similar, args.clusters)?;
            let corpus = run_corpus(model, job)?;
            let mut v = if similar {
                let r = corpus.similar.as_ref().expect("the job was asked for distances");
                value(serde_json::to_value(r))?
            } else {
                let visitor = match text.trim().is_empty() {
                    true => None,
                    false => Some(checked(text)?),
                };
                let qk = visitor.as_ref().and_then(|t| {
                    let at = &t.layers.get(args.layer)?.attention;
                    Some((at.q.get(args.head)?, at.k.get(*at.kv_head_of.get(args.head)?)?))
                });
                let r = corpus.space(args.layer, args.head, args.translate_keys, qk)?;
                let mut v = value(serde_json::to_value(r))?;
                v["text_tokens"] = serde_json::json!(visitor.map(|t| t.tokens));
                v
            };
            v["tokens"] = serde_json::json!(corpus.tokens.tokens);
            v["starts"] = serde_json::json!(corpus.tokens.starts);
            let (what, definition) = match similar {
                true => ("similar-heads", geometry::SIMILAR_DEFINITION),
                false => ("qk", geometry::QK_DEFINITION),
            };
            out(what, format!("{definition}; {}", geometry::corpus::CORPUS_DEFINITION), v)
        }
        What::Qk => {
            let trace = checked(text)?;
            let r = geometry::qk_space(&trace, args.layer, args.head, args.translate_keys)?;
            let mut v = value(serde_json::to_value(r))?;
            v["tokens"] = serde_json::json!(trace.tokens);
            if args.tsne {
                let at = &trace.layers[args.layer].attention;
                let (q, k) = (&at.q[args.head], &at.k[at.kv_head_of[args.head]]);
                let k = match args.translate_keys {
                    true => geometry::translate_keys(q, k).0,
                    false => k.clone(),
                };
                let points: Vec<&[f32]> =
                    (0..q.rows).map(|i| q.row(i)).chain((0..k.rows).map(|j| k.row(j))).collect();
                let options = geometry::tsne::Tsne {
                    perplexity: args.perplexity,
                    seed: args.tsne_seed,
                    ..Default::default()
                };
                let y = geometry::tsne::tsne(&points, options)?;
                v["tsne"] = serde_json::json!({"queries": &y[..q.rows], "keys": &y[q.rows..]});
            }
            out("qk", geometry::QK_DEFINITION.into(), v)
        }
        What::SimilarHeads => {
            let trace = checked(text)?;
            let r = geometry::similar_heads(&trace, args.clusters, &mut |done, total| {
                eprint!("\rattnscope: {done}/{total} pairs of heads compared");
                true
            })?;
            eprintln!();
            let r = r.ok_or_else(|| Error::Invalid("cancelled".into()))?;
            let mut v = value(serde_json::to_value(r))?;
            v["tokens"] = serde_json::json!(trace.tokens);
            out("similar-heads", geometry::SIMILAR_DEFINITION.into(), v)
        }
        What::Detectors => {
            let prompt = match &args.prompt_text {
                Some(t) => detectors::Prompt::from_text(model, t)?,
                None => detectors::Prompt::random(model, args.period, args.seed)?,
            };
            let r = detectors::detectors(model, &prompt)?;
            let definition =
                detectors::DEFINITIONS.iter().map(|(_, d)| *d).collect::<Vec<_>>().join("; ");
            out("detectors", definition, value(serde_json::to_value(r))?)
        }
    }
}
