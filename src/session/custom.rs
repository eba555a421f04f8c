//! A model the visitor opens from their own files (`ModelId::Custom`): which
//! of the chosen files make a checkpoint, the summary shown before loading
//! (and why it is refused, if it is), and the messages the page and the
//! worker exchange about it. The files themselves cross to the worker as
//! `File` objects (src/worker/open_files.rs), never as JSON.

use serde::{Deserialize, Serialize};

pub use crate::trace::MEMORY_BUDGET;

/// The page's requests about an opened model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CustomRequest {
    /// Load the files of the latest preflight, then keep them in the browser's storage.
    Load,
    /// Drop the files of the latest preflight.
    Cancel,
    /// Which model the browser's storage keeps, if any.
    Saved,
    /// Remove the kept model from the storage and from memory.
    Forget,
}

/// What the checkpoint is, as the page shows it before loading.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Preflight {
    pub name: String,
    /// The files that make the checkpoint (others chosen alongside are ignored).
    pub files: Vec<String>,
    /// As found in the files (`qwen2`, `llama`) and as named here.
    pub found: String,
    pub architecture: String,
    pub layers: usize,
    pub heads: usize,
    pub kv_heads: usize,
    pub d_head: usize,
    pub parameters: u64,
    pub file_bytes: u64,
    pub memory_bytes: u64,
    pub weights_format: String,
    /// Why it cannot be loaded; None when it can.
    pub refusal: Option<String>,
}

/// The worker's answers about an opened model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum CustomReply {
    /// The chosen files were read as far as their headers.
    Preflight(Box<Preflight>),
    /// The chosen files are not a checkpoint attnscope can read.
    Refused {
        message: String,
    },
    /// The model is loaded; `FromWorker::Loaded { model: Custom }` came just before.
    Loaded {
        name: String,
    },
    /// The model the browser's storage keeps (None: nothing), and why a
    /// model was not kept (no storage in this browser, no room).
    Saved {
        name: Option<String>,
        note: Option<String>,
    },
    /// The kept model was removed.
    Forgotten,
    Failed {
        message: String,
    },
}

/// The files that make a checkpoint, by index into the chosen files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    Gguf(usize),
    Folder {
        config: usize,
        /// `tokenizer.json`, or GPT-2's `vocab.json` and `merges.txt`.
        tokenizer_json: Option<usize>,
        vocab_and_merges: Option<(usize, usize)>,
        sentence_bert_config: Option<usize>,
        index: Option<usize>,
        /// `model.safetensors`, or every shard the index names (filled by the reader of the index).
        weights: Vec<usize>,
    },
}

impl Plan {
    /// Every file the checkpoint reads, the ones to keep in storage.
    pub fn used(&self) -> Vec<usize> {
        match self {
            Plan::Gguf(i) => vec![*i],
            Plan::Folder {
                config,
                tokenizer_json,
                vocab_and_merges,
                sentence_bert_config,
                index,
                weights,
            } => {
                let mut used = vec![*config];
                used.extend(tokenizer_json);
                used.extend(vocab_and_merges.iter().flat_map(|&(v, m)| [v, m]));
                used.extend(sentence_bert_config);
                used.extend(index);
                used.extend(weights);
                used
            }
        }
    }
}

/// A path's last part: `all-mpnet-base-v2/config.json` → `config.json`.
pub fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// The folder a set of chosen paths shares (`all-mpnet-base-v2`), if any.
pub fn folder_name(paths: &[String]) -> Option<String> {
    let first = paths.first()?.split(['/', '\\']).next()?;
    let shared =
        paths.iter().all(|p| p.contains(['/', '\\']) && p.split(['/', '\\']).next() == Some(first));
    (shared && !first.is_empty()).then(|| first.to_string())
}

/// The file called `name` nearest the top of the chosen folder (a
/// sentence-transformers folder has another `config.json` in `1_Pooling/`).
fn find(paths: &[String], name: &str) -> Option<usize> {
    paths
        .iter()
        .enumerate()
        .filter(|(_, p)| base_name(p) == name)
        .min_by_key(|(_, p)| p.matches(['/', '\\']).count())
        .map(|(i, _)| i)
}

