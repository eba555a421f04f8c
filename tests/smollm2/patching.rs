//! Activation patching in the worker's session: the maps computed a slice at a
//! time between messages equal the ones computed at once, a cancel stops them
//! and a newer run drops them unanswered.

use super::common;
use attnscope::analysis::patching::{patching, Fit, Site};
use attnscope::session::{
    AnalysisReply, AnalysisRequest, FromWorker, ModelId, RunOptions, Session, ToWorker,
};

const CLEAN: &str = "When Mary and John went to the store, John gave a drink to";
const CORRUPT: &str = "When Mary and John went to the store, Mary gave a drink to";

fn ask(s: &mut Session, id: u64, text: &str, request: AnalysisRequest) -> FromWorker {
    s.handle(ToWorker::Analyze { id, model: ModelId::SmolLm2, text: text.into(), request }, &|| 0.0)
}

fn patch(sites: Vec<Site>) -> AnalysisRequest {
    AnalysisRequest::Patch {
        corrupt: CORRUPT.into(),
        right: " Mary".into(),
        wrong: " John".into(),
        sites,
        last_only: false,
        fit: Fit::Exact,
    }
}

fn patched_head(
    site: Site,
    cell: (usize, usize),
    (layer, head): (usize, usize),
) -> AnalysisRequest {
    AnalysisRequest::PatchedHead {
        corrupt: CORRUPT.into(),
        right: " Mary".into(),
        wrong: " John".into(),
        last_only: false,
        fit: Fit::Exact,
        site,
        cell,
        layer,
        head,
    }
}

/// Two weight matrices equal to within rounding (the session's runs and the analyses' take
/// different kernels).
fn close(a: &attnscope::Matrix, b: &attnscope::Matrix) -> bool {
    a.shape() == b.shape() && a.data.iter().zip(&b.data).all(|(x, y)| (x - y).abs() < 1e-5)
}

/// The head of a patched run the session answers with, and the run's effect.
fn patched(s: &mut Session, request: AnalysisRequest) -> (Vec<String>, attnscope::Matrix, f32) {
    let FromWorker::Analysis { reply, .. } = ask(s, 1, CLEAN, request) else {
        panic!("a patched head is answered")
    };
    let AnalysisReply::PatchedHead { tokens, detail, effect, .. } = *reply else { panic!() };
    (tokens, detail.weights, effect)
}

