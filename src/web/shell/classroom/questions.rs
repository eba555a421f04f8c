//! Questions to the room: the teacher asks (tap a token, pick a head, or one of a few written
//! choices), students answer on their phones, anonymously, once each; the teacher's screen
//! shows the answers as bars and can reveal the model's own answer, read from the head shown.

use super::Class;
use crate::state::{Results, Selection};
use crate::url_state::View;
use attnscope::classroom::{Question, QuestionKind};
use leptos::prelude::*;

/// The labels of a question's options, as the page that shows them names them.
fn labels(question: &Question, tokens: &[String]) -> Vec<String> {
    match &question.kind {
        QuestionKind::Token { tokens: n } => (0..*n as usize)
            .map(|i| tokens.get(i).map_or_else(|| format!("#{i}"), |t| t.trim().to_string()))
            .collect(),
        QuestionKind::Head { layers, heads } => {
            (0..*layers).flat_map(|l| (0..*heads).map(move |h| format!("L{l}.H{h}"))).collect()
        }
        QuestionKind::Choice { choices } => choices.clone(),
    }
}

/// The model's own answer to a token question: the key the chosen token's query weighs most
/// in the head the page shows.
fn models_answer(sel: Selection, res: Results, question: &Question) -> Option<usize> {
    let QuestionKind::Token { tokens } = question.kind else { return None };
    res.detail.with(|d| {
        let d = d.as_ref()?;
        let n = d.weights.rows;
        if n != tokens as usize || (d.layer, d.head) != (sel.layer.get(), sel.head.get()) {
            return None;
        }
        let row = d.weights.row(sel.query(n));
        (0..row.len()).filter(|&i| row[i].is_finite()).max_by(|&a, &b| row[a].total_cmp(&row[b]))
    })
}

