//! Trace files written by our own writer, read back; and every kind of bad
//! file (cut short, not safetensors, not a trace, a newer version, damaged)
//! gets its own clear error, never a panic, and nothing is read that a view
//! did not ask for.

use attnscope::models::teaching::{TeachingModel, TeachingOptions};
use attnscope::trace::ModelTrace;
use attnscope::trace::{pool, Thumbnail, THUMB_MAX};
use attnscope::tracefile::{
    write_model_trace, ByteSource, Element, MaskSpec, TraceFileError, TraceReader, WriteOptions,
    FORMAT_VERSION,
};
use attnscope::Mask;
use serde_json::{json, Value};

const TEXT: &str = "a fluffy blue creature roamed the verdant forest";

fn teaching(mask: Mask) -> ModelTrace {
    TeachingModel::with_options(TeachingOptions { mask, ..Default::default() }).run(TEXT).unwrap()
}

/// A path of its own for each call: tests run in parallel and each removes
/// what it wrote.
fn temp(name: &str) -> std::path::PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::env::temp_dir().join(format!("attnscope-tracefile-{}-{call}-{name}", std::process::id()))
}

/// The bytes of `trace` written as a trace file.
fn written(trace: &ModelTrace, element: Element, name: &str) -> Vec<u8> {
    let path = temp(name);
    let options = WriteOptions {
        element,
        text: Some(TEXT.into()),
        positions: Some("input".into()),
        ..Default::default()
    };
    write_model_trace(trace, &options, &path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    bytes
}

fn good() -> Vec<u8> {
    written(&teaching(Mask::None), Element::F32, "good.safetensors")
}

fn open(bytes: &[u8]) -> Result<TraceReader<&[u8]>, TraceFileError> {
    TraceReader::open(bytes)
}

/// Reads every tensor a view could ask for.
fn read_all<S: ByteSource>(r: &mut TraceReader<S>) -> Result<(), TraceFileError> {
    let (layers, heads, kv) = (r.index().n_layers(), r.index().n_heads(), r.index().n_kv_heads());
    for l in 0..layers {
        r.layer_attention(l)?;
        for h in 0..heads {
            r.attention(l, h)?;
            r.queries(l, h)?;
        }
        for g in 0..kv {
            r.keys(l, g)?;
        }
    }
    r.thumbnails()?;
    Ok(())
}

/// A file's JSON header and its data bytes.
fn split(bytes: &[u8]) -> (Value, Vec<u8>) {
    let n = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    (serde_json::from_slice(&bytes[8..8 + n]).unwrap(), bytes[8 + n..].to_vec())
}

/// A safetensors file from a JSON header and data bytes.
fn build(header: &Value, data: &[u8]) -> Vec<u8> {
    let text = header.to_string();
    let mut out = (text.len() as u64).to_le_bytes().to_vec();
    out.extend(text.as_bytes());
    out.extend(data);
    out
}

/// The good file with its header changed by `edit`.
fn edited(edit: impl FnOnce(&mut Value)) -> Vec<u8> {
    let (mut header, data) = split(&good());
    edit(&mut header);
    build(&header, &data)
}

/// The good file with its description changed by `edit`.
fn described(edit: impl FnOnce(&mut Value)) -> Vec<u8> {
    edited(|h| {
        let mut d: Value =
            serde_json::from_str(h["__metadata__"]["trace"].as_str().unwrap()).unwrap();
        edit(&mut d);
        h["__metadata__"]["trace"] = Value::String(d.to_string());
    })
}

fn error(bytes: &[u8]) -> TraceFileError {
    match open(bytes) {
        Ok(mut r) => read_all(&mut r).expect_err("expected an error"),
        Err(e) => e,
    }
}

#[test]
fn our_own_trace_reads_back_exactly_in_f32() {
    let trace = teaching(Mask::None);
    let bytes = good();
    let mut r = open(&bytes).unwrap();
    let d = r.description().clone();
    assert_eq!((d.n_layers, d.n_heads, d.n_kv_heads), (1, 5, 5));
    assert_eq!(d.tokens, trace.tokens);
    assert_eq!(d.text.as_deref(), Some(TEXT));
    assert_eq!(d.model.architecture, "attnscope");
    assert_eq!(r.index().mask(0), MaskSpec::None);
    // A text trace declares 1.0, the oldest version that has all it holds (this reader knows 1.1).
    assert_eq!((r.index().version.as_str(), FORMAT_VERSION), ("1.0", "1.1"));
    let qk = d.queries_keys.as_ref().unwrap();
    assert_eq!(
        (qk.scale, qk.positions.as_deref()),
        (trace.layers[0].attention.heads[0].scale, Some("input"))
    );
    assert!(qk.max_abs_error.unwrap() < 1e-6, "{qk:?}");
    let att = &trace.layers[0].attention;
    for h in 0..5 {
        assert_eq!(r.attention(0, h).unwrap(), att.heads[h].weights);
        assert_eq!(r.queries(0, h).unwrap().unwrap(), att.q[h]);
        assert_eq!(r.keys(0, h).unwrap().unwrap(), att.k[h]);
    }
    let thumbs = r.thumbnails().unwrap();
    assert_eq!(r.index().thumbnail_size(), Some(8));
    for (thumb, head) in thumbs[0].iter().zip(&att.heads) {
        assert_eq!(*thumb, Thumbnail::new(&pool(&head.weights, THUMB_MAX)));
    }
}

#[test]
fn f16_weights_are_the_f32_ones_rounded_once() {
    let trace = teaching(Mask::Causal);
    let bytes = written(&trace, Element::F16, "f16.safetensors");
    let mut r = open(&bytes).unwrap();
    assert_eq!(r.index().mask(0), MaskSpec::Causal);
    for (h, head) in trace.layers[0].attention.heads.iter().enumerate() {
        let got = r.attention(0, h).unwrap();
        let want = head.weights.map(|w| half::f16::from_f32(w).to_f32());
        assert_eq!(got, want, "head {h}");
        assert!(got.max_abs_diff(&head.weights) <= 1.0 / 4096.0);
        // Thumbnails are pooled from the weights as stored.
        assert_eq!(r.thumbnails().unwrap()[0][h], Thumbnail::new(&pool(&got, THUMB_MAX)));
    }
}

#[test]
fn reading_a_head_reads_only_the_header_and_that_head() {
    struct Counting<'a>(&'a [u8], &'a std::cell::Cell<u64>);
    impl ByteSource for Counting<'_> {
        fn size(&self) -> u64 {
            self.0.len() as u64
        }
        fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
            self.1.set(self.1.get() + buf.len() as u64);
            let mut all = self.0;
            all.read_at(offset, buf)
        }
    }
    let bytes = good();
    let header = u64::from_le_bytes(bytes[..8].try_into().unwrap());
    let count = std::cell::Cell::new(0);
    let mut r = TraceReader::open(Counting(&bytes, &count)).unwrap();
    assert_eq!(count.get(), 9 + header);
    r.attention(0, 3).unwrap();
    let n = r.index().n_tokens() as u64;
    assert_eq!(count.get(), 9 + header + n * n * 4);
}

