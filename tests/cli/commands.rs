//! The command-line tool end to end: real files written, parsed back.

use crate::common;

use common::{attnscope, temp};

#[test]
fn trace_preset_writes_every_intermediate() {
    let path = temp("trace.json");
    let out = attnscope(&[
        "trace",
        "--preset",
        "seed-3x4",
        "--scale",
        "seed",
        "--json",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let head = &json["heads"][0];
    for key in ["x", "q", "k", "v", "scores", "scaled", "masked", "weights", "output"] {
        assert_eq!(head[key].as_array().map(|rows| rows.len()), Some(3), "{key}");
    }
    assert_eq!(head["q"], serde_json::json!([[1.0, 0.0, 2.0], [2.0, 2.0, 2.0], [2.0, 1.0, 3.0]]));
    assert_eq!(head["scaled"][0], serde_json::json!([1.0, 2.0, 2.0]));
    assert_eq!(json["scale"], serde_json::json!(0.5));
}

#[test]
fn causal_trace_writes_null_for_minus_infinity() {
    let out = attnscope(&["trace", "--mask", "causal", "--json", "-"]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json["heads"][0]["masked"][0][1].is_null());
    assert_eq!(json["heads"][0]["weights"][0][1], serde_json::json!(0.0));
}

#[test]
fn attention_exports_json_png_and_svg() {
    let (json, png, svg) = (temp("a.json"), temp("a.png"), temp("a.svg"));
    let text = "a fluffy blue creature roamed the verdant forest";
    let out = attnscope(&[
        "attention",
        "--model",
        "teaching",
        "--text",
        text,
        "--json",
        json.to_str().unwrap(),
        "--png",
        png.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
        "--head",
        "2",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(v["tokens"].as_array().unwrap().len(), 8);
    let a = &v["attentions"];
    assert_eq!(a.as_array().unwrap().len(), 1); // layers
    assert_eq!(a[0].as_array().unwrap().len(), 5); // heads
    let row: f64 = a[0][2][3].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).sum();
    assert!((row - 1.0).abs() < 1e-5);
    assert_eq!(&std::fs::read(&png).unwrap()[..8], b"\x89PNG\r\n\x1a\n");
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("creature") && svg.trim_end().ends_with("</svg>")
    );
}

#[test]
fn bad_arguments_give_one_line_and_a_non_zero_exit() {
    for args in [
        &["attention"][..],
        &["attention", "--text", "hi", "--head", "99"],
        &["attention", "--text", "x", "--mask", "sideways"],
        &["nonsense"],
    ] {
        let out = attnscope(args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("attnscope: "));
        assert!(!err.contains("panicked"));
    }
}

#[test]
fn help_explains_every_flag() {
    let out = attnscope(&["attention", "--help"]);
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--model",
        "--model-path",
        "--text",
        "--json",
        "--png",
        "--svg",
        "--layer",
        "--head",
        "--mask",
        "--stage",
    ] {
        assert!(help.contains(flag), "{flag}");
    }
}

/// A tiny checkpoint made by scripts/reference/tiny_reference.py.
fn tiny(name: &str) -> String {
    attnscope::testing::fixture_path(&format!("tiny/{name}")).to_string_lossy().into_owned()
}

#[test]
fn model_path_runs_a_hugging_face_folder() {
    let (json, svg) = (temp("gemma3.json"), temp("gemma3.svg"));
    let (folder, text) = (tiny("gemma3"), "the quick brown fox jumps over the lazy dog");
    let out = attnscope(&[
        "attention",
        "--model-path",
        &folder,
        "--text",
        text,
        "--json",
        json.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
        "--layer",
        "1",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let a = v["attentions"].as_array().unwrap();
    assert_eq!((a.len(), a[0].as_array().unwrap().len()), (3, 4)); // layers, heads
    assert!(v["top5_next"].as_array().is_some_and(|t| !t.is_empty()));
    // Layer 1 is a sliding-window layer (4 tokens): the last query cannot see the first key.
    let last = a[1][0].as_array().unwrap().last().unwrap().as_array().unwrap();
    assert_eq!(last[0].as_f64(), Some(0.0));
    assert!(std::fs::read_to_string(&svg).unwrap().contains("sliding window"));
    // The JSON says which layers are local, and how many keys their window holds.
    let masks: Vec<(String, Option<u64>)> = v["layer_masks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["mask"].as_str().unwrap().to_string(), m["window"].as_u64()))
        .collect();
    assert_eq!(masks.len(), 3);
    assert!(masks.iter().any(|m| *m == ("sliding window".to_string(), Some(4))), "{masks:?}");
    assert!(masks.iter().any(|m| *m == ("causal".to_string(), None)), "{masks:?}");

    // A trace file of the same run exports the same layer masks.
    let (file, from_file) = (temp("gemma3.safetensors"), temp("gemma3-file.json"));
    let out = attnscope(&[
        "trace",
        "--model-path",
        &folder,
        "--text",
        text,
        "--out",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = attnscope(&[
        "attention",
        "--trace",
        file.to_str().unwrap(),
        "--json",
        from_file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let w: serde_json::Value = serde_json::from_slice(&std::fs::read(&from_file).unwrap()).unwrap();
    assert_eq!(w["layer_masks"], v["layer_masks"]);
}

#[test]
fn describe_reads_the_configuration() {
    let out = attnscope(&["describe", "--model-path", &tiny("qwen2")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["architecture"], "Qwen2 decoder");
    assert_eq!(
        (v["n_layers"].as_u64(), v["n_heads"].as_u64(), v["n_kv_heads"].as_u64()),
        (Some(2), Some(4), Some(2))
    );
    assert!(v["parameters"].as_u64().unwrap() > 0 && v["file_bytes"].as_u64().unwrap() > 0);
}

#[test]
fn a_model_path_that_is_no_model_is_one_clear_line() {
    let not_a_model = temp("not-a-model.gguf");
    std::fs::write(&not_a_model, b"hello").unwrap();
    let config_only = temp("config-only");
    std::fs::create_dir_all(&config_only).unwrap();
    std::fs::write(config_only.join("config.json"), br#"{"model_type": "t5"}"#).unwrap();
    for (path, says) in [
        (not_a_model.to_str().unwrap(), "not a GGUF file"),
        (config_only.to_str().unwrap(), "\"t5\""),
        ("/nonexistent/model", "neither a folder nor a file"),
    ] {
        for command in ["attention", "describe"] {
            let out = attnscope(
                &[command, "--model-path", path, "--text", "hi"]
                    [..if command == "describe" { 3 } else { 5 }],
            );
            assert!(!out.status.success(), "{command} {path}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(err.trim_end().lines().count(), 1, "{command} {path}: {err}");
            assert!(
                err.starts_with("attnscope: ") && err.contains(says),
                "{command} {path}: {err}"
            );
        }
    }
}

/// `--threads 2` shares every weight product with a second thread: the
/// JSON is the one thread's, byte for byte, for the built-in models and for
/// checkpoints of both families.
#[test]
fn two_threads_write_the_one_thread_json() {
    let text = "Ça va? The quick brown fox 🦊 jumps over the lazy dog.";
    let runs: [&[&str]; 4] = [
        &["--model", "minilm"],
        &["--model", "smollm2"],
        &["--model-path", &tiny("bert")],
        &["--model-path", &tiny("llama")],
    ];
    for which in runs {
        let json = |threads: &str| {
            let mut args = vec!["attention", "--text", text, "--json", "-", "--threads", threads];
            args.extend_from_slice(which);
            let out = attnscope(&args);
            assert!(out.status.success(), "{which:?}: {}", String::from_utf8_lossy(&out.stderr));
            out.stdout
        };
        let one = json("1");
        assert!(one.len() > 100, "{which:?}");
        assert!(json("2") == one, "{which:?}: two threads wrote other numbers");
    }
    let out = attnscope(&["attention", "--model", "minilm", "--text", "hi", "--threads", "3"]);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("1..=2"));
}

#[test]
fn analyze_patches_every_decoder_family_opened_from_files() {
    for family in ["llama", "gpt2", "gemma3", "qwen2"] {
        let folder = tiny(family);
        let patch = |what: &str, clean: &str, corrupt: &str| {
            attnscope(&[
                "analyze",
                "--model-path",
                &folder,
                "--what",
                what,
                "--text",
                clean,
                "--corrupt",
                corrupt,
                "--right",
                " the",
                "--wrong",
                " fox",
            ])
        };
        let (clean, corrupt) = ("the quick brown fox jumps", "the quick brown fix jumps");
        for what in ["patch-residual", "patch-heads", "patch-blocks"] {
            let out = patch(what, clean, corrupt);
            assert!(
                out.status.success(),
                "{family} {what}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let r = &v["result"];
            let n = r["clean_tokens"].as_array().unwrap().len();
            let at = r["differ_at"][0].as_u64().unwrap() as usize;
            for map in r["maps"].as_array().unwrap() {
                let effect = map["effect"].as_array().unwrap();
                let width = effect[0].as_array().unwrap().len();
                assert_eq!(width == n, map["columns"] == "position", "{family} {what}");
                assert!(effect.iter().flat_map(|r| r.as_array().unwrap()).all(|x| x.is_f64()));
                // The clean embedding at the one differing position is the clean run.
                if map["site"] == "residual" {
                    let e = effect[0][at].as_f64().unwrap();
                    assert!((e - 1.0).abs() < 1e-3, "{family}: residual 0.{at} = {e}");
                }
            }
        }
        let out = patch("patch-residual", clean, "the quick brown fox jumped over");
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && e.contains("same number of tokens"), "{family}: {e}");
        // Trimmed where the words differ, the pair is patched, and the note says what went.
        let mut args = vec!["analyze", "--model-path", &folder, "--what", "patch-residual"];
        args.extend(["--text", clean, "--corrupt", "the quick brown fox jumped over"]);
        args.extend(["--right", " the", "--wrong", " fox", "--fit", "trim"]);
        let out = attnscope(&args);
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && e.contains("left out"), "{family}: {e}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let r = &v["result"];
        assert_eq!(
            r["clean_tokens"].as_array().unwrap().len(),
            r["corrupt_tokens"].as_array().unwrap().len()
        );
        assert!(r["fitted"].as_str().unwrap().contains("corrupted prompt's"), "{family}: {r}");
    }
    let out = attnscope(&[
        "analyze",
        "--model-path",
        &tiny("bert"),
        "--what",
        "patch-heads",
        "--text",
        "a b",
        "--corrupt",
        "a c",
        "--right",
        "x",
        "--wrong",
        "y",
    ]);
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && e.contains("encoder"), "{e}");
    let out = attnscope(&[
        "analyze",
        "--model-path",
        &tiny("llama"),
        "--what",
        "patch-heads",
        "--text",
        "a b",
    ]);
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && e.contains("--corrupt"), "{e}");
}

#[test]
fn analyze_places_queries_and_keys_and_maps_the_heads_of_every_family() {
    for family in ["llama", "gpt2", "gemma3", "qwen2", "bert"] {
        let folder = tiny(family);
        let run = |args: &[&str]| {
            let mut all =
                vec!["analyze", "--model-path", &folder, "--text", "the quick brown fox jumps"];
            all.extend(args);
            attnscope(&all)
        };
        let json = |out: std::process::Output| -> serde_json::Value {
            assert!(out.status.success(), "{family}: {}", String::from_utf8_lossy(&out.stderr));
            serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()["result"].clone()
        };
        let map = json(run(&["--what", "similar-heads", "--clusters", "3"]));
        let heads = map["heads"].as_array().unwrap();
        let d = map["distance"].as_array().unwrap();
        assert_eq!((d.len(), map["map"].as_array().unwrap().len()), (heads.len(), heads.len()));
        for (g, row) in d.iter().enumerate() {
            for (h, x) in row.as_array().unwrap().iter().enumerate() {
                let x = x.as_f64().unwrap();
                assert!(
                    (0.0..=1.0).contains(&x) && (g != h || x == 0.0),
                    "{family}: d[{g}][{h}] = {x}"
                );
                assert_eq!(x, d[h][g].as_f64().unwrap(), "{family}: d is symmetric");
            }
        }
        assert!(map["clusters"].as_array().unwrap().iter().all(|c| c.as_u64().unwrap() < 3));
        let [layer, head] =
            [&heads.last().unwrap()[0], &heads.last().unwrap()[1]].map(|v| v.to_string());
        for translate in [false, true] {
            let mut args = vec!["--what", "qk", "--layer", &layer, "--head", &head];
            if translate {
                args.push("--translate-keys");
            }
            let r = json(run(&args));
            let n = r["tokens"].as_array().unwrap().len();
            assert_eq!(r["queries"].as_array().unwrap().len(), n, "{family}");
            assert_eq!(r["keys"].as_array().unwrap().len(), n, "{family}");
            let explained: Vec<f64> =
                r["explained"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
            assert!(
                explained[0] >= explained[1] && explained[0] + explained[1] <= 1.0 + 1e-6,
                "{family}: {explained:?}"
            );
            assert_eq!(r["translated"], translate);
            // The values on their own axes, and every query's output among them.
            let values = &r["values"];
            assert_eq!(values["values"].as_array().unwrap().len(), n, "{family}");
            assert_eq!(values["outputs"].as_array().unwrap().len(), n, "{family}");
            for (i, near) in r["nearest"].as_array().unwrap().iter().enumerate() {
                for key in ["weightiest", "angle", "plane"] {
                    let j = near[key].as_u64().unwrap() as usize;
                    assert!(
                        j < n && (family == "bert" || j <= i),
                        "{family}: query {i}'s {key} key is {j}"
                    );
                }
            }
        }
        let out = run(&["--what", "qk", "--layer", "0", "--head", "99"]);
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && e.contains("head 99 is not there"), "{family}: {e}");
    }
    let long = "word ".repeat(200);
    let out =
        attnscope(&["analyze", "--model", "minilm", "--what", "similar-heads", "--text", &long]);
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && e.contains("up to 128 tokens"), "{e}");
    let out = attnscope(&["analyze", "--model-path", &tiny("gpt2"), "--what", "qk", "--text", "a"]);
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && e.contains("one token"), "{e}");
}
