//! The plan of the house (docs/architecture.md, `## Floors`): every library file stands on a
//! floor and reaches only its own floor and those below; and nowhere (library or shell) do
//! sibling modules reach each other in a circle.
//!
//! Std only and no `use attnscope::…`, so that it also runs on its own, without the crate:
//! `rustc --edition 2021 --test tests/architecture.rs -o /tmp/arch && /tmp/arch`.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------------------------
// The floors table

/// A row of the table: its label ("3 models"), number and paths relative to `src/`.
struct Floor {
    number: u32,
    label: String,
    paths: Vec<String>,
}

/// The rows of the `## Floors` table, in any order: the first column starts with the floor's
/// number, the second lists its modules in backticks; other columns are prose.
fn parse_floors(doc: &str) -> Vec<Floor> {
    let mut floors = Vec::new();
    let mut inside = false;
    for line in doc.lines().map(str::trim) {
        if line.starts_with('#') {
            inside = line == "## Floors";
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if !inside || !line.starts_with('|') || cells.len() < 3 {
            continue;
        }
        // The header and the `|---|` row have no number.
        let Some(number) = cells[1].split_whitespace().next().and_then(|n| n.parse().ok()) else {
            continue;
        };
        let paths = cells[2].split('`').skip(1).step_by(2).map(String::from).collect();
        floors.push(Floor { number, label: cells[1].to_string(), paths });
    }
    floors
}

/// The floor of a file: the row with the longest path that is the file or a folder above it.
/// `a/b.rs` counts as inside `a/b/` too, the folder of its children.
fn floor_of<'a>(floors: &'a [Floor], file: &str) -> Option<&'a Floor> {
    let folder = format!("{}/", file.trim_end_matches(".rs"));
    let rows = floors.iter().flat_map(|f| f.paths.iter().map(move |p| (f, p)));
    let fits = rows.filter(|(_, p)| *p == file || (p.ends_with('/') && folder.starts_with(*p)));
    fits.max_by_key(|(_, p)| p.len()).map(|(f, _)| f)
}

#[path = "architecture/lex.rs"]
mod lex;
use lex::{scan, Scan};

// ---------------------------------------------------------------------------------------------
// Crates: modules, and what each path names

/// One crate: the library (root `[]`) or a shell (root `["web"]`: `crate::` is `web::`).
struct Crate<'a> {
    root: Vec<String>,
    /// Every module (from its file's path, a `#[path]`, an inline `mod`) and its file.
    modules: BTreeMap<Vec<String>, &'a str>,
    /// The names module-level `use`s bind: (module, name) → the path they stand for.
    aliases: BTreeMap<(Vec<String>, String), Vec<String>>,
    /// Each file, its module and what it says.
    files: Vec<(&'a str, Vec<String>, Scan)>,
}

/// A reference, resolved: file, line, the path as written, the module it is in, the module
/// it names, and whether it is in test code (`#[cfg(test)]`).
type Resolved<'a> = (&'a str, usize, String, Vec<String>, Vec<String>, bool);

