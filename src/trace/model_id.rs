//! The models the page offers and the files each needs.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The models the page offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum ModelId {
    #[default]
    Teaching,
    MiniLm,
    SmolLm2,
    /// A model the visitor opened from their own files (`session::custom`).
    Custom,
    /// A trace file opened in the page (not in `ALL`: it is opened, not chosen).
    Trace,
    /// Bergamot's tiny English→Portuguese model (session/translate.rs).
    TranslateEnPt,
    TranslatePtEn,
    /// OpenAI's Whisper tiny.en, speech to text (not in `ALL`: the Speech
    /// tab chooses it; it listens to audio rather than reading the text box).
    Whisper,
}

impl ModelId {
    pub const ALL: [ModelId; 5] = [
        ModelId::Teaching,
        ModelId::MiniLm,
        ModelId::SmolLm2,
        ModelId::TranslateEnPt,
        ModelId::TranslatePtEn,
    ];

    /// The short name used in URLs and on the command line.
    pub fn slug(self) -> &'static str {
        match self {
            ModelId::Teaching => "teaching",
            ModelId::MiniLm => "minilm",
            ModelId::SmolLm2 => "smollm2",
            ModelId::Custom => "custom",
            ModelId::Trace => "trace",
            ModelId::TranslateEnPt => "translate-enpt",
            ModelId::TranslatePtEn => "translate-pten",
            ModelId::Whisper => "whisper-tiny-en",
        }
    }

    /// An encoder–decoder translation model (its runs carry a translation).
    pub fn is_translation(self) -> bool {
        matches!(self, ModelId::TranslateEnPt | ModelId::TranslatePtEn)
    }

    /// A translation model's source and target languages (ISO 639-1).
    pub fn languages(self) -> Option<(&'static str, &'static str)> {
        match self {
            ModelId::TranslateEnPt => Some(("en", "pt")),
            ModelId::TranslatePtEn => Some(("pt", "en")),
            _ => None,
        }
    }

    pub fn from_slug(s: &str) -> Option<Self> {
        Self::ALL.into_iter().chain([ModelId::Custom]).find(|m| m.slug() == s)
    }
}

/// One file a model needs, as pinned in models/manifest.json (which
/// scripts/fetch_models.py also reads).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelFile {
    pub name: String,
    pub bytes: u64,
    pub sha256: String,
    /// A smaller copy made from another file of the model (MiniLM's f16
    /// weights, made by scripts/fetch_models.py): downloaded in that file's
    /// place unless the exact weights are asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaces: Option<String>,
    /// Read only by the Python peers (CTranslate2 loads Whisper's
    /// `vocabulary.txt`): fetched by scripts/fetch_models.py, never by the page.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub peers_only: bool,
}

impl ModelFile {
    /// Whether `bytes` are this file: its length and sha256, as pinned. A
    /// download and a copy read back from the browser's cache are checked
    /// alike, so a damaged or stale cache entry is never parsed.
    pub fn verify(&self, bytes: &[u8]) -> Result<(), String> {
        if bytes.len() as u64 != self.bytes {
            return Err(format!(
                "{} is {} bytes, expected {}: cut short or the wrong file",
                self.name,
                bytes.len(),
                self.bytes
            ));
        }
        let digest: String = Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect();
        if digest != self.sha256 {
            return Err(format!(
                "{} is corrupted: its sha256 is {digest}, expected {}",
                self.name, self.sha256
            ));
        }
        Ok(())
    }

    /// Whether a download that has sent `so_far` bytes may go on: never
    /// beyond the file's pinned size (a wrong or hostile server could
    /// otherwise fill the tab's memory).
    pub fn check_progress(&self, so_far: u64) -> Result<(), String> {
        if so_far > self.bytes {
            return Err(format!(
                "{} sends more than its {} bytes: not the expected file",
                self.name, self.bytes
            ));
        }
        Ok(())
    }
}

#[derive(Deserialize)]
struct ManifestEntry {
    files: Vec<ModelFile>,
}

impl ModelId {
    /// The files the page downloads by default, with sizes and hashes; empty
    /// for the built-in model.
    pub fn files(self) -> Vec<ModelFile> {
        self.files_for(false)
    }

