//! The guided lesson in the browser.

use crate::test_support::*;
use crate::url_state::DEFAULT_TEXT;
use crate::views::common::format::{num, vector};
use attnscope::session::RunOptions;
use wasm_bindgen_test::wasm_bindgen_test;

/// Every lesson step is reachable by its URL, by the arrow keys and by
/// Next and Back, and its numbers are the model's.
#[wasm_bindgen_test]
async fn every_lesson_step_shows_the_models_numbers() {
    use crate::views::lesson::STEPS;
    use attnscope::attention::Mask;
    let root = mount_at("?view=lesson&step=2&token=3");
    settle("lesson step 2 shown", || exists(&root, "#lesson-q")).await;
    let (_, d) = engine_head(DEFAULT_TEXT, RunOptions::default(), 0);
    let i = 3; // "creature"
    let preview = |v: &[f32]| {
        format!(
            "[{}, …] ({} numbers)",
            v.iter().take(4).map(|&x| num(x)).collect::<Vec<_>>().join(", "),
            v.len()
        )
    };
    let short = |v: &[f32]| if v.len() > 4 { preview(v) } else { vector(v) };
    assert_eq!(text_of(&root, "#lesson-count"), format!("Step 2 of {STEPS}"));
    assert_eq!(text_of(&root, "#lesson-x"), short(d.input.row(i)));
    assert_eq!(text_of(&root, "#lesson-q"), short(d.q.row(i)));
    assert_eq!(text_of(&root, "#lesson-k"), short(d.k.row(i)));
    assert_eq!(text_of(&root, "#lesson-v"), short(d.v.row(i)));

    // The arrow key goes on to the scores: the query's row of S.
    let key = |k: &str| press(&web_sys::window().unwrap(), k);
    key("ArrowRight");
    settle("step 3 shown", || exists(&root, "#lesson-scores")).await;
    let row_of = |id: &str| texts(&root, &format!("#{id} li .val"));
    assert_eq!(
        row_of("lesson-scores"),
        d.scores.row(i).iter().map(|&v| num(v)).collect::<Vec<_>>()
    );
    settle("the URL keeps step 3", || {
        web_sys::window().unwrap().location().search().unwrap().contains("step=3")
    })
    .await;

    // Next: the scaling, with the variance of the row before and after.
    click(&root, "#lesson-next");
    settle("step 4 shown", || exists(&root, "#lesson-var-raw")).await;
    let row: Vec<f32> = d.scores.row(i).to_vec();
    let var = |xs: &[f32]| {
        let m = xs.iter().sum::<f32>() / xs.len() as f32;
        xs.iter().map(|x| (x - m) * (x - m)).sum::<f32>() / xs.len() as f32
    };
    assert_eq!(text_of(&root, "#lesson-dk"), d.q.cols.to_string());
    assert_eq!(text_of(&root, "#lesson-var-raw"), num(var(&row)));
    assert_eq!(
        text_of(&root, "#lesson-var-scaled"),
        num(var(&row.iter().map(|v| v * d.scale).collect::<Vec<_>>()))
    );

    click(&root, "#lesson-next");
    settle("step 5 shown", || exists(&root, "#lesson-weights")).await;
    assert_eq!(
        row_of("lesson-weights"),
        d.weights.row(i).iter().map(|&v| num(v)).collect::<Vec<_>>()
    );
    assert_eq!(text_of(&root, "#lesson-sum"), num(d.weights.row(i).iter().sum()));

    click(&root, "#lesson-next");
    settle("step 6 shown", || exists(&root, "#lesson-masked")).await;
    let causal =
        crate::views::common::stages::values(&d, Mask::Causal, crate::url_state::Stage::Masked);
    assert_eq!(row_of("lesson-masked"), causal.row(i).iter().map(|&v| num(v)).collect::<Vec<_>>());
    assert_eq!(text_of(&root, "#lesson-hidden"), (d.weights.cols - i - 1).to_string());

    click(&root, "#lesson-next");
    settle("step 7 shown", || exists(&root, "#lesson-z")).await;
    assert_eq!(text_of(&root, "#lesson-z"), short(d.output.row(i)));
    assert_eq!(text_of(&root, "#lesson-delta"), short(d.delta.row(i)));
    assert_eq!(text_of(&root, "#lesson-residual"), short(d.residual.row(i)));

    click(&root, "#lesson-next");
    settle("step 8 shown", || exists(&root, "#lesson-heads")).await;
    assert_eq!(text_of(&root, "#lesson-heads"), "1 × 5");

    // The chapter on writing: the teaching model reads and says so, with a
    // way to a model that writes; its last step has no next.
    click(&root, "#lesson-next");
    settle("step 9 shown", || exists(&root, "#lesson-use-smollm2")).await;
    assert!(text_of(&root, ".lesson-says").contains("has no next token to choose"));
    for _ in 9..STEPS {
        click(&root, "#lesson-next");
    }
    settle("the last step", || {
        text_of(&root, "#lesson-count") == format!("Step {STEPS} of {STEPS}")
    })
    .await;
    assert!(
        find::<web_sys::HtmlButtonElement>(&root, "#lesson-next").disabled(),
        "the last step has no next"
    );

    // Back, and the first step by its dot.
    click(&root, "#lesson-back");
    let before_last = format!("Step {} ", STEPS - 1);
    settle("the step before the last", || {
        text_of(&root, "#lesson-count").starts_with(&before_last)
    })
    .await;
    click(&root, ".lesson-dot");
    settle("step 1", || {
        exists(&root, "#lesson-count")
            && text_of(&root, "#lesson-count") == format!("Step 1 of {STEPS}")
    })
    .await;
    assert_eq!(text_of(&root, "#lesson-query"), "3: creature");
    root.remove();
}

