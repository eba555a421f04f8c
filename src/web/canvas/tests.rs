//! The canvas kit in the browser: how big a map is drawn.

use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
fn a_map_of_up_to_forty_tokens_fills_its_box_and_two_tokens_stay_sensible() {
    use crate::canvas::{Layout, Look};
    let look = Look::default();
    // A 1080p stage's box, and a projector's.
    for room in [(1400.0, 900.0), (900.0, 520.0)] {
        let side = f64::min(room.0, room.1);
        for n in [3, 5, 8, 16, 40] {
            let (w, h) = Layout::fit(90.0, n, n, room, &look).size();
            assert!(w <= room.0 && h <= room.1, "{n} tokens: {w}×{h} does not fit {room:?}");
            assert!(
                h.max(w) >= 0.8 * side,
                "{n} tokens fill only {:.0}% of {side}",
                100.0 * h.max(w) / side
            );
        }
        let two = Layout::fit(90.0, 2, 2, room, &look);
        assert_eq!(
            two.cell,
            (side / 4.0).floor(),
            "two tokens' cells are a quarter of the shorter side"
        );
    }
}

#[wasm_bindgen_test]
fn chinese_and_japanese_labels_stand_upright_and_the_rest_turn() {
    use crate::canvas::grid::upright;
    for token in ["生物", "毛茸茸", "，", "カタカナ", "한국"] {
        assert!(upright(token), "{token}");
    }
    for token in ["", "fluffy", "ĠParis", "生物s", "1", "▁森林", " 的"] {
        // (A leading space is trimmed before the page asks.)
        assert!(!upright(token), "{token:?}");
    }
}
