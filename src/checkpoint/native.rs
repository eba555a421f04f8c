//! Opening checkpoints on disk: a Hugging Face folder or a `.gguf` file.

use super::{index_shards, Checkpoint, Folder, TokenizerFiles};
use crate::error::{Error, Result};
use crate::formats::source::Source;
use std::path::Path;

impl Checkpoint<'static> {
    /// A folder (Hugging Face) or a `.gguf` file.
    pub fn open(path: &Path) -> Result<Checkpoint<'static>> {
        if path.is_dir() {
            return Ok(Checkpoint::Folder(open_folder(path)?));
        }
        if !path.is_file() {
            return Err(Error::ModelFile(format!(
                "{} is neither a folder nor a file",
                path.display()
            )));
        }
        let src = crate::formats::source::File::open(path)?;
        if src.len() >= 4 && &*src.read(0, 4)? == b"GGUF" {
            return Ok(Checkpoint::Gguf(Box::new(src)));
        }
        match path.parent() {
            Some(dir) if path.extension().is_some_and(|e| e == "safetensors" || e == "json") => Ok(Checkpoint::Folder(open_folder(dir)?)),
            _ => Err(Error::ModelFile(format!(
                "{} is not a GGUF file (it does not start with \"GGUF\"); give a .gguf file or a Hugging Face folder",
                path.display()
            ))),
        }
    }
}

fn open_folder(dir: &Path) -> Result<Folder<'static>> {
    let read = |name: &str| -> Result<Option<Vec<u8>>> {
        let path = dir.join(name);
        match std::fs::read(&path) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::ModelFile(format!("cannot read {}: {e}", path.display()))),
        }
    };
    let config = read("config.json")?
        .ok_or_else(|| Error::ModelFile(format!("{} has no config.json", dir.display())))?;
    let tokenizer = match (read("tokenizer.json")?, read("vocab.json")?, read("merges.txt")?) {
        (Some(json), _, _) => TokenizerFiles::Json(json),
        (None, Some(vocab), Some(merges)) => TokenizerFiles::VocabAndMerges(vocab, merges),
        _ => TokenizerFiles::Missing,
    };
    let mut weights: Vec<Box<dyn Source>> = Vec::new();
    if let Some(index) = read("model.safetensors.index.json")? {
        for shard in index_shards(&index)? {
            weights.push(Box::new(crate::formats::source::File::open(&dir.join(shard))?));
        }
    } else if dir.join("model.safetensors").is_file() {
        weights.push(Box::new(crate::formats::source::File::open(&dir.join("model.safetensors"))?));
    }
    let name = dir
        .file_name()
        .map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into_owned());
    Ok(Folder {
        name,
        config,
        tokenizer,
        sentence_bert_config: read("sentence_bert_config.json")?,
        weights,
    })
}
