//! The models the page offers and the files each needs.

use serde::{Deserialize, Serialize};

/// The models the page offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum ModelId {
    #[default]
    Teaching,
    MiniLm,
    SmolLm2,
}

impl ModelId {
    pub const ALL: [ModelId; 3] = [ModelId::Teaching, ModelId::MiniLm, ModelId::SmolLm2];

    /// The short name used in URLs and on the command line.
    pub fn slug(self) -> &'static str {
        match self {
            ModelId::Teaching => "teaching",
            ModelId::MiniLm => "minilm",
            ModelId::SmolLm2 => "smollm2",
        }
    }

    pub fn from_slug(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.slug() == s)
    }
}

/// One file a model needs, as pinned in models/manifest.json (which
/// scripts/fetch_models.py also reads).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelFile {
    pub name: String,
    pub bytes: u64,
    pub sha256: String,
}

#[derive(Deserialize)]
struct ManifestEntry {
    files: Vec<ModelFile>,
}

impl ModelId {
    /// The files to download, with sizes and hashes; empty for the built-in model.
    pub fn files(self) -> Vec<ModelFile> {
        if self == ModelId::Teaching {
            return Vec::new();
        }
        let manifest: std::collections::HashMap<String, ManifestEntry> =
            serde_json::from_str(include_str!("../../models/manifest.json")).expect("models/manifest.json is valid (checked by tests)");
        manifest.get(self.slug()).map(|e| e.files.clone()).unwrap_or_default()
    }

    /// Total download size in bytes.
    pub fn download_bytes(self) -> u64 {
        self.files().iter().map(|f| f.bytes).sum()
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
        let f = &ModelId::MiniLm.files()[0];
        assert_eq!(ModelId::MiniLm.url(f), "models/minilm/model.safetensors");
        assert_eq!(f.sha256.len(), 64);
    }
}
