//! Attention as geometry (src/analysis/geometry/) against transformers and numpy
//! (fixtures from scripts/reference/geometry_reference.py): a head's queries and
//! keys on their principal axes, each axis up to its sign, within 2e-5 of the
//! points' spread (the shares of variance within 1e-5), the weightiest key of
//! every query the same; the distance between every two heads within 1e-5; the
//! heads’ map, each axis up to its sign, within 2e-5 of its spread.

use super::{check, fixture, floats, ids, max_diff};
use attnscope::analysis::geometry::{qk_space, similar_heads, QkSpace};
use attnscope::ModelTrace;
use serde_json::Value;

const SPREAD: f32 = 2e-5;
const SHARE: f32 = 1e-5;
const DISTANCE: f32 = 1e-5;

/// `got` (x, y) pairs against `want`'s, each axis turned to `want`'s sign;
/// the largest difference as a share of the largest |coordinate|.
fn axes_diff(what: &str, got: &[[f32; 2]], want: &Value) -> f32 {
    let want: Vec<[f32; 2]> = floats(want).chunks(2).map(|c| [c[0], c[1]]).collect();
    assert_eq!(got.len(), want.len(), "{what}: points");
    let spread = want.iter().flatten().fold(0f32, |a, x| a.max(x.abs()));
    (0..2)
        .map(|axis| {
            let agree: f32 = got.iter().zip(&want).map(|(g, w)| g[axis] * w[axis]).sum();
            let sign = if agree < 0.0 { -1.0 } else { 1.0 };
            let g: Vec<f32> = got.iter().map(|p| sign * p[axis]).collect();
            let w: Vec<f32> = want.iter().map(|p| p[axis]).collect();
            max_diff(what, &g, &w) / spread
        })
        .fold(0.0, f32::max)
}

fn check_space(name: &str, s: &QkSpace, want: &Value) {
    let points: Vec<[f32; 2]> = s.queries.iter().chain(&s.keys).copied().collect();
    let mut all = want["queries"].as_array().unwrap().clone();
    all.extend(want["keys"].as_array().unwrap().iter().cloned());
    check(
        &format!("{name}: points on the axes (share of spread)"),
        axes_diff(name, &points, &Value::Array(all)),
        SPREAD,
    );
    check(
        &format!("{name}: shares of variance"),
        max_diff(name, &s.explained, &floats(&want["explained"])),
        SHARE,
    );
}

fn case(name: &str, trace: &ModelTrace, f: &Value) {
    assert_eq!(trace.token_ids.as_deref(), Some(&ids(&f["token_ids"])[..]), "{name}: token ids");
    for head in f["heads"].as_array().unwrap() {
        let (l, h) =
            (head["layer"].as_u64().unwrap() as usize, head["head"].as_u64().unwrap() as usize);
        let plain = qk_space(trace, l, h, false).unwrap();
        check_space(&format!("{name} {l}.{h}"), &plain, &head["plain"]);
        let moved = qk_space(trace, l, h, true).unwrap();
        check_space(&format!("{name} {l}.{h} keys translated"), &moved, &head["translated"]);
        let weightiest: Vec<u32> = plain.nearest.iter().map(|n| n.weightiest as u32).collect();
        assert_eq!(weightiest, ids(&head["weightiest"]), "{name} {l}.{h}: weightiest keys");
        if let Some(kv) = head.get("kv_head") {
            assert_eq!(
                plain.kv_head as u64,
                kv.as_u64().unwrap(),
                "{name} {l}.{h}: key/value head"
            );
        }
    }
    let similar = similar_heads(trace, 6, &mut |_, _| true).unwrap().unwrap();
    let count = similar.heads.len();
    let upper: Vec<f32> = (0..count).flat_map(|g| similar.distance[g][g + 1..].to_vec()).collect();
    check(
        &format!("{name}: distances between heads"),
        max_diff(name, &upper, &floats(&f["distance_upper"])),
        DISTANCE,
    );
    check(
        &format!("{name}: map of the heads (share of spread)"),
        axes_diff(name, &similar.map, &f["map"]),
        SPREAD,
    );
}

#[test]
fn minilm_geometry_matches_numpy_on_transformers_queries_and_keys() {
    let f = fixture("../geometry/minilm");
    let trace = super::common::minilm().run(f["text"].as_str().unwrap()).unwrap();
    case("minilm", &trace, &f);
}

#[test]
fn smollm2_geometry_matches_numpy_on_transformers_queries_and_keys() {
    let f = fixture("../geometry/smollm2");
    let trace = super::common::smollm2().run(f["text"].as_str().unwrap()).unwrap();
    case("smollm2", &trace, &f);
}

