//! `attnscope trace --out` writes a trace file and `attnscope attention
//! --trace` draws and exports from it the same numbers as from the model.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Output;

use crate::common;

use common::{attnscope, temp};

const TEXT: &str = "a fluffy blue creature roamed the verdant forest";

fn ok(args: &[&str]) -> Output {
    let out = attnscope(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// The one line a failing command prints.
fn failure(args: &[&str]) -> String {
    let out = attnscope(args);
    assert!(!out.status.success(), "{args:?} succeeded");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("attnscope: ") && !err.contains("panicked"), "{err}");
    err
}

fn json(path: &PathBuf) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// The teaching model's trace file, in f32 (and with queries and keys unless told).
fn trace_file(name: &str, extra: &[&str]) -> PathBuf {
    let path = temp(name);
    let mut args = vec![
        "trace",
        "--model",
        "teaching",
        "--text",
        TEXT,
        "--dtype",
        "f32",
        "--out",
        path.to_str().unwrap(),
    ];
    args.extend(extra);
    ok(&args);
    path
}

#[test]
fn a_trace_file_exports_what_the_model_exports() {
    let file = trace_file("teaching.safetensors", &[]);
    let (from_file, from_model) = (temp("file.json"), temp("model.json"));
    let (png, svg) = (temp("file.png"), temp("file.svg"));
    let f = file.to_str().unwrap();
    ok(&[
        "attention",
        "--trace",
        f,
        "--head",
        "2",
        "--json",
        from_file.to_str().unwrap(),
        "--png",
        png.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    ok(&[
        "attention",
        "--model",
        "teaching",
        "--text",
        TEXT,
        "--json",
        from_model.to_str().unwrap(),
    ]);
    let (a, b) = (json(&from_file), json(&from_model));
    for key in ["tokens", "mask", "attentions"] {
        assert_eq!(a[key], b[key], "{key}");
    }
    assert_eq!(a["model"], "Teaching model (hand-designed heads)");
    assert_eq!(&std::fs::read(&png).unwrap()[..8], b"\x89PNG\r\n\x1a\n");
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("creature") && svg.contains("layer 0 · head 2")
    );
}

#[test]
fn stages_and_what_if_masks_come_from_the_stored_queries_and_keys() {
    let file = trace_file("stages.safetensors", &[]);
    let f = file.to_str().unwrap();
    for stage in ["scores", "scaled", "masked", "weights"] {
        for mask in ["none", "causal"] {
            let args = ["--stage", stage, "--mask", mask, "--head", "3"];
            let from_file = ok(&[&["attention", "--trace", f][..], &args].concat()).stdout;
            let from_model =
                ok(&[&["attention", "--model", "teaching", "--text", TEXT][..], &args].concat())
                    .stdout;
            assert_eq!(
                String::from_utf8_lossy(&from_file),
                String::from_utf8_lossy(&from_model),
                "{stage} {mask}"
            );
        }
    }
    let (a, b) = (temp("causal-file.json"), temp("causal-model.json"));
    ok(&["attention", "--trace", f, "--mask", "causal", "--json", a.to_str().unwrap()]);
    ok(&[
        "attention",
        "--model",
        "teaching",
        "--text",
        TEXT,
        "--mask",
        "causal",
        "--json",
        b.to_str().unwrap(),
    ]);
    assert_eq!(json(&a)["attentions"], json(&b)["attentions"]);
    assert_eq!(json(&a)["mask"], "causal");
}

#[test]
fn f16_files_are_half_the_size_and_within_rounding() {
    let (small, exact) =
        (temp("f16.safetensors"), trace_file("f32.safetensors", &["--no-queries-keys"]));
    ok(&["trace", "--text", TEXT, "--no-queries-keys", "--out", small.to_str().unwrap()]);
    let (s, e) =
        (std::fs::metadata(&small).unwrap().len(), std::fs::metadata(&exact).unwrap().len());
    assert!(s < e, "{s} vs {e}");
    let (a, b) = (temp("f16.json"), temp("f32.json"));
    ok(&["attention", "--trace", small.to_str().unwrap(), "--json", a.to_str().unwrap()]);
    ok(&["attention", "--trace", exact.to_str().unwrap(), "--json", b.to_str().unwrap()]);
    let flat = |v: &Value| {
        v["attentions"][0]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|h| h.as_array().unwrap().clone())
            .flat_map(|r| r.as_array().unwrap().clone())
            .map(|x| x.as_f64().unwrap())
            .collect::<Vec<_>>()
    };
    let worst =
        flat(&json(&a)).iter().zip(flat(&json(&b))).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
    assert!(worst > 0.0 && worst <= 1.0 / 4096.0, "{worst}");
}

#[test]
fn what_a_file_cannot_give_is_refused_in_one_line() {
    let bare = trace_file("bare.safetensors", &["--no-queries-keys"]);
    let b = bare.to_str().unwrap();
    assert!(failure(&["attention", "--trace", b, "--stage", "scores"])
        .contains("holds no queries and keys"));
    assert!(failure(&["attention", "--trace", b, "--mask", "causal"])
        .contains("holds no queries and keys"));
    assert!(failure(&["attention", "--trace", b, "--layer", "1"])
        .contains("has layers 0–0 and heads 0–4; asked for layer 1 head 0"));
    // The file's own mask needs nothing recomputed.
    ok(&["attention", "--trace", b, "--mask", "none"]);
}

#[test]
fn bad_files_and_flags_get_a_clear_line() {
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    assert!(failure(&["attention", "--trace", manifest])
        .contains("Cargo.toml: not a trace file: it does not start with a safetensors header"));
    let cut = temp("cut.safetensors");
    let whole = std::fs::read(trace_file("whole.safetensors", &[])).unwrap();
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    assert!(failure(&["attention", "--trace", cut.to_str().unwrap()])
        .contains("the trace file is cut short"));
    assert!(failure(&["attention", "--trace", "/nonexistent/x.safetensors"])
        .contains("cannot open /nonexistent/x.safetensors"));
    assert!(failure(&["attention", "--trace", manifest, "--text", "hi"])
        .contains("cannot be used with"));
    assert!(
        failure(&["trace", "--out", temp("o.safetensors").to_str().unwrap()]).contains("--text")
    );
    assert!(failure(&["trace", "--text", "hi"]).contains("--out"));
    assert!(failure(&["trace", "--text", "hi", "--out", "o", "--json", "j"])
        .contains("cannot be used with"));
    assert!(failure(&[
        "trace",
        "--text",
        "",
        "--out",
        temp("empty.safetensors").to_str().unwrap()
    ])
    .contains("no tokens"));
    assert!(failure(&["trace", "--text", "hi", "--out", "/nonexistent/dir/o.safetensors"])
        .contains("cannot write /nonexistent/dir/o.safetensors"));
    // The worked example is unchanged.
    ok(&["trace", "--preset", "seed-3x4", "--json", "-"]);
}
