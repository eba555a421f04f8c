//! Writing with the tiny decoders of every family, through the session's
//! messages as the page sends them: each step appends one token on top of
//! the key/value cache and gives what a full run of the same tokens gives;
//! greedy takes the full run's most likely token; a seed replays the same
//! text; the timeline's earlier steps are the full run's first rows; and
//! what cannot be written says why. The catalog each step adds its new
//! row's share to equals the one measured afresh.

use attnscope::checkpoint::Checkpoint;
use attnscope::models::decoder::DecoderSession;
use attnscope::session::{
    FromWorker, ModelId, RunOptions, RunSummary, Sampling, Session, ToWorker, WriteRequest,
};
use attnscope::testing::fixture_path;

const DECODERS: [&str; 4] = ["tiny/llama", "tiny/gemma3", "tiny/gpt2", "tiny/gguf/qwen2-f32.gguf"];

fn opened(path: &str) -> Session {
    let model = Checkpoint::open(&fixture_path(path)).unwrap().load("custom").unwrap();
    let mut s = Session::new();
    s.install_custom(model);
    s
}

fn decoder(path: &str) -> DecoderSession {
    match Checkpoint::open(&fixture_path(path)).unwrap().load("custom").unwrap() {
        attnscope::checkpoint::Model::Decoder(d) => DecoderSession::new(*d),
        _ => panic!("{path} is not a decoder"),
    }
}

fn sampled(seed: u64) -> Sampling {
    Sampling { greedy: false, temperature: 1.3, top_k: 50, top_p: 0.95, seed }
}

fn result(reply: FromWorker) -> RunSummary {
    match reply {
        FromWorker::Result(s) => *s,
        other => panic!("expected a run's summary, got {other:?}"),
    }
}

/// Writes `n` steps as the page does (each request carries the tokens shown);
/// returns every step's summary.
fn write(s: &mut Session, text: &str, settings: Sampling, n: usize) -> Vec<RunSummary> {
    let first = s.run(1, ModelId::Custom, text, RunOptions::default(), &|| 0.0).unwrap();
    let mut ids = first.token_ids.unwrap();
    let prompt_tokens = ids.len();
    let mut out = Vec::new();
    for step in 0..n as u64 {
        let request = WriteRequest {
            ids: ids.clone(),
            prompt: text.into(),
            prompt_tokens,
            settings,
            step,
            pick: None,
            follow: None,
        };
        let id = 10 + step;
        let summary =
            result(s.handle(ToWorker::Write { id, model: ModelId::Custom, request }, &|| 0.0));
        ids = summary.token_ids.clone().unwrap();
        let stop = summary.written.as_ref().unwrap().written.stop.is_some();
        out.push(summary);
        if stop {
            break;
        }
    }
    out
}

fn written_ids(steps: &[RunSummary]) -> Vec<u32> {
    steps.iter().map(|s| s.written.as_ref().unwrap().written.choice.id).collect()
}

#[test]
fn each_step_appends_one_token_and_equals_a_full_run() {
    for path in DECODERS {
        let mut s = opened(path);
        let steps = write(&mut s, "the quick brown fox", Sampling::default(), 6);
        let first = steps[0].tokens.len() - 1;
        for (k, step) in steps.iter().enumerate() {
            assert_eq!(step.tokens.len(), first + k + 1, "{path}: one token per step");
            let reply = step.written.as_ref().unwrap();
            assert_eq!(reply.written.step, k as u64);
            assert_eq!(step.token_ids.as_ref().unwrap().last(), Some(&reply.written.choice.id));
            assert!(reply.text.starts_with("the quick brown fox"), "{path}: {:?}", reply.text);
            let p = reply.written.choice.p;
            assert!(p.is_finite() && p > 0.0 && p <= 1.0, "{path}: p = {p}");
        }
        // The last step's trace, written on the cache, against the same tokens run whole.
        let ids = steps.last().unwrap().token_ids.clone().unwrap();
        let mut whole = decoder(path);
        let full = whole.run_ids(&ids, 1.0).unwrap().clone();
        let n = ids.len();
        for l in 0..full.layers.len() {
            for h in 0..full.layers[l].attention.heads.len() {
                let (a, b) = (s.head(l, h).unwrap().weights, full.weights(l, h).unwrap());
                assert_eq!((a.rows, a.cols), (n, n), "{path}: the heatmap has a row per token");
                let worst =
                    a.data.iter().zip(&b.data).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max);
                assert!(worst < 1e-5, "{path}: layer {l} head {h} differs by {worst}");
            }
        }
        // The catalog a step added its row's share to is the one measured afresh on the same
        // trace (shown again, nothing reused), to the bit.
        let last = steps.last().unwrap();
        let again =
            result(s.handle(ToWorker::Show { id: 99, model: ModelId::Custom, tokens: n }, &|| 0.0));
        assert_eq!(last.catalog, again.catalog, "{path}: the kept sums and a fresh measure");
        assert_eq!(
            again.catalog.len(),
            full.layers.iter().map(|l| l.attention.heads.len()).sum::<usize>()
        );
        // Greedy took the most likely token of the run before each step.
        for k in 1..steps.len() {
            let before = &steps[k - 1].token_ids.as_ref().unwrap();
            let mut fresh = decoder(path);
            fresh.run_ids(before, 1.0).unwrap();
            let logits = fresh.latest_logits().unwrap();
            let best = (0..logits.len())
                .max_by(|&a, &b| logits[a].total_cmp(&logits[b]).then(b.cmp(&a)))
                .unwrap();
            assert_eq!(written_ids(&steps)[k] as usize, best, "{path}: step {k} is the argmax");
        }
    }
}