#[test]
fn every_cut_is_reported_as_cut_short() {
    let bytes = good();
    for len in 0..bytes.len() {
        let e = error(&bytes[..len]);
        match len {
            0..9 => assert!(matches!(e, TraceFileError::NotSafetensors(_)), "{len}: {e}"),
            _ => assert!(matches!(e, TraceFileError::Truncated(_)), "{len}: {e}"),
        }
    }
    let e = error(&bytes[..bytes.len() - 1]);
    assert!(e.to_string().starts_with("the trace file is cut short: its tensors take"), "{e}");
}

#[test]
fn other_files_are_not_trace_files() {
    let png =
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89".to_vec();
    let text = b"{\"tokens\": [\"a\"], \"note\": \"a JSON file, not safetensors\"}".to_vec();
    let zeros = vec![0u8; 4096];
    let garbage: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
    let mut bad_json = 12u64.to_le_bytes().to_vec();
    bad_json.extend(b"{not json!!}");
    let mut huge = u64::MAX.to_le_bytes().to_vec();
    huge.extend(b"{}");
    for (name, bytes) in [
        ("png", png),
        ("text", text),
        ("zeros", zeros),
        ("garbage", garbage),
        ("bad json", bad_json),
        ("huge header", huge),
    ] {
        let e = error(&bytes);
        assert!(matches!(e, TraceFileError::NotSafetensors(_)), "{name}: {e}");
        assert!(e.to_string().starts_with("not a trace file: "), "{name}: {e}");
    }
}

