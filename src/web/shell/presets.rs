//! Sentences people teach attention with, each with what to look for. Which
//! head shows it best is never written here: it is found on the run, from
//! the head catalog's measures, from the worker's ranking of heads for a
//! query → key pair, or (induction) from the overview's weights.

use crate::compute::{model_name, Engine};
use crate::state::{Results, Selection};
use crate::url_state::DEFAULT_TEXT;
use crate::views::catalog::Column;
use crate::views::common::format::num;
use attnscope::session::{ModelId, RunSummary, ToWorker};
use leptos::prelude::*;

/// What to look for in a preset's sentence.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LookFor {
    /// The head in which the last `query` word attends most to the first `key` word.
    Pair { query: &'static str, key: &'static str },
    /// The head scoring highest on a catalog measure (lowest, for entropy).
    Measure(Column),
    /// The head whose queries in a repeat look at the token after their earlier copy.
    Induction,
}

pub struct Preset {
    pub slug: &'static str,
    pub label: &'static str,
    pub text: &'static str,
    pub note: &'static str,
    /// The model the preset is meant for, if not any.
    pub model: Option<ModelId>,
    pub look_for: &'static [LookFor],
}

pub const PRESETS: [Preset; 6] = [
    Preset {
        slug: "fluffy",
        label: "The fluffy blue creature",
        text: DEFAULT_TEXT,
        note: "Nouns gather their adjectives: follow “creature” and see which words it attends to.",
        model: None,
        look_for: &[LookFor::Pair { query: "creature", key: "fluffy" }],
    },
    Preset {
        slug: "animal",
        label: "What is “it”? (the animal)",
        text: "The animal didn't cross the street because it was too tired",
        note: "What does “it” attend to? Change “tired” to “wide” and look again.",
        model: Some(ModelId::MiniLm),
        look_for: &[LookFor::Pair { query: "it", key: "animal" }],
    },
    Preset {
        slug: "trophy",
        label: "What is “it”? (the trophy)",
        text: "The trophy didn't fit in the suitcase because it was too big",
        note: "The same question with a twist: change “big” to “small” — does “it” move to “suitcase”?",
        model: Some(ModelId::MiniLm),
        look_for: &[LookFor::Pair { query: "it", key: "trophy" }],
    },
    Preset {
        slug: "capital",
        label: "The capital of France is …",
        text: "The capital of France is",
        note: "A decoder guesses the next token: SmolLM2 lists “ Paris” first. Which heads bring “France” to the last token?",
        model: Some(ModelId::SmolLm2),
        look_for: &[LookFor::Pair { query: "is", key: "France" }],
    },
    Preset {
        slug: "repeat",
        label: "A random sequence, repeated",
        text: "seven kite orbit lamp tunnel violin seven kite orbit lamp tunnel violin",
        note: "Previous-token heads light the line just below the diagonal; induction heads make each word of the second copy look at the word that followed it the first time.",
        model: Some(ModelId::SmolLm2),
        look_for: &[LookFor::Measure(Column::Previous), LookFor::Induction],
    },
    Preset {
        slug: "sink",
        label: "The first-token sink",
        text: "Once upon a time there was a little robot who loved to paint",
        note: "Heads with nothing to do park their weight on the first token, the “attention sink”: look for a bright first column.",
        model: Some(ModelId::SmolLm2),
        look_for: &[LookFor::Measure(Column::First)],
    },
];

/// The preset whose sentence is in the box.
pub fn matching(text: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.text == text.trim())
}

/// A token as a word: without the markers tokenizers put on word starts and pieces.
fn bare(token: &str) -> String {
    token.trim().trim_start_matches(['Ġ', '▁']).trim_start_matches("##").to_lowercase()
}

/// The first (or last) token that is `word`.
pub fn find_token(tokens: &[String], word: &str, last: bool) -> Option<usize> {
    let word = word.to_lowercase();
    let mut hits = tokens.iter().enumerate().filter(|(_, t)| bare(t) == word).map(|(i, _)| i);
    if last {
        hits.next_back()
    } else {
        hits.next()
    }
}

/// The head with the best value of a catalog measure (the lowest entropy;
/// the highest of anything else).
pub fn best_by(summary: &RunSummary, column: Column) -> Option<(usize, usize, f32)> {
    let lowest = column == Column::Entropy;
    summary
        .catalog
        .iter()
        .map(|s| (s.layer, s.head, column.value(s)))
        .filter(|t| t.2.is_finite())
        .fold(None, |best, t| match best {
            Some(b) if (lowest && b.2 <= t.2) || (!lowest && b.2 >= t.2) => Some(b),
            _ => Some(t),
        })
}