impl<'a> Crate<'a> {
    /// `files` are relative to `src/`; `dir` is the crate's folder (`""`, `"web/"`).
    fn new(root: Vec<String>, dir: &str, files: Vec<(&'a str, Scan)>) -> Self {
        // A file's module comes from its path: `a/b.rs`, `a/b/mod.rs` are `a::b`…
        let mut of: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for (file, _) in &files {
            let mut parts: Vec<String> =
                file[dir.len()..].trim_end_matches(".rs").split('/').map(String::from).collect();
            if parts.last().is_some_and(|p| p == "mod") || parts == ["lib"] || parts == ["main"] {
                parts.pop();
            }
            of.insert(file, [root.clone(), parts].concat());
        }
        // …unless its parent's `#[path = "…"] mod name;` (relative to that file's folder) says.
        for (file, scan) in &files {
            for (at, name, p) in &scan.path_mods {
                let folder = file.rsplit_once('/').map_or("", |(d, _)| d);
                let target = format!("{folder}/{p}");
                let target = target.trim_start_matches('/').replace("/./", "/");
                if let Some((target, _)) = files.iter().find(|(f, _)| *f == target) {
                    let module = [of[file].clone(), at.clone(), vec![name.clone()]].concat();
                    of.insert(target, module);
                }
            }
        }
        let mut modules = BTreeMap::new();
        for (file, scan) in &files {
            modules.insert(of[file].clone(), *file);
            for inline in &scan.inline {
                modules.insert([of[file].clone(), inline.clone()].concat(), *file);
            }
        }
        let files: Vec<_> = files.into_iter().map(|(f, s)| (f, of[f].clone(), s)).collect();
        let mut krate = Crate { root, modules, aliases: BTreeMap::new(), files };
        let mut aliases = BTreeMap::new();
        for (_, module, scan) in &krate.files {
            for r in &scan.refs {
                let here = [module.clone(), r.at.clone()].concat();
                if let (Some(name), Some(path)) = (&r.binds, krate.absolute(&here, &r.path)) {
                    aliases.insert((here, name.clone()), path);
                }
            }
        }
        krate.aliases = aliases;
        krate
    }

    /// The absolute path of `path` written in module `here`: `crate::`, `self::`, `super::`,
    /// or a child module of `here`; `None` for anything else (std, other crates, locals).
    fn absolute(&self, here: &[String], path: &[String]) -> Option<Vec<String>> {
        let (base, rest) = match path[0].as_str() {
            "crate" => (self.root.clone(), &path[1..]),
            "self" => (here.to_vec(), &path[1..]),
            "super" => {
                let n = path.iter().take_while(|s| *s == "super").count();
                let keep = here.len().checked_sub(n).filter(|&k| k >= self.root.len())?;
                (here[..keep].to_vec(), &path[n..])
            }
            first => {
                let child = [here, &[first.to_string()]].concat();
                self.modules.contains_key(&child).then_some(())?;
                (here.to_vec(), path)
            }
        };
        Some([base, rest.to_vec()].concat())
    }

    /// The module an absolute path names: its longest prefix that is a module, following the
    /// names `use`s bind on the way (`crate::Matrix` → `tensor`, through lib.rs's `pub use`).
    fn resolve(&self, mut path: Vec<String>) -> Vec<String> {
        let module_len =
            |p: &[String]| (0..=p.len()).rev().find(|&k| self.modules.contains_key(&p[..k]));
        // A few hops at most; a loop of `use`s (not valid Rust) stops here.
        for _ in 0..8 {
            let k = module_len(&path).unwrap_or(0);
            let Some(name) = path.get(k) else { break };
            let Some(target) = self.aliases.get(&(path[..k].to_vec(), name.clone())) else {
                break;
            };
            path = [target.clone(), path[k + 1..].to_vec()].concat();
        }
        path.truncate(module_len(&path).unwrap_or(0));
        path
    }

    /// Every reference to a module of this crate, resolved.
    fn references(&self) -> Vec<Resolved<'a>> {
        let tests: Vec<Vec<String>> = (self.files.iter())
            .flat_map(|(_, module, scan)| {
                scan.test_mods.iter().map(move |m| [module.clone(), m.clone()].concat())
            })
            .collect();
        let mut out = Vec::new();
        for (file, module, scan) in &self.files {
            for r in &scan.refs {
                let here = [module.clone(), r.at.clone()].concat();
                if let Some(path) = self.absolute(&here, &r.path) {
                    let target = self.resolve(path);
                    let test = tests.iter().any(|t| here.starts_with(t));
                    out.push((*file, r.line, r.path.join("::"), here, target, test));
                }
            }
        }
        out
    }
}

// ---------------------------------------------------------------------------------------------
// The checks

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// A library file in no row of the table (or no table at all).
    Outside,
    /// A library file reaching a floor above its own.
    Climb,
    /// Sibling modules reaching each other in a circle.
    Circle,
}

/// A violation, with the file and line it is reported at (for the order of the report).
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Violation {
    kind: Kind,
    file: String,
    line: usize,
    text: String,
}

/// Every library file has a floor, and reaches no file on a floor above it.
fn check_floors(floors: &[Floor], lib: &Crate, out: &mut Vec<Violation>) {
    for (file, ..) in &lib.files {
        if *file != "lib.rs" && floor_of(floors, file).is_none() {
            let text = format!("src/{file}: outside every floor");
            out.push(Violation { kind: Kind::Outside, file: file.to_string(), line: 0, text });
        }
    }
    for (file, line, written, _, target, _) in lib.references() {
        let to = lib.modules.get(&target).and_then(|to| floor_of(floors, to));
        // lib.rs is the root, on no floor; a file outside every floor is reported above.
        let (Some(from), Some(to)) = (floor_of(floors, file), to) else { continue };
        if to.number > from.number {
            let (a, b) = (&from.label, &to.label);
            let text = format!("src/{file}:{line}: floor {a} imports floor {b} (`{written}`)");
            out.push(Violation { kind: Kind::Climb, file: file.to_string(), line, text });
        }
    }
}

