//! What the integration tests share: the model files, each read and loaded
//! once per test binary, and the reference fixtures. The files must be there
//! (`python3 scripts/fetch_models.py`): a test without them fails, saying so,
//! rather than skipping.
#![allow(dead_code)] // each test binary uses some of these

use attnscope::checkpoint::minilm::MiniLm;
use attnscope::checkpoint::smollm2::SmolLm2;
use attnscope::models::marian::{Direction, Translator};
pub use attnscope::testing::{fixture_path, minilm_dir, smollm2_gguf, translate_dir};
use std::sync::OnceLock;

pub mod thread_helper;

/// `path`'s bytes, or a failure that says how to fetch the model files.
pub fn read(path: &std::path::Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| {
        panic!("{} ({e}): run `python3 scripts/fetch_models.py` first", path.display())
    })
}

/// The bytes of SmolLM2's GGUF file.
pub fn smollm2_bytes() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| read(&smollm2_gguf()))
}

/// SmolLM2, loaded once, without a helper thread.
pub fn smollm2() -> &'static SmolLm2 {
    static MODEL: OnceLock<SmolLm2> = OnceLock::new();
    MODEL.get_or_init(smollm2_owned)
}

/// A SmolLM2 of its own, read from its file (for tests that give it a
/// helper or a cache).
pub fn smollm2_owned() -> SmolLm2 {
    let path = smollm2_gguf();
    assert!(
        path.is_file(),
        "{} is missing: run `python3 scripts/fetch_models.py` first",
        path.display()
    );
    SmolLm2::load(&path).unwrap_or_else(|e| panic!("loading {}: {e}", path.display()))
}

/// MiniLM's three files, as the browser downloads them.
pub struct MiniLmFiles {
    pub weights: Vec<u8>,
    pub tokenizer: Vec<u8>,
    pub config: Vec<u8>,
}

/// MiniLM's files, read once.
pub fn minilm_files() -> &'static MiniLmFiles {
    static FILES: OnceLock<MiniLmFiles> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = minilm_dir();
        MiniLmFiles {
            weights: read(&dir.join("model.safetensors")),
            tokenizer: read(&dir.join("tokenizer.json")),
            config: read(&dir.join("config.json")),
        }
    })
}

/// MiniLM, loaded once from its folder.
pub fn minilm() -> &'static MiniLm {
    static MODEL: OnceLock<MiniLm> = OnceLock::new();
    MODEL.get_or_init(|| {
        let dir = minilm_dir();
        assert!(
            dir.join("model.safetensors").is_file(),
            "MiniLM files missing in {}: run `python3 scripts/fetch_models.py` first",
            dir.display()
        );
        MiniLm::load_dir(&dir).unwrap_or_else(|e| panic!("loading MiniLM failed: {e}"))
    })
}

/// A translation direction's files, as the browser downloads them: the
/// model, `tokenizer.json` and `shortlist.bin`.
pub struct TranslateFiles {
    pub model: Vec<u8>,
    pub tokenizer: Vec<u8>,
    pub shortlist: Vec<u8>,
}

/// Both directions' files, read once.
pub fn translate_files(d: Direction) -> &'static TranslateFiles {
    static FILES: OnceLock<[TranslateFiles; 2]> = OnceLock::new();
    let all = FILES.get_or_init(|| {
        Direction::ALL.map(|d| {
            let dir = translate_dir(d.slug());
            TranslateFiles {
                model: read(&dir.join(d.model_file())),
                tokenizer: read(&dir.join("tokenizer.json")),
                shortlist: read(&dir.join("shortlist.bin")),
            }
        })
    });
    &all[Direction::ALL.iter().position(|&x| x == d).unwrap()]
}

/// Both translators, loaded once from their folders.
pub fn translator(d: Direction) -> &'static Translator {
    static MODELS: OnceLock<[Translator; 2]> = OnceLock::new();
    let models = MODELS.get_or_init(|| {
        Direction::ALL.map(|d| {
            Translator::load_dir(d, &translate_dir(d.slug()))
                .unwrap_or_else(|e| panic!("{e}: run `python3 scripts/fetch_models.py`"))
        })
    });
    &models[Direction::ALL.iter().position(|&x| x == d).unwrap()]
}

/// A reference fixture's text (`tests/fixtures/…`), made by `scripts/reference/`.
pub fn fixture_text(relative: &str) -> String {
    let path = fixture_path(relative);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (made by scripts/reference/)", path.display()))
}

/// Runs the `attnscope` binary of this build with `args`.
pub fn attnscope(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_attnscope"))
        .args(args)
        .output()
        .expect("the attnscope binary runs")
}

/// `name` in a temporary folder of this test process's own, under Cargo's
/// `target/tmp` (so the folders go with `target/`, not pile up in /tmp).
pub fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("attnscope-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Every head of one layer against a reference's weights [head][query][key]:
/// the shapes equal, each weight within `tolerance`; returns the largest
/// difference. `what` names the model and text in a failure.
pub fn heads_within(
    what: &str,
    l: usize,
    heads: &[attnscope::attention::HeadTrace],
    want: &[Vec<Vec<f32>>],
    tolerance: f32,
) -> f32 {
    assert_eq!(heads.len(), want.len(), "{what}: heads of layer {l}");
    let mut worst = 0f32;
    for (h, (head, want)) in heads.iter().zip(want).enumerate() {
        let a = &head.weights;
        assert_eq!((a.rows, a.cols), (want.len(), want.len()), "{what}: layer {l} head {h} shape");
        for (i, row) in want.iter().enumerate() {
            for (j, &w) in row.iter().enumerate() {
                let d = (a[(i, j)] - w).abs();
                assert!(
                    d <= tolerance,
                    "{what}: layer {l} head {h} A[{i}][{j}] = {} vs {w}",
                    a[(i, j)]
                );
                worst = worst.max(d);
            }
        }
    }
    worst
}

/// A file of `models-extra/NAME/` (`python3 scripts/fetch_models.py --extra`),
/// or None, said on stderr, when it is absent.
pub fn extra(name: &str, file: &str) -> Option<std::path::PathBuf> {
    present(
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("models-extra")
            .join(name)
            .join(file),
    )
}

/// A file of the page's model `NAME` (`www/models/NAME/`, which
/// `python3 scripts/fetch_models.py` fetches), or None, said on stderr.
pub fn page_model(name: &str, file: &str) -> Option<std::path::PathBuf> {
    present(
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("www/models")
            .join(name)
            .join(file),
    )
}

fn present(path: std::path::PathBuf) -> Option<std::path::PathBuf> {
    if path.exists() {
        Some(path)
    } else {
        eprintln!(
            "SKIPPED: {} is absent; `python3 scripts/fetch_models.py --extra` fetches it",
            path.display()
        );
        None
    }
}
