//! The checker's own tests, on a small tree in memory: each planted
//! violation must be found, so the check is seen to be able to fail.

use super::*;

/// Two floors (rows out of order) and, in another section, a row that must not count.
const DOC: &str = "# Plan\n\n## Floors\n\n| Floor | Modules | May import |\n|---|---|---|\n\
    | 1 upper | `top/` | the floor below |\n| 0 core | `core.rs`, `base/` | std |\n\n\
    ## Later\n\n| 5 ignored | `stray.rs` | |\n";

/// A clean tree: a library over both floors and a shell with a thin second root.
const CLEAN: [(&str, &str); 11] = [
    ("lib.rs", "pub mod base;\npub mod core;\npub mod top;\npub use core::Shared as Common;\n"),
    ("core.rs", "pub struct Shared;\n"),
    ("base/mod.rs", "pub mod a;\npub mod b;\npub struct Item;\npub fn k() {\n    a::f();\n}\n"),
    ("base/a.rs", "use crate::Common;\nuse super::b::B;\npub fn f() -> super::Item {}\n"),
    ("base/b.rs", "pub struct B(super::Item);\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n"),
    ("top/mod.rs", "use crate::core::{self, Shared};\npub struct Upper(crate::Common);\n"),
    ("web/main.rs", "mod state;\nmod views;\n"),
    ("web/alt.rs", "#[path = \"main.rs\"]\nmod web;\n"),
    ("web/state.rs", "pub struct State;\n"),
    ("web/views/mod.rs", "pub mod card;\nuse crate::state::State;\n"),
    ("web/views/card.rs", "use super::super::state::State;\n"),
];

/// The violations found in the clean tree with `changes` (files replaced or added).
fn found(changes: &[(&str, &str)]) -> Vec<String> {
    let mut files: Vec<(String, String)> =
        CLEAN.iter().map(|(f, s)| (f.to_string(), s.to_string())).collect();
    for (file, src) in changes {
        files.retain(|(f, _)| f != file);
        files.push((file.to_string(), src.to_string()));
    }
    let bins = ["web/main.rs".to_string(), "web/alt.rs".to_string()];
    check(DOC, &files, &bins).into_iter().map(|v| v.text).collect()
}

fn climb(at: &str, path: &str) -> String {
    format!("src/{at}: floor 0 core imports floor 1 upper (`{path}`)")
}

#[test]
fn a_clean_tree_passes() {
    assert_eq!(found(&[]), Vec::<String>::new());
}

#[test]
fn a_climbing_use_fails_grouped_nested_and_over_lines() {
    let a = "use crate::{\n    core::Shared as S,\n    top::{\n        self as t,\n        \
             inner::{Deep, Other as O},\n    },\n};\npub fn f() {}\n";
    let mut expected = [
        climb("base/a.rs:4", "crate::top"),
        climb("base/a.rs:5", "crate::top::inner::Deep"),
        climb("base/a.rs:5", "crate::top::inner::Other"),
    ];
    expected.sort();
    assert_eq!(found(&[("base/a.rs", a)]), expected);
}

#[test]
fn a_climbing_path_in_code_fails() {
    let b = "pub struct B;\nfn g() {\n    let _ = crate::top::Upper::new();\n}\n";
    assert_eq!(found(&[("base/b.rs", b)]), [climb("base/b.rs:3", "crate::top::Upper::new")]);
}

#[test]
fn a_climb_through_a_root_re_export_fails() {
    let lib = "pub mod base;\npub mod core;\npub mod top;\npub use core::Shared as Common;\n\
               pub use top::Upper;\n";
    let core = "pub struct Shared;\npub fn h(_: crate::Upper) {}\n";
    let v = found(&[("lib.rs", lib), ("core.rs", core)]);
    // top/mod.rs names `crate::core`: with the climb, core and top are also a circle.
    let circle = "circle core → top → core\n    src/core.rs:2 (`crate::Upper`)\n    \
                  src/top/mod.rs:1 (`crate::core`)";
    assert_eq!(v, [climb("core.rs:2", "crate::Upper"), circle.to_string()]);
}

#[test]
fn a_file_outside_every_floor_fails() {
    // `stray.rs` has a row, but in another section than `## Floors`.
    assert_eq!(found(&[("stray.rs", "")]), ["src/stray.rs: outside every floor"]);
}

#[test]
fn a_circle_between_siblings_fails_through_super() {
    let b = "pub struct B;\npub fn g() {\n    super::a::f();\n}\n";
    let circle = "circle base::a → base::b → base::a\n    src/base/a.rs:2 (`super::b::B`)\n    \
                  src/base/b.rs:3 (`super::a::f`)";
    assert_eq!(found(&[("base/b.rs", b)]), [circle]);
}

