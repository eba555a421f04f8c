//! Sentences people teach attention with, in each language of the page, each
//! with what to look for. Which head shows it best is never written here: it
//! is found on the run, from the head catalog's measures, from the worker's
//! ranking of heads for a query → key pair, or (induction) from the
//! overview's weights. A preset's sentence is data (it stays in its own
//! language whatever the page speaks); its label and note are messages of
//! `www/i18n/<language>/presets.ftl`.

use crate::compute::{model_name, Engine};
use crate::i18n::Lang;
use crate::state::{Results, Selection};
use crate::url_state::DEFAULT_TEXT;
use crate::views::catalog::Column;
use crate::views::common::format::{fixed, num};
use attnscope::session::{ModelId, RunSummary, ToWorker};
use leptos::prelude::*;

/// What to look for in a preset's sentence.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LookFor {
    /// The head in which the last `query` word attends most to the first `key` word
    /// (words as the sentence writes them; a word the tokenizer cuts into pieces is
    /// found by its first piece).
    Pair { query: &'static str, key: &'static str },
    /// The head scoring highest on a catalog measure (lowest, for entropy).
    Measure(Column),
    /// The head whose queries in a repeat look at the token after their earlier copy.
    Induction,
}

pub struct Preset {
    /// Unique across languages (the picker's option values).
    pub slug: &'static str,
    /// The language of the sentence.
    pub lang: Lang,
    pub text: &'static str,
    /// The model the preset is meant for, if not any.
    pub model: Option<ModelId>,
    pub look_for: &'static [LookFor],
}

use LookFor::{Induction, Measure, Pair};

const REPEAT: &[LookFor] = &[Measure(Column::Previous), Induction];
const SINK: &[LookFor] = &[Measure(Column::First)];

