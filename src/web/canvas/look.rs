//! What every canvas takes from the page's style: the theme's inks and the
//! size of its labels. The page sets it after restyling itself (theme,
//! presentation mode), so that every canvas redraws in the new look; a
//! canvas that read the style only when it happened to redraw kept its old
//! ink (dark labels on a dark page) and its small type.

use leptos::prelude::*;

pub type Rgb = [u8; 3];

/// A key the mask hides (−∞): a quiet grey on the light page ...
pub const HIDDEN: Rgb = [150, 150, 150];
/// ... and on the dark one, where that light grey outshone every weight
/// but the largest ([`Look::hidden`] is the page's).
pub const HIDDEN_DARK: Rgb = [68, 68, 68];

#[derive(Clone, Debug, PartialEq)]
pub struct Look {
    /// Labels and lines.
    pub ink: String,
    /// Secondary marks (grid rings, hidden keys).
    pub muted: String,
    /// The heatmap's cells of keys the mask hides: a quiet grey for the theme.
    pub hidden: Rgb,
    /// The selected token, head or cell.
    pub focus: String,
    /// Label type size, in CSS pixels (`--label-px`: larger in presentation mode).
    pub label_px: f64,
    /// The page's root font size over the browser's usual 16 px.
    pub zoom: f64,
}

impl Default for Look {
    fn default() -> Self {
        Look {
            ink: "#1b1f24".into(),
            muted: "#8c959f".into(),
            hidden: HIDDEN,
            focus: "#e8175d".into(),
            label_px: 13.0,
            zoom: 1.0,
        }
    }
}

impl Look {
    /// Read from the page's computed style (the default where there is none).
    pub fn current() -> Look {
        let style = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
            .and_then(|el| web_sys::window()?.get_computed_style(&el).ok().flatten());
        let property = |name: &str| {
            style
                .as_ref()
                .and_then(|s| s.get_property_value(name).ok())
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let pixels = |name: &str| {
            property(name)
                .and_then(|px| px.trim_end_matches("px").trim().parse::<f64>().ok())
                .filter(|px| px.is_finite() && *px > 0.0)
        };
        let default = Look::default();
        let zoom = pixels("font-size").map_or(1.0, |px| (px / 16.0).clamp(0.5, 4.0));
        Look {
            ink: property("--ink").unwrap_or(default.ink),
            muted: property("--muted").unwrap_or(default.muted),
            // The theme as the style sets it (`color-scheme`), whichever switch or system setting
            // chose it.
            hidden: if property("color-scheme").as_deref() == Some("dark") {
                HIDDEN_DARK
            } else {
                HIDDEN
            },
            focus: property("--focus").unwrap_or(default.focus),
            label_px: pixels("--label-px").map_or(default.label_px, |px| px.clamp(8.0, 48.0)),
            zoom,
        }
    }

    /// The label font.
    pub fn font(&self) -> String {
        format!("{}px system-ui, -apple-system, 'Segoe UI', sans-serif", self.label_px.round())
    }

    /// A font `scale` times the label size, bold when `bold`.
    pub fn font_scaled(&self, scale: f64, bold: bool) -> String {
        self.font_at(self.label_px * scale, bold)
    }

    /// The label font at `px` pixels, bold when `bold`.
    pub fn font_at(&self, px: f64, bold: bool) -> String {
        format!(
            "{}{}px system-ui, -apple-system, 'Segoe UI', sans-serif",
            if bold { "600 " } else { "" },
            px.round()
        )
    }
}

/// The page's look for a canvas component to track: provided by the page,
/// read once from the style where a component is mounted on its own.
pub fn use_look() -> Signal<Look> {
    use_context::<RwSignal<Look>>().map_or_else(|| Signal::stored(Look::current()), Signal::from)
}
