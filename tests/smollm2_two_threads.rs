//! SmolLM2 on two threads ([`attnscope::models::two_threads`]): a helper thread
//! holding the second part of every matrix's rows, sharing its pieces with
//! the model's thread, gives bit-for-bit the traces and next-token
//! distributions of the model alone, for full runs and for tokens appended
//! to the cache; a helper that never delivers changes nothing either; runs
//! shorter than the helper's threshold never ask it.

mod common;

use attnscope::checkpoint::smollm2::{SmolLm2, SmolLm2Session};
use common::thread_helper::{assert_same, Stuck, ThreadHelper};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::smollm2_owned as load;

const TEXTS: [&str; 3] =
    ["The capital of France is", "Hi!", "In 2024, 17 robots 🤖 wrote <|im_start|> poems."];

/// The model with a helper thread holding its shard, for runs of at least
/// `from` new tokens; and the count of pieces the helper delivers.
fn with_helper(from: usize) -> (SmolLm2, Arc<AtomicUsize>) {
    let (model, delivered, _) = with_helper_counting_heads(from);
    (model, delivered)
}

/// [`with_helper`], and the count of heads the helper delivers.
fn with_helper_counting_heads(from: usize) -> (SmolLm2, Arc<AtomicUsize>, Arc<AtomicUsize>) {
    let mut model = load();
    let shard = model.shard();
    assert_eq!(shard.matrices.len(), 30 * 7 + 1);
    let helper = ThreadHelper::start(shard);
    let (delivered, heads) = (helper.delivered(), helper.heads_delivered());
    model.set_helper(Some(Box::new(helper)), from);
    (model, delivered, heads)
}

#[test]
fn two_threads_give_the_one_thread_results_bit_for_bit() {
    let whole = load();
    let (halves, delivered) = with_helper(1);
    assert!(halves.has_helper());
    assert_eq!((halves.threads_for(1), whole.threads_for(16)), (2, 1));
    for text in TEXTS {
        assert_same(&whole.run(text).unwrap(), &halves.run(text).unwrap(), text);
    }
    assert!(delivered.load(Ordering::Relaxed) > 0, "the helper delivered pieces");

    // Typing at the end: each appended token, through the cache, on both.
    let (mut one, mut two) = (SmolLm2Session::new(whole), SmolLm2Session::new(halves));
    let mut text = String::from("The capital of");
    assert_same(one.run(&text).unwrap(), &two.run(&text).unwrap().clone(), &text);
    for word in [" France", " is", " Paris", "."] {
        text.push_str(word);
        let a = one.run(&text).unwrap().clone();
        let b = two.run(&text).unwrap().clone();
        assert!(
            two.reused_tokens() > 0 && two.threads() == 2,
            "the appended token went through the cache, on two threads"
        );
        assert_same(&a, &b, &text);
    }
}

#[test]
fn a_helper_that_never_delivers_changes_nothing() {
    let whole = load();
    let mut model = load();
    model.set_helper(Some(Box::new(Stuck(Arc::new(AtomicUsize::new(0))))), 1);
    for text in TEXTS {
        assert_same(&whole.run(text).unwrap(), &model.run(text).unwrap(), text);
    }
}

#[test]
fn runs_shorter_than_the_helper_threshold_stay_on_this_thread() {
    let asked = Arc::new(AtomicUsize::new(0));
    let mut model = load();
    model.set_helper(Some(Box::new(Stuck(asked.clone()))), 4);
    let mut session = SmolLm2Session::new(model);
    session.run("Hi").unwrap();
    assert_eq!(
        (asked.load(Ordering::Relaxed), session.threads()),
        (0, 1),
        "one token is not shared"
    );
    session.run("Hi there").unwrap();
    assert_eq!(
        (asked.load(Ordering::Relaxed), session.reused_tokens(), session.threads()),
        (0, 1, 1),
        "nor is one appended token"
    );
    session.run("The capital of France is").unwrap();
    assert!(asked.load(Ordering::Relaxed) > 0, "five new tokens are");
    assert_eq!(session.threads(), 2);
}