/// Every preset: the English ones first (in the order the page has always listed them),
/// then each other language's, its adjective–noun sentence first.
pub const PRESETS: [Preset; 30] = [
    Preset {
        slug: "fluffy",
        lang: Lang::En,
        text: DEFAULT_TEXT,
        model: None,
        look_for: &[Pair { query: "creature", key: "fluffy" }],
    },
    Preset {
        slug: "animal",
        lang: Lang::En,
        text: "The animal didn't cross the street because it was too tired",
        model: Some(ModelId::MiniLm),
        look_for: &[Pair { query: "it", key: "animal" }],
    },
    Preset {
        slug: "trophy",
        lang: Lang::En,
        text: "The trophy didn't fit in the suitcase because it was too big",
        model: Some(ModelId::MiniLm),
        look_for: &[Pair { query: "it", key: "trophy" }],
    },
    Preset {
        slug: "capital",
        lang: Lang::En,
        text: "The capital of France is",
        model: Some(ModelId::SmolLm2),
        look_for: &[Pair { query: "is", key: "France" }],
    },
    Preset {
        slug: "repeat",
        lang: Lang::En,
        text: "seven kite orbit lamp tunnel violin seven kite orbit lamp tunnel violin",
        model: Some(ModelId::SmolLm2),
        look_for: REPEAT,
    },
    Preset {
        slug: "sink",
        lang: Lang::En,
        text: "Once upon a time there was a little robot who loved to paint",
        model: Some(ModelId::SmolLm2),
        look_for: SINK,
    },
    // Portuguese: the Portuguese → English translator reads these (its encoder's
    // self-attention, and the cross-attention of its translation).
    Preset {
        slug: "pt-criatura",
        lang: Lang::Pt,
        text: "uma criatura azul e fofa vagava pela floresta verdejante",
        model: Some(ModelId::TranslatePtEn),
        look_for: &[Pair { query: "criatura", key: "azul" }],
    },
    Preset {
        slug: "pt-cachorro",
        lang: Lang::Pt,
        text: "O cachorro não atravessou a rua porque ele estava muito cansado",
        model: Some(ModelId::TranslatePtEn),
        look_for: &[Pair { query: "ele", key: "cachorro" }],
    },
    Preset {
        slug: "pt-gatos",
        lang: Lang::Pt,
        text: "A menina que mora ao lado adora gatos pretos",
        model: Some(ModelId::TranslatePtEn),
        look_for: &[Pair { query: "gatos", key: "pretos" }],
    },
    Preset {
        slug: "pt-capital",
        lang: Lang::Pt,
        text: "A capital de Portugal é",
        model: Some(ModelId::SmolLm2),
        look_for: &[Pair { query: "é", key: "Portugal" }],
    },
    Preset {
        slug: "pt-sequencia",
        lang: Lang::Pt,
        text: "sete pipa órbita lâmpada túnel violino sete pipa órbita lâmpada túnel violino",
        model: Some(ModelId::SmolLm2),
        look_for: REPEAT,
    },
    // Spanish.
    Preset {
        slug: "es-criatura",
        lang: Lang::Es,
        text: "una criatura azul y esponjosa recorría el bosque frondoso",
        model: Some(ModelId::MiniLm),
        look_for: &[Pair { query: "criatura", key: "azul" }],
    },
    Preset {
        slug: "es-perro",
        lang: Lang::Es,
        text: "El perro no cruzó la calle porque estaba demasiado cansado",
        model: Some(ModelId::MiniLm),
        look_for: &[Pair { query: "cansado", key: "perro" }],
    },
    Preset {
        slug: "es-capital",
        lang: Lang::Es,
        text: "La capital de España es",
        model: Some(ModelId::SmolLm2),
        look_for: &[Pair { query: "es", key: "España" }],
    },
    Preset {
        slug: "es-secuencia",
        lang: Lang::Es,
        text: "siete cometa órbita lámpara túnel violín siete cometa órbita lámpara túnel violín",
        model: Some(ModelId::SmolLm2),
        look_for: REPEAT,
    },
    Preset {
        slug: "es-sumidero",
        lang: Lang::Es,
        text: "Había una vez un pequeño robot al que le encantaba pintar",
        model: Some(ModelId::SmolLm2),
        look_for: SINK,
    },
    // French.
    Preset {
        slug: "fr-creature",
        lang: Lang::Fr,
        text: "une créature bleue et duveteuse errait dans la forêt verdoyante",
        model: Some(ModelId::MiniLm),
        look_for: &[Pair { query: "créature", key: "bleue" }],
    },
    Preset {
        slug: "fr-jane",
        lang: Lang::Fr,
        text: "Jane visite l'Afrique en septembre",
        model: Some(ModelId::MiniLm),
        look_for: &[Pair { query: "Afrique", key: "visite" }],
    },
    Preset {
        slug: "fr-chat",
        lang: Lang::Fr,
        text: "Le chat n'a pas traversé la rue parce qu'il était trop fatigué",
        model: Some(ModelId::MiniLm),
        look_for: &[Pair { query: "il", key: "chat" }],
    },
    Preset {
        slug: "fr-capitale",
        lang: Lang::Fr,
        text: "La capitale de la France est",
        model: Some(ModelId::SmolLm2),
        look_for: &[Pair { query: "est", key: "France" }],
    },
    Preset {
        slug: "fr-sequence",
        lang: Lang::Fr,
        text: "sept cerf orbite lampe tunnel violon sept cerf orbite lampe tunnel violon",
        model: Some(ModelId::SmolLm2),
        look_for: REPEAT,
    },
    // German.
    Preset {
        slug: "de-wesen",
        lang: Lang::De,
        text: "ein flauschiges blaues Wesen streifte durch den grünen Wald",
        model: Some(ModelId::MiniLm),
        look_for: &[Pair { query: "Wesen", key: "flauschiges" }],
    },
    Preset {
        slug: "de-vogel",
        lang: Lang::De,
        text: "Die Katze fing den Vogel nicht, weil er zu schnell war",
        model: Some(ModelId::MiniLm),
        look_for: &[Pair { query: "er", key: "Vogel" }],
    },
    Preset {
        slug: "de-pokal",
        lang: Lang::De,
        text: "Der Pokal passte nicht in den Koffer, weil er zu groß war",
        model: Some(ModelId::MiniLm),
        look_for: &[Pair { query: "er", key: "Pokal" }],
    },
    Preset {
        slug: "de-hauptstadt",
        lang: Lang::De,
        text: "Die Hauptstadt von Deutschland ist",
        model: Some(ModelId::SmolLm2),
        look_for: &[Pair { query: "ist", key: "Deutschland" }],
    },
    Preset {
        slug: "de-folge",
        lang: Lang::De,
        text: "sieben Drachen Umlaufbahn Lampe Tunnel Geige sieben Drachen Umlaufbahn Lampe Tunnel Geige",
        model: Some(ModelId::SmolLm2),
        look_for: REPEAT,
    },
    // Simplified Chinese: no built-in model reads it (MiniLM knows few of its
    // characters, SmolLM2 cuts them into bytes), so none is proposed but for
    // the repeat, which SmolLM2 copies byte by byte (44 tokens, within THUMB_MAX).
    Preset {
        slug: "zh-shengwu",
        lang: Lang::Zh,
        text: "一只毛茸茸的蓝色小生物在葱郁的森林里漫步",
        model: None,
        look_for: &[Pair { query: "生物", key: "毛茸茸" }],
    },
    Preset {
        slug: "zh-xiaomao",
        lang: Lang::Zh,
        text: "小猫没有过马路，因为它太累了",
        model: None,
        look_for: &[Pair { query: "它", key: "小猫" }],
    },
    Preset {
        slug: "zh-shoudu",
        lang: Lang::Zh,
        text: "中国的首都是",
        model: None,
        look_for: &[Pair { query: "是", key: "中国" }],
    },
    Preset {
        slug: "zh-xulie",
        lang: Lang::Zh,
        text: "七风筝轨道台灯小提琴七风筝轨道台灯小提琴",
        model: Some(ModelId::SmolLm2),
        look_for: REPEAT,
    },
];