/// The lesson step's ready question: its kind, prompt (`{q}` is the chosen token), choices and
/// which of them is right (a token or head question is answered by the model itself).
fn lesson_question(step: usize) -> (Kind, &'static str, &'static [&'static str], Option<usize>) {
    match step {
        1 => (
            Kind::Choice,
            "A token's q, k and v are…",
            &[
                "three different tokens",
                "three projections of the same x",
                "the same vector, three times",
            ],
            Some(1),
        ),
        2 => (Kind::Token, "Which key gives “{q}” its largest score q · k?", &[], None),
        3 => (
            Kind::Choice,
            "Without ÷ √d_k, the softmax of large scores becomes…",
            &["flatter: the same weight everywhere", "unchanged", "sharper: nearly all on one key"],
            Some(2),
        ),
        5 => (
            Kind::Choice,
            "With the causal mask, a token attends to…",
            &["itself and the tokens before it", "only the tokens after it", "every token"],
            Some(0),
        ),
        6 => (Kind::Token, "Whose value adds most to the output of “{q}”?", &[], None),
        7 => (Kind::Head, "Which head looks most at the previous token?", &[], None),
        8 => (
            Kind::Choice,
            "Which row of A is used to pick the next token?",
            &["the first token's", "the last token's", "every row votes"],
            Some(1),
        ),
        9 => (
            Kind::Choice,
            "A higher temperature makes the next-token distribution…",
            &["sharper", "unchanged", "flatter"],
            Some(2),
        ),
        10 => (
            Kind::Choice,
            "With the same seed and settings, sampling writes…",
            &["the same text", "a different text each time"],
            Some(0),
        ),
        11 => (
            Kind::Choice,
            "For each new token, the key/value cache saves recomputing…",
            &["the new token's q", "nothing", "every earlier token's k and v"],
            Some(2),
        ),
        12 => (
            Kind::Choice,
            "In Whisper's cross-attention, the keys and values come from…",
            &["the words written so far", "the encoder's frames of sound", "the next word"],
            Some(1),
        ),
        13 => (
            Kind::Choice,
            "The words' times come from…",
            &["every head equally", "the few alignment heads", "the encoder's last layer"],
            Some(1),
        ),
        _ => (Kind::Token, "Which token does “{q}” attend to most?", &[], None),
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Token,
    Head,
    Choice,
}

/// The teacher's form: what kind of question, its prompt (proposed from the page's state), and
/// for a written one its choices, one a line.
#[component]
pub fn AskRoom() -> impl IntoView {
    let class = expect_context::<Class>();
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let kind = RwSignal::new(Kind::Token);
    let prompt = RwSignal::new(String::new());
    let choices = RwSignal::new(String::new());
    // The right choice of a ready question (kept on the teacher's page; never sent).
    let key = RwSignal::new(None::<usize>);
    let chosen_token = move || {
        let tokens = res.tokens.get();
        tokens
            .get(sel.query(tokens.len()))
            .map_or("this token".to_string(), |t| t.trim().to_string())
    };
    let from_lesson = move |_| {
        let (k, text, options, right) = lesson_question(sel.step.get_untracked());
        kind.set(k);
        prompt.set(text.replace("{q}", &untrack(chosen_token)));
        choices.set(options.join("\n"));
        key.set(right);
    };
    // The proposed prompt follows the chosen token and head until the teacher edits it.
    let proposed = move || {
        let tokens = res.tokens.get();
        let query = tokens.get(sel.query(tokens.len())).map_or("this token", |t| t.trim());
        match kind.get() {
            Kind::Token => format!(
                "Which token does “{query}” attend to most in layer {}, head {}?",
                sel.layer.get(),
                sel.head.get()
            ),
            Kind::Head => "Which head attends most to the previous token?".into(),
            Kind::Choice => "Which is true of this head?".into(),
        }
    };
    let ask = move |_| {
        let text = prompt.get_untracked();
        let text = if text.trim().is_empty() { untrack(proposed) } else { text };
        let info = res.summary.with_untracked(|s| s.as_ref().map(|s| s.info.clone()));
        let is_choice = kind.get_untracked() == Kind::Choice;
        let asked = match kind.get_untracked() {
            Kind::Token => QuestionKind::Token { tokens: res.tokens.get_untracked().len() as u32 },
            Kind::Head => QuestionKind::Head {
                layers: info.as_ref().map_or(0, |i| i.n_layers as u32),
                heads: info.as_ref().map_or(0, |i| i.n_heads as u32),
            },
            Kind::Choice => QuestionKind::Choice {
                choices: choices
                    .get_untracked()
                    .lines()
                    .map(|l| l.trim().chars().take(80).collect::<String>())
                    .filter(|l| !l.is_empty())
                    .take(8)
                    .collect(),
            },
        };
        let prompt_text: String = text.chars().take(300).collect();
        let question = Question { prompt: prompt_text, kind: asked };
        if question.options() >= 2 {
            let right = key.get_untracked().filter(|_| is_choice);
            class.key.set(right);
            class.ask_room(question);
            prompt.set(String::new());
            key.set(None);
        }
    };
    let kinds =
        [(Kind::Token, "Tap a token"), (Kind::Head, "Pick a head"), (Kind::Choice, "Choices")];
    view! {
        <details class="ask-room" id="ask-room">
            <summary>"Ask the room"</summary>
            <div class="ask-kinds" role="radiogroup" aria-label="Kind of question">
                {kinds
                    .into_iter()
                    .map(|(k, label)| {
                        view! {
                            <label>
                                <input
                                    type="radio"
                                    name="ask-kind"
                                    prop:checked=move || kind.get() == k
                                    on:change=move |_| kind.set(k)
                                />
                                {label}
                            </label>
                        }
                    })
                    .collect_view()}
            </div>
            <textarea
                id="ask-prompt"
                rows="2"
                maxlength="300"
                placeholder=proposed
                prop:value=move || prompt.get()
                on:input=move |ev| prompt.set(event_target_value(&ev))
            ></textarea>
            <Show when=move || kind.get() == Kind::Choice>
                <textarea
                    id="ask-choices"
                    rows="3"
                    placeholder="One choice a line (two to eight)"
                    prop:value=move || choices.get()
                    on:input=move |ev| {
                        choices.set(event_target_value(&ev));
                        key.set(None);
                    }
                ></textarea>
            </Show>
            <button id="ask-send" on:click=ask>
                "Ask"
            </button>
            <Show when=move || sel.view.get() == View::Lesson>
                <button id="ask-lesson" on:click=from_lesson>
                    "This step's question"
                </button>
            </Show>
        </details>
        <Tally />
    }
}

/// The teacher's tally: a bar per option with its count, the number who answered, and the
/// model's own answer once revealed.
#[component]
fn Tally() -> impl IntoView {
    let class = expect_context::<Class>();
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let revealed = RwSignal::new(false);
    Effect::new(move |_| {
        class.question.with(|q| q.as_ref().map(|(_, q)| q.prompt.clone()));
        revealed.set(false);
    });
    move || {
        let (Some((_, question)), Some((counts, answered))) =
            (class.question.get(), class.answers.get())
        else {
            return None;
        };
        let names = labels(&question, &res.tokens.get());
        let most = counts.iter().copied().max().unwrap_or(0).max(1);
        // The model's own answer to a token question; the right one of a ready question.
        let answer = models_answer(sel, res, &question).or(class.key.get());
        let is_token = matches!(question.kind, QuestionKind::Token { .. });
        // Many options (a long text's tokens, a model's heads): only those answered are listed.
        let shown: Vec<usize> = if counts.len() > 12 {
            (0..counts.len())
                .filter(|&i| counts[i] > 0 || (revealed.get() && Some(i) == answer))
                .collect()
        } else {
            (0..counts.len()).collect()
        };
        Some(view! {
            <div class="tally" id="class-tally">
                <p class="tally-prompt">{question.prompt.clone()}</p>
                <p id="class-answered">
                    {match answered {
                        1 => "1 answer".to_string(),
                        n => format!("{n} answers"),
                    }}
                </p>
                <ol class="tally-bars">
                    {shown
                        .into_iter()
                        .map(|i| {
                            let width = format!("width: {}%", 100 * counts[i] / most);
                            let model = revealed.get() && Some(i) == answer;
                            view! {
                                <li class:model=model data-option=i>
                                    <span class="tally-label">
                                        {names.get(i).cloned().unwrap_or_default()}
                                    </span>
                                    <span class="tally-bar">
                                        <span style=width></span>
                                    </span>
                                    <span class="tally-count">{counts[i]}</span>
                                </li>
                            }
                        })
                        .collect_view()}
                </ol>
                {answer
                    .is_some()
                    .then(|| {
                        view! {
                            <button id="class-reveal" on:click=move |_| revealed.set(true)>
                                {if is_token {
                                    "Reveal the model's answer"
                                } else {
                                    "Reveal the answer"
                                }}
                            </button>
                        }
                    })}
                {(revealed.get())
                    .then(|| {
                        answer
                            .map(|i| {
                                let name = names.get(i).cloned().unwrap_or_default();
                                let said = if is_token {
                                    format!(
                                        "The model: “{name}”, the largest weight of the row",
                                    )
                                } else {
                                    format!("The answer: “{name}”")
                                };
                                view! { <p id="class-model-answer">{said}</p> }
                            })
                    })}
                <button id="class-end-question" on:click=move |_| class.end_question()>
                    "End the question"
                </button>
            </div>
        })
    }
}

/// A student's page: the question asked, answered with a tap.
#[component]
pub fn QuestionCard() -> impl IntoView {
    let class = expect_context::<Class>();
    let res = expect_context::<Results>();
    move || {
        let super::Role::Student { .. } = class.role.get() else { return None };
        let (_, question) = class.question.get()?;
        let names = labels(&question, &res.tokens.get());
        let mine = class.mine.get();
        Some(view! {
            <div class="question-card" id="class-question" role="dialog" aria-label="A question">
                <p class="question-prompt">{question.prompt.clone()}</p>
                <div class="question-options">
                    {names
                        .into_iter()
                        .enumerate()
                        .map(|(i, name)| {
                            let i = i as u32;
                            view! {
                                <button
                                    class:chosen=mine == Some(i)
                                    aria-pressed=if mine == Some(i) { "true" } else { "false" }
                                    data-option=i
                                    on:click=move |_| class.answer(i)
                                >
                                    {name}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
                <p class="question-note">
                    {if mine.is_some() {
                        "Answer sent: tap another to change it."
                    } else {
                        "Tap your answer; the teacher sees the count, not who."
                    }}
                </p>
            </div>
        })
    }
}
