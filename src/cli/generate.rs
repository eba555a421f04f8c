//! `attnscope generate`: a decoder writes a continuation token by token
//! ([`DecoderSession::generate`]), and each step's distribution, choice and
//! the new token's attention are reported, as a table, JSON, PNG or SVG.

use super::{load_smollm2, models_dir, write, write_figure, ModelArg};
use attnscope::checkpoint::{Checkpoint, Model};
use attnscope::draw::{Heatmap, ValueKind};
use attnscope::models::decoder::generate::{Written, MAX_WRITE};
use attnscope::models::decoder::sampling::Sampling;
use attnscope::models::decoder::{Decoder, DecoderSession};
use attnscope::models::two_threads;
use attnscope::trace::ModelTrace;
use attnscope::Error;
use clap::Args;
use serde_json::{json, Value};
use std::path::PathBuf;

#[derive(Args)]
#[command(after_help = "Greedy by default: every step takes the most likely token. --sample, or \
any of --temperature, --top-k, --top-p and --seed, draws from softmax(logits / T) cut to the top \
k and then to the fewest tokens whose probabilities add up to p, renormalized; the draw of step s \
depends only on the seed and s, so the same command writes the same text (and the page, with the \
same settings, the same tokens). --greedy forces the most likely token whatever else is given. \
Writing stops after --tokens tokens, at an end-of-text token, or at the model's context limit.")]
pub struct GenerateArgs {
    /// Which model: SmolLM2 (its file must be fetched first: `python3 scripts/fetch_models.py`).
    /// The other built-in models are encoders or a teaching model, which do not write.
    #[arg(long, value_enum, default_value_t = ModelArg::Smollm2)]
    model: ModelArg,
    /// Write with your own decoder instead: a Hugging Face folder (config.json, tokenizer.json,
    /// model.safetensors or its shards) or a .gguf file (GPT-2, Llama family, Qwen2, Gemma 3).
    #[arg(long, value_name = "PATH", conflicts_with = "model")]
    model_path: Option<PathBuf>,
    /// The prompt to continue; empty (the default) starts from the model's start token.
    #[arg(long, default_value = "")]
    text: String,
    /// How many tokens to write, from 1 to 256 (more is cut to 256).
    #[arg(long, default_value_t = 20)]
    tokens: usize,
    /// Take the most likely token at every step (the default unless a sampling option is given).
    #[arg(long, conflicts_with = "sample")]
    greedy: bool,
    /// Draw each token from the distribution (implied by --temperature, --top-k, --top-p, --seed).
    #[arg(long)]
    sample: bool,
    /// Sampling temperature T > 0 (0 is greedy); the distribution reported is softmax(logits / T).
    #[arg(long, allow_negative_numbers = true)]
    temperature: Option<f32>,
    /// Keep only the k most likely tokens (0, the default, keeps all).
    #[arg(long, value_name = "K")]
    top_k: Option<usize>,
    /// Keep the fewest most likely tokens whose probabilities add up to p (1, the default, keeps
    /// all).
    #[arg(long, value_name = "P", allow_negative_numbers = true)]
    top_p: Option<f32>,
    /// The seed of the draws (default 0).
    #[arg(long)]
    seed: Option<u64>,
    /// Write the prompt's and the generated tokens and ids, the text, each step's top 10 after
    /// the temperature (probabilities, kept by top-k/top-p), the choice and the draw, why writing
    /// stopped, and attention [generated token][layer][head][key]: each generated token's row over
    /// the tokens before it and itself, as JSON ("-" for stdout).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Draw the chosen head's heatmap over the whole text (prompt and generated tokens) as PNG.
    #[arg(long, value_name = "FILE")]
    png: Option<PathBuf>,
    /// Draw the chosen head's heatmap over the whole text as SVG.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Layer to draw (0-based).
    #[arg(long, default_value_t = 0)]
    layer: usize,
    /// Head to draw (0-based).
    #[arg(long, default_value_t = 0)]
    head: usize,
    /// Folder holding the model files (default: $ATTNSCOPE_MODELS, else www/models).
    #[arg(long, value_name = "DIR")]
    models_dir: Option<PathBuf>,
    /// Threads to compute on: with 2, a second thread takes part of every weight product (the
    /// same numbers, bit for bit).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    threads: u8,
}

