//! `svg#cross-lines`: the alignment picture, the source words in a row above
//! the target words, a line from each target word to each source word as
//! strong as its cross-attention weight. Choosing a target word keeps only
//! its lines bright.

use super::CrossChoice;
use leptos::prelude::*;

/// Lines lighter than this are left out: they would only grey the picture.
const FAINT: f32 = 0.02;
const WIDTH: f64 = 1000.0;
const HEIGHT: f64 = 300.0;

fn word(piece: &str) -> String {
    piece.replace('▁', " ").trim().to_string()
}

/// Where token `i` of `n` sits across the picture.
fn x_of(i: usize, n: usize) -> f64 {
    (i as f64 + 0.5) * WIDTH / n.max(1) as f64
}

#[component]
pub fn CrossLines() -> impl IntoView {
    let choice = expect_context::<CrossChoice>();
    let picture = move || {
        choice.summary.with(|t| {
            let t = t.as_ref()?;
            let w = t.weights(choice.layer.get(), choice.head.get())?;
            let rows = choice.rows(t).min(w.rows);
            let (n_s, n_t) = (t.source_tokens.len(), t.target_tokens.len());
            let chosen = choice.target.get().filter(|&i| i < rows);
            // Small type when many tokens share the width.
            let font = (WIDTH / n_s.max(n_t) as f64 * 0.28).clamp(9.0, 22.0);
            let mut lines = Vec::new();
            for i in 0..rows {
                for j in 0..w.cols {
                    let a = w[(i, j)];
                    if a < FAINT {
                        continue;
                    }
                    let dim = chosen.is_some_and(|c| c != i);
                    let opacity = if dim { 0.08 * a } else { a.max(0.15) };
                    lines.push(view! {
                        <line
                            x1=x_of(j, n_s)
                            y1="60"
                            x2=x_of(i, n_t)
                            y2=HEIGHT - 60.0
                            stroke-width=format!("{:.1}", 1.0 + 7.0 * a)
                            stroke-opacity=format!("{opacity:.3}")
                            data-weight=format!("{a:.4}")
                            class="cross-line"
                        />
                    });
                }
            }
            let source = t
                .source_tokens
                .iter()
                .enumerate()
                .map(|(j, p)| {
                    view! {
                        <text
                            x=x_of(j, n_s)
                            y="40"
                            font-size=font
                            text-anchor="middle"
                            class="source-word"
                        >
                            {word(p)}
                        </text>
                    }
                })
                .collect_view();
            let target = t
                .target_tokens
                .iter()
                .enumerate()
                .take(rows)
                .map(|(i, p)| {
                    view! {
                        <text
                            x=x_of(i, n_t)
                            y=HEIGHT - 32.0
                            font-size=font
                            text-anchor="middle"
                            class="target-word"
                            class:chosen=chosen == Some(i)
                            on:click=move |_| choice.target.set(Some(i))
                        >
                            {word(p)}
                        </text>
                    }
                })
                .collect_view();
            Some(view! {
                <svg
                    id="cross-lines"
                    viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                    role="img"
                    aria-label=tr!("translation-lines-aria")
                >
                    <g class="lines">{lines}</g>
                    <g>{source}</g>
                    <g>{target}</g>
                </svg>
            })
        })
    };
    view! {
        <p class="translate-caption">
            {move || tr!("translation-lines-caption", which = choice.which())}
        </p>
        <div class="translate-lines">{picture}</div>
    }
}
