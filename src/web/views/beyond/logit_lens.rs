//! The logit lens (decoders): the top tokens after each layer at the chosen
//! position, and on request the layers × positions grid of top tokens.

use super::{Analysis, Definition};
use crate::compute::Engine;
use crate::state::{Results, Selection};
use crate::views::common::format::num;
use attnscope::analysis::logit_lens;
use attnscope::attention::Mask;
use attnscope::session::AnalysisRequest;
use leptos::prelude::*;

#[component]
pub fn LogitLensPanel() -> impl IntoView {
    let sel = expect_context::<Selection>();
    let res = expect_context::<Results>();
    let engine = expect_context::<Engine>();
    let an = expect_context::<Analysis>();
    let decoder = move || {
        res.summary.with(|s| {
            s.as_ref().is_some_and(|s| s.info.mask == Mask::Causal && !s.tokens.is_empty())
        })
    };
    Effect::new(move |_| {
        let (run, n, grid) = (res.run_id(), res.tokens.with(Vec::len), an.lens_grid.get());
        let position = sel.query(n);
        let have = an
            .lens
            .with_untracked(|l| l.as_ref().map(|(id, l)| (*id, l.position, l.grid.is_some())));
        if decoder() && run.is_some() && have != run.map(|r| (r, position, grid)) {
            Analysis::ask(
                engine,
                sel,
                AnalysisRequest::LogitLens { position: Some(position), grid },
            );
        }
    });
    let table = move || {
        an.lens.with(|l| {
            let (_, lens) = l.as_ref().filter(|(id, _)| Some(*id) == res.run_id())?;
            let at = lens.tokens.get(lens.position).cloned().unwrap_or_default();
            Some(view! {
                <p class="note">
                    {tr!("beyond-lens-at", token = at.as_str(), position = lens.position)}
                </p>
                <table class="lens" id="lens-table">
                    <thead>
                        <tr>
                            <th scope="col">{tr!("beyond-lens-after-layer")}</th>
                            <th scope="col">{tr!("beyond-lens-top-token")}</th>
                            <th scope="col">"p"</th>
                            <th scope="col">{tr!("beyond-lens-next-four")}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {lens
                            .layers
                            .iter()
                            .enumerate()
                            .map(|(l, top)| {
                                let first = top.first().cloned();
                                view! {
                                    <tr>
                                        <td>{l + 1}</td>
                                        <td class="tok">
                                            {first
                                                .as_ref()
                                                .map(|t| format!("{:?}", t.token))
                                                .unwrap_or_default()}
                                        </td>
                                        <td>
                                            {first.as_ref().map(|t| num(t.p)).unwrap_or_default()}
                                        </td>
                                        <td class="rest">
                                            {top
                                                .iter()
                                                .skip(1)
                                                .map(|t| format!("{:?} {}", t.token, num(t.p)))
                                                .collect::<Vec<_>>()
                                                .join(" · ")}
                                        </td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
                {lens
                    .grid
                    .as_ref()
                    .map(|grid| {
                        view! {
                            <div class="lens-grid-box">
                                <table class="lens-grid" id="lens-grid">
                                    <thead>
                                        <tr>
                                            <th scope="col">{tr!("beyond-layer")}</th>
                                            {lens
                                                .tokens
                                                .iter()
                                                .map(|t| view! { <th scope="col">{t.clone()}</th> })
                                                .collect_view()}
                                        </tr>
                                    </thead>
                                    <tbody>
                                        {grid
                                            .iter()
                                            .enumerate()
                                            .map(|(l, row)| {
                                                view! {
                                                    <tr>
                                                        <th scope="row">{l + 1}</th>
                                                        {row
                                                            .iter()
                                                            .map(|t| {
                                                                view! {
                                                                    <td title=format!("p = {}", num(t.p))>{t.token.clone()}</td>
                                                                }
                                                            })
                                                            .collect_view()}
                                                    </tr>
                                                }
                                            })
                                            .collect_view()}
                                    </tbody>
                                </table>
                            </div>
                        }
                    })}
            })
        })
    };
    view! {
        <section class="analysis" id="logit-lens">
            <h2>{tr!("beyond-lens-title")}</h2>
            <Definition text=logit_lens::DEFINITION />
            {move || {
                if decoder() {
                    view! {
                        <label class="check">
                            <input
                                type="checkbox"
                                id="lens-grid-toggle"
                                prop:checked=move || an.lens_grid.get()
                                on:change=move |ev| an.lens_grid.set(event_target_checked(&ev))
                            />
                            " "
                            {tr!("beyond-lens-every-position")}
                        </label>
                        {table}
                    }
                        .into_any()
                } else {
                    view! { <p class="note">{tr!("beyond-lens-decoders-only")}</p> }.into_any()
                }
            }}
        </section>
    }
}