#[test]
fn a_seed_replays_the_same_text_and_the_cli_loop_agrees() {
    for path in DECODERS {
        let a = written_ids(&write(&mut opened(path), "once upon a time", sampled(7), 8));
        let b = written_ids(&write(&mut opened(path), "once upon a time", sampled(7), 8));
        assert_eq!(a, b, "{path}: the same seed writes the same tokens");
        let cli: Vec<u32> = decoder(path)
            .generate("once upon a time", 8, &sampled(7))
            .unwrap()
            .iter()
            .map(|w| w.choice.id)
            .collect();
        assert_eq!(a, cli, "{path}: the page's steps and the CLI's loop");
        // Over a few seeds the text changes (a sampled distribution is not one token).
        let others: Vec<Vec<u32>> = (8..12)
            .map(|seed| {
                written_ids(&write(&mut opened(path), "once upon a time", sampled(seed), 8))
            })
            .collect();
        assert!(others.iter().any(|o| *o != a), "{path}: every seed wrote {a:?}");
        // Temperature 0 in sampling mode is greedy.
        let cold = Sampling { temperature: 0.0, ..sampled(3) };
        let greedy =
            written_ids(&write(&mut opened(path), "once upon a time", Sampling::default(), 5));
        assert_eq!(written_ids(&write(&mut opened(path), "once upon a time", cold, 5)), greedy);
    }
}

#[test]
fn the_timeline_shows_an_earlier_step_as_the_full_run_of_its_tokens() {
    let mut s = opened("tiny/llama");
    let steps = write(&mut s, "the quick brown fox", Sampling::default(), 5);
    let all = steps.last().unwrap().tokens.len();
    let earlier = all - 3;
    let shown = result(
        s.handle(ToWorker::Show { id: 50, model: ModelId::Custom, tokens: earlier }, &|| 0.0),
    );
    assert_eq!(shown.tokens.len(), earlier);
    assert_eq!(
        shown.token_ids.as_deref(),
        Some(&steps.last().unwrap().token_ids.as_ref().unwrap()[..earlier])
    );
    let mut whole = decoder("tiny/llama");
    let full = whole.run_ids(shown.token_ids.as_ref().unwrap(), 1.0).unwrap().clone();
    let (a, b) = (s.head(1, 3).unwrap().weights, full.weights(1, 3).unwrap());
    assert_eq!((a.rows, a.cols), (earlier, earlier));
    let worst = a.data.iter().zip(&b.data).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max);
    assert!(worst < 1e-5, "the cut trace differs by {worst}");
    // Back to now, and writing goes on from the whole text.
    let now =
        result(s.handle(ToWorker::Show { id: 51, model: ModelId::Custom, tokens: all }, &|| 0.0));
    assert_eq!(now.tokens.len(), all);
    assert!(matches!(
        s.handle(ToWorker::Show { id: 52, model: ModelId::Custom, tokens: all + 1 }, &|| 0.0),
        FromWorker::Failed { .. }
    ));
}

