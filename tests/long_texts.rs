//! Long texts (issue #31): past `KEEP_WEIGHTS_UP_TO` tokens a trace keeps
//! each layer's Q, K and V and every head's sums, not its n × n S and A;
//! a head asked for is computed again. These tests run SmolLM2 on texts
//! past that length and check every number a view reads against a run
//! that keeps everything.

mod common;

use attnscope::analysis::{catalog, HeadStats};
use attnscope::attention::{attend, Attend, Mask, Scale};
use attnscope::checkpoint::smollm2::SmolLm2Session;
use attnscope::checkpoint::{Checkpoint, Model};
use attnscope::models::decoder::{self, reporting_blocks, Decoder};
use attnscope::session::{FromWorker, ModelId, RunOptions, Session, ToWorker};
use attnscope::testing::fixture_path;
use attnscope::trace::HeadSummary;
use attnscope::trace::{ModelTrace, KEEP_WEIGHTS_UP_TO};
use attnscope::Matrix;
use std::cell::RefCell;
use std::rc::Rc;

/// A text of some hundreds of tokens that does not repeat itself exactly.
fn long_text(sentences: usize) -> String {
    let subjects = [
        "The old lighthouse keeper",
        "A fluffy blue creature",
        "Her younger brother",
        "The committee",
        "Nobody in the village",
    ];
    let verbs = ["watched", "remembered", "painted", "argued about", "carried"];
    let objects = [
        "the verdant forest",
        "a letter from Lisbon",
        "the broken clock",
        "seven red apples",
        "the storm over the harbour",
    ];
    (0..sentences)
        .map(|i| {
            format!(
                "{} {} {} on day {}.",
                subjects[i % 5],
                verbs[(i / 5) % 5],
                objects[(i * 3 + 1) % 5],
                i + 1
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// SmolLM2 keeping every head's S, A and Z at any length: the reference.
fn keeping_everything() -> attnscope::checkpoint::smollm2::SmolLm2 {
    let mut m = common::smollm2_owned();
    m.set_keep_weights_up_to(usize::MAX);
    m
}

/// Bytes of every matrix a trace holds.
fn trace_bytes(t: &ModelTrace) -> usize {
    let floats: usize = t
        .layers
        .iter()
        .map(|l| {
            let a = &l.attention;
            let heads: usize = a
                .heads
                .iter()
                .map(|h| h.scores.data.len() + h.weights.data.len() + h.output.data.len())
                .sum();
            let rows: usize =
                a.q.iter()
                    .chain(&a.k)
                    .chain(&a.v)
                    .chain([&a.concat, &l.input, &l.delta, &l.residual])
                    .chain(&l.stream)
                    .map(|m| m.data.len())
                    .sum();
            heads + rows
        })
        .sum();
    4 * floats
}

/// Two matrices of the same shape within `tolerance` of the larger's size: a
/// long run's heads go through the fused kernel (`kernels::fused`), whose
/// sums are the formula's within rounding, and the layers after carry it.
fn near(a: &Matrix, b: &Matrix, tolerance: f32) -> bool {
    let size = b.data.iter().fold(0f32, |m, x| m.max(x.abs()));
    a.shape() == b.shape() && a.max_abs_diff(b) <= tolerance * (1.0 + size)
}

/// A long run's sums of a head against the sums of the A a view is shown
/// (the formula, computed again from the run's own Q and K).
fn sums_match(sums: &HeadSummary, a: &Matrix) -> bool {
    let of = HeadSummary::of(a);
    near(&sums.thumbnail(usize::MAX), &of.thumbnail(usize::MAX), 1e-5)
        && close(&sums.sums.stats(0, 0), &of.sums.stats(0, 0), 1e-5)
}

fn close(a: &HeadStats, b: &HeadStats, tolerance: f32) -> bool {
    [
        (a.entropy_bits, b.entropy_bits),
        (a.mean_distance, b.mean_distance),
        (a.previous_token, b.previous_token),
        (a.first_token, b.first_token),
        (a.self_token, b.self_token),
    ]
    .iter()
    .all(|(x, y)| (x - y).abs() <= tolerance * (1.0 + y.abs()))
}

#[test]
fn a_long_text_keeps_q_k_v_and_sums_and_computes_each_head_again_the_same() {
    let text = long_text(30);
    // Each block reported as it is done (the page shows how far a long run is).
    let reports = Rc::new(RefCell::new(Vec::new()));
    let seen = reports.clone();
    let light = reporting_blocks(
        move |done, of, tokens| seen.borrow_mut().push((done, of, tokens)),
        || common::smollm2().run(&text),
    )
    .unwrap();
    let full = keeping_everything().run(&text).unwrap();
    let n = light.tokens.len();
    assert!(n > KEEP_WEIGHTS_UP_TO && n < 2 * KEEP_WEIGHTS_UP_TO, "{n} tokens");
    assert_eq!(*reports.borrow(), (1..=30).map(|l| (l, 30, n)).collect::<Vec<_>>());
    let seen = reports.clone();
    reporting_blocks(
        move |done, of, tokens| seen.borrow_mut().push((done, of, tokens)),
        || common::smollm2().run("A short text."),
    )
    .unwrap();
    assert_eq!(reports.borrow().len(), 30, "a short run reports nothing");
    assert_eq!(light.tokens, full.tokens);
    let model = common::smollm2();
    for (l, layer) in light.layers.iter().enumerate() {
        assert!(layer.summaries.is_some() && full.layers[l].summaries.is_none());
        // E and E + ΔE are let go of and computed again from h: the very same numbers.
        assert!(
            !layer.holds_input() && layer.input.rows == 0 && layer.residual.rows == 0,
            "layer {l} kept E"
        );
        assert_eq!(layer.stream.as_ref().map(|h| h.shape()), Some((n, 576)));
        let input = model.layer_input(l, layer).unwrap();
        assert!(near(&input, &full.layers[l].input, 1e-5), "E of layer {l}");
        assert!(
            near(&layer.residual_rows(0, n), &full.layers[l].residual, 1e-5),
            "E + ΔE of layer {l}"
        );
        assert!(near(&layer.delta, &full.layers[l].delta, 1e-5), "ΔE of layer {l}");
        let sums = layer.summaries.as_ref().unwrap();
        for (h, sums) in sums.iter().enumerate() {
            assert!(!layer.attention.keeps(h), "layer {l} head {h} kept its weights");
            // Computed again from the kept Q and K: the sums are of that A,
            // and it is the A of a run that keeps every head, within rounding.
            let (again, kept) =
                (light.layers[l].attention.head(h), &full.layers[l].attention.heads[h]);
            assert!(sums_match(sums, &again.weights), "the sums of {l}.{h}");
            assert!(near(&again.scores, &kept.scores, 1e-5), "S of {l}.{h}");
            assert!(near(&again.weights, &kept.weights, 1e-5), "A of {l}.{h}");
            assert!(near(&again.output, &kept.output, 1e-5), "Z of {l}.{h}");
        }
    }
    // The catalog, from the sums, is the catalog of the full weights.
    for (a, b) in catalog(&light).iter().zip(catalog(&full)) {
        assert!(close(a, &b, 1e-4), "{a:?} vs {b:?}");
    }
    // A thumbnail cell is the mean weight over a 16 × 16 block of tokens.
    for (l, h) in [(0, 0), (14, 5), (29, 8)] {
        let thumb = &light.layers[l].thumbnails(48)[h];
        let a = &full.layers[l].attention.heads[h].weights;
        assert_eq!(thumb.shape(), (n.div_ceil(16), n.div_ceil(16)));
        for (r, c) in
            [(0, 0), (3, 1), (thumb.rows - 1, 0), (thumb.rows - 1, thumb.cols - 1), (2, 5)]
        {
            let (rows, cols) = (r * 16..(r * 16 + 16).min(n), c * 16..(c * 16 + 16).min(n));
            let count = (rows.len() * cols.len()) as f32;
            let mean: f32 =
                rows.flat_map(|i| cols.clone().map(move |j| a[(i, j)])).sum::<f32>() / count;
            assert!(
                (thumb[(r, c)] - mean).abs() < 1e-5,
                "layer {l} head {h} cell ({r}, {c}): {} vs {mean}",
                thumb[(r, c)]
            );
        }
    }
    // Memory grows with n, not with n² for each of the 270 heads.
    let (light_mb, full_mb) = (trace_bytes(&light) as f64 / 1e6, trace_bytes(&full) as f64 / 1e6);
    eprintln!(
        "{n} tokens: trace {light_mb:.1} MB, keeping every head's S, A and Z {full_mb:.1} MB"
    );
    assert!(light_mb < full_mb / 3.0, "{light_mb} MB against {full_mb} MB");
}

/// An opened decoder, sliding windows and all.
fn opened_decoder(path: &std::path::Path) -> Box<Decoder> {
    match Checkpoint::open(path).and_then(|c| c.load("custom")) {
        Ok(Model::Decoder(d)) => d,
        Ok(_) => panic!("{} is not a decoder", path.display()),
        Err(e) => panic!("{}: {e}", path.display()),
    }
}

#[test]
fn an_opened_decoder_takes_its_context_up_to_2048_tokens_and_computes_each_windowed_head_again_the_same(
) {
    // The tiny Gemma 3 (local layers of a 4-key window), its context raised from 128 tokens.
    let tiny = common::temp("gemma3-long-context");
    std::fs::create_dir_all(&tiny).unwrap();
    for file in ["model.safetensors", "tokenizer.json"] {
        std::fs::copy(fixture_path("tiny/gemma3").join(file), tiny.join(file)).unwrap();
    }
    let config = std::fs::read_to_string(fixture_path("tiny/gemma3/config.json")).unwrap();
    assert!(config.contains("\"max_position_embeddings\": 128"));
    std::fs::write(
        tiny.join("config.json"),
        config.replace("\"max_position_embeddings\": 128", "\"max_position_embeddings\": 32768"),
    )
    .unwrap();
    // The real Gemma 3 270M, whose local layers see 512 keys, on a text longer than that.
    let real = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models-extra/gemma3-270m/gemma-3-270m-q4_k_m.gguf");
    let mut cases = vec![(tiny.clone(), long_text(8), 4)];
    match real.exists() {
        true => cases.push((real, long_text(48), 512)),
        false => eprintln!(
            "SKIPPED the real Gemma 3: `python3 scripts/fetch_models.py --extra` fetches it"
        ),
    }
    let original = opened_decoder(&fixture_path("tiny/gemma3"));
    assert_eq!(original.info().max_tokens, 128, "a checkpoint's own context still bounds it");
    for (path, text, window) in cases {
        let light = opened_decoder(&path);
        assert_eq!(light.info().max_tokens, decoder::MAX_TOKENS, "{}", path.display());
        let mut everything = opened_decoder(&path);
        everything.set_keep_weights_up_to(usize::MAX);
        let (long, full) = (light.run(&text).unwrap(), everything.run(&text).unwrap());
        let n = long.tokens.len();
        assert!(
            n > KEEP_WEIGHTS_UP_TO && n > window + 64 && long.notice.is_none(),
            "{n} tokens, {:?}",
            long.notice
        );
        assert_eq!(long.tokens, full.tokens);
        let mut windowed = 0;
        for (l, layer) in long.layers.iter().enumerate() {
            let sums = layer.summaries.as_ref().unwrap();
            assert!(near(&layer.delta, &full.layers[l].delta, 1e-5), "ΔE of layer {l}");
            for (h, sums) in sums.iter().enumerate() {
                assert!(!layer.attention.keeps(h));
                let (again, kept) = (layer.attention.head(h), &full.layers[l].attention.heads[h]);
                assert_eq!(again.mask, kept.mask);
                assert!(sums_match(sums, &again.weights), "the sums of {l}.{h}");
                assert!(near(&again.weights, &kept.weights, 1e-5), "A of {l}.{h}");
                assert!(near(&again.output, &kept.output, 1e-5), "Z of {l}.{h}");
                if again.mask == Mask::SlidingWindow(window) {
                    // The last query sees its window and nothing before it.
                    let last = again.weights.row(n - 1);
                    assert!(
                        last[..n - window].iter().all(|&w| w == 0.0)
                            && last[n - window..].iter().all(|&w| w > 0.0),
                        "{l}.{h}"
                    );
                    windowed += 1;
                }
            }
        }
        assert!(windowed > 0, "no sliding-window head in {}", path.display());
    }
}

#[test]
fn typing_at_the_end_and_editing_a_long_text_match_a_fresh_run() {
    let m = common::smollm2();
    let mut s = SmolLm2Session::new(common::smollm2_owned());
    let (short, long) = (long_text(16), long_text(21));
    assert!(m.tokenize(&short).unwrap().ids.len() <= KEEP_WEIGHTS_UP_TO);
    // Typing on, then deleting the last words (the sums lose rows), then
    // an edit in the middle (everything after it is computed again).
    let mut steps = vec![
        short.clone(),
        long.clone(),
        format!("{long} And"),
        format!("{long} And then"),
        long.clone(),
    ];
    steps.push(steps[3].replacen("day 3.", "day 4.", 1));
    let mut reused = Vec::new();
    for text in &steps {
        s.run(text).unwrap();
        reused.push(s.reused_tokens());
        let (cached, fresh) = (s.latest().unwrap(), m.run(text).unwrap());
        assert_eq!(cached.tokens, fresh.tokens);
        let light = cached.tokens.len() > KEEP_WEIGHTS_UP_TO;
        for (l, (c, f)) in cached.layers.iter().zip(&fresh.layers).enumerate() {
            assert_eq!(c.summaries.is_some(), light, "{} tokens, layer {l}", cached.tokens.len());
            for (h, (tc, tf)) in c.thumbnails(48).iter().zip(f.thumbnails(48)).enumerate() {
                assert_eq!(tc.shape(), tf.shape());
                let d = tc.max_abs_diff(&tf);
                assert!(
                    d < 1e-5,
                    "{} tokens, thumbnail of {l}.{h} off by {d}",
                    cached.tokens.len()
                );
            }
            assert_eq!(c.holds_input(), !light, "{} tokens, layer {l}", cached.tokens.len());
            // Storage for the rows and some room, not twice the rows as a Vec grows.
            let (len, capacity) = (c.delta.data.len(), c.delta.data.capacity());
            assert!(
                capacity <= len + len / 8 + 8 * c.delta.cols,
                "{} tokens: ΔE holds {capacity} for {len}",
                cached.tokens.len()
            );
            let d = m.layer_input(l, c).unwrap().max_abs_diff(&m.layer_input(l, f).unwrap());
            let fresh_residual = f.residual_rows(0, f.delta.rows);
            let r = c.residual_rows(0, c.delta.rows).max_abs_diff(&fresh_residual);
            let size = fresh_residual.data.iter().fold(0f32, |m, x| m.max(x.abs()));
            assert!(
                d < 1e-4 && r < 1e-5 * size,
                "{} tokens, E of layer {l} off by {d}, E + ΔE by {r} (up to {size})",
                cached.tokens.len()
            );
            for h in [0, 4, 8] {
                let d = c.attention.head(h).weights.max_abs_diff(&f.attention.head(h).weights);
                assert!(d < 1e-5, "{} tokens, A of {l}.{h} off by {d}", cached.tokens.len());
            }
        }
        for (a, b) in catalog(cached).iter().zip(catalog(&fresh)) {
            assert!(close(a, &b, 1e-4), "{} tokens: {a:?} vs {b:?}", cached.tokens.len());
        }
    }
    // Each step but the first and the edit reused the tokens before it.
    let lengths: Vec<usize> = steps.iter().map(|t| m.tokenize(t).unwrap().ids.len()).collect();
    assert_eq!(&reused[1..4], &lengths[0..3], "{reused:?} for {lengths:?}");
    assert_eq!(reused[4], lengths[4] - 1);
    assert!(reused[5] > 0 && reused[5] < lengths[5] / 2, "{reused:?}");
}

#[test]
fn the_session_shows_a_long_text_and_says_what_waits_for_a_shorter_one() {
    let mut s = Session::new();
    s.install(ModelId::SmolLm2, vec![common::smollm2_bytes().to_vec()]).unwrap();
    let text = long_text(28);
    let summary = s.run(1, ModelId::SmolLm2, &text, RunOptions::default(), &|| 0.0).unwrap();
    let n = summary.tokens.len();
    assert!(n > KEEP_WEIGHTS_UP_TO);
    assert_eq!(
        (summary.overview.len(), summary.overview[0].len(), summary.catalog.len()),
        (30, 9, 270)
    );
    assert_eq!(summary.overview[3][2].rows, n.div_ceil(16));
    let reference = keeping_everything().run(&text).unwrap();
    let detail = s.head(7, 3).unwrap();
    assert!(near(&detail.weights, &reference.layers[7].attention.heads[3].weights, 1e-5));
    assert!(near(
        &detail.what_if_weights,
        &reference.layers[7].attention.heads[3].reweighed(detail.what_if_mask, detail.scale),
        1e-5
    ));
    assert_eq!((detail.q.rows, detail.input.rows), (n, n));
    let layer = &reference.layers[7];
    assert!(
        near(&detail.input, &layer.input, 1e-5)
            && near(&detail.residual, &layer.residual, 1e-5)
            && near(&detail.delta, &layer.delta, 1e-5),
        "E, E + ΔE, ΔE"
    );
    // "Which heads attend from this token to that one", from single rows.
    let FromWorker::Heads { heads, .. } =
        s.handle(ToWorker::FindHeads { id: 2, query: n - 1, key: 0 }, &|| 0.0)
    else {
        panic!("expected heads")
    };
    assert_eq!(heads.len(), 270);
    let top = &heads[0];
    let want = reference.layers[top.layer].attention.heads[top.head].weights[(n - 1, 0)];
    assert!((top.weight - want).abs() < 1e-5, "{} vs {want}", top.weight);
    // What needs every head's weights says so, and the session goes on.
    let FromWorker::Failed { message, .. } = s.handle(ToWorker::Export { id: 3 }, &|| 0.0) else {
        panic!("expected a refusal")
    };
    assert!(message.contains("command line"), "{message}");
    let hot = RunOptions { temperature_factor: 2.0, ..RunOptions::default() };
    let message = s.run(4, ModelId::SmolLm2, &text, hot, &|| 0.0).unwrap_err().to_string();
    assert!(message.contains(&format!("up to {KEEP_WEIGHTS_UP_TO} tokens")), "{message}");
    let short = s.run(5, ModelId::SmolLm2, "The capital of France is", hot, &|| 0.0).unwrap();
    assert_eq!(short.tokens.len(), 5);
    assert_eq!(s.head(0, 0).unwrap().weights.shape(), (5, 5));
}

/// Where the time of a keystroke at the end of a long text goes, printed
/// (not asserted: the machine is shared). Run with
/// `cargo test --release --test long_texts -- --ignored --nocapture`.
#[test]
#[ignore = "a timing: run it on its own, in release"]
fn time_typing_at_the_end_of_a_long_text() {
    use std::time::Instant;
    let ms = |t: Instant| t.elapsed().as_secs_f64() * 1e3;
    let var = |name: &str, default: usize| {
        std::env::var(name).ok().and_then(|r| r.parse().ok()).unwrap_or(default)
    };
    let rounds = var("ROUNDS", 3);
    let mut s = Session::new();
    s.install(ModelId::SmolLm2, vec![common::smollm2_bytes().to_vec()]).unwrap();
    let epoch = Instant::now();
    let clock = move || ms(epoch);
    let run = |s: &mut Session, text: &str| {
        let t = Instant::now();
        let r = s.run(1, ModelId::SmolLm2, text, RunOptions::default(), &clock).unwrap();
        let serialized = Instant::now();
        let json = serde_json::to_string(&r).unwrap();
        (r.tokens.len(), r.compute_ms, ms(t) - ms(serialized), ms(serialized), json.len())
    };
    let show =
        |what: &str, (n, compute, total, json_ms, json_len): (usize, f64, f64, f64, usize)| {
            eprintln!(
            "{what:<34} {n:>5} tokens: compute_ms {compute:>8.2}, Session::run {total:>8.2}, summary to JSON {json_ms:>6.2} ms ({:.2} MB)",
            json_len as f64 / 1e6
        );
        };
    // As tests/e2e/bench.mjs section 5: a full run, then one word appended.
    for round in 0..rounds {
        let text = long_text(70).replace("day 1.", &format!("day {}.", round + 1));
        show("full run", run(&mut s, &text));
        show("one token appended", run(&mut s, &format!("{text} And")));
    }
    // Typing on, a word at a time; TYPED words from a text of SENTENCES
    // sentences (for a profile of many keystrokes, start shorter).
    let mut text = long_text(var("SENTENCES", 70));
    show("full run", run(&mut s, &text));
    let words = ["And", "then", "the", "old", "keeper", "said", "nothing", "at", "all", "to"];
    for word in words.iter().cycle().take(var("TYPED", 6)) {
        text = format!("{text} {word}");
        show("one more word appended", run(&mut s, &text));
    }
    show("the same text again", run(&mut s, &text));
    // Another head of the long text: computed again from Q and K, and encoded as the worker posts
    // it.
    for head in 1..=rounds {
        let t = Instant::now();
        let detail = s.head(7, head).unwrap();
        let computed = ms(t);
        let t = Instant::now();
        let (_, buffers) =
            attnscope::tensor::wire::to_json_and_buffers(&FromWorker::Head(Box::new(detail)))
                .unwrap();
        let encoded = ms(t);
        let mb = buffers.iter().map(Vec::len).sum::<usize>() as f64 / 1e6;
        eprintln!("another head: Session::head {computed:.2} ms, encoded for the page {encoded:.2} ms ({mb:.1} MB)");
    }
    // The short text of section 4.
    let sixteen = "the quick brown fox jumps over the lazy dog while the cat sleeps nearby today";
    for round in 0..rounds {
        let text = if round % 2 == 1 {
            sixteen.to_string()
        } else {
            sixteen.replace("the quick", "a quick")
        };
        show("16 tokens", run(&mut s, &text));
        show("one token appended to 16", run(&mut s, &format!("{text} and")));
    }

    // The parts, on the decoder's own cache.
    let mut d = SmolLm2Session::new(common::smollm2_owned());
    let text = long_text(70);
    d.run(&text).unwrap();
    let longer = format!("{text} And");
    let t = Instant::now();
    let ids = d.model().tokenize(&longer).unwrap().ids;
    let tokenize = ms(t);
    let t = Instant::now();
    d.run(&longer).unwrap();
    let append = ms(t);
    let trace = d.latest().unwrap();
    let t = Instant::now();
    let thumbnails: usize =
        trace.layers.iter().map(|l| l.thumbnails(attnscope::trace::THUMB_MAX).len()).sum();
    let thumbs = ms(t);
    let t = Instant::now();
    let stats = catalog(trace).len();
    let catalog_ms = ms(t);
    let t = Instant::now();
    trace.check_finite_from(ids.len() - 1).unwrap();
    let finite = ms(t);
    // One query against every key and value, as an appended token's heads.
    let t = Instant::now();
    for layer in &trace.layers {
        let a = &layer.attention;
        for (h, &kv) in a.kv_head_of.iter().enumerate() {
            let q = a.q[h].rows_range(a.q[h].rows - 1, 1);
            std::hint::black_box(attend(
                &q,
                &a.k[kv],
                &a.v[kv],
                Attend::new(Mask::Causal, Scale::InvSqrtDk),
            ));
        }
    }
    let attention = ms(t);
    eprintln!(
        "{} tokens: one query's attention over every key, 270 heads {attention:.2} ms, tokenize {tokenize:.2} ms, decoder append (with tokenize) {append:.2} ms, {thumbnails} thumbnails {thumbs:.2} ms, catalog of {stats} {catalog_ms:.2} ms, finite check of the new row {finite:.2} ms",
        ids.len()
    );
}

/// SmolLM2 on a paste cut at its 2,048 tokens, natively on one thread,
/// for `scripts/bench.sh long`, which prints it beside PyTorch's time on
/// the same CPU (not asserted: the machine is shared). Run with
/// `cargo test --release --test long_texts -- --ignored --nocapture time_smollm2_at_2048`.
#[test]
#[ignore = "a timing: run it on its own, in release"]
fn time_smollm2_at_2048_tokens_on_one_thread() {
    let rounds = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(3);
    let m = common::smollm2();
    let text = long_text(150);
    let mut times = Vec::new();
    let mut tokens = 0;
    for _ in 0..rounds {
        let t = std::time::Instant::now();
        let trace = m.run(&text).unwrap();
        times.push(t.elapsed().as_secs_f64() * 1e3);
        tokens = trace.tokens.len();
    }
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("model name"))?;
            Some(line.split(':').nth(1)?.trim().to_string())
        })
        .unwrap_or_default();
    eprintln!(
        "SmolLM2, {tokens} tokens, attnscope natively on one thread: median {median:.0} ms of {rounds} ({cpu})"
    );
    println!("{{\"smollm2_long_attnscope_ms\": {median:.1}, \"tokens\": {tokens}}}");
}