#[test]
fn model_weights_are_safetensors_but_not_a_trace() {
    let data: Vec<u8> = [1.0f32, 2.0, 3.0, 4.0].iter().flat_map(|x| x.to_le_bytes()).collect();
    let view =
        safetensors::tensor::TensorView::new(safetensors::Dtype::F32, vec![2, 2], &data).unwrap();
    let bytes = safetensors::serialize([("encoder.weight", view)], None).unwrap();
    let e = error(&bytes);
    assert!(matches!(e, TraceFileError::NotATrace(_)), "{e}");
    assert!(e.to_string().contains("model weights"), "{e}");
}

#[test]
fn a_newer_major_version_is_refused_with_a_reason() {
    let e = error(&edited(|h| h["__metadata__"]["format_version"] = json!("2.0")));
    assert_eq!(e, TraceFileError::NewerVersion { found: "2.0".into() });
    assert!(
        e.to_string().contains("newer than this attnscope reads (1.x): update attnscope"),
        "{e}"
    );
}

#[test]
fn a_newer_minor_version_reads_and_ignores_what_it_adds() {
    // Version 1.4: a field, a tensor and a mask type this reader does not know.
    let (mut header, mut data) = split(&good());
    header["__metadata__"]["format_version"] = json!("1.4");
    let mut d: Value =
        serde_json::from_str(header["__metadata__"]["trace"].as_str().unwrap()).unwrap();
    d["attention_sinks"] = json!([0.5, 0.25]);
    d["mask"] = json!({"type": "chunked", "chunk": 4});
    header["__metadata__"]["trace"] = Value::String(d.to_string());
    let at = data.len() as u64;
    header["layers.0.values"] =
        json!({"dtype": "F32", "shape": [5, 8, 2], "data_offsets": [at, at + 320]});
    data.extend(vec![0u8; 320]);
    let bytes = build(&header, &data);
    let mut r = open(&bytes).unwrap();
    assert_eq!(r.index().mask(0), MaskSpec::Unknown);
    assert_eq!(r.index().mask(0).core(), None);
    read_all(&mut r).unwrap();
}

#[test]
fn damaged_files_say_what_is_wrong() {
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "description not JSON",
            edited(|h| h["__metadata__"]["trace"] = json!("{\"model\": ")),
            "its description does not read",
        ),
        (
            "no description",
            edited(|h| {
                h["__metadata__"].as_object_mut().unwrap().remove("trace").map(drop).unwrap()
            }),
            "no \"trace\"",
        ),
        (
            "odd version",
            edited(|h| h["__metadata__"]["format_version"] = json!("one")),
            "format version \"one\"",
        ),
        (
            "layer missing",
            edited(|h| {
                let e = h.as_object_mut().unwrap().remove("layers.0.attention").unwrap();
                h["layers.1.attention"] = e;
            }),
            "the attention of layer 0 is missing",
        ),
        (
            "wrong shape",
            edited(|h| h["layers.0.attention"]["shape"] = json!([5, 4, 16])),
            "has shape [5, 4, 16], not [5, 8, 8]",
        ),
        (
            "wrong dtype",
            edited(|h| h["layers.0.attention"]["dtype"] = json!("I32")),
            "trace files hold F16 or F32",
        ),
        (
            "queries alone",
            edited(|h| {
                let e = h.as_object_mut().unwrap().remove("layers.0.keys").unwrap();
                h["layers.0.something_else"] = e;
            }),
            "layer 0 has queries without keys",
        ),
        (
            "heads over groups",
            described(|d| d["n_kv_heads"] = json!(2)),
            "5 query heads do not split evenly over 2",
        ),
        ("no tokens", described(|d| d["tokens"] = json!([])), "it has no tokens"),
        ("ids", described(|d| d["token_ids"] = json!([1, 2])), "8 tokens but 2 token ids"),
        (
            "masks per layer",
            described(|d| d["mask"] = json!([{"type": "none"}, {"type": "causal"}])),
            "2 masks for 1 layers",
        ),
        (
            "window 0",
            described(|d| d["mask"] = json!({"type": "sliding_window", "window": 0})),
            "description does not read",
        ),
        (
            "a trillion layers",
            described(|d| d["n_layers"] = json!(1_000_000_000_000u64)),
            "holds only",
        ),
        (
            "probability",
            described(|d| d["top_next"] = json!([{"token": "x", "probability": 2.5}])),
            "probability 2.5",
        ),
        (
            "no scale",
            described(|d| drop(d.as_object_mut().unwrap().remove("queries_keys"))),
            "not their scale",
        ),
    ];
    for (name, bytes, words) in cases {
        let e = error(&bytes);
        assert!(e.to_string().contains(words), "{name}: {e}");
        assert!(matches!(e, TraceFileError::Corrupted(_)), "{name}: {e:?}");
    }
}