/// Within every module, among its direct children (each standing for all its descendants),
/// no circle of references. A reference to the parent itself is no edge.
fn check_circles(krate: &Crate, out: &mut Vec<Violation>) {
    // parent → (from child, to child) → the first reference that makes the edge.
    type Edges = BTreeMap<(String, String), (String, usize, String)>;
    let mut by_parent: BTreeMap<Vec<String>, Edges> = BTreeMap::new();
    // Test code is left out: a view's component test mounts the page that holds the view.
    for (file, line, written, from, to, _) in krate.references().into_iter().filter(|r| !r.5) {
        let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
        if common < from.len() && common < to.len() && krate.modules.contains_key(&to) {
            let edge = (from[common].clone(), to[common].clone());
            let evidence = (file.to_string(), line, written);
            by_parent.entry(from[..common].to_vec()).or_default().entry(edge).or_insert(evidence);
        }
    }
    for (parent, edges) in &by_parent {
        // The shortest circle through each edge that is on one, shortest first; a circle is
        // shown if it has an edge no circle shown before has.
        let mut circles: Vec<Vec<&String>> = edges
            .keys()
            .filter_map(|(x, y)| Some([vec![x], shortest_path(edges, y, x)?].concat()))
            .collect();
        circles.sort_by_key(|c| c.len());
        let mut shown = BTreeSet::new();
        for mut circle in circles {
            // Shown from its first module by name, so that the report reads in order.
            circle.pop();
            let first = (0..circle.len()).min_by_key(|&i| circle[i]).unwrap();
            circle.rotate_left(first);
            circle.push(circle[0]);
            let pairs: Vec<_> = circle.windows(2).map(|p| (p[0].clone(), p[1].clone())).collect();
            if pairs.iter().all(|p| shown.contains(p)) {
                continue;
            }
            let names: Vec<String> = circle
                .iter()
                .map(|m| [parent.as_slice(), &[m.to_string()]].concat().join("::"))
                .collect();
            let mut text = format!("circle {}", names.join(" → "));
            for pair in &pairs {
                let (file, line, written) = &edges[pair];
                text += &format!("\n    src/{file}:{line} (`{written}`)");
            }
            out.push(Violation { kind: Kind::Circle, file: String::new(), line: 0, text });
            shown.extend(pairs);
        }
    }
}

/// The shortest path of edges from `from` to `to` (both included), breadth first.
fn shortest_path<'e, V>(
    edges: &'e BTreeMap<(String, String), V>,
    from: &'e String,
    to: &String,
) -> Option<Vec<&'e String>> {
    let mut came_from: BTreeMap<&String, &String> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(x) = queue.pop_front() {
        if x == to {
            let mut path = vec![x];
            while let Some(&before) = came_from.get(path.last().unwrap()) {
                path.push(before);
            }
            path.reverse();
            return Some(path);
        }
        for (_, y) in edges.keys().filter(|(a, _)| a == x) {
            if *y != *from && !came_from.contains_key(y) {
                came_from.insert(y, x);
                queue.push_back(y);
            }
        }
    }
    None
}

/// The whole plan: `doc` is docs/architecture.md, `files` the `.rs` files under `src/` (paths
/// relative to it, with `/`), `bins` the binary roots (`web/main.rs`…). Every binary root's
/// folder is a shell crate; a second root there that only mounts another with
/// `#[path = "main.rs"] mod worker;` (a thin root) is that crate again, and left out.
fn check(doc: &str, files: &[(String, String)], bins: &[String]) -> Vec<Violation> {
    let floors = parse_floors(doc);
    let mut out = Vec::new();
    if floors.is_empty() {
        let text = "docs/architecture.md: no `## Floors` table".to_string();
        out.push(Violation { kind: Kind::Outside, file: String::new(), line: 0, text });
    }
    let shells: BTreeSet<&str> =
        bins.iter().filter_map(|b| b.rsplit_once('/')).map(|(d, _)| d).collect();
    let shell_of = |f: &str| shells.iter().copied().find(|d| f.starts_with(&format!("{d}/")));
    let lib = files.iter().filter(|(f, _)| shell_of(f).is_none());
    let lib = Crate::new(Vec::new(), "", lib.map(|(f, s)| (f.as_str(), scan(s))).collect());
    check_floors(&floors, &lib, &mut out);
    check_circles(&lib, &mut out);
    for shell in &shells {
        let mut mine = Vec::new();
        for (file, src) in files.iter().filter(|(f, _)| shell_of(f) == Some(shell)) {
            let s = scan(src);
            let thin = bins.contains(file)
                && s.path_mods.iter().any(|(_, _, p)| bins.contains(&format!("{shell}/{p}")));
            if !thin {
                mine.push((file.as_str(), s));
            }
        }
        let root = vec![shell.to_string()];
        check_circles(&Crate::new(root, &format!("{shell}/"), mine), &mut out);
    }
    out.sort();
    out
}