#[test]
fn what_cannot_be_written_says_why_and_the_session_goes_on() {
    let failed = |reply: FromWorker| match reply {
        FromWorker::Failed { message, .. } => message,
        other => panic!("expected a failure, got {other:?}"),
    };
    let request = |settings| WriteRequest {
        ids: Vec::new(),
        prompt: "hello there".into(),
        prompt_tokens: 0,
        settings,
        step: 0,
        pick: None,
        follow: None,
    };
    // An encoder reads; it has no next token to choose.
    let mut bert = opened("tiny/bert");
    bert.run(1, ModelId::Custom, "hello there", RunOptions::default(), &|| 0.0).unwrap();
    let why = failed(bert.handle(
        ToWorker::Write { id: 2, model: ModelId::Custom, request: request(Sampling::default()) },
        &|| 0.0,
    ));
    assert!(why.contains("decoders"), "{why}");
    let teach = failed(Session::new().handle(
        ToWorker::Write { id: 2, model: ModelId::Teaching, request: request(Sampling::default()) },
        &|| 0.0,
    ));
    assert!(teach.contains("decoders"), "{teach}");

    let mut s = opened("tiny/llama");
    s.run(1, ModelId::Custom, "hello there", RunOptions::default(), &|| 0.0).unwrap();
    for bad in [
        Sampling { top_p: 1.5, ..sampled(1) },
        Sampling { temperature: f32::NAN, ..sampled(1) },
        Sampling { temperature: -2.0, ..sampled(1) },
    ] {
        let why = failed(s.handle(
            ToWorker::Write { id: 3, model: ModelId::Custom, request: request(bad) },
            &|| 0.0,
        ));
        assert!(why.contains("temperature") || why.contains("top-p"), "{why}");
    }
    // Extremes that are allowed give finite numbers: a hot, a cold, a one-token top-p,
    // a top-k past the vocabulary.
    for ok in [
        Sampling { temperature: 100.0, ..sampled(1) },
        Sampling { temperature: 0.01, ..sampled(1) },
        Sampling { top_p: 0.0, ..sampled(1) },
        Sampling { top_k: 1 << 20, top_p: 1.0, ..sampled(1) },
    ] {
        let summary = result(s.handle(
            ToWorker::Write { id: 4, model: ModelId::Custom, request: request(ok) },
            &|| 0.0,
        ));
        let c = &summary.written.unwrap().written.choice;
        assert!(
            c.p.is_finite() && c.p_kept.is_finite() && c.candidates.iter().all(|x| x.p.is_finite())
        );
    }
    // top-p 0 keeps exactly the most likely token.
    let one = result(s.handle(
        ToWorker::Write {
            id: 5,
            model: ModelId::Custom,
            request: request(Sampling { top_p: 0.0, ..sampled(9) }),
        },
        &|| 0.0,
    ));
    let c = one.written.unwrap().written.choice;
    assert_eq!((c.kept, c.id), (1, c.candidates[0].id));
    // An empty text starts from the start token.
    let from_nothing = result(s.handle(
        ToWorker::Write {
            id: 6,
            model: ModelId::Custom,
            request: WriteRequest { prompt: String::new(), ..request(Sampling::default()) },
        },
        &|| 0.0,
    ));
    assert_eq!(from_nothing.tokens.len(), 2, "the start token and one written");
    assert_eq!(from_nothing.written.unwrap().prompt_tokens, 1);
    // A click takes the listed token of that rank.
    let listed = s.run(7, ModelId::Custom, "hello there", RunOptions::default(), &|| 0.0).unwrap();
    let second = listed.top_next.unwrap()[1].0.clone();
    let picked = result(s.handle(
        ToWorker::Write {
            id: 8,
            model: ModelId::Custom,
            request: WriteRequest { pick: Some(1), ..request(Sampling::default()) },
        },
        &|| 0.0,
    ));
    assert_eq!(picked.written.unwrap().written.token, second);
    // The session still runs text afterwards.
    assert!(s.run(9, ModelId::Custom, "hello again", RunOptions::default(), &|| 0.0).is_ok());
}

#[test]
fn writing_stops_at_the_context_limit_with_a_message() {
    let mut d = decoder("tiny/gpt2");
    let max = d.model().info().max_tokens;
    let long = "a ".repeat(max * 2);
    let steps = d.generate(&long, 5, &Sampling::default());
    match steps {
        Ok(steps) => {
            assert!(steps.is_empty() || steps.last().unwrap().stop.is_some(), "{max}");
        }
        Err(e) => assert!(e.to_string().contains("limit"), "{e}"),
    }
    // A text of the whole context has no room for a step.
    let full = d.run(&long).unwrap().tokens.len();
    assert_eq!(full, max);
    let err = d.write_step(&Sampling::default(), 0, None).unwrap_err().to_string();
    assert!(err.contains("limit"), "{err}");
}

#[test]
fn written_tokens_decode_as_the_tokenizers_library_decodes_them() {
    let texts = ["the quick brown fox", "Olá, café! 😀 naïve — 12345", "  two  spaces\nand a line"];
    for path in DECODERS.iter().chain(&["tiny/gguf/qwen2-q8_0.gguf"]) {
        let d = decoder(path);
        let model = d.model();
        for text in texts {
            let ids = model.tokenize(text).unwrap().ids;
            let ours = model.decode(&ids).unwrap();
            let theirs = model.tokenizer().inner().decode(&ids, true).unwrap();
            assert_eq!(ours, theirs, "{path}: {text:?} as {ids:?}");
        }
    }
}