impl Preset {
    /// The name the picker lists and the note's heading.
    pub fn label(&self) -> String {
        match self.slug {
            "fluffy" => tr!("preset-fluffy-label"),
            "animal" => tr!("preset-animal-label"),
            "trophy" => tr!("preset-trophy-label"),
            "capital" => tr!("preset-capital-label"),
            "repeat" => tr!("preset-repeat-label"),
            "sink" => tr!("preset-sink-label"),
            "pt-criatura" => tr!("preset-pt-criatura-label"),
            "pt-cachorro" => tr!("preset-pt-cachorro-label"),
            "pt-gatos" => tr!("preset-pt-gatos-label"),
            "pt-capital" => tr!("preset-pt-capital-label"),
            "pt-sequencia" => tr!("preset-pt-sequencia-label"),
            "es-criatura" => tr!("preset-es-criatura-label"),
            "es-perro" => tr!("preset-es-perro-label"),
            "es-capital" => tr!("preset-es-capital-label"),
            "es-secuencia" => tr!("preset-es-secuencia-label"),
            "es-sumidero" => tr!("preset-es-sumidero-label"),
            "fr-creature" => tr!("preset-fr-creature-label"),
            "fr-jane" => tr!("preset-fr-jane-label"),
            "fr-chat" => tr!("preset-fr-chat-label"),
            "fr-capitale" => tr!("preset-fr-capitale-label"),
            "fr-sequence" => tr!("preset-fr-sequence-label"),
            "de-wesen" => tr!("preset-de-wesen-label"),
            "de-vogel" => tr!("preset-de-vogel-label"),
            "de-pokal" => tr!("preset-de-pokal-label"),
            "de-hauptstadt" => tr!("preset-de-hauptstadt-label"),
            "de-folge" => tr!("preset-de-folge-label"),
            "zh-shengwu" => tr!("preset-zh-shengwu-label"),
            "zh-xiaomao" => tr!("preset-zh-xiaomao-label"),
            "zh-shoudu" => tr!("preset-zh-shoudu-label"),
            "zh-xulie" => tr!("preset-zh-xulie-label"),
            _ => self.text.to_string(),
        }
    }

    /// What to look for, and what to change.
    pub fn note(&self) -> String {
        match self.slug {
            "fluffy" => tr!("preset-fluffy-note"),
            "animal" => tr!("preset-animal-note"),
            "trophy" => tr!("preset-trophy-note"),
            "capital" => tr!("preset-capital-note"),
            "repeat" => tr!("preset-repeat-note"),
            "sink" => tr!("preset-sink-note"),
            "pt-criatura" => tr!("preset-pt-criatura-note"),
            "pt-cachorro" => tr!("preset-pt-cachorro-note"),
            "pt-gatos" => tr!("preset-pt-gatos-note"),
            "pt-capital" => tr!("preset-pt-capital-note"),
            "pt-sequencia" => tr!("preset-pt-sequencia-note"),
            "es-criatura" => tr!("preset-es-criatura-note"),
            "es-perro" => tr!("preset-es-perro-note"),
            "es-capital" => tr!("preset-es-capital-note"),
            "es-secuencia" => tr!("preset-es-secuencia-note"),
            "es-sumidero" => tr!("preset-es-sumidero-note"),
            "fr-creature" => tr!("preset-fr-creature-note"),
            "fr-jane" => tr!("preset-fr-jane-note"),
            "fr-chat" => tr!("preset-fr-chat-note"),
            "fr-capitale" => tr!("preset-fr-capitale-note"),
            "fr-sequence" => tr!("preset-fr-sequence-note"),
            "de-wesen" => tr!("preset-de-wesen-note"),
            "de-vogel" => tr!("preset-de-vogel-note"),
            "de-pokal" => tr!("preset-de-pokal-note"),
            "de-hauptstadt" => tr!("preset-de-hauptstadt-note"),
            "de-folge" => tr!("preset-de-folge-note"),
            "zh-shengwu" => tr!("preset-zh-shengwu-note"),
            "zh-xiaomao" => tr!("preset-zh-xiaomao-note"),
            "zh-shoudu" => tr!("preset-zh-shoudu-note"),
            "zh-xulie" => tr!("preset-zh-xulie-note"),
            _ => String::new(),
        }
    }

