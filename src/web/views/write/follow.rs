//! A class's student's page writing what the teacher's page wrote. Only state travels in a
//! class (never a distribution or attention), so the teacher's page sends its prompt's length,
//! the token ids it wrote and the timeline's step it shows (`FollowedWriting`), and the
//! student's page writes the same steps itself: each step asks for the teacher's token
//! (`WriteRequest::follow`), which the worker draws as the teacher's page did (the same seed,
//! step and settings) or takes as it is where a near tie fell the other way. The student then
//! has its own steps, bars and timeline, and shows the teacher's step.
//!
//! ```text
//!   teacher's state ─▶ expect: mark the text written ─▶ apply
//!   follow (effect): model ready, not writing ─▶ steps missing? ─▶ Write{follow: id} …
//!                                              └▶ caught up ─▶ Show the teacher's step
//! ```

use super::Flow;
use crate::state::{LoadState, WriteState, Writing};
use crate::url_state::UrlState;
use leptos::prelude::*;

/// Before a teacher's state `s` is applied: what this page follows of the teacher's writing.
/// When the page's own steps are the start of the teacher's, the teacher's text is marked as
/// written, so that it asks for no run of its own: the missing steps are written instead.
pub fn expect(s: &UrlState, w: Writing) {
    let Some(f) = &s.follow else {
        w.following.set(None);
        return;
    };
    let mine = w.written_ids();
    let prompt: String = s.text.chars().take(f.prompt_chars).collect();
    if f.ids.starts_with(&mine) && (mine.is_empty() || w.prompt.with_untracked(|p| *p == prompt)) {
        w.produced.set_value(Some(s.text.clone()));
    }
    w.following.set(Some(f.clone()));
}

/// Writes the steps the page lacks of the teacher's writing, one at a time, once the model is
/// ready; then shows the teacher's timeline step.
pub fn follow(flow: Flow) {
    let (w, sel, res) = (flow.w, flow.sel, flow.res);
    Effect::new(move |_| {
        let Some(f) = w.following.get() else { return };
        if res.load_state(sel.model.get()) != LoadState::Ready
            || w.state.get() == WriteState::Writing
        {
            return;
        }
        let mine = w.written_ids();
        if !f.ids.starts_with(&mine) {
            // The teacher began another generation: this one is forgotten (and this runs again).
            w.clear();
            return;
        }
        if mine.len() < f.ids.len() {
            if mine.is_empty() {
                let prompt = sel.text.with_untracked(|t| t.chars().take(f.prompt_chars).collect());
                w.prompt.set(prompt);
                w.prompt_tokens.set(0);
                w.ids.set_value(Vec::new());
            }
            w.target.set_value((f.ids.len(), false));
            w.message.set(String::new());
            w.at.set(None);
            w.state.set(WriteState::Writing);
            flow.send(None);
        } else if w.at.get() != f.at {
            flow.show(f.at);
        }
    });
}