/// The corpus's Q·K space (analysis::geometry::corpus) of a corpus of one
/// sentence is that sentence's: the same numpy axes, from the moments rather
/// than the stacked points; its head distances are the sentence's too; and a
/// sentence placed on the corpus's axes lands on its own corpus points.
#[test]
fn minilm_corpus_of_one_sentence_matches_numpy_and_places_the_visitor_on_its_points() {
    use attnscope::analysis::geometry::corpus::CorpusJob;
    let f = fixture("../geometry/minilm");
    let text = f["text"].as_str().unwrap();
    let m = super::common::minilm();
    let model: &dyn attnscope::trace::layered::Layered = &**m;
    let trace = m.run(text).unwrap();
    let job = CorpusJob::start(model, Some(vec![text.to_string()]), true, 6).unwrap();
    let corpus = job.finish(model).unwrap();
    assert_eq!(corpus.tokens.tokens, trace.tokens);
    for head in f["heads"].as_array().unwrap() {
        let (l, h) =
            (head["layer"].as_u64().unwrap() as usize, head["head"].as_u64().unwrap() as usize);
        let at = &trace.layers[l].attention;
        let visitor = Some((&at.q[h], &at.k[at.kv_head_of[h]]));
        for (translate, want) in [(false, &head["plain"]), (true, &head["translated"])] {
            let s = corpus.space(l, h, translate, visitor).unwrap();
            let name = format!("corpus {l}.{h} translated {translate}");
            let mut all = want["queries"].as_array().unwrap().clone();
            all.extend(want["keys"].as_array().unwrap().iter().cloned());
            let points: Vec<[f32; 2]> = s.queries.iter().chain(&s.keys).copied().collect();
            check(&name, axes_diff(&name, &points, &Value::Array(all)), SPREAD);
            check(&name, max_diff(&name, &s.explained, &floats(&want["explained"])), SHARE);
            let placed: Vec<f32> =
                s.visitor_queries.iter().chain(&s.visitor_keys).flatten().copied().collect();
            let own: Vec<f32> = points.iter().flatten().copied().collect();
            check(
                &format!("{name}: the visitor on its own points"),
                max_diff(&name, &placed, &own),
                1e-4,
            );
        }
    }
    let similar = corpus.similar.as_ref().unwrap();
    let count = similar.heads.len();
    let upper: Vec<f32> = (0..count).flat_map(|g| similar.distance[g][g + 1..].to_vec()).collect();
    check(
        "corpus of one sentence: distances between heads",
        max_diff("corpus", &upper, &floats(&f["distance_upper"])),
        DISTANCE,
    );
}

/// The whole built-in corpus on MiniLM: how long, how much is kept, and a
/// visitor's sentence that is in the corpus lands on its own points
/// (`cargo test --test analysis_reference minilm_whole_corpus -- --ignored --nocapture`).
#[test]
#[ignore = "runs MiniLM over the whole corpus (seconds); the timing is in docs/performance.md"]
fn minilm_whole_corpus() {
    use attnscope::analysis::geometry::corpus::{sentences, CorpusJob};
    let m = super::common::minilm();
    let model: &dyn attnscope::trace::layered::Layered = &**m;
    for distances in [false, true] {
        let start = std::time::Instant::now();
        let mut job = CorpusJob::start(model, None, distances, 6).unwrap();
        while job.sentences_done().0 < job.sentences_done().1 {
            job.step(model).unwrap();
        }
        let run = start.elapsed();
        let corpus = job.finish(model).unwrap();
        eprintln!(
            "corpus (distances {distances}): {} sentences, {} tokens: sentences {:.2} s, all {:.2} s, {:.1} MB kept",
            corpus.tokens.sentences(),
            corpus.tokens.tokens.len(),
            run.as_secs_f64(),
            start.elapsed().as_secs_f64(),
            corpus.bytes() as f64 / 1e6
        );
        let first = sentences()[0];
        let trace = m.run(first).unwrap();
        let at = &trace.layers[3].attention;
        let t = std::time::Instant::now();
        let s = corpus.space(3, 7, true, Some((&at.q[7], &at.k[7]))).unwrap();
        eprintln!("a head's space: {:.2} ms", t.elapsed().as_secs_f64() * 1e3);
        let n = trace.tokens.len();
        let own: Vec<f32> = s.queries[..n].iter().chain(&s.keys[..n]).flatten().copied().collect();
        let placed: Vec<f32> =
            s.visitor_queries.iter().chain(&s.visitor_keys).flatten().copied().collect();
        check("the visitor on its own corpus points", max_diff("corpus", &placed, &own), 1e-4);
        assert!(s.explained.iter().all(|x| x.is_finite() && *x > 0.0));
    }
}

/// SmolLM2 over the whole corpus: time and memory, for docs/performance.md
/// (`cargo test --test analysis_reference smollm2_whole_corpus -- --ignored --nocapture`).
#[test]
#[ignore = "runs SmolLM2 over the whole corpus (tens of seconds)"]
fn smollm2_whole_corpus() {
    use attnscope::analysis::geometry::corpus::CorpusJob;
    let m = super::common::smollm2();
    let model: &dyn attnscope::trace::layered::Layered = &**m;
    let start = std::time::Instant::now();
    let mut job = CorpusJob::start(model, None, false, 6).unwrap();
    while job.sentences_done().0 < job.sentences_done().1 {
        job.step(model).unwrap();
    }
    let run = start.elapsed();
    let corpus = job.finish(model).unwrap();
    eprintln!(
        "smollm2 corpus: {} sentences, {} tokens: sentences {:.2} s, all {:.2} s, {:.1} MB kept",
        corpus.tokens.sentences(),
        corpus.tokens.tokens.len(),
        run.as_secs_f64(),
        start.elapsed().as_secs_f64(),
        corpus.bytes() as f64 / 1e6
    );
    let s = corpus.space(5, 2, true, None).unwrap();
    assert!(s.queries.iter().chain(&s.keys).flatten().all(|x| x.is_finite()));
}
