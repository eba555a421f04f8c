//! The page's message catalogs (`www/i18n/<language>/<part>.ftl`, read by
//! `src/web/i18n/`): every file parses, every language has exactly the
//! English ids, part by part, no catalog has an id the page never asks for
//! and the page asks for none that English lacks, a translation uses only the
//! variables the page passes, and the glossary's words (docs/glossary.md) are
//! kept.

use fluent_syntax::ast;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const LANGUAGES: [&str; 6] = ["en", "pt", "es", "fr", "de", "zh"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The parts, as `src/web/i18n/mod.rs` lists them (that list is what the page loads).
fn parts() -> Vec<String> {
    let source = std::fs::read_to_string(root().join("src/web/i18n/mod.rs")).unwrap();
    let start = source.find("pub const PARTS").expect("PARTS in src/web/i18n/mod.rs");
    let list = &source[start..];
    let list = &list[list.find('=').unwrap()..];
    let list = &list[list.find('[').unwrap() + 1..list.find(']').unwrap()];
    let parts: Vec<String> = list
        .split(',')
        .map(|p| p.trim().trim_matches('"').to_string())
        .filter(|p| !p.is_empty())
        .collect();
    assert!(parts.len() >= 2, "{parts:?}");
    parts
}

/// A message: its text (every variant's, joined) and the variables it uses.
#[derive(Debug, Default)]
struct Message {
    text: String,
    variables: BTreeSet<String>,
}

fn walk_pattern(p: &ast::Pattern<&str>, m: &mut Message) {
    for e in &p.elements {
        match e {
            ast::PatternElement::TextElement { value } => m.text.push_str(value),
            ast::PatternElement::Placeable { expression } => walk_expression(expression, m),
        }
    }
}

fn walk_expression(e: &ast::Expression<&str>, m: &mut Message) {
    match e {
        ast::Expression::Inline(i) => walk_inline(i, m),
        ast::Expression::Select { selector, variants } => {
            walk_inline(selector, m);
            for v in variants {
                m.text.push(' ');
                walk_pattern(&v.value, m);
            }
        }
    }
}

fn walk_inline(i: &ast::InlineExpression<&str>, m: &mut Message) {
    match i {
        ast::InlineExpression::VariableReference { id } => {
            m.variables.insert(id.name.to_string());
        }
        ast::InlineExpression::StringLiteral { value } => m.text.push_str(value),
        ast::InlineExpression::Placeable { expression } => walk_expression(expression, m),
        ast::InlineExpression::FunctionReference { arguments, .. } => {
            for a in &arguments.positional {
                walk_inline(a, m);
            }
        }
        _ => {}
    }
}

/// One catalog file's messages by id; a file that does not parse, an empty
/// message or one defined twice fails here.
fn catalog(path: &Path) -> BTreeMap<String, Message> {
    let source =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let resource = fluent_syntax::parser::parse(source.as_str())
        .unwrap_or_else(|(_, errors)| panic!("{}: {errors:?}", path.display()));
    let mut messages = BTreeMap::new();
    for entry in &resource.body {
        match entry {
            ast::Entry::Message(msg) => {
                let mut m = Message::default();
                let value = msg
                    .value
                    .as_ref()
                    .unwrap_or_else(|| panic!("{}: {} has no value", path.display(), msg.id.name));
                walk_pattern(value, &mut m);
                assert!(
                    !m.text.trim().is_empty() || !m.variables.is_empty(),
                    "{}: {} is empty",
                    path.display(),
                    msg.id.name
                );
                let id = msg.id.name.to_string();
                assert!(
                    messages.insert(id.clone(), m).is_none(),
                    "{}: {id} is defined twice",
                    path.display()
                );
            }
            ast::Entry::Junk { content } => panic!("{}: cannot read {content:?}", path.display()),
            _ => {}
        }
    }
    messages
}

fn catalogs() -> BTreeMap<(&'static str, String), BTreeMap<String, Message>> {
    let mut all = BTreeMap::new();
    for lang in LANGUAGES {
        for part in parts() {
            let path = root().join(format!("www/i18n/{lang}/{part}.ftl"));
            all.insert((lang, part), catalog(&path));
        }
    }
    all
}

/// Every `tr!("id"` in the page's source.
fn ids_in_code() -> BTreeSet<String> {
    fn walk(dir: &Path, ids: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, ids);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let source = std::fs::read_to_string(&path).unwrap();
                let mut rest = source.as_str();
                while let Some(at) = rest.find("tr!(") {
                    // `include_str!(` is not `tr!(`.
                    let macro_of_its_own = rest[..at]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_');
                    rest = rest[at + 4..].trim_start();
                    if macro_of_its_own {
                        continue;
                    }
                    if let Some(quoted) = rest.strip_prefix('"') {
                        let end = quoted.find('"').unwrap();
                        ids.insert(quoted[..end].to_string());
                    }
                }
            }
        }
    }
    let mut ids = BTreeSet::new();
    walk(&root().join("src/web"), &mut ids);
    // The macro's own definition and its documentation.
    ids.remove("message-id");
    ids.remove("id");
    ids
}