    /// A sentence not in English whose meaning matters (a query → key pair), read by a
    /// model trained on English text only, or by none the page has built in.
    fn wants_multilingual(&self, running: ModelId) -> bool {
        self.lang != Lang::En
            && self.model != Some(ModelId::TranslatePtEn)
            && running != ModelId::Custom
            && self.look_for.iter().any(|l| matches!(l, Pair { .. }))
    }
}

/// The text the page opens with in `lang` when the address has none: the language's
/// adjective–noun sentence.
pub fn default_text(lang: Lang) -> &'static str {
    let slug = match lang {
        Lang::En => return DEFAULT_TEXT,
        Lang::Pt => "pt-criatura",
        Lang::Es => "es-criatura",
        Lang::Fr => "fr-creature",
        Lang::De => "de-wesen",
        Lang::Zh => "zh-shengwu",
    };
    PRESETS.iter().find(|p| p.slug == slug).map_or(DEFAULT_TEXT, |p| p.text)
}

/// The preset whose sentence is in the box, in any language.
pub fn matching(text: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.text == text.trim())
}

/// A letter without its accent, as uncased tokenizers write it (`créature` → `creature`).
fn unaccented(c: char) -> char {
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => 'a',
        'ç' => 'c',
        'è' | 'é' | 'ê' | 'ë' => 'e',
        'ì' | 'í' | 'î' | 'ï' => 'i',
        'ñ' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' => 'o',
        'ù' | 'ú' | 'û' | 'ü' => 'u',
        'ý' | 'ÿ' => 'y',
        c => c,
    }
}

/// A word or token, lowercased and without accents.
fn folded(s: &str) -> String {
    s.to_lowercase().chars().map(unaccented).collect()
}

/// A token as a word: without the markers tokenizers put on word starts and pieces.
fn bare(token: &str) -> String {
    folded(token.trim().trim_start_matches(['Ġ', '▁']).trim_start_matches("##"))
}

/// Whether the tokens from `start` on spell `word` (folded): one token, or the pieces a
/// tokenizer cut it into.
fn spells(tokens: &[String], start: usize, word: &str) -> bool {
    let mut spelled = String::new();
    for token in &tokens[start..] {
        let piece = bare(token);
        if piece.is_empty() {
            return false;
        }
        spelled.push_str(&piece);
        if spelled == word {
            return true;
        }
        if !word.starts_with(spelled.as_str()) {
            return false;
        }
    }
    false
}