impl GenerateArgs {
    /// The sampling settings the flags ask for.
    fn settings(&self) -> Sampling {
        let asked = self.sample
            || self.temperature.is_some()
            || self.top_k.is_some()
            || self.top_p.is_some()
            || self.seed.is_some();
        Sampling {
            greedy: self.greedy || !asked,
            temperature: self.temperature.unwrap_or(1.0),
            top_k: self.top_k.unwrap_or(0),
            top_p: self.top_p.unwrap_or(1.0),
            seed: self.seed.unwrap_or(0),
        }
    }
}

/// What one generation gave: the steps and the final trace's text.
struct Generation<'a> {
    name: String,
    prompt: &'a str,
    settings: Sampling,
    asked: usize,
    steps: Vec<Written>,
    trace: &'a ModelTrace,
    /// How many of the trace's tokens are the prompt's (the start token for an empty one).
    n_prompt: usize,
    text: String,
    stop: &'static str,
}

pub fn generate(args: GenerateArgs) -> Result<(), Error> {
    let settings = args.settings();
    settings.check()?;
    if args.tokens == 0 {
        return Err(Error::Invalid("--tokens 0 writes nothing: ask for 1 to 256 tokens".into()));
    }
    let asked = args.tokens.min(MAX_WRITE);
    if args.tokens > MAX_WRITE {
        eprintln!(
            "attnscope: note: --tokens {} is cut to {MAX_WRITE}, the most one generation writes",
            args.tokens
        );
    }
    if args.greedy && (args.temperature.is_some() || args.top_k.is_some() || args.top_p.is_some()) {
        eprintln!(
            "attnscope: note: --greedy takes the most likely token; the temperature, top-k and \
             top-p are not used"
        );
    }
    let mut model = load(&args)?;
    let info = model.info();
    if args.layer >= info.n_layers || args.head >= info.n_heads {
        return Err(Error::Invalid(format!(
            "{} has layers 0–{} and heads 0–{}; asked for layer {} head {}",
            info.name,
            info.n_layers.saturating_sub(1),
            info.n_heads.saturating_sub(1),
            args.layer,
            args.head
        )));
    }
    if args.threads > 1 {
        two_threads::thread::share(&mut model);
    }
    let mut session = DecoderSession::new(model);
    let steps = session.generate(&args.text, asked, &settings)?;
    let model = session.model();
    let trace =
        session.latest().ok_or_else(|| Error::Invalid("the generation left no trace".into()))?;
    trace.check_finite()?;
    if let Some(notice) = &trace.notice {
        eprintln!("attnscope: note: {notice}");
    }
    let ids = trace.token_ids.as_deref().unwrap_or(&[]);
    let n_prompt = ids.len() - steps.len();
    if steps.is_empty() {
        eprintln!(
            "attnscope: note: the prompt fills {}'s context of {} tokens: no room to write",
            info.name, info.max_tokens
        );
    }
    let stop = match steps.last() {
        Some(last) if last.stop.is_some() && model.is_end(last.choice.id) => "end_of_text",
        Some(last) if last.stop.is_some() => "context_limit",
        _ if steps.is_empty() => "context_limit",
        _ => "length",
    };
    let g = Generation {
        name: info.name.clone(),
        prompt: &args.text,
        settings,
        asked,
        text: whole_text(model, ids, n_prompt, &args.text)?,
        steps,
        trace,
        n_prompt,
        stop,
    };
    let to_stdout = args.json.as_deref() == Some(std::path::Path::new("-"));
    if let Some(path) = &args.json {
        write(path, readable(&export(&g)?).as_bytes())?;
    }
    if args.png.is_some() || args.svg.is_some() {
        draw(&g, &args)?;
    }
    if !to_stdout {
        print_steps(&g);
    }
    Ok(())
}

