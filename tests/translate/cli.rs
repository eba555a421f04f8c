//! `attnscope translate` end to end: real files written and parsed back.

use crate::common;

use common::{attnscope, temp};

const FLUFFY: &str = "a fluffy blue creature roamed the verdant forest";

#[test]
fn translate_exports_json_png_and_svg() {
    let (json, png, svg) = (temp("t.json"), temp("t.png"), temp("t.svg"));
    let out = attnscope(&[
        "translate",
        "--from",
        "en",
        "--to",
        "pt",
        "--text",
        FLUFFY,
        "--json",
        json.to_str().unwrap(),
        "--png",
        png.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
        "--layer",
        "1",
        "--head",
        "avg",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(v["translation"], "uma criatura azul fofa vagueou a floresta verdejante");
    let (src, tgt) = (
        v["source_tokens"].as_array().unwrap().len(),
        v["target_tokens"].as_array().unwrap().len(),
    );
    assert_eq!(src, 14);
    let cross = v["cross_attentions"].as_array().unwrap();
    assert_eq!(cross.len(), 2, "two decoder layers");
    assert_eq!(cross[1].as_array().unwrap().len(), 8, "eight heads");
    let head = cross[1][3].as_array().unwrap();
    assert_eq!(head.len(), tgt);
    for row in head {
        let row = row.as_array().unwrap();
        assert_eq!(row.len(), src);
        let sum: f64 = row.iter().map(|w| w.as_f64().unwrap()).sum();
        assert!((sum - 1.0).abs() < 1e-5);
    }
    let enc = v["encoder_attentions"].as_array().unwrap();
    assert_eq!(
        (enc.len(), enc[0].as_array().unwrap().len(), enc[0][0].as_array().unwrap().len()),
        (6, 8, src)
    );
    assert_eq!(v["stop"], "end_of_sentence");
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("criatura") && svg.contains("mean of all heads")
    );
}

#[test]
fn translate_prints_the_translation_and_draws_the_encoder() {
    let out = attnscope(&["translate", "--from", "pt", "--to", "en", "--text", "obrigado"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "Thank you");
    let svg = temp("enc.svg");
    let out = attnscope(&[
        "translate",
        "--from",
        "en",
        "--to",
        "pt",
        "--text",
        FLUFFY,
        "--attention",
        "encoder",
        "--layer",
        "5",
        "--head",
        "2",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::read_to_string(&svg)
        .unwrap()
        .contains("encoder self-attention · layer 5 · head 2"));
}

#[test]
fn translate_errors_are_clear() {
    let out = attnscope(&["translate", "--from", "en", "--to", "de", "--text", "hi"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("en → pt and pt → en"));
    let out = attnscope(&[
        "translate",
        "--from",
        "en",
        "--to",
        "pt",
        "--text",
        "hi",
        "--layer",
        "2",
        "--svg",
        temp("x.svg").to_str().unwrap(),
    ]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("layers 0–1"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = attnscope(&["translate", "--from", "en", "--to", "pt", "--text", "   "]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing to translate"));
    let out =
        attnscope(&["translate", "--from", "en", "--to", "pt", "--text", "hi", "--head", "x"]);
    assert_eq!(out.status.code(), Some(2));
    let out = attnscope(&[
        "translate",
        "--from",
        "en",
        "--to",
        "pt",
        "--text",
        "hi",
        "--models-dir",
        "/nonexistent",
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("fetch_models.py translate-enpt"));
}
