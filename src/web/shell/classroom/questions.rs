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

/// The lesson step's ready question: its kind, prompt (about the chosen token `q`), choices and
/// which of them is right (a token or head question is answered by the model itself).
fn lesson_question(step: usize, q: &str) -> (Kind, String, Vec<String>, Option<usize>) {
    match step {
        1 => (
            Kind::Choice,
            tr!("class-step1"),
            vec![tr!("class-step1-a"), tr!("class-step1-b"), tr!("class-step1-c")],
            Some(1),
        ),
        2 => (Kind::Token, tr!("class-step2", q = q), vec![], None),
        3 => (
            Kind::Choice,
            tr!("class-step3"),
            vec![tr!("class-step3-a"), tr!("class-step3-b"), tr!("class-step3-c")],
            Some(2),
        ),
        5 => (
            Kind::Choice,
            tr!("class-step5"),
            vec![tr!("class-step5-a"), tr!("class-step5-b"), tr!("class-step5-c")],
            Some(0),
        ),
        6 => (Kind::Token, tr!("class-step6", q = q), vec![], None),
        7 => (Kind::Head, tr!("class-step7"), vec![], None),
        8 => (
            Kind::Choice,
            tr!("class-step8"),
            vec![tr!("class-step8-a"), tr!("class-step8-b"), tr!("class-step8-c")],
            Some(1),
        ),
        9 => (
            Kind::Choice,
            tr!("class-step9"),
            vec![tr!("class-step9-a"), tr!("class-step9-b"), tr!("class-step9-c")],
            Some(2),
        ),
        10 => (
            Kind::Choice,
            tr!("class-step10"),
            vec![tr!("class-step10-a"), tr!("class-step10-b")],
            Some(0),
        ),
        11 => (
            Kind::Choice,
            tr!("class-step11"),
            vec![tr!("class-step11-a"), tr!("class-step11-b"), tr!("class-step11-c")],
            Some(2),
        ),
        12 => (
            Kind::Choice,
            tr!("class-step12"),
            vec![tr!("class-step12-a"), tr!("class-step12-b"), tr!("class-step12-c")],
            Some(1),
        ),
        13 => (
            Kind::Choice,
            tr!("class-step13"),
            vec![tr!("class-step13-a"), tr!("class-step13-b"), tr!("class-step13-c")],
            Some(1),
        ),
        _ => (Kind::Token, tr!("class-step-other", q = q), vec![], None),
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
            .map_or_else(|| tr!("class-this-token"), |t| t.trim().to_string())
    };
    let from_lesson = move |_| {
        let (k, text, options, right) =
            lesson_question(sel.step.get_untracked(), &untrack(chosen_token));
        kind.set(k);
        prompt.set(text);
        choices.set(options.join("\n"));
        key.set(right);
    };
    // The proposed prompt follows the chosen token and head until the teacher edits it.
    let proposed = move || {
        let tokens = res.tokens.get();
        let query = tokens
            .get(sel.query(tokens.len()))
            .map_or_else(|| tr!("class-this-token"), |t| t.trim().to_string());
        match kind.get() {
            Kind::Token => tr!(
                "class-propose-token",
                query = query,
                layer = sel.layer.get(),
                head = sel.head.get()
            ),
            Kind::Head => tr!("class-propose-head"),
            Kind::Choice => tr!("class-propose-choice"),
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
    let kinds = [
        (Kind::Token, tr!("class-kind-token")),
        (Kind::Head, tr!("class-kind-head")),
        (Kind::Choice, tr!("class-kind-choice")),
    ];
    view! {
        <details class="ask-room" id="ask-room">
            <summary>{tr!("class-ask-room")}</summary>
            <div class="ask-kinds" role="radiogroup" aria-label=tr!("class-kind-label")>
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
                    placeholder=tr!("class-choices-placeholder")
                    prop:value=move || choices.get()
                    on:input=move |ev| {
                        choices.set(event_target_value(&ev));
                        key.set(None);
                    }
                ></textarea>
            </Show>
            <button id="ask-send" on:click=ask>
                {tr!("class-ask")}
            </button>
            <Show when=move || sel.view.get() == View::Lesson>
                <button id="ask-lesson" on:click=from_lesson>
                    {tr!("class-step-question")}
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
                <p id="class-answered">{tr!("class-answered", count = answered)}</p>
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
                                    tr!("class-reveal-model")
                                } else {
                                    tr!("class-reveal")
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
                                    tr!("class-model-answer", name = name)
                                } else {
                                    tr!("class-the-answer", name = name)
                                };
                                view! { <p id="class-model-answer">{said}</p> }
                            })
                    })}
                <button id="class-end-question" on:click=move |_| class.end_question()>
                    {tr!("class-end-question")}
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
            <div
                class="question-card"
                id="class-question"
                role="dialog"
                aria-label=tr!("class-question-label")
            >
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
                        tr!("class-answer-sent")
                    } else {
                        tr!("class-tap-answer")
                    }}
                </p>
            </div>
        })
    }
}
