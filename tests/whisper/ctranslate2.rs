//! The CTranslate2 reader (src/formats/ctranslate2.rs) on the real Whisper tiny.en `model.bin`
//! of www/models/whisper-tiny-en (`scripts/fetch_models.py`, which the test command
//! runs): its header, every variable read and widened, the alias, and values numpy reads from
//! the same bytes (`np.frombuffer(…, "<f2")`). Skipped, saying so, when the file is absent.

use attnscope::formats::ctranslate2::{Ct2File, DType};
use attnscope::formats::source::File;
use std::path::PathBuf;

use crate::common;

fn model_bin() -> Option<PathBuf> {
    common::page_model("whisper-tiny-en", "model.bin")
}

#[test]
#[allow(clippy::excessive_precision)] // the digits numpy prints for these float16 values
fn whisper_tiny_en_model_bin_reads_whole() {
    let Some(path) = model_bin() else { return };
    let src = File::open(&path).unwrap();
    let f = Ct2File::read(&src).unwrap();
    assert_eq!((f.version, f.spec.as_str(), f.revision), (6, "WhisperSpec", 3));
    assert_eq!(f.variables.len(), 148);
    // In the alphabetical order the converter writes.
    assert!(f.variables.windows(2).all(|p| p[0].name < p[1].name));
    assert_eq!(
        f.aliases,
        [("decoder/projection/weight".to_string(), "decoder/embeddings/weight".to_string())]
    );
    let projection = f.variable("decoder/projection/weight").unwrap();
    assert_eq!(projection, f.variable("decoder/embeddings/weight").unwrap());
    assert_eq!((projection.shape.as_slice(), projection.dtype), (&[51_864, 384][..], DType::F16));

    // Every floating-point variable widens to as many finite values as its shape holds.
    let mut parameters = 0;
    for v in f.variables.iter().filter(|v| v.dtype.is_float()) {
        let values = f.f32s(&src, &v.name).unwrap();
        assert_eq!(values.len(), v.shape.iter().product::<usize>(), "{}", v.name);
        assert!(values.iter().all(|x| x.is_finite()), "{}", v.name);
        parameters += values.len();
    }
    assert_eq!(parameters, 37_764_864);

    // Shapes of the architecture: 80 mel bins in, 4 + 4 layers of 384, fused projections.
    let shape = |name: &str| f.variable(name).unwrap().shape.clone();
    assert_eq!(shape("encoder/conv1/weight"), [384, 80, 3]);
    assert_eq!(shape("encoder/conv2/weight"), [384, 384, 3]);
    assert_eq!(shape("encoder/position_encodings/encodings"), [1500, 384]);
    assert_eq!(shape("decoder/position_encodings/encodings"), [448, 384]);
    assert_eq!(shape("encoder/layer_3/self_attention/linear_0/weight"), [1152, 384]);
    assert_eq!(shape("decoder/layer_3/attention/linear_1/weight"), [768, 384]);
    assert_eq!(f.int(&src, "encoder/num_heads").unwrap(), 6);
    assert_eq!(f.int(&src, "decoder/num_heads").unwrap(), 6);
    assert_eq!(f.int(&src, "decoder/alignment_layer").unwrap(), -1);

    // Values numpy reads from the same bytes.
    let conv1_bias = f.f32s(&src, "encoder/conv1/bias").unwrap();
    assert_eq!(conv1_bias[..4], [0.33935546875, -0.64794921875, -0.98486328125, 0.058837890625]);
    let gamma = f.f32s(&src, "decoder/layer_norm/gamma").unwrap();
    assert_eq!(gamma.iter().map(|&x| f64::from(x)).sum::<f64>(), 4138.48681640625);
    let embeddings = f.f32s(&src, "decoder/projection/weight").unwrap();
    let sot = 50_257 * 384;
    assert_eq!(
        embeddings[sot..sot + 3],
        [0.03692626953125, 0.01526641845703125, -0.03472900390625]
    );

    // Keys have no bias in Whisper: the fused biases hold zeros where K's would be.
    for l in 0..4 {
        for fused in [
            format!("encoder/layer_{l}/self_attention/linear_0/bias"),
            format!("decoder/layer_{l}/self_attention/linear_0/bias"),
        ] {
            let b = f.f32s(&src, &fused).unwrap();
            assert!(b[384..768].iter().all(|&x| x == 0.0), "{fused}");
            assert!(b[..384].iter().any(|&x| x != 0.0), "{fused}: Q's bias");
        }
        let kv = f.f32s(&src, &format!("decoder/layer_{l}/attention/linear_1/bias")).unwrap();
        assert!(kv[..384].iter().all(|&x| x == 0.0) && kv[384..].iter().any(|&x| x != 0.0));
    }
}

#[test]
fn a_cut_or_damaged_model_bin_is_a_clear_error() {
    let Some(path) = model_bin() else { return };
    let bytes = std::fs::read(path).unwrap();
    // Cut inside the embeddings' data: the reader must notice before the aliases.
    let e = Ct2File::parse(&bytes[..20_000_000]).unwrap_err().to_string();
    assert!(e.contains("decoder/embeddings/weight") && e.contains("truncated"), "{e}");
    // The first variable's dtype byte changed to one CTranslate2 does not define.
    let mut damaged = bytes[..4096].to_vec();
    let name = b"decoder/activation\0";
    let at = damaged.windows(name.len()).position(|w| w == name).unwrap() + name.len();
    damaged[at + 1] = 9; // rank 0, so the type follows it
    let e = Ct2File::parse(&damaged).unwrap_err().to_string();
    assert!(e.contains("type 9"), "{e}");
}

/// The fuzz target's seed (fuzz/corpus/ctranslate2/tiny-whisper.bin, d 4, one layer a side, 8
/// tokens) is a Whisper the loader accepts and that decodes: the fuzzer starts from a valid model.
#[test]
fn the_fuzz_seed_is_a_whisper_that_loads_and_decodes() {
    use attnscope::formats::source::Bytes;
    use attnscope::models::whisper::model::Whisper;
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/ctranslate2/tiny-whisper.bin");
    let bytes = std::fs::read(path).unwrap();
    let src = Bytes::new("model.bin", &bytes);
    let file = Ct2File::read(&src).unwrap();
    let model = Whisper::load(&file, &src).unwrap();
    assert_eq!((model.d, model.n_heads, model.vocabulary(), model.audio_frames()), (4, 2, 8, 4));
    let encoded = model.encode(&attnscope::Matrix::zeros(2, 8));
    let audio = model.audio_keys(&encoded.audio);
    let mut cache = model.empty_cache();
    let step = model.decode(&[0, 1], &mut cache, &audio).unwrap();
    assert_eq!(step.logits.len(), 8);
    assert!(step.logits.iter().all(|l| l.is_finite()));
}