/// Which of the chosen files make a checkpoint, from their names alone;
/// `gguf_magic[i]` says whether file i starts with "GGUF". The shards an
/// index names are added by [`Plan::with_shards`].
pub fn plan(paths: &[String], gguf_magic: &[bool]) -> Result<Plan, String> {
    if paths.is_empty() {
        return Err("no file was chosen".into());
    }
    let ggufs: Vec<usize> = (0..paths.len())
        .filter(|&i| {
            gguf_magic.get(i).copied().unwrap_or(false) || base_name(&paths[i]).ends_with(".gguf")
        })
        .collect();
    match ggufs.as_slice() {
        [i] => return Ok(Plan::Gguf(*i)),
        [_, _, ..] => {
            return Err(format!(
                "{} GGUF files were chosen ({}); open one at a time",
                ggufs.len(),
                ggufs.iter().map(|&i| base_name(&paths[i])).collect::<Vec<_>>().join(", ")
            ))
        }
        [] => {}
    }
    let Some(config) = find(paths, "config.json") else {
        let names: Vec<&str> = paths.iter().take(4).map(|p| base_name(p)).collect();
        let more =
            if paths.len() > 4 { format!(" and {} more", paths.len() - 4) } else { String::new() };
        return Err(
            if find(paths, "model.safetensors").is_some()
                || paths.iter().any(|p| p.ends_with(".safetensors"))
            {
                "config.json is missing: choose the whole Hugging Face folder (config.json, tokenizer.json, model.safetensors)".into()
            } else {
                format!(
                "{}{more} {} not a model attnscope can open: choose a .gguf file, or a Hugging Face folder with config.json, tokenizer.json and model.safetensors",
                names.join(", "),
                if paths.len() == 1 { "is" } else { "are" }
            )
            },
        );
    };
    let vocab_and_merges = find(paths, "vocab.json").zip(find(paths, "merges.txt"));
    let index = find(paths, "model.safetensors.index.json");
    Ok(Plan::Folder {
        config,
        tokenizer_json: find(paths, "tokenizer.json"),
        vocab_and_merges,
        sentence_bert_config: find(paths, "sentence_bert_config.json"),
        index,
        weights: if index.is_none() {
            find(paths, "model.safetensors").into_iter().collect()
        } else {
            Vec::new()
        },
    })
}

#[cfg(feature = "pretrained")]
impl Plan {
    /// The shards `index` (the bytes of `model.safetensors.index.json`) names, found among the
    /// chosen files.
    pub fn with_shards(mut self, paths: &[String], index: &[u8]) -> Result<Plan, String> {
        if let Plan::Folder { weights, .. } = &mut self {
            for shard in crate::checkpoint::index_shards(index).map_err(|e| e.to_string())? {
                let i = find(paths, &shard).ok_or_else(|| {
                    format!(
                        "the shard {shard} that model.safetensors.index.json names was not chosen"
                    )
                })?;
                weights.push(i);
            }
        }
        Ok(self)
    }
}

/// Reading the chosen files into a checkpoint (with the real models only).
#[cfg(feature = "pretrained")]
mod open {
    use super::*;
    use crate::checkpoint::{Checkpoint, Description, Folder, TokenizerFiles};
    use crate::error::{Error, Result};
    use crate::formats::source::Source;

    /// Small files (configuration, tokenizer) are read whole; none is near this.
    const SMALL_FILE_MAX: u64 = 128 << 20;

    fn whole(src: &dyn Source) -> Result<Vec<u8>> {
        if src.len() > SMALL_FILE_MAX {
            return Err(Error::ModelFile(format!(
                "{} is {} MB, far too large for what it should hold",
                src.name(),
                src.len() >> 20
            )));
        }
        Ok(src.read(0, src.len() as usize)?.into_owned())
    }