#[test]
fn a_long_texts_heads_shared_with_the_helper_are_those_computed_alone() {
    // Past 12 tokens the models keep only Q, K, V and each head's sums, as
    // they do past 256 in the page: the heads are then shared.
    let text = "A fluffy blue creature 🤖 roamed the verdant forest; the old lighthouse keeper wrote a letter from Lisbon.";
    let mut whole = load();
    whole.set_keep_weights_up_to(12);
    let (mut halves, _, heads) = with_helper_counting_heads(1);
    halves.set_keep_weights_up_to(12);
    let (a, b) = (whole.run(text).unwrap(), halves.run(text).unwrap());
    assert!(
        a.tokens.len() > 12 && a.layers.iter().all(|l| l.summaries.is_some()),
        "the long text's path"
    );
    assert_same(&a, &b, text);
    for (l, (la, lb)) in a.layers.iter().zip(&b.layers).enumerate() {
        assert_eq!(la.summaries, lb.summaries, "layer {l}: each head's sums");
        for h in 0..la.attention.heads.len() {
            assert_eq!(
                la.attention.head(h).weights.data,
                lb.attention.head(h).weights.data,
                "layer {l} head {h} computed again"
            );
        }
    }
    assert!(heads.load(Ordering::Relaxed) > 0, "the helper computed heads");
}

#[test]
fn the_analyses_on_two_threads_are_those_on_one() {
    use attnscope::analysis::knockout::{importance, knockout, Ablation, HeadRef};
    use attnscope::analysis::logit_lens::{logit_lens, logit_lens_of_trace};
    use attnscope::trace::layered::Layered;
    let whole = load();
    let (halves, delivered) = with_helper(1);
    let text = TEXTS[0];
    let (a, b): (&dyn Layered, &dyn Layered) = (&*whole, &*halves);
    // As the page asks it: from the run's trace, each layer's feed-forward on one row.
    let trace = whole.run(text).unwrap();
    let kept = |m: &dyn Layered| {
        logit_lens_of_trace(m, &trace, None, 5)
            .unwrap()
            .expect("Llama finishes a layer from its trace")
    };
    assert_eq!(kept(a), kept(b), "the logit lens from the trace");
    assert_eq!(
        logit_lens(a, text, None, 5, true).unwrap(),
        logit_lens(b, text, None, 5, true).unwrap(),
        "the logit lens with its grid"
    );
    let heads = [HeadRef { layer: 0, head: 0 }, HeadRef { layer: 3, head: 2 }];
    assert_eq!(
        knockout(a, text, &heads, Ablation::Zero, 5).unwrap(),
        knockout(b, text, &heads, Ablation::Zero, 5).unwrap(),
        "a knockout"
    );
    // Each layer's heads knocked out together, the variants' rows stacked.
    let map = |m: &dyn Layered| {
        importance(m, TEXTS[1], Ablation::Mean, &mut |_, _| true).unwrap().expect("not cancelled")
    };
    assert_eq!(map(a), map(b), "the importance map");
    assert!(delivered.load(Ordering::Relaxed) > 0, "the helper delivered pieces");
}

#[test]
fn patching_on_two_threads_gives_the_one_thread_map_bit_for_bit() {
    use attnscope::analysis::patching::{patching, Fit, Site};
    let whole = load();
    let (halves, delivered) = with_helper(1);
    let prompts = (
        "When Mary and John went to the store, John gave a drink to",
        "When Mary and John went to the store, Mary gave a drink to",
    );
    let map = |m: &SmolLm2| {
        patching(
            &**m,
            prompts,
            (" Mary", " John"),
            &[Site::Residual],
            false,
            Fit::Exact,
            &mut |_, _| true,
        )
        .unwrap()
        .unwrap()
    };
    let (one, two) = (map(&whole), map(&halves));
    assert!(delivered.load(Ordering::Relaxed) > 0, "the helper delivered pieces");
    let bits = |m: &attnscope::analysis::patching::Patching| -> Vec<u32> {
        m.maps[0].logit_diff.iter().flatten().map(|d| d.to_bits()).collect()
    };
    assert_eq!(bits(&one), bits(&two));
    assert_eq!(one, two);
    // Patched where the clean run equals the corrupted one (before the changed name): nothing
    // changes, 0 exactly; the changed name's embedding (the whole difference) restores 1.
    let effect = &one.maps[0].effect;
    assert!(effect.iter().all(|row| row[..9].iter().all(|&e| e == 0.0)));
    assert!((effect[0][9] - 1.0).abs() < 1e-5, "{}", effect[0][9]);
}