/// The strongest induction head: the mean weight a repeated token gives the
/// token that followed its earlier copy. From the overview's thumbnails,
/// which hold every weight while the text has at most THUMB_MAX tokens.
pub fn best_induction(summary: &RunSummary) -> Option<(usize, usize, f32)> {
    let t = &summary.tokens;
    let n = t.len();
    let pairs: Vec<(usize, usize)> = (2..n)
        .filter_map(|i| (0..i - 1).rev().find(|&p| t[p] == t[i]).map(|p| (i, p + 1)))
        .filter(|&(i, k)| k + 1 < i)
        .collect();
    if pairs.is_empty() {
        return None;
    }
    let mut best = None::<(usize, usize, f32)>;
    for (l, layer) in summary.overview.iter().enumerate() {
        for (h, thumb) in layer.iter().enumerate() {
            if thumb.rows != n || thumb.cols != n {
                return None;
            }
            let score = pairs.iter().filter_map(|&(i, k)| thumb.weight(i, k)).sum::<f32>()
                / pairs.len() as f32;
            if best.is_none_or(|b| score > b.2) {
                best = Some((l, h, score));
            }
        }
    }
    best
}

/// `select#preset`: choosing one puts its sentence in the box.
#[component]
pub fn PresetPicker() -> impl IntoView {
    let sel = expect_context::<Selection>();
    view! {
        <div class="field">
            <label for="preset">"Preset"</label>
            <select
                id="preset"
                on:change=move |ev| {
                    if let Some(p) = PRESETS.iter().find(|p| p.slug == event_target_value(&ev)) {
                        sel.text.set(p.text.to_string());
                        sel.token.set(None);
                    }
                }
            >
                <option value="" prop:selected=move || sel.text.with(|t| matching(t).is_none())>
                    "Choose a sentence…"
                </option>
                {PRESETS
                    .iter()
                    .map(|p| {
                        view! {
                            <option
                                value=p.slug
                                prop:selected=move || {
                                    sel.text.with(|t| matching(t).is_some_and(|m| m.slug == p.slug))
                                }
                            >
                                {p.label}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
        </div>
    }
}

/// `#preset-note`: what to look for in the preset on screen, and the
/// heads that show it best on this run.
#[component]
pub fn PresetNote() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let engine = expect_context::<Engine>();
    let preset = Memo::new(move |_| sel.text.with(|t| matching(t).map(|p| p.slug)));
    let preset = move || preset.get().and_then(|slug| PRESETS.iter().find(|p| p.slug == slug));
    // A pair is ranked by the worker, once per run of a live model: ranking
    // it in a trace file would read every head of the file.
    Effect::new(move |_| {
        if sel.model.get() == ModelId::Trace {
            return;
        }
        let Some(p) = preset() else { return };
        let Some(id) = res.run_id() else { return };
        for look in p.look_for {
            if let LookFor::Pair { query, key } = look {
                let found = res
                    .tokens
                    .with(|t| Some((find_token(t, query, true)?, find_token(t, key, false)?)));
                if let Some((q, k)) = found {
                    engine.send(ToWorker::FindHeads { id, query: q, key: k });
                }
            }
        }
    });
    let suggestion = move |look: LookFor| -> Option<(String, (usize, usize), Option<usize>)> {
        match look {
            LookFor::Pair { query, key } => {
                let (q, k) = res
                    .tokens
                    .with(|t| Some((find_token(t, query, true)?, find_token(t, key, false)?)))?;
                let f = res
                    .found
                    .get()
                    .filter(|f| Some(f.id) == res.run_id() && f.query == q && f.key == k)?;
                let best = f.heads.first()?;
                Some((
                    format!(
                        "“{query}” → “{key}” is strongest in layer {}, head {}: weight {}",
                        best.layer,
                        best.head,
                        num(best.weight)
                    ),
                    (best.layer, best.head),
                    Some(q),
                ))
            }
            LookFor::Measure(column) => {
                let (l, h, v) = res.summary.with(|s| best_by(s.as_ref()?, column))?;
                Some((
                    format!("Strongest “{}”: layer {l}, head {h} ({})", column.label(), num(v)),
                    (l, h),
                    None,
                ))
            }
            LookFor::Induction => {
                let (l, h, v) = res.summary.with(|s| best_induction(s.as_ref()?))?;
                Some((
                    format!("Strongest induction: layer {l}, head {h} (mean weight {})", num(v)),
                    (l, h),
                    None,
                ))
            }
        }
    };
    move || {
        preset().map(|p| {
            let switch = p.model.filter(|&m| m != sel.model.get()).map(|m| {
                let size = format!("{:.0} MB", m.download_bytes() as f64 / 1e6);
                view! {
                    <button class="link" id="preset-model" on:click=move |_| sel.model.set(m)>
                        {format!("Best with {} ({size} download) — switch", model_name(m))}
                    </button>
                }
            });
            view! {
                <section class="card" id="preset-note" aria-labelledby="preset-title">
                    <h2 id="preset-title">{p.label}</h2>
                    <p class="note">{p.note}</p>
                    <ul class="suggestions">
                        {p
                            .look_for
                            .iter()
                            .map(|&look| move || {
                                suggestion(look)
                                    .map(|(text, head, token)| {
                                        view! {
                                            <li>
                                                <button
                                                    class="link suggestion"
                                                    on:click=move |_| {
                                                        sel.select_head(head);
                                                        if let Some(t) = token {
                                                            sel.token.set(Some(t))
                                                        }
                                                    }
                                                >
                                                    {text}
                                                </button>
                                            </li>
                                        }
                                    })
                            })
                            .collect_view()}
                    </ul>
                    {switch}
                </section>
            }
        })
    }
}