#[test]
fn an_inline_modules_super_is_its_files_module() {
    // (Not a `#[cfg(test)]` module: test code closes no circle, see below.)
    let b = "pub struct B;\nmod inner {\n    use super::super::a::f;\n}\n";
    let circle = "circle base::a → base::b → base::a\n    src/base/a.rs:2 (`super::b::B`)\n    \
                  src/base/b.rs:3 (`super::super::a::f`)";
    assert_eq!(found(&[("base/b.rs", b)]), [circle]);
}

#[test]
fn a_circle_in_a_shell_fails() {
    let v = found(&[("web/state.rs", "use crate::views::card::Card;\n")]);
    let circle = "circle web::state → web::views → web::state\n    \
                  src/web/state.rs:1 (`crate::views::card::Card`)\n    \
                  src/web/views/mod.rs:2 (`crate::state::State`)";
    assert_eq!(v, [circle]);
}

#[test]
fn the_parents_own_item_is_no_edge_but_its_re_export_is() {
    // In the clean tree b.rs already names `super::Item`, base/mod.rs's own: no edge.
    let parent = "pub mod a;\npub mod b;\npub struct Item;\npub use a::f;\n";
    let b = "pub struct B;\npub fn g() {\n    super::f();\n}\n";
    let circle = "circle base::a → base::b → base::a\n    src/base/a.rs:2 (`super::b::B`)\n    \
                  src/base/b.rs:3 (`super::f`)";
    assert_eq!(found(&[("base/mod.rs", parent), ("base/b.rs", b)]), [circle]);
}

#[test]
fn paths_in_comments_doc_and_strings_do_not_count() {
    // Only the last line is code; the char `'"'` must not open a string that hides it.
    let a = concat!(
        "//! crate::top::Upper in the module's doc\n",
        "/// crate::top::Upper in an item's doc\n",
        "// use crate::top::Upper;\n",
        "/* crate::top /* nested */ crate::top::Upper */\n",
        "const S: &str = \"crate::top::Upper \\\" crate::top\";\n",
        "const R: &str = r#\"crate::top::\"Upper\"#;\n",
        "const Q: char = '\"';\n",
        "fn l<'a>(x: &'a str) -> &'a str {\n    x\n}\n",
        "pub fn f() -> crate::top::Upper {}\n",
    );
    assert_eq!(found(&[("base/a.rs", a)]), [climb("base/a.rs:11", "crate::top::Upper")]);
}

#[test]
fn a_path_the_doc_names_that_does_not_exist_is_found() {
    let doc = "`trace/` and `kernels/quant/blocks.rs`, `cargo test`, `a -> b`, `--json`, `gone/old.rs`, `Matrix`";
    let exists = |p: &str| ["trace/", "kernels/quant/blocks.rs"].contains(&p);
    assert_eq!(missing_paths(doc, exists), vec!["gone/old.rs".to_string()]);
}

#[test]
fn test_code_closes_no_circle_but_may_not_climb() {
    // A view's test mounts the whole page, which holds the view: not a circle of the code that
    // ships. The same test reaching a floor above is still a climb.
    let test = "pub struct Card;\n#[cfg(test)]\n#[path = \"tests.rs\"]\nmod tests;\n";
    assert!(found(&[
        ("web/views/card.rs", test),
        ("web/views/tests.rs", "use crate::views::card::Card;\n")
    ])
    .is_empty());
    let page = "use super::super::state::State;\n#[cfg(test)]\nmod tests {\n    use crate::state::Page;\n}\n";
    let state = "pub struct State;\n#[cfg(test)]\nmod tests {\n    use crate::views::card;\n}\n";
    assert!(found(&[("web/views/card.rs", page), ("web/state.rs", state)]).is_empty());
    // The same reference outside `#[cfg(test)]` closes the circle.
    let state = "pub struct State;\nuse crate::views::card;\n";
    assert_eq!(found(&[("web/state.rs", state)]).len(), 1);
    // `#[cfg(test)]` ends at its item: a `use` after a test-only `fn` counts.
    let state = "#[cfg(test)]\nfn t() {}\nuse crate::views::card;\n";
    assert_eq!(found(&[("web/state.rs", state)]).len(), 1);
    let climb = "#[cfg(test)]\nmod tests {\n    use crate::top::Upper;\n}\n";
    assert_eq!(
        found(&[("core.rs", climb)]),
        vec!["src/core.rs:3: floor 0 core imports floor 1 upper (`crate::top::Upper`)"]
    );
}
