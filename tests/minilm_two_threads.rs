//! MiniLM on two threads ([`attnscope::models::two_threads`]): a helper thread
//! holding the second half of the panels of every packed matrix, sharing
//! its pieces with the model's thread, gives bit-for-bit the traces and
//! embeddings of the model alone, up to its 256-token limit and through the
//! analyses' layer-by-layer runs; a helper that never delivers changes
//! nothing either.

mod common;

use attnscope::checkpoint::minilm::MiniLm;
use attnscope::models::two_threads::Shares;
use attnscope::trace::layered::Layered;
use common::thread_helper::{assert_same, Stuck, ThreadHelper};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

fn load() -> MiniLm {
    MiniLm::load_dir(&common::minilm_dir()).unwrap_or_else(|e| panic!("loading MiniLM: {e}"))
}

fn texts() -> Vec<String> {
    let long = serde_json::from_str::<serde_json::Value>(&common::fixture_text("minilm/long.json"))
        .unwrap()["text"]
        .as_str()
        .unwrap()
        .to_string();
    vec![
        "a fluffy blue creature roamed the verdant forest".into(),
        "Hi!".into(),
        "Ça va? 🤖 <script>alert(1)</script> 東京".into(),
        long,
    ]
}

#[test]
fn two_threads_give_the_one_thread_results_bit_for_bit() {
    let whole = load();
    let mut halves = load();
    let shard = halves.shard();
    assert_eq!(shard.matrices.len(), 6 * 6);
    assert_eq!(halves.shared().len(), 36);
    let helper = ThreadHelper::start(shard);
    let delivered = helper.delivered();
    halves.set_helper(Some(Box::new(helper)));
    assert_eq!((halves.threads(), whole.threads()), (2, 1));
    for text in texts() {
        let (a, b) = (whole.run(&text).unwrap(), halves.run(&text).unwrap());
        assert_same(&a, &b, &text);
    }
    assert!(delivered.load(Ordering::Relaxed) > 0, "the helper delivered pieces");
    // The analyses run layer by layer through the same products.
    let ids: Vec<u32> = whole.tokens("the cat sat on the mat").unwrap().0;
    let (ea, eb) = (whole.embed(&ids).unwrap(), halves.embed(&ids).unwrap());
    let ((ta, ha), (tb, hb)) =
        (whole.layer(3, &ea, None).unwrap(), halves.layer(3, &eb, None).unwrap());
    assert_eq!((ha.data, ta.delta.data), (hb.data, tb.delta.data), "layer 3 alone");
}

#[test]
fn a_helper_that_never_delivers_changes_nothing() {
    let whole = load();
    let mut model = load();
    let asked = Arc::new(AtomicUsize::new(0));
    model.set_helper(Some(Box::new(Stuck(asked.clone()))));
    for text in texts() {
        assert_same(&whole.run(&text).unwrap(), &model.run(&text).unwrap(), &text);
    }
    assert!(asked.load(Ordering::Relaxed) >= 6 * 4, "every layer asked the helper");
}