#[test]
fn patching_runs_in_slices_and_stops_when_asked() {
    let mut s = Session::new();
    s.install(ModelId::SmolLm2, vec![common::smollm2_bytes().to_vec()]).unwrap();
    s.run(1, ModelId::SmolLm2, CLEAN, RunOptions::default(), &|| 0.0).unwrap();
    let sites = vec![Site::Attention];
    let FromWorker::Analysis { reply, .. } = ask(&mut s, 1, CLEAN, patch(sites.clone())) else {
        panic!("the start of patching is answered with its progress")
    };
    assert_eq!(*reply, AnalysisReply::PatchProgress { done: 0, total: 30 });
    let tick = std::cell::Cell::new(0.0);
    let clock = || {
        tick.set(tick.get() + 10.0);
        tick.get()
    };
    let mut slices = 0;
    let map = loop {
        match s.continue_analysis(&clock).map(|m| match m {
            FromWorker::Analysis { reply, .. } => *reply,
            other => panic!("{other:?}"),
        }) {
            Some(AnalysisReply::PatchProgress { done, total }) => assert!(done < total),
            Some(AnalysisReply::Patch(map)) => break map,
            other => panic!("{other:?}"),
        }
        slices += 1;
    };
    assert!(slices >= 5, "{slices} slices");
    assert!(!s.analysis_busy());
    let model =
        attnscope::checkpoint::smollm2::SmolLm2::from_gguf_bytes(common::smollm2_bytes()).unwrap();
    let at_once = patching(
        &*model,
        (CLEAN, CORRUPT),
        (" Mary", " John"),
        &sites,
        false,
        Fit::Exact,
        &mut |_, _| true,
    )
    .unwrap()
    .unwrap();
    assert_eq!(map, at_once);

    // A cell's patched run, head by head. The residual at the differing position of layer 0 is
    // the clean run's whole input: every head is the clean run's, the effect 1.
    let clean = |s: &Session, l, h| s.head(l, h).unwrap().weights;
    let (tokens, w, effect) = patched(&mut s, patched_head(Site::Residual, (0, 9), (7, 3)));
    assert_eq!((tokens.len(), tokens[9].as_str()), (14, " Mary"));
    assert_eq!(effect, 1.0);
    assert!(close(&w, &clean(&s, 7, 3)));
    // One head's output patched: its own weights are the corrupted run's, those of the layers
    // above differ from both runs; the effect is the map's.
    let corrupted = |s: &mut Session, l, h| {
        s.run(9, ModelId::SmolLm2, CORRUPT, RunOptions::default(), &|| 0.0).unwrap();
        let w = s.head(l, h).unwrap().weights;
        s.run(1, ModelId::SmolLm2, CLEAN, RunOptions::default(), &|| 0.0).unwrap();
        w
    };
    let (_, at_layer, _) = patched(&mut s, patched_head(Site::Attention, (12, 13), (12, 0)));
    let (_, above, effect) = patched(&mut s, patched_head(Site::Attention, (12, 13), (20, 4)));
    assert!(close(&at_layer, &corrupted(&mut s, 12, 0)));
    assert!(!close(&above, &corrupted(&mut s, 20, 4)) && !close(&above, &clean(&s, 20, 4)));
    assert!((effect - at_once.maps[0].effect[12][13]).abs() < 1e-4, "{effect}");
    let FromWorker::Failed { message, .. } =
        ask(&mut s, 1, CLEAN, patched_head(Site::Heads, (3, 99), (3, 0)))
    else {
        panic!("a cell off the map fails")
    };
    assert!(message.contains("no cell (3, 99)"), "{message}");

    // Cancelled: nothing more comes.
    ask(&mut s, 1, CLEAN, patch(vec![Site::Residual]));
    assert!(s.analysis_busy());
    let FromWorker::Analysis { reply, .. } = ask(&mut s, 1, CLEAN, AnalysisRequest::CancelPatch)
    else {
        panic!()
    };
    assert_eq!(*reply, AnalysisReply::PatchCancelled);
    assert!(!s.analysis_busy() && s.continue_analysis(&clock).is_none());

    // A newer run (the text changed) drops it unanswered.
    ask(&mut s, 1, CLEAN, patch(vec![Site::Residual]));
    s.run(2, ModelId::SmolLm2, "When Mary and John", RunOptions::default(), &|| 0.0).unwrap();
    assert!(s.continue_analysis(&clock).is_none() && !s.analysis_busy());

    // Bad input: a clear message, and the session goes on.
    let different = AnalysisRequest::Patch {
        corrupt: "When Mary went".into(),
        right: " Mary".into(),
        wrong: " John".into(),
        sites: vec![Site::Residual],
        last_only: false,
        fit: Fit::Exact,
    };
    let FromWorker::Failed { message, .. } =
        ask(&mut s, 2, "When Mary and John", different.clone())
    else {
        panic!("a pair of different lengths fails")
    };
    assert!(message.contains("same number of tokens"), "{message}");
    assert!(!s.analysis_busy());
    // Padded where the words differ, it runs.
    let AnalysisRequest::Patch { corrupt, right, wrong, sites, last_only, .. } = different else {
        unreachable!()
    };
    let padded = AnalysisRequest::Patch { corrupt, right, wrong, sites, last_only, fit: Fit::Pad };
    let FromWorker::Analysis { reply, .. } = ask(&mut s, 2, "When Mary and John", padded) else {
        panic!("padded, the pair is patched")
    };
    assert!(matches!(*reply, AnalysisReply::PatchProgress { .. }), "{reply:?}");
}
