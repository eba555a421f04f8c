//! Seed 003's worked example in the browser.

use crate::test_support::*;
use crate::views::common::format::num;
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
async fn worked_example_recomputes_live_with_both_scalings() {
    use attnscope::models::seed::WorkedExample;
    let root = mount_app();
    open_tab(&root, "worked", "#worked-s").await;
    let row = |id: &str, i: usize| texts(&root, &format!("#{id} tr:nth-child({}) td", i + 1));
    // The seed's S row 1 is [2, 4, 4]; ÷√4 gives [1, 2, 2].
    assert_eq!(row("worked-s", 0), ["2.0000", "4.0000", "4.0000"]);
    assert_eq!(row("worked-seed-scaled", 0), ["1.0000", "2.0000", "2.0000"]);
    let mut e = WorkedExample::seed_3x4();
    let standard = e.run(attnscope::Mask::None, attnscope::Scale::InvSqrtDk);
    assert_eq!(
        row("worked-standard-a", 0),
        standard.head.weights.row(0).iter().map(|&v| num(v)).collect::<Vec<_>>()
    );

    // Editing x₁₁ recomputes everything.
    let cell: web_sys::HtmlInputElement = find(&root, "#worked-x-0-0");
    cell.set_value("3");
    fire(&cell, "input");
    e.x[(0, 0)] = 3.0;
    let t = e.run(attnscope::Mask::None, e.seed_scale());
    let want: Vec<String> = t.head.weights.row(0).iter().map(|&v| num(v)).collect();
    settle("recomputed after an edit", || row("worked-seed-a", 0) == want).await;
    assert_eq!(row("worked-q", 0), t.q.row(0).iter().map(|&v| num(v)).collect::<Vec<_>>());
    root.remove();
}
