//! The Q·K space in the browser: the points are the session's, the chosen query's lines and
//! readout follow a click, and key translation asks again.

use crate::test_support::*;
use crate::url_state::DEFAULT_TEXT;
use attnscope::analysis::geometry::QkSpace;
use attnscope::session::{AnalysisReply, AnalysisRequest, ModelId, RunOptions, Session};
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
async fn space_places_every_query_and_key_and_follows_the_chosen_query() {
    let root = mount_app();
    settle("tokens shown", || !token_texts(&root).is_empty()).await;
    open_tab(&root, "space", "#space-plot").await;
    let n = token_texts(&root).len();
    settle("points drawn", || select_all(&root, "#space-plot g.space-query").len() == n).await;
    assert_eq!(select_all(&root, "#space-plot g.space-key").len(), n);

    // The readout names the key the head weighs most, as the session computes it.
    let mut s = Session::new();
    s.run(1, ModelId::Teaching, DEFAULT_TEXT, RunOptions::default(), &|| 0.0).unwrap();
    let mut space = |translate| -> QkSpace {
        let request = AnalysisRequest::QkSpace { layer: 0, head: 0, translate };
        match s.analyze(1, ModelId::Teaching, DEFAULT_TEXT, request) {
            Ok(AnalysisReply::QkSpace { space, .. }) => *space,
            other => panic!("expected the Q·K space, got {other:?}"),
        }
    };
    let want = space(true);
    let last = n - 1;
    let tokens = token_texts(&root);
    let weightiest = |i: usize| {
        format!("“{}” ({})", tokens[want.nearest[i].weightiest], want.nearest[i].weightiest)
    };
    settle("readout of the last query", || {
        text_of(&root, "#space-weightiest").starts_with(&weightiest(last))
    })
    .await;

    // A click on the first query's circle chooses it: the readout follows.
    let circle = select_all(&root, "#space-plot g.space-query[data-position='1'] circle").remove(0);
    fire(&circle, "click");
    settle("readout of query 1", || {
        text_of(&root, "#space-weightiest").starts_with(&weightiest(1))
    })
    .await;
    assert!(exists(&root, "#space-plot g.space-query[data-position='1'][aria-current='true']"));

    // Without translation the points move, the caption's share of the spread stays a number.
    click(&root, "#space-translate");
    let plain = space(false);
    settle("the untranslated note", || {
        text_of(&root, "#space-translation-note").starts_with("Keys as the model")
    })
    .await;
    let share = format!("{:.1} %", 100.0 * (plain.explained[0] + plain.explained[1]));
    settle("the plain points' caption", || text_of(&root, "#space-caption").contains(&share)).await;
    assert!(!text_of(&root, "#view-space").contains("NaN"));

    // Values too: every value where the session places it, and query 1's output.
    click(&root, "#space-values");
    let values = plain.values.clone().expect("the teaching model's values");
    settle("values drawn", || select_all(&root, "#space-values-plot g.space-value").len() == n)
        .await;
    let xy = |g: &web_sys::Element| -> Vec<f32> {
        g.get_attribute("data-xy").unwrap().split(',').map(|v| v.parse().unwrap()).collect()
    };
    for (g, want) in
        select_all(&root, "#space-values-plot g.space-value").iter().zip(&values.values)
    {
        assert_eq!(xy(g), want.to_vec());
    }
    let output = select_all(&root, "#space-values-plot g.space-output").remove(0);
    assert_eq!(output.get_attribute("data-position").as_deref(), Some("1"));
    assert_eq!(xy(&output), values.outputs[1].to_vec());
    assert!(text_of(&root, "#space-values-caption").contains("weighted mean of the values"));

    // t-SNE: the same queries and keys placed by their neighbours, no axes, no NaN.
    click(&root, "#space-tsne");
    settle("the t-SNE caption", || text_of(&root, "#space-caption").contains("placed by t-SNE"))
        .await;
    assert_eq!(select_all(&root, "#space-plot g.space-query").len(), n);
    assert!(!exists(&root, "#space-plot .space-axis-label, #space-plot .space-axis"));
    assert!(!text_of(&root, "#view-space").contains("NaN"));
    click(&root, "#space-tsne");
    settle("the axes again", || text_of(&root, "#space-caption").contains(&share)).await;

    // The corpus needs a model's sentences: the teaching model says why, and the switch falls back.
    click(&root, "#space-corpus");
    settle("the corpus refused", || {
        text_of(&root, "#analysis-error").contains("choose MiniLM or SmolLM2")
    })
    .await;
    settle("the switch back off", || !exists(&root, "#space-corpus-note")).await;
    assert!(!exists(&root, "#space-corpus-plot"));
    root.remove();
}
