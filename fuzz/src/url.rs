//! Any text as the page's query string: every value read is within its
//! limits, and what the page writes back reads as the same state (numbers
//! rounded to the 3 decimals the URL keeps, once; after that exactly).

use attnscope::models::sampling::MAX_WRITE;
use attnscope::url_params::{UrlParams, MAX_INDEX, MAX_POSITION, MAX_TEXT_CHARS};

/// One input of the fuzz target `url` (fuzz/fuzz_targets/url.rs).
pub fn run(data: &[u8]) {
    let query = String::from_utf8_lossy(data);
    let p = UrlParams::parse(&query);
    assert!(p.text.as_ref().is_none_or(|t| t.chars().count() <= MAX_TEXT_CHARS));
    assert!(p.layer.is_none_or(|x| x < MAX_INDEX) && p.head.is_none_or(|x| x < MAX_INDEX));
    assert!(
        p.token.is_none_or(|x| x < MAX_POSITION)
            && p.step.is_none_or(|x| (1..MAX_POSITION).contains(&x))
    );
    assert!(p.wp.is_none_or(|x| x <= MAX_TEXT_CHARS));
    assert!(p.wids.as_ref().is_none_or(|ids| (1..=MAX_WRITE).contains(&ids.len())));
    assert!(p.wat.is_none_or(|x| (1..=MAX_WRITE).contains(&x)));
    for f in [p.temp, p.ntemp].into_iter().flatten() {
        assert!(f.is_finite() && (0.1..=10.0).contains(&f));
    }
    let once = UrlParams::parse(&p.to_query());
    let rounded = |f: Option<f32>| f.map(|f| format!("{f:.3}"));
    assert_eq!(
        UrlParams { temp: None, ntemp: None, ..once.clone() },
        UrlParams { temp: None, ntemp: None, ..p.clone() }
    );
    assert_eq!((rounded(once.temp), rounded(once.ntemp)), (rounded(p.temp), rounded(p.ntemp)));
    assert_eq!(UrlParams::parse(&once.to_query()), once);
}