/// The first (or last) token that is `word`, or that begins it when the tokenizer cut it
/// into pieces; case and accents aside.
pub fn find_token(tokens: &[String], word: &str, last: bool) -> Option<usize> {
    let word = folded(word);
    let mut hits = (0..tokens.len()).filter(|&i| spells(tokens, i, &word));
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

/// `select#preset`: choosing one puts its sentence in the box. The page's language's
/// presets come first; in another language than English, the English ones follow in a
/// group of their own.
#[component]
pub fn PresetPicker() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let lang = crate::i18n::lang();
    let listed = move |p: &Preset| p.lang == lang || p.lang == Lang::En;
    let option = move |p: &'static Preset| {
        view! {
            <option
                value=p.slug
                prop:selected=move || {
                    sel.text.with(|t| matching(t).is_some_and(|m| m.slug == p.slug))
                }
            >
                {p.label()}
            </option>
        }
    };
    let own = PRESETS.iter().filter(|p| p.lang == lang).map(option).collect_view();
    let english = (lang != Lang::En).then(|| {
        let group = tr!("preset-english-group");
        let presets = PRESETS.iter().filter(|p| p.lang == Lang::En).map(option).collect_view();
        view! { <optgroup label=group>{presets}</optgroup> }
    });
    view! {
        <div class="field">
            <label for="preset">{tr!("preset-picker-label")}</label>
            <select
                id="preset"
                on:change=move |ev| {
                    if let Some(p) = PRESETS.iter().find(|p| p.slug == event_target_value(&ev)) {
                        sel.text.set(p.text.to_string());
                        sel.token.set(None);
                    }
                }
            >
                <option
                    value=""
                    prop:selected=move || sel.text.with(|t| !matching(t).is_some_and(listed))
                >
                    {tr!("preset-choose")}
                </option>
                {own}
                {english}
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
            if let Pair { query, key } = look {
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
            Pair { query, key } => {
                let (q, k) = res
                    .tokens
                    .with(|t| Some((find_token(t, query, true)?, find_token(t, key, false)?)))?;
                let f = res
                    .found
                    .get()
                    .filter(|f| Some(f.id) == res.run_id() && f.query == q && f.key == k)?;
                let best = f.heads.first()?;
                Some((
                    tr!(
                        "preset-pair",
                        query = query,
                        key = key,
                        layer = best.layer,
                        head = best.head,
                        weight = num(best.weight)
                    ),
                    (best.layer, best.head),
                    Some(q),
                ))
            }
            Measure(column) => {
                let (l, h, v) = res.summary.with(|s| best_by(s.as_ref()?, column))?;
                Some((
                    tr!(
                        "preset-measure",
                        measure = column.label().to_string(),
                        layer = l,
                        head = h,
                        value = num(v)
                    ),
                    (l, h),
                    None,
                ))
            }
            Induction => {
                let (l, h, v) = res.summary.with(|s| best_induction(s.as_ref()?))?;
                Some((tr!("preset-induction", layer = l, head = h, value = num(v)), (l, h), None))
            }
        }
    };
    move || {
        preset().map(|p| {
            let switch = p.model.filter(|&m| m != sel.model.get()).map(|m| {
                let size = fixed(m.download_bytes() as f64 / 1e6, 0);
                let name = model_name(m).to_string();
                view! {
                    <button class="link" id="preset-model" on:click=move |_| sel.model.set(m)>
                        {tr!("preset-switch", model = name, size = size)}
                    </button>
                }
            });
            let multilingual = p.wants_multilingual(sel.model.get()).then(|| {
                view! {
                    <p class="note" id="preset-languages">
                        {tr!("preset-multilingual")}
                    </p>
                }
            });
            view! {
                <section class="card" id="preset-note" aria-labelledby="preset-title">
                    <h2 id="preset-title">{p.label()}</h2>
                    <p class="note">{p.note()}</p>
                    {multilingual}
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

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn tokens(t: &[&str]) -> Vec<String> {
        t.iter().map(|s| s.to_string()).collect()
    }

    #[wasm_bindgen_test]
    fn every_language_has_its_presets_and_their_words_are_in_their_sentences() {
        let mut slugs: Vec<_> = PRESETS.iter().map(|p| p.slug).collect();
        slugs.sort();
        slugs.dedup();
        assert_eq!(slugs.len(), PRESETS.len(), "slugs are unique");
        for lang in Lang::ALL {
            let n = PRESETS.iter().filter(|p| p.lang == lang).count();
            assert!((4..=6).contains(&n), "{lang:?}: {n} presets");
            let opening = default_text(lang);
            assert!(PRESETS.iter().any(|p| p.lang == lang && p.text == opening), "{lang:?}");
        }
        assert_eq!(default_text(Lang::En), DEFAULT_TEXT);
        for p in &PRESETS {
            for look in p.look_for {
                if let Pair { query, key } = look {
                    assert!(p.text.contains(query) && p.text.contains(key), "{}", p.slug);
                }
            }
        }
        assert_eq!(
            matching(" Jane visite l'Afrique en septembre ").map(|p| p.slug),
            Some("fr-jane")
        );
    }

    #[wasm_bindgen_test]
    fn a_word_is_found_whole_in_pieces_and_without_its_accents() {
        // MiniLM: lowercased, accents stripped, words cut into pieces.
        let bert = tokens(&["[CLS]", "jane", "visit", "##e", "l", "'", "af", "##ri", "##que"]);
        assert_eq!(find_token(&bert, "Afrique", true), Some(6));
        assert_eq!(find_token(&bert, "visite", false), Some(2));
        assert_eq!(
            find_token(&tokens(&["une", "creature", "b", "##le", "##ue"]), "créature", true),
            Some(1)
        );
        // SmolLM2: a space marks a word's start.
        let bpe = tokens(&["La", " capital", " de", " Esp", "a", "ña", " es"]);
        assert_eq!(find_token(&bpe, "España", false), Some(3));
        assert_eq!(find_token(&bpe, "es", true), Some(6));
        // Characters one per token.
        let zh = tokens(&["小", "猫", "没", "有", "，", "因", "为", "它"]);
        assert_eq!(find_token(&zh, "小猫", false), Some(0));
        assert_eq!(find_token(&zh, "它", true), Some(7));
        assert_eq!(find_token(&zh, "狗", true), None);
    }
}