    /// The chosen files, in the order [`plan`] indexes them, as a checkpoint,
    /// with the indices of the files it uses.
    pub fn checkpoint<'s>(
        sources: Vec<Box<dyn Source + 's>>,
    ) -> Result<(Checkpoint<'s>, Vec<usize>, String)> {
        let paths: Vec<String> = sources.iter().map(|s| s.name().to_string()).collect();
        let magic: Vec<bool> = sources
            .iter()
            .map(|s| s.len() >= 4 && s.read(0, 4).is_ok_and(|m| &*m == b"GGUF"))
            .collect();
        let mut plan = plan(&paths, &magic).map_err(Error::ModelFile)?;
        if let Plan::Folder { index: Some(i), .. } = plan {
            let bytes = whole(sources[i].as_ref())?;
            plan = plan.with_shards(&paths, &bytes).map_err(Error::ModelFile)?;
        }
        let used = plan.used();
        let mut slots: Vec<Option<Box<dyn Source + 's>>> = sources.into_iter().map(Some).collect();
        let mut take = |i: usize| {
            slots[i].take().ok_or_else(|| Error::ModelFile(format!("{} is chosen twice", paths[i])))
        };
        let name = folder_name(&paths)
            .unwrap_or_else(|| base_name(&paths[used[0]]).trim_end_matches(".gguf").to_string());
        let checkpoint = match plan {
            Plan::Gguf(i) => Checkpoint::Gguf(take(i)?),
            Plan::Folder {
                config,
                tokenizer_json,
                vocab_and_merges,
                sentence_bert_config,
                weights,
                ..
            } => {
                let config = whole(take(config)?.as_ref())?;
                let tokenizer = match (tokenizer_json, vocab_and_merges) {
                    (Some(t), _) => TokenizerFiles::Json(whole(take(t)?.as_ref())?),
                    (None, Some((v, m))) => TokenizerFiles::VocabAndMerges(
                        whole(take(v)?.as_ref())?,
                        whole(take(m)?.as_ref())?,
                    ),
                    (None, None) => TokenizerFiles::Missing,
                };
                let sentence_bert_config = sentence_bert_config
                    .map(|i| take(i).and_then(|s| whole(s.as_ref())))
                    .transpose()?;
                let weights = weights.into_iter().map(&mut take).collect::<Result<Vec<_>>>()?;
                Checkpoint::Folder(Folder {
                    name: name.clone(),
                    config,
                    tokenizer,
                    sentence_bert_config,
                    weights,
                })
            }
        };
        Ok((checkpoint, used, name))
    }

    /// The summary shown before loading, with the reason to refuse, if any.
    pub fn preflight(checkpoint: &Checkpoint, files: Vec<String>, name: &str) -> Result<Preflight> {
        let d: Description = checkpoint.describe()?;
        let memory_bytes = d.memory_bytes();
        let refusal = match checkpoint {
            Checkpoint::Folder(Folder { tokenizer: TokenizerFiles::Missing, .. }) => {
                Some("the folder has no tokenizer: tokenizer.json (or vocab.json and merges.txt) is missing".to_string())
            }
            Checkpoint::Folder(Folder { tokenizer: TokenizerFiles::VocabAndMerges(..), .. }) if d.architecture.contains("encoder") => {
                Some("an encoder needs its tokenizer.json, which the folder lacks".to_string())
            }
            _ if memory_bytes > MEMORY_BUDGET => Some(format!(
                "it needs about {:.1} GB of memory, more than the {:.1} GB a browser tab can give it",
                memory_bytes as f64 / 1e9,
                MEMORY_BUDGET as f64 / 1e9
            )),
            _ => None,
        };
        let name = if d.name.is_empty() || matches!(checkpoint, Checkpoint::Folder(_)) {
            name.to_string()
        } else {
            d.name.clone()
        };
        Ok(Preflight {
            name,
            files,
            found: d.found,
            architecture: d.architecture,
            layers: d.n_layers,
            heads: d.n_heads,
            kv_heads: d.n_kv_heads,
            d_head: d.d_head,
            parameters: d.parameters,
            file_bytes: d.file_bytes,
            memory_bytes,
            weights_format: d.weights_format,
            refusal,
        })
    }
}

