//! MiniLM under odd text and broken files: a clear `Error`, never a panic
//! (a panic in WebAssembly kills the page). Needs the real model files and
//! fails, pointing at `python3 scripts/fetch_models.py`, without them.

use crate::common;

use attnscope::checkpoint::minilm::MiniLm;
use attnscope::{Error, ModelTrace};
use std::path::Path;

use common::{minilm as model, minilm_files as files};

/// Every attention row is a probability distribution and the embedding has length 1.
fn assert_sane(trace: &ModelTrace) {
    let n = trace.tokens.len();
    assert_eq!(trace.token_ids.as_ref().map(Vec::len), Some(n));
    assert_eq!(trace.layers.len(), 6);
    for (l, layer) in trace.layers.iter().enumerate() {
        assert_eq!(layer.attention.heads.len(), 12);
        for (h, head) in layer.attention.heads.iter().enumerate() {
            assert_eq!(head.weights.shape(), (n, n));
            for i in 0..n {
                let row = head.weights.row(i);
                assert!(
                    row.iter().all(|w| w.is_finite() && *w >= 0.0),
                    "layer {l} head {h} row {i}"
                );
                assert!(
                    (row.iter().sum::<f32>() - 1.0).abs() < 1e-4,
                    "layer {l} head {h} row {i} sums to {}",
                    row.iter().sum::<f32>()
                );
            }
        }
    }
    let e = trace.sentence_embedding.as_ref().expect("embedding");
    assert_eq!(e.len(), 384);
    let norm = e.iter().map(|x| x * x).sum::<f32>().sqrt();
    assert!((norm - 1.0).abs() < 1e-4, "embedding norm {norm}");
}

#[test]
fn empty_text_is_just_cls_and_sep() {
    let trace = model().run("").unwrap();
    assert_eq!(trace.tokens, ["[CLS]", "[SEP]"]);
    assert_eq!(trace.token_ids, Some(vec![101, 102]));
    assert_eq!(trace.notice, None);
    assert_sane(&trace);
}

#[test]
fn whitespace_and_control_characters_only_are_like_empty_text() {
    let trace = model().run(" \t\n\r\u{0}\u{7}\u{1b}\u{200b}  ").unwrap();
    assert_eq!(trace.tokens, ["[CLS]", "[SEP]"]);
    assert_sane(&trace);
}

#[test]
fn emoji_cjk_and_mixed_scripts_run() {
    let trace =
        model().run("👩‍👩‍👧 🇫🇷 日本語のテキスト 한국어 العربية Ελληνικά ∑∫√ \u{301}a\u{fffd}").unwrap();
    assert!(trace.tokens.len() > 2);
    assert!(trace.tokens.iter().any(|t| t == "[UNK]"), "{:?}", trace.tokens);
    assert_sane(&trace);
}

#[test]
fn ten_thousand_characters_are_cut_with_a_notice() {
    let text: String = "attention is all you need, 注意力 ".chars().cycle().take(10_000).collect();
    let trace = model().run(&text).unwrap();
    assert_eq!(trace.tokens.len(), 256);
    assert_eq!(
        (trace.tokens.first().unwrap().as_str(), trace.tokens.last().unwrap().as_str()),
        ("[CLS]", "[SEP]")
    );
    let notice = trace.notice.as_deref().expect("a notice that the text was cut");
    assert!(notice.contains("256"), "{notice}");
    assert_sane(&trace);
}

#[test]
fn one_endless_word_runs() {
    let trace = model().run(&"x".repeat(10_000)).unwrap();
    assert_eq!(trace.tokens, ["[CLS]", "[UNK]", "[SEP]"]);
    assert_sane(&trace);
}

#[test]
fn a_text_of_exactly_the_limit_has_no_notice() {
    // "a" is one token: 254 of them plus [CLS] and [SEP] fill the 256 exactly.
    let trace = model().run(&"a ".repeat(254)).unwrap();
    assert_eq!((trace.tokens.len(), trace.notice.as_deref()), (256, None));
    let trace = model().run(&"a ".repeat(255)).unwrap();
    assert_eq!(trace.tokens.len(), 256);
    assert!(trace.notice.is_some());
}

