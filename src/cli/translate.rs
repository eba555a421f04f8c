//! `attnscope translate`: a real English↔Portuguese translation and the
//! cross-attention that produced it (each target token over the source
//! tokens), as JSON, PNG or SVG.

use super::{models_dir, write, write_figure};
use attnscope::attention::Mask;
use attnscope::draw::{Heatmap, ValueKind};
use attnscope::export::TranslationExport;
use attnscope::models::marian::{Direction, Stop, Translation, Translator};
use attnscope::{Error, Matrix};
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::str::FromStr;

#[derive(Args)]
pub struct TranslateArgs {
    /// Source language: en or pt.
    #[arg(long)]
    from: String,
    /// Target language: pt or en.
    #[arg(long)]
    to: String,
    /// The text to translate.
    #[arg(long)]
    text: String,
    /// Write source_tokens, target_tokens, translation, cross_attentions
    /// [layer][head][target][source] and encoder_attentions [layer][head][source][source] as JSON
    /// ("-" for stdout).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Draw the chosen attention as a PNG heatmap.
    #[arg(long, value_name = "FILE")]
    png: Option<PathBuf>,
    /// Draw the chosen attention as an SVG heatmap.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Layer to draw, from 0, or "avg" for the mean over all layers.
    #[arg(long, default_value = "avg")]
    layer: Pick,
    /// Head to draw, from 0, or "avg" for the mean over all heads.
    #[arg(long, default_value = "avg")]
    head: Pick,
    /// Which attention to draw: the decoder's cross-attention (target rows, source columns)
    /// or the encoder's self-attention.
    #[arg(long, value_enum, default_value_t = Part::Cross)]
    attention: Part,
    /// Folder holding the model folders (default: $ATTNSCOPE_MODELS, else www/models).
    #[arg(long, value_name = "DIR")]
    models_dir: Option<PathBuf>,
}

/// One layer or head, or the mean over all of them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pick {
    One(usize),
    Average,
}

impl FromStr for Pick {
    type Err = String;
    fn from_str(s: &str) -> Result<Pick, String> {
        match s {
            "avg" | "average" | "mean" => Ok(Pick::Average),
            n => n
                .parse()
                .map(Pick::One)
                .map_err(|_| format!("expected a number from 0 or \"avg\", not {n:?}")),
        }
    }
}

impl Pick {
    /// The indices picked out of `n` (`what`: "layers" or "heads"), or a message.
    pub fn indices(self, n: usize, what: &str) -> Result<Vec<usize>, Error> {
        match self {
            Pick::Average => Ok((0..n).collect()),
            Pick::One(i) if i < n => Ok(vec![i]),
            Pick::One(i) => Err(Error::Invalid(format!(
                "the model has {what} 0–{}; asked for {what} {i}",
                n.saturating_sub(1)
            ))),
        }
    }

    /// How a figure's title says it (`what`: "layer" or "head").
    pub fn describe(self, what: &str) -> String {
        match self {
            Pick::Average => format!("mean of all {what}s"),
            Pick::One(i) => format!("{what} {i}"),
        }
    }
}

#[derive(Clone, Copy, ValueEnum, PartialEq)]
enum Part {
    Cross,
    Encoder,
}

pub fn translate(args: TranslateArgs) -> Result<(), Error> {
    let direction = Direction::from_languages(&args.from, &args.to).ok_or_else(|| {
        Error::Invalid(format!(
            "cannot translate from {:?} to {:?}: the models are en → pt and pt → en",
            args.from, args.to
        ))
    })?;
    let dir = models_dir(args.models_dir.clone()).join(direction.slug());
    if !dir.join(direction.model_file()).is_file() {
        return Err(Error::ModelFile(format!(
            "{} not found in {}: run `python3 scripts/fetch_models.py {}` (or pass --models-dir)",
            direction.model_file(),
            dir.display(),
            direction.slug()
        )));
    }
    let translator = Translator::load_dir(direction, &dir)?;
    let t = translator.translate(&args.text)?;
    for notice in &t.notices {
        eprintln!("attnscope: note: {notice}");
    }
    if let Some(path) = &args.json {
        write(path, export(&t, &args.text).as_bytes())?;
    }
    if args.png.is_some() || args.svg.is_some() {
        let (values, what) = chosen(&t, args.attention, args.layer, args.head)?;
        let (rows, cols) = match args.attention {
            Part::Cross => (&t.target_tokens, &t.source_tokens),
            Part::Encoder => (&t.source_tokens, &t.source_tokens),
        };
        let title = format!("{}: {:?}\n{what}", direction.name(), t.text);
        // Neither the encoder's attention nor the cross-attention hides a key.
        let figure = Heatmap {
            title,
            row_labels: rows,
            col_labels: cols,
            values: &values,
            kind: ValueKind::Weights,
            mask: Mask::None,
            axes: attnscope::draw::AXES,
        };
        write_figure(&figure, args.svg.as_deref(), args.png.as_deref())?;
    }
    if args.json.is_none() && args.png.is_none() && args.svg.is_none() {
        println!("{}", t.text);
    }
    Ok(())
}

fn export(t: &Translation, text: &str) -> String {
    let (from, to) = t.direction.languages();
    let heads = |layers: &[attnscope::trace::LayerTrace]| -> Vec<Vec<Vec<Vec<f32>>>> {
        layers
            .iter()
            .map(|l| l.attention.heads.iter().map(|h| h.weights.to_rows()).collect())
            .collect()
    };
    TranslationExport {
        model: t.direction.slug(),
        from,
        to,
        text,
        translation: &t.text,
        source_tokens: &t.source_tokens,
        source_ids: Some(&t.source_ids),
        target_tokens: &t.target_tokens,
        target_ids: Some(&t.target_ids),
        cross_attentions: heads(&t.context),
        encoder_attentions: Some(heads(&t.encoder)),
        stop: TranslationExport::stop_name(t.stop == Stop::LengthLimit),
        notices: &t.notices,
    }
    .to_json()
}

/// The weights to draw and a line describing them.
fn chosen(t: &Translation, part: Part, layer: Pick, head: Pick) -> Result<(Matrix, String), Error> {
    let layers = match part {
        Part::Cross => &t.context,
        Part::Encoder => &t.encoder,
    };
    let (n_layers, n_heads) = (layers.len(), layers.first().map_or(0, |l| l.attention.heads.len()));
    let (ls, hs) = (layer.indices(n_layers, "layers")?, head.indices(n_heads, "heads")?);
    let weights: Vec<&Matrix> = ls
        .iter()
        .flat_map(|&l| hs.iter().map(move |&h| &layers[l].attention.heads[h].weights))
        .collect();
    let values = Matrix::mean_of(&weights)
        .ok_or_else(|| Error::Invalid("there is no attention to draw".into()))?;
    let kind = match part {
        Part::Cross => "cross-attention (target × source)",
        Part::Encoder => "encoder self-attention",
    };
    Ok((values, format!("{kind} · {} · {}", layer.describe("layer"), head.describe("head"))))
}