#[cfg(feature = "pretrained")]
pub use open::{checkpoint, preflight};

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(p: &[&str]) -> Vec<String> {
        p.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_folder_is_planned_from_its_top_level_files() {
        let p = paths(&[
            "mpnet/1_Pooling/config.json",
            "mpnet/config.json",
            "mpnet/tokenizer.json",
            "mpnet/model.safetensors",
            "mpnet/README.md",
        ]);
        let plan = plan(&p, &[false; 5]).unwrap();
        assert_eq!(plan.used(), vec![1, 2, 3]);
        assert_eq!(folder_name(&p).as_deref(), Some("mpnet"));
        assert_eq!(folder_name(&paths(&["config.json"])), None);
    }

    #[test]
    fn one_gguf_is_a_checkpoint_and_two_are_refused() {
        assert_eq!(plan(&paths(&["notes.txt", "m.gguf"]), &[false, false]), Ok(Plan::Gguf(1)));
        assert_eq!(plan(&paths(&["renamed.bin"]), &[true]), Ok(Plan::Gguf(0)));
        assert!(plan(&paths(&["a.gguf", "b.gguf"]), &[true, true])
            .unwrap_err()
            .contains("one at a time"));
    }

    #[test]
    fn what_is_not_a_model_is_named() {
        let e = plan(&paths(&["holiday.jpg"]), &[false]).unwrap_err();
        assert!(e.contains("holiday.jpg is not a model"), "{e}");
        let e = plan(&paths(&["x/model.safetensors", "x/tokenizer.json"]), &[false, false])
            .unwrap_err();
        assert!(e.contains("config.json is missing"), "{e}");
        assert!(plan(&[], &[]).is_err());
    }

    #[cfg(feature = "pretrained")]
    #[test]
    fn shards_come_from_the_index() {
        let p = paths(&[
            "config.json",
            "tokenizer.json",
            "model.safetensors.index.json",
            "b.safetensors",
            "a.safetensors",
        ]);
        let index = br#"{"weight_map": {"x": "a.safetensors", "y": "b.safetensors", "z": "a.safetensors"}}"#;
        let plan = plan(&p, &[false; 5]).unwrap().with_shards(&p, index).unwrap();
        assert_eq!(plan.used(), vec![0, 1, 2, 4, 3]);
        let missing = br#"{"weight_map": {"x": "c.safetensors"}}"#;
        assert!(super::plan(&p, &[false; 5])
            .unwrap()
            .with_shards(&p, missing)
            .unwrap_err()
            .contains("c.safetensors"));
    }

    #[cfg(feature = "pretrained")]
    mod files {
        use super::super::*;
        use crate::formats::source::{Bytes, Source};

        fn fixture(dir: &str, names: &[&str]) -> Vec<(String, Vec<u8>)> {
            names
                .iter()
                .map(|n| {
                    let path =
                        format!("{}/tests/fixtures/tiny/{dir}/{n}", env!("CARGO_MANIFEST_DIR"));
                    (format!("{dir}/{n}"), std::fs::read(&path).unwrap())
                })
                .collect()
        }

        fn sources(files: &[(String, Vec<u8>)]) -> Vec<Box<dyn Source + '_>> {
            files.iter().map(|(n, b)| Box::new(Bytes::new(n, b)) as Box<dyn Source>).collect()
        }

        #[test]
        fn the_tiny_llama_folder_is_described_loaded_and_run() {
            let files = fixture(
                "llama",
                &["config.json", "tokenizer.json", "model.safetensors", "reference.json"],
            );
            let (checkpoint, used, name) = checkpoint(sources(&files)).unwrap();
            assert_eq!((used, name.as_str()), (vec![0, 1, 2], "llama"));
            let p = preflight(&checkpoint, vec![], &name).unwrap();
            assert_eq!((p.layers, p.heads, p.kv_heads, p.refusal.clone()), (2, 4, 2, None));
            assert_eq!(p.architecture, "Llama decoder");
            let model = checkpoint.load("custom").unwrap();
            assert_eq!(model.run("Hello world").unwrap().layers.len(), 2);
        }

        #[test]
        fn a_gguf_is_described_by_its_own_name() {
            let files = fixture("gguf", &["qwen2-f32.gguf"]);
            let (checkpoint, used, _) = checkpoint(sources(&files)).unwrap();
            assert_eq!(used, vec![0]);
            let p = preflight(&checkpoint, vec![], "qwen2-f32").unwrap();
            assert_eq!((p.found.as_str(), p.refusal), ("qwen2", None));
        }

        #[test]
        fn truncated_files_and_a_missing_tokenizer_are_refused() {
            let mut gguf = fixture("gguf", &["qwen2-f32.gguf"]);
            let half = gguf[0].1.len() / 2;
            gguf[0].1.truncate(half);
            let e = checkpoint(sources(&gguf))
                .and_then(|(c, _, n)| preflight(&c, vec![], &n).map(|_| c.load("custom")))
                .err();
            assert!(e.is_some_and(|e| e.to_string().contains("truncated")), "a half GGUF");
            let mut folder =
                fixture("llama", &["config.json", "tokenizer.json", "model.safetensors"]);
            let cut = folder[2].1.len() - 100;
            folder[2].1.truncate(cut);
            let e = checkpoint(sources(&folder))
                .and_then(|(c, _, n)| preflight(&c, vec![], &n))
                .err()
                .map(|e| e.to_string());
            assert!(e.as_deref().is_some_and(|e| e.contains("model.safetensors")), "{e:?}");
            let no_tokenizer = fixture("llama", &["config.json", "model.safetensors"]);
            let (c, _, n) = checkpoint(sources(&no_tokenizer)).unwrap();
            assert!(preflight(&c, vec![], &n).unwrap().refusal.unwrap().contains("no tokenizer"));
        }

        /// A safetensors file that declares one more tensor of `extra` f32
        /// values, reading zeros where that tensor's bytes would be: a model
        /// of any size without holding its bytes.
        struct Declared {
            bytes: Vec<u8>,
            len: u64,
        }

        impl Declared {
            fn with_extra(safetensors: &[u8], extra: u64) -> Declared {
                let n = u64::from_le_bytes(safetensors[..8].try_into().unwrap()) as usize;
                let mut header: serde_json::Map<String, serde_json::Value> =
                    serde_json::from_slice(&safetensors[8..8 + n]).unwrap();
                let data = (safetensors.len() - 8 - n) as u64;
                header.insert(
                    "model.extra.weight".into(),
                    serde_json::json!({"dtype": "F32", "shape": [extra], "data_offsets": [data, data + 4 * extra]}),
                );
                let header = serde_json::to_vec(&header).unwrap();
                let bytes =
                    [&(header.len() as u64).to_le_bytes()[..], &header, &safetensors[8 + n..]]
                        .concat();
                let len = bytes.len() as u64 + 4 * extra;
                Declared { bytes, len }
            }
        }

        impl Source for Declared {
            fn name(&self) -> &str {
                "model.safetensors"
            }

            fn len(&self) -> u64 {
                self.len
            }

            fn read(
                &self,
                start: u64,
                len: usize,
            ) -> crate::error::Result<std::borrow::Cow<'_, [u8]>> {
                let r = crate::formats::source::range("model.safetensors", self.len, start, len)?;
                let held = r.start.min(self.bytes.len())..r.end.min(self.bytes.len());
                let mut out = self.bytes[held].to_vec();
                out.resize(len, 0);
                Ok(out.into())
            }
        }

        #[test]
        fn a_model_beyond_the_memory_budget_is_refused_before_loading() {
            let files = fixture("llama", &["config.json", "tokenizer.json", "model.safetensors"]);
            let refusal = |extra: u64| {
                let weights = Declared::with_extra(&files[2].1, extra);
                let sources: Vec<Box<dyn Source + '_>> = vec![
                    Box::new(Bytes::new(&files[0].0, &files[0].1)),
                    Box::new(Bytes::new(&files[1].0, &files[1].1)),
                    Box::new(weights),
                ];
                let (c, _, n) = checkpoint(sources).unwrap();
                let p = preflight(&c, vec![], &n).unwrap();
                (p.memory_bytes, p.refusal)
            };
            // 4 bytes a parameter: 600 M parameters fit in the 2 GiB budget, 700 M do not.
            let (fits, none) = refusal(100_000_000);
            assert_eq!(none, None, "{fits} bytes");
            let (needs, why) = refusal(700_000_000);
            assert!(needs > MEMORY_BUDGET, "{needs} bytes");
            let why = why.expect("a model of 2.8 GB is refused");
            assert!(why.contains("GB of memory") && why.contains("a browser tab"), "{why}");
        }

        #[test]
        fn an_unknown_architecture_is_named_as_found() {
            let mut files =
                fixture("llama", &["config.json", "tokenizer.json", "model.safetensors"]);
            files[0].1 =
                br#"{"model_type": "mamba", "architectures": ["MambaForCausalLM"]}"#.to_vec();
            let e = checkpoint(sources(&files))
                .and_then(|(c, _, n)| preflight(&c, vec![], &n))
                .unwrap_err()
                .to_string();
            assert!(e.contains("\"mamba\""), "{e}");
        }
    }
}