#[test]
fn tensors_that_do_not_tile_the_data_are_refused() {
    let mut longer = good();
    longer.extend([0u8; 16]);
    assert!(error(&longer).to_string().contains("16 bytes follow its last tensor"));
    let overlap = edited(|h| h["layers.0.queries"]["data_offsets"][0] = json!(4));
    assert!(matches!(error(&overlap), TraceFileError::NotSafetensors(_)));
    let overflow =
        edited(|h| h["layers.0.attention"]["shape"] = json!([1u64 << 40, 1u64 << 40, 1u64 << 40]));
    assert!(error(&overflow).to_string().contains("bytes for shape"), "{}", error(&overflow));
    let past_the_end = build(
        &json!({"__metadata__": {"format": "attnscope-trace"}, "t": {"dtype": "U8", "shape": [1u64 << 40], "data_offsets": [0, 1u64 << 40]}}),
        &[0u8; 64],
    );
    assert!(
        matches!(error(&past_the_end), TraceFileError::Truncated(_)),
        "{}",
        error(&past_the_end)
    );
}

/// The good (f32) file with weight [1][1] of head `head` set to `value`.
fn with_weight(head: usize, value: f32) -> Vec<u8> {
    let mut bytes = good();
    let (header, _) = split(&bytes);
    let data = 8 + u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let begin = header["layers.0.attention"]["data_offsets"][0].as_u64().unwrap() as usize;
    let at = data + begin + (head * 64 + 9) * 4;
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
    bytes
}

#[test]
fn a_damaged_weight_is_found_when_its_head_is_read_and_no_sooner() {
    for (value, words) in [
        (f32::NAN, "holds NaN at [0][1][1]"),
        (1.5, "holds 1.5 at [0][1][1]"),
        (-0.5, "holds -0.5"),
    ] {
        let bytes = with_weight(2, value);
        let mut r = open(&bytes).unwrap();
        r.attention(0, 1).unwrap();
        let e = r.attention(0, 2).unwrap_err();
        assert!(matches!(e, TraceFileError::Corrupted(_)), "{e}");
        assert!(
            e.to_string().contains(words) && e.to_string().contains("layer 0 head 2 attention"),
            "{e}"
        );
        assert!(r.layer_attention(0).is_err());
    }
}

#[test]
fn requests_outside_the_file_are_refused() {
    let bytes = good();
    let mut r = open(&bytes).unwrap();
    let e = r.attention(1, 0).unwrap_err();
    assert_eq!(e.to_string(), "the trace of Teaching model (hand-designed heads) has layers 0–0 and heads 0–4; asked for layer 1 head 0");
    assert!(r.attention(0, 5).is_err() && r.keys(0, 5).is_err() && r.queries(3, 0).is_err());
}

#[test]
fn no_flipped_byte_makes_the_reader_panic() {
    let bytes = good();
    let n = 8 + u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    // Every header byte (and the length), then a stride through the data.
    let places = (0..n).chain((n..bytes.len()).step_by(7));
    for at in places {
        for flip in [0x01u8, 0x20, 0x80, 0xff] {
            let mut b = bytes.clone();
            b[at] ^= flip;
            if let Ok(mut r) = open(&b) {
                let _ = read_all(&mut r);
            }
        }
    }
}
