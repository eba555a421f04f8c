//! Any bytes as CTranslate2's `model.bin`: read, every variable widened to
//! f32, and loaded as Whisper; a model that loads decodes one token against
//! silent audio. Never a panic or an allocation beyond `-rss_limit_mb`; what
//! loads gives finite logits or a message.

use attnscope::formats::ctranslate2::Ct2File;
use attnscope::formats::source::Bytes;
use attnscope::models::whisper::model::Whisper;
use attnscope::Matrix;

/// One input of the fuzz target `ctranslate2` (fuzz/fuzz_targets/ctranslate2.rs).
pub fn run(data: &[u8]) {
    let src = Bytes::new("model.bin", data);
    let Ok(file) = Ct2File::read(&src) else { return };
    for v in &file.variables {
        if let Ok(values) = file.f32s(&src, &v.name) {
            assert_eq!(values.len(), v.elements(), "{}", v.name);
        }
    }
    let Ok(model) = Whisper::load(&file, &src) else { return };
    let audio = model.audio_keys(&Matrix::zeros(model.audio_frames().min(4), model.d));
    let mut cache = model.empty_cache();
    if let Ok(step) = model.decode(&[0], &mut cache, &audio) {
        assert_eq!(step.logits.len(), model.vocabulary());
    }
}
