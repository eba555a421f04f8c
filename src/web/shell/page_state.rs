//! The page's state as the address keeps it ([`UrlState`]), read from the context's signals
//! and put back into them: the address (`app.rs`), back and forward, and a class's students
//! following their teacher (`classroom/`) all go through these two.

use crate::state::{Appearance, Selection, Writing};
use crate::url_state::{FollowedWriting, UrlState};
use leptos::prelude::*;

/// Everything the address keeps, as the page holds it now. The theme is kept only where it is
/// not the system's (`system_dark`).
pub fn current(sel: Selection, app: Appearance, writing: Writing, system_dark: bool) -> UrlState {
    UrlState {
        text: sel.text.get(),
        model: sel.model.get(),
        layer: sel.layer.get(),
        head: sel.head.get(),
        view: sel.view.get(),
        token: sel.token.get(),
        stage: sel.stage.get(),
        step: sel.step.get(),
        options: sel.options.get(),
        columns_are_queries: app.columns_are_queries.get(),
        dark: Some(app.dark.get()).filter(|&d| d != system_dark),
        present: app.present.get(),
        embed: app.embed,
        exact: sel.exact.get(),
        writing: writing.settings(),
        write_count: writing.count.get(),
        follow: None,
        lang: crate::i18n::in_address(),
    }
}

/// Takes `s` into the page. `look`: the theme and presentation mode too (a student's own
/// screen keeps its own look).
pub fn apply(s: UrlState, sel: Selection, app: Appearance, writing: Writing, look: bool) {
    app.columns_are_queries.set(s.columns_are_queries);
    if look {
        app.present.set(s.present);
        if let Some(d) = s.dark {
            app.dark.set(d);
        }
    }
    writing.sample.set(!s.writing.greedy);
    writing.top_k.set(s.writing.top_k);
    writing.top_p.set(s.writing.top_p);
    writing.seed.set(s.writing.seed);
    writing.count.set(s.write_count);
    sel.exact.set(s.exact);
    sel.apply(s);
}

/// The state a class's students follow: the teacher's, without the teacher's screen's look,
/// and with the teacher's writing (its prompt, tokens and timeline step), which students' pages
/// write again themselves (`views::write::follow`).
pub fn shared(mut s: UrlState, writing: Writing) -> UrlState {
    s.dark = None;
    s.present = false;
    s.embed = false;
    s.follow = writing.steps.with(|steps| {
        (!steps.is_empty()).then(|| FollowedWriting {
            prompt_chars: writing.prompt.with(|p| p.chars().count()),
            ids: steps.iter().map(|s| s.written.choice.id).collect(),
            at: writing.at.get(),
        })
    });
    s
}
