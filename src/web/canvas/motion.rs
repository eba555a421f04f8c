//! Short transitions: a progress from 0 to 1 that the canvases read on
//! every animation frame while it runs. Visitors who ask for less motion
//! (`prefers-reduced-motion`) get the end at once.

use super::paint::now_ms;
use leptos::prelude::*;

/// Whether the visitor asked for less motion.
pub fn reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// A transition's progress, 0 → 1 over `ms`, eased; 1 when at rest.
#[derive(Clone, Copy)]
pub struct Transition {
    progress: RwSignal<f64>,
    started: StoredValue<f64>,
    running: StoredValue<bool>,
    ms: f64,
}

impl Transition {
    pub fn new(ms: f64) -> Self {
        Self {
            progress: RwSignal::new(1.0),
            started: StoredValue::new(0.0),
            running: StoredValue::new(false),
            ms,
        }
    }

    /// Starts again from 0 (or jumps to 1 for reduced motion).
    pub fn start(&self) {
        if reduced_motion() {
            self.progress.set(1.0);
            return;
        }
        self.started.set_value(now_ms());
        self.progress.set(0.0);
        if !self.running.get_value() {
            self.running.set_value(true);
            let this = *self;
            request_animation_frame(move || this.frame());
        }
    }

    fn frame(self) {
        let Some(started) = self.started.try_get_value() else { return };
        let p = (now_ms() - started) / self.ms;
        if p >= 1.0 {
            self.running.set_value(false);
            self.progress.set(1.0);
        } else {
            // Ease in and out: slow at both ends, so the eye follows.
            self.progress.set(p * p * (3.0 - 2.0 * p));
            request_animation_frame(move || self.frame());
        }
    }

    /// The progress now (tracked: a reader redraws every frame).
    pub fn progress(&self) -> f64 {
        self.progress.get()
    }
}
