//! A model opened from files, as the worker holds it (`Session::install_custom`):
//! a decoder keeps a key/value cache, so typing at the end computes only the
//! new tokens and gives what a full run gives; the analyses beyond the
//! weights answer for it as for the built-in models.

use attnscope::checkpoint::Checkpoint;
use attnscope::session::{
    AnalysisReply, AnalysisRequest, FromWorker, ModelId, RunOptions, Session, ToWorker,
};
use attnscope::testing::fixture_path;

fn opened(path: &str) -> Session {
    let model = Checkpoint::open(&fixture_path(path)).unwrap().load("custom").unwrap();
    let mut s = Session::new();
    s.install_custom(model);
    s
}

/// Every head's weights and scores of the latest run, as `Session::head` gives them.
fn heads(s: &Session, layers: usize, heads: usize) -> Vec<(Vec<f32>, Vec<f32>)> {
    (0..layers)
        .flat_map(|l| (0..heads).map(move |h| (l, h)))
        .map(|(l, h)| {
            let d = s.head(l, h).unwrap();
            (d.weights.data, d.scores.data)
        })
        .collect()
}

fn largest_difference(a: &[(Vec<f32>, Vec<f32>)], b: &[(Vec<f32>, Vec<f32>)]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .flat_map(|((wa, sa), (wb, sb))| {
            assert_eq!((wa.len(), sa.len()), (wb.len(), sb.len()));
            wa.iter().zip(wb).chain(sa.iter().zip(sb)).map(|(x, y)| (x - y).abs())
        })
        .fold(0.0, f32::max)
}

#[test]
fn typing_at_the_end_of_an_opened_decoder_reuses_its_cache_and_equals_a_full_run() {
    // Llama (GQA), Gemma 3 (sliding-window layers of 4: the text outgrows the
    // window), GPT-2 (learned positions, which must continue after the cache),
    // Qwen2 from a GGUF with its own vocabulary.
    for path in ["tiny/llama", "tiny/gemma3", "tiny/gpt2", "tiny/gguf/qwen2-f32.gguf"] {
        let options = RunOptions::default();
        let mut typed = opened(path);
        let short = "the quick brown fox jumps";
        let long = "the quick brown fox jumps over the lazy dog";
        let first = typed.run(1, ModelId::Custom, short, options, &|| 0.0).unwrap();
        let summary = typed.run(2, ModelId::Custom, long, options, &|| 0.0).unwrap();
        let reused = typed.reused_tokens(ModelId::Custom);
        assert!(
            reused > 0 && reused < first.tokens.len() + 1,
            "{path}: {reused} tokens reused of {}",
            first.tokens.len()
        );

        let mut whole = opened(path);
        let again = whole.run(1, ModelId::Custom, long, options, &|| 0.0).unwrap();
        assert_eq!(whole.reused_tokens(ModelId::Custom), 0);
        assert_eq!(summary.token_ids, again.token_ids, "{path}");
        let (next, next_again) = (summary.top_next.unwrap(), again.top_next.unwrap());
        for ((token, p), (token_again, p_again)) in next.iter().zip(&next_again) {
            assert_eq!(token, token_again, "{path}: next tokens");
            assert!((p - p_again).abs() <= 1e-5, "{path}: p({token}) {p} against {p_again}");
        }
        let (l, h) = (summary.info.n_layers, summary.info.n_heads);
        let worst = largest_difference(&heads(&typed, l, h), &heads(&whole, l, h));
        assert!(worst <= 1e-5, "{path}: the cached run differs from a full one by {worst:e}");

        // Editing the middle recomputes from the edit on, and still equals a full run.
        typed
            .run(3, ModelId::Custom, "the slow brown fox jumps over the lazy dog", options, &|| 0.0)
            .unwrap();
        whole
            .run(2, ModelId::Custom, "the slow brown fox jumps over the lazy dog", options, &|| 0.0)
            .unwrap();
        assert!(
            largest_difference(&heads(&typed, l, h), &heads(&whole, l, h)) <= 1e-5,
            "{path}: after an edit"
        );
    }
}

#[test]
fn the_analyses_run_on_an_opened_model() {
    for path in ["tiny/bert", "tiny/llama"] {
        let mut s = opened(path);
        let text = "the quick brown fox";
        let n_layers =
            s.run(7, ModelId::Custom, text, RunOptions::default(), &|| 0.0).unwrap().info.n_layers;
        let ask = |request| ToWorker::Analyze {
            id: 7,
            model: ModelId::Custom,
            text: text.into(),
            request,
        };
        match s.handle(ask(AnalysisRequest::Rollout), &|| 0.0) {
            FromWorker::Analysis { reply, .. } => match *reply {
                AnalysisReply::Rollout { layers, .. } => {
                    assert_eq!(layers.len(), n_layers, "{path}");
                    for m in &layers {
                        for r in 0..m.rows {
                            let sum: f32 = m.row(r).iter().sum();
                            assert!(
                                (sum - 1.0).abs() < 1e-4,
                                "{path}: rollout row {r} sums to {sum}"
                            );
                        }
                    }
                }
                other => panic!("{path}: {other:?}"),
            },
            other => panic!("{path}: {other:?}"),
        }
        assert!(matches!(
            s.handle(ask(AnalysisRequest::ValueNorms { layer: 1, head: 0 }), &|| 0.0),
            FromWorker::Analysis { reply, .. } if matches!(*reply, AnalysisReply::ValueNorms { .. })
        ));
    }
}

#[test]
fn warming_an_opened_model_up_changes_no_result() {
    // An encoder and a decoder: the warm-up's runs leave the decoder's cache
    // holding a text of its own, whose first words the first real run may
    // reuse (as typing does: within 1e-5 of a full run).
    for (path, layers, n_heads) in [("tiny/bert", 2, 2), ("tiny/llama", 2, 4)] {
        let (mut cold, mut warm) = (opened(path), opened(path));
        let clock = std::cell::Cell::new(0.0);
        let rounds = warm.warm_up(ModelId::Custom, &attnscope::session::warm::OPENED, &|| {
            clock.set(clock.get() + 25.0);
            clock.get()
        });
        assert!(rounds >= 1, "{path}");
        for (id, text) in [(1, "The quick brown fox"), (2, "A quick brown fox jumps")] {
            let a = cold.run(id, ModelId::Custom, text, RunOptions::default(), &|| 0.0).unwrap();
            let b = warm.run(id, ModelId::Custom, text, RunOptions::default(), &|| 0.0).unwrap();
            assert_eq!(a.token_ids, b.token_ids, "{path}");
            let worst =
                largest_difference(&heads(&cold, layers, n_heads), &heads(&warm, layers, n_heads));
            assert!(worst <= 1e-5, "{path}: {text}: {worst:e}");
        }
    }
}