/// The violations with their counts, as the test reports them.
fn report(violations: &[Violation]) -> String {
    let count = |k| violations.iter().filter(|v| v.kind == k).count();
    let (n, outside, climbs) = (violations.len(), count(Kind::Outside), count(Kind::Climb));
    let mut text = format!("{n} violations of the plan (docs/architecture.md, `## Floors`): ");
    text += &format!(
        "{outside} outside every floor, {climbs} climbs, {} circles\n",
        count(Kind::Circle)
    );
    violations.iter().fold(text, |text, v| text + &v.text + "\n")
}

// ---------------------------------------------------------------------------------------------
// The real tree

/// Every `.rs` file under `dir`, as (path relative to `src/` with `/`, text), sorted.
fn rust_files(src: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("src/ is readable").path();
        if path.is_dir() {
            rust_files(src, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let name = path.strip_prefix(src).unwrap().to_string_lossy().replace('\\', "/");
            out.push((name, std::fs::read_to_string(&path).expect("a source file is UTF-8")));
        }
    }
    out.sort();
}

/// The `path`s of Cargo.toml's `[[bin]]` tables, relative to `src/`.
fn bin_roots(manifest: &str) -> Vec<String> {
    let (mut in_bin, mut out) = (false, Vec::new());
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if let Some(value) = line.strip_prefix("path").filter(|_| in_bin) {
            let value = value.trim_start().trim_start_matches('=').trim().trim_matches('"');
            out.push(value.trim_start_matches("src/").to_string());
        }
    }
    out
}

#[test]
fn the_plan_holds() {
    let root = repo_root();
    let read = |p: &str| std::fs::read_to_string(root.join(p)).expect(p);
    let mut files = Vec::new();
    rust_files(&root.join("src"), &root.join("src"), &mut files);
    let violations = check(&read("docs/architecture.md"), &files, &bin_roots(&read("Cargo.toml")));
    assert!(violations.is_empty(), "{}", report(&violations));
}

/// Under cargo the manifest's folder; run on its own (rustc --test), the current one.
fn repo_root() -> PathBuf {
    option_env!("CARGO_MANIFEST_DIR")
        .map_or_else(|| std::env::current_dir().expect("a current directory"), PathBuf::from)
}

/// Every path the doc names (`src/`-relative, or from the repository's root)
/// exists: the doc says where things are, so it must not name what moved.
#[test]
fn every_path_the_doc_names_exists() {
    let root = repo_root();
    let doc =
        std::fs::read_to_string(root.join("docs/architecture.md")).expect("docs/architecture.md");
    let missing =
        missing_paths(&doc, |p| root.join("src").join(p).exists() || root.join(p).exists());
    assert!(missing.is_empty(), "docs/architecture.md names paths that do not exist: {missing:?}");
}

/// The backticked paths of `doc` (a `/` in them: `trace/`, `kernels/quant/blocks.rs`) for
/// which `exists` is false. A bare file name (`tests.rs`) says what, not where.
fn missing_paths(doc: &str, exists: impl Fn(&str) -> bool) -> Vec<String> {
    let is_path = |p: &str| {
        let chars = p.chars().all(|c| c.is_ascii_alphanumeric() || "_./-".contains(c));
        chars && p.contains('/') && !p.starts_with('-')
    };
    let mut missing: Vec<String> = doc
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|p| is_path(p) && !exists(p))
        .map(String::from)
        .collect();
    missing.dedup();
    missing
}

// The checker's own tests, on a small tree in memory.
#[cfg(test)]
#[path = "architecture/checker.rs"]
mod checker;