fn model_file_error(result: Result<MiniLm, Error>) -> String {
    match result {
        Err(Error::ModelFile(message)) => {
            assert!(!message.is_empty());
            message
        }
        Err(other) => panic!("expected Error::ModelFile, got {other:?}"),
        Ok(_) => panic!("expected Error::ModelFile, the model loaded"),
    }
}

#[test]
fn broken_weight_files_are_model_file_errors() {
    let f = files();
    let empty = model_file_error(MiniLm::from_bytes(&[], &f.tokenizer, &f.config));
    assert!(empty.contains("safetensors"), "{empty}");
    let truncated = model_file_error(MiniLm::from_bytes(
        &f.weights[..f.weights.len() / 2],
        &f.tokenizer,
        &f.config,
    ));
    assert!(truncated.contains("safetensors"), "{truncated}");
    model_file_error(MiniLm::from_bytes(&f.weights[..5], &f.tokenizer, &f.config));
    model_file_error(MiniLm::from_bytes(&f.config, &f.tokenizer, &f.config));
    let garbage = attnscope::testing::Rng::new(1).bytes(4096);
    model_file_error(MiniLm::from_bytes(&garbage, &f.tokenizer, &f.config));
    // A header claiming a gigantic length must not make us allocate or read past the end.
    let mut huge = u64::MAX.to_le_bytes().to_vec();
    huge.extend_from_slice(b"{}");
    model_file_error(MiniLm::from_bytes(&huge, &f.tokenizer, &f.config));
}

#[test]
fn a_valid_safetensors_file_of_another_model_names_the_missing_tensor() {
    use safetensors::tensor::{Dtype, TensorView};
    let data = vec![0u8; 4 * 4];
    let other = safetensors::serialize(
        [("something.else", TensorView::new(Dtype::F32, vec![2, 2], &data).unwrap())],
        None,
    )
    .unwrap();
    let message = model_file_error(MiniLm::from_bytes(&other, &files().tokenizer, &files().config));
    assert!(message.contains("embeddings."), "{message}");
}

#[test]
fn a_config_that_disagrees_with_the_weights_is_a_model_file_error() {
    let f = files();
    let config = String::from_utf8(f.config.clone())
        .unwrap()
        .replace("\"intermediate_size\": 1536", "\"intermediate_size\": 1024");
    assert_ne!(config.as_bytes(), &f.config[..], "the edit must change config.json");
    let message = model_file_error(MiniLm::from_bytes(&f.weights, &f.tokenizer, config.as_bytes()));
    assert!(message.contains("shape"), "{message}");
    let odd_heads = String::from_utf8(f.config.clone())
        .unwrap()
        .replace("\"num_attention_heads\": 12", "\"num_attention_heads\": 7");
    model_file_error(MiniLm::from_bytes(&f.weights, &f.tokenizer, odd_heads.as_bytes()));
    model_file_error(MiniLm::from_bytes(&f.weights, &f.tokenizer, b"not json"));
    model_file_error(MiniLm::from_bytes(&f.weights, &f.tokenizer, b"{}"));
}

#[test]
fn a_broken_tokenizer_is_a_model_file_error() {
    let f = files();
    model_file_error(MiniLm::from_bytes(&f.weights, b"", &f.config));
    model_file_error(MiniLm::from_bytes(
        &f.weights,
        &f.tokenizer[..f.tokenizer.len() / 2],
        &f.config,
    ));
    model_file_error(MiniLm::from_bytes(&f.weights, b"{\"hello\": 1}", &f.config));
}

#[test]
fn a_missing_folder_says_how_to_fetch_the_files() {
    let message = model_file_error(MiniLm::load_dir(Path::new("/nonexistent/minilm")));
    assert!(message.contains("fetch_models.py"), "{message}");
}