#[test]
fn every_language_has_exactly_the_english_messages_part_by_part() {
    let all = catalogs();
    let mut problems = Vec::new();
    for part in parts() {
        let english = &all[&("en", part.clone())];
        for lang in &LANGUAGES[1..] {
            let other = &all[&(*lang, part.clone())];
            for id in english.keys().filter(|id| !other.contains_key(*id)) {
                problems.push(format!("{lang}/{part}.ftl lacks {id}"));
            }
            for id in other.keys().filter(|id| !english.contains_key(*id)) {
                problems.push(format!("{lang}/{part}.ftl has {id}, which English does not"));
            }
            for (id, m) in other {
                if let Some(en) = english.get(id) {
                    for v in m.variables.difference(&en.variables) {
                        problems.push(format!(
                            "{lang}/{part}.ftl: {id} uses ${v}, which the page does not pass"
                        ));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_page_asks_for_every_message_and_only_those() {
    let all = catalogs();
    let mut english: BTreeMap<String, String> = BTreeMap::new();
    for ((lang, part), messages) in &all {
        if *lang != "en" {
            continue;
        }
        for id in messages.keys() {
            if let Some(first) = english.insert(id.clone(), part.clone()) {
                panic!("{id} is in both en/{first}.ftl and en/{part}.ftl");
            }
        }
    }
    let used = ids_in_code();
    let missing: Vec<_> = used.iter().filter(|id| !english.contains_key(*id)).collect();
    let unused: Vec<_> = english.keys().filter(|id| !used.contains(*id)).collect();
    assert!(missing.is_empty(), "tr! asks for ids no English catalog has: {missing:?}");
    assert!(unused.is_empty(), "catalog ids the page never asks for: {unused:?}");
}

/// A row of docs/glossary.md: the English word and each language's.
fn glossary() -> Vec<BTreeMap<&'static str, String>> {
    let doc = std::fs::read_to_string(root().join("docs/glossary.md")).unwrap();
    let excluded: BTreeSet<String> = doc
        .split("## Stems checked")
        .nth(1)
        .expect("docs/glossary.md has its Stems checked section")
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    let mut rows = Vec::new();
    for line in doc.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| English")) {
        let cells: Vec<String> =
            line.trim_matches('|').split('|').map(|c| c.trim().to_string()).collect();
        let english = cells[0].split(" (").next().unwrap().to_string();
        if excluded.contains(&english) || cells.iter().any(|c| c.contains(" / ")) {
            continue;
        }
        let mut row = BTreeMap::new();
        for (lang, cell) in LANGUAGES.iter().zip(cells) {
            row.insert(*lang, if *lang == "en" { english.clone() } else { cell });
        }
        rows.push(row);
    }
    assert!(rows.len() >= 10, "{} glossary rows", rows.len());
    rows
}

/// Whether `text` says the English `term` as a word (plurals and -ed forms too).
fn says(text: &str, term: &str) -> bool {
    let text = text.to_lowercase();
    let term = term.to_lowercase();
    let mut forms =
        vec![term.clone(), format!("{term}s"), format!("{term}es"), format!("{term}ed")];
    if let Some(stem) = term.strip_suffix('y') {
        forms.push(format!("{stem}ies"));
    }
    let is_letter = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    forms.iter().any(|form| {
        text.match_indices(form.as_str()).any(|(at, _)| {
            !is_letter(text[..at].chars().next_back())
                && !is_letter(text[at + form.len()..].chars().next())
        })
    })
}

/// The part of a language's word the test looks for: the first four letters, or the whole
/// word in Chinese.
fn stem(lang: &str, word: &str) -> String {
    let word = word.to_lowercase();
    if lang == "zh" {
        word
    } else {
        word.chars().take(4).collect()
    }
}

#[test]
fn translations_keep_the_glossary_words() {
    let all = catalogs();
    let rows = glossary();
    let mut problems = Vec::new();
    for part in parts() {
        let english = &all[&("en", part.clone())];
        for (id, en) in english {
            for row in &rows {
                if !says(&en.text, &row["en"]) {
                    continue;
                }
                for lang in &LANGUAGES[1..] {
                    let Some(m) = all[&(*lang, part.clone())].get(id) else { continue };
                    let want = stem(lang, &row[lang]);
                    if !m.text.to_lowercase().contains(&want) {
                        problems.push(format!(
                            "{lang}/{part}.ftl {id}: English says {:?}, the translation lacks {want:?}",
                            row["en"]
                        ));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_glossary_checks_what_it_should() {
    assert!(says("The Mask hides", "mask"));
    assert!(says("two queries", "query"));
    assert!(says("masked keys", "mask"));
    assert!(!says("unmasking", "mask"));
    assert!(!says("tokenizer", "token"));
    assert_eq!(stem("de", "Schicht"), "schi");
    assert_eq!(stem("zh", "掩码"), "掩码");
}
