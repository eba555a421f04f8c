//! `attnscope generate` end to end: the binary's tokens equal the library's
//! own generation, sampling replays from its seed, bad input gives a
//! readable message and a non-zero exit, and `tests/fixtures/smollm2/write_cli.json`
//! (the tokens the page's end-to-end test expects) is what the CLI writes today.
//!
//! The fixture is written again with
//! `ATTNSCOPE_WRITE_FIXTURES=1 cargo test --test cli generate::write_cli_fixture`.

use crate::common;

use attnscope::models::decoder::{DecoderSession, Sampling};
use common::{attnscope, fixture_path, smollm2_owned};
use serde_json::{json, Value};

const CAPITAL: &str = "The capital of France is";
const ONCE: &str = "Once upon a time";

/// The sampled settings of the fixture, as flags.
const SAMPLED: [&str; 10] =
    ["--temperature", "0.8", "--top-k", "40", "--top-p", "0.95", "--seed", "7", "--tokens", "12"];

fn sampled(seed: u64) -> Sampling {
    Sampling { greedy: false, temperature: 0.8, top_k: 40, top_p: 0.95, seed }
}

/// The CLI's JSON for `args` (written to stdout), or a failure with its message.
fn generate_json(args: &[&str]) -> Value {
    let mut all = vec!["generate", "--json", "-"];
    all.extend_from_slice(args);
    let out = attnscope(&all);
    assert!(out.status.success(), "{all:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("generate --json - writes JSON")
}

fn ids(v: &Value) -> Vec<u32> {
    v["ids"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u32).collect()
}

/// The ids the library writes in-process for the same prompt and settings.
fn in_process(text: &str, n: usize, settings: &Sampling) -> Vec<u32> {
    let mut session = DecoderSession::new(smollm2_owned());
    let steps = session.generate(text, n, settings).unwrap();
    steps.iter().map(|w| w.choice.id).collect()
}

#[test]
fn greedy_equals_the_library_and_reports_every_row() {
    let v = generate_json(&["--text", CAPITAL, "--tokens", "20"]);
    assert_eq!(ids(&v), in_process(CAPITAL, 20, &Sampling::default()));
    assert_eq!(v["settings"]["greedy"], json!(true));
    assert_eq!(v["stop"], json!("length"));
    assert_eq!(v["prompt_tokens"].as_array().unwrap().len(), 5);
    assert!(v["text"].as_str().unwrap().starts_with("The capital of France is Paris"), "{v:?}");
    let steps = v["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 20);
    for s in steps {
        let top = s["top"].as_array().unwrap();
        assert_eq!(top.len(), 10);
        // Greedy takes the most likely token, and keeps only it.
        assert_eq!(top[0]["id"], s["id"]);
        assert_eq!(s["kept"], json!(1));
        assert!(s["draw"].is_null());
    }
    // attention[token][layer][head]: the token's row over the keys up to its position.
    let attention = v["attention"].as_array().unwrap();
    assert_eq!(attention.len(), 20);
    for (i, layers) in attention.iter().enumerate() {
        assert_eq!(layers.as_array().unwrap().len(), 30);
        for heads in layers.as_array().unwrap() {
            assert_eq!(heads.as_array().unwrap().len(), 9);
            for row in heads.as_array().unwrap() {
                let row = row.as_array().unwrap();
                assert_eq!(row.len(), 5 + i + 1);
                let sum: f64 = row.iter().map(|x| x.as_f64().unwrap()).sum();
                assert!((sum - 1.0).abs() < 1e-4, "token {i}: a row sums to {sum}");
            }
        }
    }
}

#[test]
fn sampling_replays_from_its_seed_and_equals_the_library() {
    let mut args = vec!["--text", ONCE];
    args.extend_from_slice(&SAMPLED);
    let (first, again) = (generate_json(&args), generate_json(&args));
    assert_eq!(first["ids"], again["ids"]);
    assert_eq!(first["text"], again["text"]);
    assert_eq!(ids(&first), in_process(ONCE, 12, &sampled(7)));
    assert_eq!(first["settings"]["greedy"], json!(false));
    for s in first["steps"].as_array().unwrap() {
        let (kept, draw) = (s["kept"].as_u64().unwrap(), s["draw"].as_f64().unwrap());
        assert!((1..=40).contains(&kept) && (0.0..1.0).contains(&draw), "{s}");
    }
    // Another seed writes another text from the same prompt.
    let other = args.iter().map(|a| if *a == "7" { "8" } else { a }).collect::<Vec<_>>();
    let v = generate_json(&other);
    assert_eq!(ids(&v), in_process(ONCE, 12, &sampled(8)));
    assert_ne!(v["text"], first["text"], "seeds 7 and 8 wrote the same text");
}

/// The fields of one generation the page's end-to-end test compares with,
/// and the command that wrote them.
fn fixture_entry(args: &[&str], sampling: bool) -> Value {
    let v = generate_json(args);
    let shown = args.iter().map(|a| if a.contains(' ') { format!("{a:?}") } else { a.to_string() });
    let command = format!("attnscope generate {}", shown.collect::<Vec<_>>().join(" "));
    let mut entry = json!({
        "command": command,
        "prompt": v["prompt"],
        "tokens": v["settings"]["tokens"],
        "ids": v["ids"],
        "token_strings": v["tokens"],
        "text": v["text"],
        "stop": v["stop"],
    });
    if sampling {
        for key in ["temperature", "top_k", "top_p", "seed"] {
            entry[key] = v["settings"][key].clone();
        }
    }
    entry
}

#[test]
fn write_cli_fixture_is_what_the_cli_writes() {
    let greedy = ["--model", "smollm2", "--text", CAPITAL, "--tokens", "20", "--greedy"];
    let mut sampled = vec!["--model", "smollm2", "--text", ONCE];
    sampled.extend_from_slice(&SAMPLED);
    let want = json!({
        "greedy": fixture_entry(&greedy, false),
        "sampled": fixture_entry(&sampled, true),
    });
    let path = fixture_path("smollm2/write_cli.json");
    if std::env::var_os("ATTNSCOPE_WRITE_FIXTURES").is_some() {
        let text = serde_json::to_string_pretty(&want).unwrap();
        std::fs::write(&path, format!("{text}\n")).unwrap();
    }
    let have: Value =
        serde_json::from_str(&common::fixture_text("smollm2/write_cli.json")).unwrap();
    assert_eq!(
        have,
        want,
        "{} differs from what the CLI writes now; if the change is right, write it again with \
         ATTNSCOPE_WRITE_FIXTURES=1 cargo test --test cli generate::write_cli_fixture",
        path.display()
    );
}

/// Fails unless `args` exit non-zero with one line of stderr holding `says`.
fn refused(args: &[&str], says: &str) {
    let mut all = vec!["generate"];
    all.extend_from_slice(args);
    let out = attnscope(&all);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{all:?} succeeded");
    assert!(err.contains(says), "{all:?}: {err:?} does not say {says:?}");
    assert_eq!(err.trim_end().lines().count(), 1, "{all:?}: {err}");
    assert!(err.starts_with("attnscope: "), "{all:?}: {err}");
}

#[test]
fn bad_input_gives_a_readable_message_and_a_non_zero_exit() {
    refused(
        &["--text", "hi", "--temperature", "-1"],
        "temperature must be 0 (greedy) or a positive",
    );
    refused(&["--text", "hi", "--temperature", "nan"], "temperature");
    refused(&["--text", "hi", "--top-p", "2"], "top-p must be between 0 and 1");
    refused(&["--text", "hi", "--top-p", "-0.5"], "top-p must be between 0 and 1");
    refused(&["--text", "hi", "--tokens", "0"], "--tokens 0 writes nothing");
    refused(&["--text", "hi", "--tokens", "many"], "--tokens");
    refused(&["--text", "hi", "--greedy", "--sample"], "cannot be used with");
    refused(&["--text", "hi", "--model", "minilm"], "writing is for decoders");
    refused(&["--text", "hi", "--model", "teaching"], "writing is for decoders");
    refused(&["--text", "hi", "--models-dir", "/nonexistent"], "not found in /nonexistent");
    refused(&["--text", "hi", "--layer", "30"], "has layers 0–29 and heads 0–8");
    refused(&["--text", "hi", "--head", "9"], "asked for layer 0 head 9");
    let bert = fixture_path("tiny/bert");
    refused(&["--model-path", bert.to_str().unwrap(), "--text", "hi"], "is an encoder");
    refused(&["--model-path", "/nonexistent/model.gguf", "--text", "hi"], "nonexistent");
}

#[test]
fn a_tiny_decoder_writes_from_its_folder() {
    let llama = fixture_path("tiny/llama");
    let path = llama.to_str().unwrap();
    let v = generate_json(&["--model-path", path, "--text", "hello world", "--tokens", "5"]);
    assert_eq!(ids(&v).len(), 5);
    let n_prompt = v["prompt_ids"].as_array().unwrap().len();
    let attention = v["attention"].as_array().unwrap();
    assert_eq!(attention.len(), 5);
    assert_eq!(attention[4][0][0].as_array().unwrap().len(), n_prompt + 5);
    // Sampled, with a top-k beyond the vocabulary: a sensible result, twice the same.
    let sampled = ["--model-path", path, "--text", "hello", "--top-k", "1000000", "--seed", "3"];
    assert_eq!(generate_json(&sampled)["ids"], generate_json(&sampled)["ids"]);
    // Temperature 0 is greedy.
    let zero = generate_json(&["--model-path", path, "--text", "hello", "--temperature", "0"]);
    let greedy = generate_json(&["--model-path", path, "--text", "hello"]);
    assert_eq!(zero["ids"], greedy["ids"]);
    assert_eq!(zero["settings"]["greedy"], json!(true));
}

#[test]
fn too_many_tokens_are_cut_to_the_most_one_generation_writes() {
    let llama = fixture_path("tiny/llama");
    let out = attnscope(&[
        "generate",
        "--model-path",
        llama.to_str().unwrap(),
        "--text",
        "hello",
        "--tokens",
        "1000",
        "--json",
        "-",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("--tokens 1000 is cut to 256"), "{err}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let n = ids(&v).len();
    assert!((1..=256).contains(&n), "{n} tokens");
    assert_eq!(v["settings"]["tokens"], json!(256));
}

#[test]
fn png_and_svg_draw_the_whole_text() {
    let llama = fixture_path("tiny/llama");
    let (png, svg) = (common::temp("generate.png"), common::temp("generate.svg"));
    let out = attnscope(&[
        "generate",
        "--model-path",
        llama.to_str().unwrap(),
        "--text",
        "hello world",
        "--tokens",
        "4",
        "--png",
        png.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
        "--layer",
        "1",
        "--head",
        "1",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The readable output: the prompt, the text, a row per step.
    assert!(stdout.contains("prompt: hello world") && stdout.contains("text:   hello world"));
    assert!(stdout.contains("stopped: 4 tokens written"), "{stdout}");
    assert_eq!(&std::fs::read(&png).unwrap()[..8], b"\x89PNG\r\n\x1a\n");
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("layer 1 · head 1"), "{}", &svg[..200]);
}

#[test]
fn an_empty_prompt_starts_from_the_start_token() {
    // The tiny Llama's config names token 0 as its start (and end) token.
    let llama = fixture_path("tiny/llama");
    let v =
        generate_json(&["--model-path", llama.to_str().unwrap(), "--text", "", "--tokens", "3"]);
    assert_eq!(v["prompt_ids"], json!([0]));
    assert!(!ids(&v).is_empty());
    assert!(v["text"].is_string());
}
