//! The head catalog: what every head does, measured from its full weights
//! (`RunSummary::catalog`), sortable; and "find heads": which heads make one
//! chosen token attend to another (ranked by the worker from the full A).

use crate::explain::num;
use attnscope::analysis::{HeadMatch, HeadStats};
use attnscope::session::RunSummary;
use leptos::prelude::*;

/// A find-heads answer, for the run `id`.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub id: u64,
    pub query: usize,
    pub key: usize,
    pub heads: Vec<HeadMatch>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    Head,
    Entropy,
    Distance,
    Previous,
    First,
    SelfToken,
}

impl Column {
    pub const ALL: [Column; 6] = [Column::Head, Column::Entropy, Column::Distance, Column::Previous, Column::First, Column::SelfToken];

    pub fn slug(self) -> &'static str {
        match self {
            Column::Head => "head",
            Column::Entropy => "entropy",
            Column::Distance => "distance",
            Column::Previous => "previous",
            Column::First => "first",
            Column::SelfToken => "self",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Column::Head => "Layer · head",
            Column::Entropy => "Entropy (bits)",
            Column::Distance => "Mean distance (tokens)",
            Column::Previous => "Previous token",
            Column::First => "First token (sink)",
            Column::SelfToken => "Itself",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Column::Head => "Where the head sits",
            Column::Entropy => "Mean entropy of a row: 0 when each query looks at one key, log2(n) when it spreads evenly",
            Column::Distance => "Mean |i − j| weighted by A: how far the head looks",
            Column::Previous => "Mean weight on the token just before the query",
            Column::First => "Mean weight on the first token, the “attention sink”",
            Column::SelfToken => "Mean weight on the query's own token",
        }
    }

    fn value(self, s: &HeadStats) -> f32 {
        match self {
            Column::Head => (s.layer * 10_000 + s.head) as f32,
            Column::Entropy => s.entropy_bits,
            Column::Distance => s.mean_distance,
            Column::Previous => s.previous_token,
            Column::First => s.first_token,
            Column::SelfToken => s.self_token,
        }
    }
}

/// Sorts the catalog by `column`, largest first when `descending`.
pub fn sorted(stats: &[HeadStats], column: Column, descending: bool) -> Vec<HeadStats> {
    let mut out = stats.to_vec();
    out.sort_by(|a, b| {
        let o = column.value(a).total_cmp(&column.value(b)).then((a.layer, a.head).cmp(&(b.layer, b.head)));
        if descending {
            o.reverse()
        } else {
            o
        }
    });
    out
}

/// `#catalog`: one row per head; click a row (or its button) to select that head.
#[component]
pub fn Catalog(
    summary: ReadSignal<Option<RunSummary>>,
    #[prop(into)] selected: Signal<(usize, usize)>,
    on_select: Callback<(usize, usize)>,
) -> impl IntoView {
    let (sort, set_sort) = signal((Column::Head, false));
    let names = move || summary.with(|s| s.as_ref().map(|s| s.head_notes.clone()).unwrap_or_default());
    let header = move |c: Column| {
        let aria_sort = move || {
            let (col, desc) = sort.get();
            if col != c {
                "none"
            } else if desc {
                "descending"
            } else {
                "ascending"
            }
        };
        view! {
            <th scope="col" aria-sort=aria_sort title=c.title()>
                <button id=format!("sort-{}", c.slug()) on:click=move |_| set_sort.update(|(col, desc)| {
                    // A new column sorts largest first (except the head order); the same one flips.
                    if *col == c { *desc = !*desc } else { *col = c; *desc = c != Column::Head }
                })>{c.label()}{move || match sort.get() { (col, true) if col == c => " ▼", (col, false) if col == c => " ▲", _ => "" }}</button>
            </th>
        }
    };
    let rows = move || {
        let (col, desc) = sort.get();
        let notes = names();
        summary.with(|s| {
            let stats = s.as_ref().map(|s| sorted(&s.catalog, col, desc)).unwrap_or_default();
            stats
                .into_iter()
                .map(|s| {
                    let (l, h) = (s.layer, s.head);
                    let name = notes.get(h).and_then(|n| n.split(':').next()).map(str::to_string).filter(|_| l == 0 && !notes.is_empty());
                    view! {
                        <tr class="catalog-row" id=format!("catalog-{l}-{h}") class:selected=move || selected.get() == (l, h)
                            aria-selected=move || (selected.get() == (l, h)).to_string()
                            on:click=move |_| on_select.run((l, h))>
                            <th scope="row"><button class="catalog-select" aria-label=format!("Select layer {l}, head {h}")
                                on:click=move |ev| { ev.stop_propagation(); on_select.run((l, h)) }>
                                {format!("L{l} · H{h}")}{name.map(|n| format!(" — {n}"))}</button></th>
                            <td>{num(s.entropy_bits)}</td>
                            <td>{num(s.mean_distance)}</td>
                            <td>{num(s.previous_token)}</td>
                            <td>{num(s.first_token)}</td>
                            <td>{num(s.self_token)}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <div class="table-wrap">
            <table id="catalog">
                <caption>"Every head, measured from its attention weights on this text. Sort by a column; choose a row to select that head."</caption>
                <thead><tr>{Column::ALL.into_iter().map(header).collect_view()}</tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

/// `#find`: choose a query word and a key word; the worker ranks every head.
#[component]
pub fn FindHeads(
    #[prop(into)] tokens: Signal<Vec<String>>,
    found: ReadSignal<Option<Found>>,
    /// The id of the run now shown (older answers are not shown).
    #[prop(into)]
    run_id: Signal<Option<u64>>,
    on_find: Callback<(usize, usize)>,
    on_select: Callback<(usize, usize)>,
) -> impl IntoView {
    let (query, set_query) = signal(0usize);
    let (key, set_key) = signal(0usize);
    let picker = move |id: &'static str, value: ReadSignal<usize>, set: WriteSignal<usize>| {
        view! {
            <select id=id on:change=move |ev| set.set(event_target_value(&ev).parse().unwrap_or(0))>
                {move || tokens.get().into_iter().enumerate().map(|(i, t)| view! {
                    <option value=i.to_string() prop:selected=move || value.get() == i>{format!("{i}: {t}")}</option>
                }).collect_view()}
            </select>
        }
    };
    let answer = move || {
        let toks = tokens.get();
        let f = found.get().filter(|f| Some(f.id) == run_id.get())?;
        let word = |i: usize| toks.get(i).cloned().unwrap_or_default();
        Some(view! {
            <p class="note">{format!("Heads ranked by how much “{}” attends to “{}”:", word(f.query), word(f.key))}</p>
            <ol id="found-heads">
                {f.heads.iter().take(10).map(|m| {
                    let (l, h) = (m.layer, m.head);
                    view! { <li><button class="found-head" on:click=move |_| on_select.run((l, h))>{format!("L{l} · H{h}: {}", num(m.weight))}</button></li> }
                }).collect_view()}
            </ol>
        })
    };
    view! {
        <fieldset class="lesson" id="find">
            <legend>"Find heads"</legend>
            <div class="picker">
                <label for="find-query">"Query word"</label>
                {picker("find-query", query, set_query)}
                <label for="find-key">"attends to"</label>
                {picker("find-key", key, set_key)}
                <button id="find-heads" on:click=move |_| {
                    let n = tokens.with(Vec::len);
                    let (q, k) = (query.get_untracked(), key.get_untracked());
                    if q < n && k < n { on_find.run((q, k)) }
                }>"Rank the heads"</button>
            </div>
            {answer}
        </fieldset>
    }
}