    /// The files to download: with `exact`, the weights as published; without,
    /// any smaller copy the manifest lists in their place (in their position,
    /// so that `Session::install` finds every file where it expects it).
    pub fn files_for(self, exact: bool) -> Vec<ModelFile> {
        if self == ModelId::Teaching {
            return Vec::new();
        }
        // Read once: the page asks for sizes at every redraw of its model picker.
        static MANIFEST: std::sync::OnceLock<std::collections::HashMap<String, ManifestEntry>> =
            std::sync::OnceLock::new();
        let manifest = MANIFEST.get_or_init(|| {
            serde_json::from_str(include_str!("../../models/manifest.json"))
                .expect("models/manifest.json is valid (checked by tests)")
        });
        let all: &[ModelFile] = manifest.get(self.slug()).map_or(&[], |e| &e.files);
        let copy_of =
            |f: &ModelFile| all.iter().find(|c| c.replaces.as_deref() == Some(&f.name)).cloned();
        all.iter()
            .filter(|f| f.replaces.is_none() && !f.peers_only)
            .map(|f| if exact { f.clone() } else { copy_of(f).unwrap_or_else(|| f.clone()) })
            .collect()
    }

    /// Whether the exact weights are a different download from the default
    /// (MiniLM: f32 against its f16 copy).
    pub fn has_smaller_copy(self) -> bool {
        self.files_for(true) != self.files_for(false)
    }

    /// Total download size in bytes, by default.
    pub fn download_bytes(self) -> u64 {
        self.download_bytes_for(false)
    }

    pub fn download_bytes_for(self, exact: bool) -> u64 {
        self.files_for(exact).iter().map(|f| f.bytes).sum()
    }

    /// Where the page finds a file: dist/models/<slug>/<name>.
    pub fn url(self, file: &ModelFile) -> String {
        format!("models/{}/{}", self.slug(), file.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_lists_the_pinned_files() {
        assert!(ModelId::Teaching.files().is_empty());
        assert_eq!(ModelId::MiniLm.files().len(), 3);
        assert_eq!(ModelId::SmolLm2.download_bytes(), 98_362_432);
        // MiniLM downloads its f16 copy in place of the f32 weights, unless exact.
        let f = &ModelId::MiniLm.files()[0];
        assert_eq!(ModelId::MiniLm.url(f), "models/minilm/model.f16.safetensors");
        assert_eq!(f.sha256.len(), 64);
        let exact = ModelId::MiniLm.files_for(true);
        assert_eq!(
            exact.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
            ["model.safetensors", "tokenizer.json", "config.json"]
        );
        assert_eq!(ModelId::MiniLm.files()[1..], exact[1..]);
        assert_eq!(ModelId::MiniLm.download_bytes_for(true), 90_868_376 + 466_247 + 612);
        assert_eq!(ModelId::MiniLm.download_bytes(), 45_504_152 + 466_247 + 612);
        assert!(ModelId::MiniLm.has_smaller_copy() && !ModelId::SmolLm2.has_smaller_copy());
        // Whisper's vocabulary.txt is for CTranslate2 (the benchmark's peer), not the page.
        let whisper: Vec<String> = ModelId::Whisper.files().into_iter().map(|f| f.name).collect();
        assert_eq!(whisper, ["model.bin", "config.json", "tokenizer.json"]);
    }

    #[test]
    fn a_file_is_verified_by_length_and_sha256_and_capped_while_it_downloads() {
        let bytes = b"{\"hidden_size\": 384}".to_vec();
        let sha256 = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
        let file = ModelFile {
            name: "config.json".into(),
            bytes: bytes.len() as u64,
            sha256,
            replaces: None,
            peers_only: false,
        };
        assert_eq!(file.verify(&bytes), Ok(()));
        // Same length, one byte changed: what a length check alone let through.
        let mut damaged = bytes.clone();
        damaged[3] ^= 1;
        assert!(file.verify(&damaged).unwrap_err().contains("corrupted"));
        assert!(file.verify(&bytes[1..]).unwrap_err().contains("expected"));
        assert_eq!(file.check_progress(file.bytes), Ok(()));
        assert!(file.check_progress(file.bytes + 1).unwrap_err().contains("more than"));
    }
}