/// The chapter on writing counts what the key/value cache computes and
/// reuses from the model's sizes, and names the next token the run lists.
#[wasm_bindgen_test]
fn the_chapter_on_writing_counts_what_the_cache_saves() {
    use crate::views::lesson::Facts;
    use attnscope::session::ModelId;
    let (mut s, d) = engine_head(DEFAULT_TEXT, RunOptions::default(), 0);
    let mut summary =
        s.run(1, ModelId::Teaching, DEFAULT_TEXT, RunOptions::default(), &|| 0.0).unwrap();
    // A decoder's sizes (SmolLM2's) and its list of next tokens.
    summary.top_next = Some(vec![(" forest".into(), 0.5), (" sea".into(), 0.25)]);
    (summary.info.n_layers, summary.info.n_heads) = (30, 9);
    (summary.info.n_kv_heads, summary.info.d_head) = (3, 64);
    let tokens = summary.tokens.clone();
    let n = tokens.len();
    let f = Facts::new(&summary, &d, &tokens, n - 1).unwrap();
    let cache = f.numbers(11);
    assert_eq!(cache[0].2, (30 * (9 + 2 * 3) * 64).to_string(), "{cache:?}");
    assert_eq!(cache[1].2, (30 * 2 * 3 * 64 * n).to_string(), "{cache:?}");
    assert!(f.says(11).contains("share 3 key/value heads"), "{}", f.says(11));
    assert!(f.says(8).contains("“ forest”, 50.0%"), "{}", f.says(8));
    assert_eq!(f.numbers(9)[2].2, "75.0%", "the listed tokens' probability together");
    // Without a list of next tokens the chapter says the model does not write.
    summary.top_next = None;
    let f = Facts::new(&summary, &d, &tokens, n - 1).unwrap();
    assert!(f.says(10).contains("has no next token to choose") && f.numbers(10).is_empty());
}

/// The chapter on listening reads the clip heard last: where the chosen token's query listened
/// most, the share on the clip, the alignment heads and the chosen word's span.
#[wasm_bindgen_test]
fn the_chapter_on_listening_reads_the_clip_heard() {
    use crate::views::lesson::listening::{Heard, FIRST};
    // " Hello" (token 1) listens around frame 4: 0.6 × 0.8 there, a fifth to the padding.
    let h = crate::views::speech::tests::clip();
    let heard = Heard::new(&h, Some(1), None).unwrap();
    let says = heard.says(FIRST);
    assert!(says.contains("wrote it as 3 tokens") && says.contains("fills 10 of them"), "{says}");
    assert!(says.contains("the query of “Hello” puts its largest weight"), "{says}");
    assert!(says.contains(&format!("{}, on 0.08–0.10 s", num(0.48))), "{says}");
    let numbers = heard.numbers(FIRST);
    let value = |id: &str| numbers.iter().find(|n| n.0 == id).map(|n| n.2.clone());
    assert_eq!(value("lesson-listen-peak"), Some(format!("{} at 0.08 s", num(0.48))));
    assert_eq!(value("lesson-listen-clip").as_deref(), Some("80.0%"));
    assert_eq!(value("lesson-listen-scale"), Some(num(0.125)));
    let timing = heard.says(FIRST + 1);
    assert!(timing.contains("2 alignment heads (layer.head 1.1, 2.2)"), "{timing}");
    assert!(timing.contains("“Hello” was said from 0.00 s to 0.10 s."), "{timing}");
    let numbers = heard.numbers(FIRST + 1);
    assert_eq!(numbers.last().map(|n| n.2.as_str()), Some("0.00–0.10 s"));
    // One head: its own row; a token past the transcript: nothing to say.
    let one = Heard::new(&h, Some(2), Some((0, 1))).unwrap();
    assert!(one.says(FIRST).contains("(decoder layer 1, head 2)"));
    assert!(Heard::new(&h, Some(3), None).is_none());
}

/// Without a clip, a step of the chapter says so and offers the examples in its picture.
#[wasm_bindgen_test]
async fn the_chapter_on_listening_offers_a_clip_first() {
    use crate::views::lesson::{listening, STEPS};
    let root = mount_at("?view=lesson&step=13");
    settle("the examples", || exists(&root, ".lesson-speech #speech-example-0")).await;
    assert_eq!(text_of(&root, "#lesson-count"), format!("Step 13 of {STEPS}"));
    assert_eq!(text_of(&root, ".lesson-says"), listening::no_clip());
    assert_eq!(text_of(&root, "#lesson-title"), "Cross-attention: a word listens to the sound");
    root.remove();
}