/// The decoder `args` name: SmolLM2, or a checkpoint that must be a decoder.
fn load(args: &GenerateArgs) -> Result<Decoder, Error> {
    if let Some(path) = &args.model_path {
        return match Checkpoint::open(path)?.load("custom")? {
            Model::Decoder(d) => Ok(*d),
            Model::Encoder(e) => Err(Error::Invalid(format!(
                "{} is an encoder ({}): writing is for decoders, which predict the next token \
                 (GPT-2, the Llama family, Qwen2, Gemma 3, SmolLM2)",
                path.display(),
                e.info().name
            ))),
        };
    }
    match args.model {
        ModelArg::Smollm2 => Ok(load_smollm2(&models_dir(args.models_dir.clone()))?.into()),
        ModelArg::Minilm => Err(Error::Invalid(
            "MiniLM is an encoder: writing is for decoders, which predict the next token \
             (--model smollm2, or a decoder's file with --model-path)"
                .into(),
        )),
        ModelArg::Teaching => Err(Error::Invalid(
            "the teaching model has no vocabulary to write with: writing is for decoders \
             (--model smollm2, or a decoder's file with --model-path)"
                .into(),
        )),
    }
}

/// The prompt followed by the written part as the whole decodes it (a
/// SentencePiece decoder drops the space before a text's first word, not
/// before a later one), as the page's writing shows it.
fn whole_text(
    model: &Decoder,
    ids: &[u32],
    n_prompt: usize,
    prompt: &str,
) -> Result<String, Error> {
    let (whole, before) = (model.decode(ids)?, model.decode(&ids[..n_prompt])?);
    let after = match whole.strip_prefix(&before) {
        Some(after) => after.to_string(),
        None => model.decode(&ids[n_prompt..])?,
    };
    Ok(format!("{prompt}{after}"))
}

/// `x` to 6 significant digits (JSON has no NaN or ∞: those are null).
fn short(x: f32) -> Value {
    match format!("{x:.5e}").parse::<f64>() {
        Ok(v) if v.is_finite() => json!(v),
        _ => Value::Null,
    }
}

fn export(g: &Generation) -> Result<Value, Error> {
    let t = g.trace;
    let ids = t.token_ids.as_deref().unwrap_or(&[]);
    let n = g.n_prompt;
    let steps: Vec<Value> = g
        .steps
        .iter()
        .map(|w| {
            let c = &w.choice;
            let top: Vec<Value> = c
                .candidates
                .iter()
                .zip(&w.candidates)
                .map(|(k, token)| {
                    json!({"token": token, "id": k.id, "p": short(k.p), "kept": k.kept})
                })
                .collect();
            json!({
                "step": w.step,
                "token": w.token,
                "id": c.id,
                "p": short(c.p),
                "p_kept": short(c.p_kept),
                "kept": c.kept,
                "kept_mass": short(c.kept_mass),
                "draw": c.draw,
                "top": top,
                "stop": w.stop,
            })
        })
        .collect();
    // Each generated token's row of A: its query over the keys up to its own position.
    let mut attention = Vec::with_capacity(g.steps.len());
    for pos in n..t.tokens.len() {
        let mut layers = Vec::with_capacity(t.layers.len());
        for l in 0..t.layers.len() {
            let heads: Vec<Value> = (0..t.info.n_heads)
                .map(|h| {
                    let a = t.weights(l, h).ok_or_else(|| {
                        Error::Invalid(format!("layer {l} head {h} has no weights"))
                    })?;
                    Ok(Value::Array(a.row(pos)[..=pos].iter().map(|&x| short(x)).collect()))
                })
                .collect::<Result<_, Error>>()?;
            layers.push(Value::Array(heads));
        }
        attention.push(Value::Array(layers));
    }
    let s = &g.settings;
    Ok(json!({
        "model": g.name,
        "prompt": g.prompt,
        "settings": {
            "greedy": s.is_greedy(),
            "temperature": short(s.temperature),
            "top_k": s.top_k,
            "top_p": short(s.top_p),
            "seed": s.seed,
            "tokens": g.asked,
        },
        "prompt_tokens": &t.tokens[..n],
        "prompt_ids": &ids[..n],
        "tokens": &t.tokens[n..],
        "ids": &ids[n..],
        "text": g.text,
        "steps": steps,
        "stop": g.stop,
        "stop_message": g.steps.last().and_then(|w| w.stop.clone()),
        "attention": attention,
    }))
}

