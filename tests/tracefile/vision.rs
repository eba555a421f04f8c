//! Vision traces (format 1.1): the patch grid and the image a numpy-written
//! trace holds (scripts/reference/tracefile_numpy_fixtures.py) read back
//! exactly; a query's weights on the grid are its row of A; bad grids and
//! images are refused with a reason; `attention --trace --query` draws the
//! overlay and says what is wrong with a bad query.

use attnscope::tracefile::{PatchGrid, SeekSource, TraceFileError, TraceReader, IMAGE_NAME};
use attnscope::Matrix;
use safetensors::SafeTensors;
use serde_json::{json, Value};
use std::fs::File;
use std::path::PathBuf;

use crate::common::{attnscope, temp};

fn fixture(name: &str) -> PathBuf {
    attnscope::testing::fixture_path(&format!("tracefile/{name}"))
}

fn open() -> TraceReader<SeekSource<File>> {
    TraceReader::open_path(&fixture("numpy_vision.safetensors")).unwrap()
}

/// One array the fixture was written from, as bytes, with its shape.
fn expected(name: &str) -> (Vec<usize>, Vec<u8>) {
    let bytes = std::fs::read(fixture("numpy_expected.safetensors")).unwrap();
    let all = SafeTensors::deserialize(&bytes).unwrap();
    let t = all.tensor(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    (t.shape().to_vec(), t.data().to_vec())
}

fn expected_weights(layer: usize) -> Vec<Matrix> {
    let (shape, data) = expected(&format!("vision/layers.{layer}.attention"));
    let values: Vec<f32> =
        data.chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect();
    let per = shape[1] * shape[2];
    values.chunks_exact(per).map(|c| Matrix::from_vec(shape[1], shape[2], c.to_vec())).collect()
}

#[test]
fn the_grid_and_the_image_read_back_exactly_and_a_query_row_lies_on_the_grid() {
    let mut r = open();
    assert_eq!(r.index().version, "1.1");
    let grid = r.description().patches.expect("a vision trace has its grid");
    assert_eq!(grid, PatchGrid { rows: 3, cols: 4, first_patch: 2, patch_size: Some(8) });
    assert_eq!(r.description().tokens.len(), 14);
    assert_eq!((grid.patch_of(0), grid.patch_of(1)), (None, None));
    assert_eq!(grid.patch_of(2), Some((0, 0)));
    assert_eq!(grid.patch_of(13), Some((2, 3)));
    assert_eq!((grid.token(1, 2), grid.token(3, 0)), (Some(8), None));

    let image = r.image().unwrap().expect("its image");
    let (shape, rgb) = expected("vision/image");
    assert_eq!(shape, vec![24, 32, 3]);
    assert_eq!((image.height, image.width), (24, 32));
    assert_eq!(image.rgb, rgb);

    for layer in 0..2 {
        let want = expected_weights(layer);
        for (h, w) in want.iter().enumerate() {
            let a = r.attention(layer, h).unwrap();
            assert_eq!(&a, w);
            for query in [0, 1, 7] {
                let on = grid.over_patches(a.row(query)).unwrap();
                assert_eq!(on.shape(), (3, 4));
                for (p, &v) in on.data.iter().enumerate() {
                    assert_eq!(v, w[(query, 2 + p)], "layer {layer} head {h} query {query}");
                }
            }
        }
    }
    // Text traces have neither.
    let mut text = TraceReader::open_path(&fixture("numpy_f32.safetensors")).unwrap();
    assert_eq!(text.index().version, "1.0");
    assert!(text.description().patches.is_none() && text.image().unwrap().is_none());
}

/// The vision fixture with its header changed by `edit`.
fn edited(edit: impl FnOnce(&mut Value)) -> Vec<u8> {
    let bytes = std::fs::read(fixture("numpy_vision.safetensors")).unwrap();
    let n = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let mut header: Value = serde_json::from_slice(&bytes[8..8 + n]).unwrap();
    edit(&mut header);
    let text = header.to_string();
    let mut out = (text.len() as u64).to_le_bytes().to_vec();
    out.extend(text.as_bytes());
    out.extend(&bytes[8 + n..]);
    out
}

fn with_grid(grid: Value) -> Vec<u8> {
    edited(|h| {
        let mut d: Value =
            serde_json::from_str(h["__metadata__"]["trace"].as_str().unwrap()).unwrap();
        d["patches"] = grid;
        h["__metadata__"]["trace"] = Value::String(d.to_string());
    })
}

fn refused(bytes: &[u8]) -> TraceFileError {
    match TraceReader::open(bytes) {
        Ok(_) => panic!("a bad vision trace opened"),
        Err(e) => e,
    }
}

#[test]
fn a_grid_that_does_not_fit_the_tokens_or_a_missing_or_odd_image_is_refused() {
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "grid larger than the tokens",
            with_grid(json!({"rows": 4, "cols": 4, "first_patch": 2})),
            "patch grid of 4 × 4 from token 2 on needs more than its 14 tokens",
        ),
        (
            "grid starting too late",
            with_grid(json!({"rows": 3, "cols": 4, "first_patch": 3})),
            "from token 3 on needs more than its 14 tokens",
        ),
        (
            "grid of no rows",
            with_grid(json!({"rows": 0, "cols": 4, "first_patch": 2})),
            "each side must be at least 1",
        ),
        (
            "grid overflowing",
            with_grid(json!({"rows": u64::MAX, "cols": 2, "first_patch": 2})),
            "needs more than its 14 tokens",
        ),
        (
            "image missing",
            edited(|h| {
                // The image's bytes stay as a tensor of another name, so the layout still tiles.
                let e = h.as_object_mut().unwrap().remove(IMAGE_NAME).unwrap();
                h["picture"] = e;
            }),
            "a patch grid but no image",
        ),
        (
            "image of another dtype",
            edited(|h| {
                h[IMAGE_NAME]["dtype"] = json!("I8");
            }),
            "its image is I8, not U8",
        ),
        (
            "image without colour",
            edited(|h| {
                h[IMAGE_NAME]["shape"] = json!([24, 96, 1]);
            }),
            "image has shape [24, 96, 1], not [24, 96, 3]",
        ),
    ];
    for (what, bytes, words) in cases {
        let e = refused(&bytes);
        assert!(matches!(e, TraceFileError::Corrupted(_)), "{what}: {e:?}");
        assert!(e.to_string().contains(words), "{what}: {e}");
    }
    // Without a grid, an image is a tensor this reader does not need: ignored.
    let no_grid = edited(|h| {
        let mut d: Value =
            serde_json::from_str(h["__metadata__"]["trace"].as_str().unwrap()).unwrap();
        d.as_object_mut().unwrap().remove("patches");
        h["__metadata__"]["trace"] = Value::String(d.to_string());
    });
    let mut r = TraceReader::open(&no_grid[..]).unwrap();
    assert!(r.image().unwrap().is_none());
}

