//! Activation patching in the worker's session: the maps computed a slice at a
//! time between messages equal the ones computed at once, a cancel stops them
//! and a newer run drops them unanswered.

use super::common;
use attnscope::analysis::patching::{patching, Site};
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
    }
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
    let at_once =
        patching(&*model, (CLEAN, CORRUPT), (" Mary", " John"), &sites, false, &mut |_, _| true)
            .unwrap()
            .unwrap();
    assert_eq!(map, at_once);

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
    };
    let FromWorker::Failed { message, .. } = ask(&mut s, 2, "When Mary and John", different) else {
        panic!("a pair of different lengths fails")
    };
    assert!(message.contains("same number of tokens"), "{message}");
    assert!(!s.analysis_busy());
}