/// `object` a field a line, and a list of lists or objects an item a line:
/// readable, without a line for every number of the attention rows.
fn readable(object: &Value) -> String {
    let compact = |v: &Value| v.to_string();
    let Value::Object(fields) = object else { return compact(object) + "\n" };
    let mut out = String::from("{\n");
    for (i, (key, value)) in fields.iter().enumerate() {
        let body = match value {
            Value::Array(items) if items.iter().any(|x| x.is_array() || x.is_object()) => {
                let lines: Vec<String> =
                    items.iter().map(|x| format!("    {}", compact(x))).collect();
                format!("[\n{}\n  ]", lines.join(",\n"))
            }
            _ => compact(value),
        };
        let comma = if i + 1 < fields.len() { "," } else { "" };
        out.push_str(&format!("  {}: {body}{comma}\n", compact(&json!(key))));
    }
    out + "}\n"
}

/// The chosen head's weights over the whole text.
fn draw(g: &Generation, args: &GenerateArgs) -> Result<(), Error> {
    let t = g.trace;
    let head = t.layers[args.layer].attention.head(args.head);
    let title = format!(
        "{}: {} tokens written after {}\nlayer {} · head {} · A = softmax(QKᵀ/√d_k + M) · mask: {}",
        g.name,
        g.steps.len(),
        g.n_prompt,
        args.layer,
        args.head,
        head.mask.name()
    );
    let figure = Heatmap {
        title,
        row_labels: &t.tokens,
        col_labels: &t.tokens,
        values: &head.weights,
        kind: ValueKind::Weights,
        mask: head.mask,
        axes: attnscope::draw::AXES,
    };
    write_figure(&figure, args.svg.as_deref(), args.png.as_deref())?;
    Ok(())
}

/// The prompt, the text, and a row per step; a closed pipe just ends the output.
fn print_steps(g: &Generation) {
    use std::fmt::Write as _;
    let s = &g.settings;
    let how = if s.is_greedy() {
        "greedy".to_string()
    } else {
        format!("T = {}, top-k {}, top-p {}, seed {}", s.temperature, s.top_k, s.top_p, s.seed)
    };
    let mut out = format!("{} · {how}\n", g.name);
    let _ = writeln!(out, "prompt: {}", g.prompt);
    let _ = writeln!(out, "text:   {}", g.text);
    let _ = writeln!(
        out,
        "\n{:>4}  {:<18} {:>7} {:>8} {:>8} {:>6}",
        "step", "token", "id", "p", "p kept", "kept"
    );
    for w in &g.steps {
        let c = &w.choice;
        let token: String = format!("{:?}", w.token).chars().take(18).collect();
        let _ = writeln!(
            out,
            "{:>4}  {token:<18} {:>7} {:>8.4} {:>8.4} {:>6}",
            w.step, c.id, c.p, c.p_kept, c.kept
        );
    }
    let _ = match g.steps.last().and_then(|w| w.stop.as_deref()) {
        Some(why) => writeln!(out, "stopped: {why}"),
        None if g.steps.is_empty() => writeln!(out, "nothing written: the context is full"),
        None => writeln!(out, "stopped: {} tokens written, as asked", g.steps.len()),
    };
    use std::io::Write as _;
    let _ = std::io::stdout().write_all(out.as_bytes());
}