fn png_size(path: &PathBuf) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let info = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().unwrap();
    (info.info().width, info.info().height)
}

#[test]
fn the_cli_draws_a_query_over_the_picture_and_explains_a_bad_query() {
    let file = fixture("numpy_vision.safetensors");
    let file = file.to_str().unwrap();
    for (query, name) in [("cls", "cls.png"), ("2,3", "patch.png"), (" 0 , 1 ", "spaced.png")] {
        let out = temp(name);
        let args = ["attention", "--trace", file, "--layer", "1", "--head", "1", "--query", query];
        let status = attnscope(&[&args[..], &["--png", out.to_str().unwrap()]].concat());
        assert!(status.status.success(), "{query}: {}", String::from_utf8_lossy(&status.stderr));
        // The 24 × 32 picture drawn 448 wide: 336 tall, under the title and over the legend.
        assert_eq!(png_size(&out), (448 + 32, 52 + 336 + 54), "{query}");
        let _ = std::fs::remove_file(out);
    }
    // Rollout through every layer instead of one head: the same picture, other weights.
    let (head, rolled) = (temp("head.png"), temp("rolled.png"));
    for (out, extra) in [(&head, &[][..]), (&rolled, &["--rollout"][..])] {
        let args = ["attention", "--trace", file, "--layer", "1", "--head", "1", "--query", "cls"];
        let status = attnscope(&[&args[..], extra, &["--png", out.to_str().unwrap()]].concat());
        assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    }
    assert_eq!(png_size(&rolled), png_size(&head));
    assert_ne!(std::fs::read(&rolled).unwrap(), std::fs::read(&head).unwrap());
    let _ = (std::fs::remove_file(head), std::fs::remove_file(rolled));

    let text = fixture("numpy_f32.safetensors");
    let out = temp("bad.png");
    let out = out.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--trace", file, "--query", "3,0", "--png", out],
            "outside the grid of 3 × 4 patches",
        ),
        (
            vec!["--trace", file, "--query", "middle", "--png", out],
            "give cls or a patch as ROW,COL",
        ),
        (vec!["--trace", file, "--query", "cls"], "give --png FILE"),
        (vec!["--trace", file, "--rollout", "--png", out], "--query"),
        (vec!["--trace", file, "--query", "cls", "--png", out, "--svg", out], "PNG only"),
        (vec!["--trace", file, "--query", "cls", "--head", "2", "--png", out], "heads 0–1"),
        (
            vec!["--trace", text.to_str().unwrap(), "--query", "cls", "--png", out],
            "needs a vision trace",
        ),
    ];
    for (args, words) in cases {
        let result = attnscope(&[&["attention"][..], &args].concat());
        let err = String::from_utf8_lossy(&result.stderr);
        assert!(!result.status.success(), "{args:?} succeeded");
        assert!(err.contains(words) && !err.contains("panicked"), "{args:?}: {err}");
    }
    assert!(!std::path::Path::new(out).exists(), "a refused query wrote a file");
}

/// A tiny random vision transformer traced by `attnscope.trace_image`
/// (scripts/reference/tracefile_vision.py): the report's checks passed, the
/// grid is the model's, and every head's weights come back from the file's
/// queries and keys through our formula, A = softmax(Q·Kᵀ·scale) (no mask).
fn check_transformers(name: &str, specials: &[&str]) {
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("vision_roundtrip.json")).unwrap())
            .unwrap();
    let entry = &report["models"][name];
    assert!(entry["checks"].as_object().unwrap().values().all(|ok| ok == true), "{name}: {entry}");
    let mut r = TraceReader::open_path(&fixture(&format!("{name}.safetensors"))).unwrap();
    let d = r.description().clone();
    let grid = d.patches.unwrap();
    assert_eq!((grid.rows, grid.cols, grid.first_patch), (4, 4, specials.len()));
    assert_eq!(&d.tokens[..specials.len()], specials);
    assert_eq!(serde_json::to_value(&d.tokens).unwrap(), entry["tokens"]);
    let image = r.image().unwrap().unwrap();
    assert_eq!((image.width, image.height), (32, 32));
    let scale = d.queries_keys.as_ref().unwrap().scale;
    let mut worst = 0.0f32;
    for l in 0..d.n_layers {
        for h in 0..d.n_heads {
            let stored = r.attention(l, h).unwrap();
            let (q, k) = (r.queries(l, h).unwrap().unwrap(), r.keys(l, h).unwrap().unwrap());
            let again = attnscope::attention::softmax_rows(q.matmul_t(&k).map(|s| s * scale));
            worst = worst.max(again.max_abs_diff(&stored));
            // The class token's row on the grid is the row itself.
            let on = grid.over_patches(stored.row(0)).unwrap();
            assert_eq!(on.data, stored.row(0)[specials.len()..]);
        }
    }
    assert!(worst < 1e-5, "{name}: recomputed weights {worst} from the file's");
}

#[test]
fn a_tiny_vit_and_a_dinov2_with_registers_traced_by_transformers_read_back() {
    check_transformers("tiny_vit", &["[CLS]"]);
    check_transformers("tiny_dinov2_registers", &["[CLS]", "[REG0]", "[REG1]"]);
}
