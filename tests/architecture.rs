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

// ---------------------------------------------------------------------------------------------
// Reading Rust: a small lexer, so that comments and literals never count as code

#[derive(Debug, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Sep,
    Punct(char),
    /// A string literal: kept only for `#[path = "…"]`, never scanned for paths.
    Str(String),
}

/// The tokens of a file with their lines. Comments (doc comments too), char literals,
/// lifetimes' quotes and numbers are dropped; a string literal is one `Str` token.
fn lex(src: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = src.chars().collect();
    let at = |i: usize| c.get(i).copied().unwrap_or(' ');
    let (mut out, mut i, mut line) = (Vec::new(), 0, 1);
    while i < c.len() {
        let (first, second) = (c[i], at(i + 1));
        if first.is_whitespace() {
            line += usize::from(first == '\n');
            i += 1;
        } else if (first, second) == ('/', '/') {
            i = (i..c.len()).find(|&j| c[j] == '\n').unwrap_or(c.len());
        } else if (first, second) == ('/', '*') {
            // Block comments nest in Rust.
            let mut depth = 0;
            while i < c.len() {
                match (c[i], at(i + 1)) {
                    ('/', '*') => (depth, i) = (depth + 1, i + 2),
                    ('*', '/') => (depth, i) = (depth - 1, i + 2),
                    (ch, _) => (line, i) = (line + usize::from(ch == '\n'), i + 1),
                }
                if depth == 0 {
                    break;
                }
            }
        } else if first == '"' {
            let start_line = line;
            let text = string(&c, &mut i, None, &mut line);
            out.push((Tok::Str(text), start_line));
        } else if first == '\'' {
            // 'x', '\n', '\u{…}' are chars, skipped; 'a (no quote two on) is a lifetime.
            let close = match second {
                '\\' => (i + 3..c.len()).find(|&j| c[j] == '\''),
                _ => Some(i + 2).filter(|&j| at(j) == '\''),
            };
            i = close.map_or(i + 1, |j| j + 1);
        } else if first.is_alphanumeric() || first == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            let hashes = (i..).take_while(|&j| at(j) == '#').count();
            let raw = matches!(word.as_str(), "r" | "br" | "cr") && at(i + hashes) == '"';
            if raw || (matches!(word.as_str(), "b" | "c") && at(i) == '"') {
                // A raw string `r#"…"#`, a byte or C string `b"…"`.
                let start_line = line;
                i += if raw { hashes } else { 0 };
                let text = string(&c, &mut i, raw.then_some(hashes), &mut line);
                out.push((Tok::Str(text), start_line));
            } else if word == "r" && hashes == 1 {
                i += 1; // a raw identifier, r#type: the name follows
            } else if !first.is_ascii_digit() {
                out.push((Tok::Ident(word), line));
            }
        } else if (first, second) == (':', ':') {
            out.push((Tok::Sep, line));
            i += 2;
        } else {
            out.push((Tok::Punct(first), line));
            i += 1;
        }
    }
    out
}

/// The text of the string literal whose opening quote is at `*i`, leaving `*i` past its end.
/// `raw` is the number of `#`s of a raw string, where `\` escapes nothing.
fn string(c: &[char], i: &mut usize, raw: Option<usize>, line: &mut usize) -> String {
    let start = *i + 1;
    let hashes = raw.unwrap_or(0);
    *i = start;
    while *i < c.len() {
        match c[*i] {
            '\n' => *line += 1,
            '\\' if raw.is_none() => {
                *line += usize::from(c.get(*i + 1) == Some(&'\n'));
                *i += 1;
            }
            '"' if (1..=hashes).all(|k| c.get(*i + k) == Some(&'#')) => {
                let text = c[start..*i].iter().collect();
                *i += 1 + hashes;
                return text;
            }
            _ => {}
        }
        *i += 1;
    }
    c[start..].iter().collect()
}

// ---------------------------------------------------------------------------------------------
// What a file refers to

/// A path in a file: `use` trees are split into one path per leaf.
struct Ref {
    /// The inline modules around it (`mod tests { … }`), from the file's own module.
    at: Vec<String>,
    path: Vec<String>,
    line: usize,
    /// The name a module-level `use` binds (its last segment or its `as`), for re-exports.
    binds: Option<String>,
}

/// What one file declares and refers to.
#[derive(Default)]
struct Scan {
    /// Inline modules, as paths from the file's module.
    inline: Vec<Vec<String>>,
    /// `#[path = "p"] mod name;`: (where, name, p).
    path_mods: Vec<(Vec<String>, String, String)>,
    refs: Vec<Ref>,
}

fn scan(src: &str) -> Scan {
    let t = lex(src);
    let ident = |i: usize| match t.get(i) {
        Some((Tok::Ident(s), _)) => Some(s.as_str()),
        _ => None,
    };
    let (mut s, mut i, mut depth) = (Scan::default(), 0, 0);
    // The inline modules we are in, each with the brace depth inside it.
    let mut stack: Vec<(String, usize)> = Vec::new();
    let mut path_attr = None;
    while i < t.len() {
        let at: Vec<String> = stack.iter().map(|m| m.0.clone()).collect();
        let item_level = depth == stack.last().map_or(0, |m| m.1);
        match (&t[i].0, ident(i + 1), t.get(i + 2).map(|x| &x.0)) {
            (Tok::Punct('{'), ..) => depth += 1,
            (Tok::Punct('}'), ..) => {
                depth -= 1;
                if stack.last().is_some_and(|m| m.1 > depth) {
                    stack.pop();
                }
            }
            (Tok::Punct('['), Some("path"), Some(Tok::Punct('='))) => {
                if let Some((Tok::Str(p), _)) = t.get(i + 3) {
                    path_attr = Some(p.clone());
                }
            }
            (Tok::Ident(m), Some(name), Some(Tok::Punct(next))) if m == "mod" => {
                if *next == '{' {
                    stack.push((name.to_string(), depth + 1));
                    s.inline.push([at.clone(), vec![name.to_string()]].concat());
                } else if let Some(p) = path_attr.take() {
                    s.path_mods.push((at.clone(), name.to_string(), p));
                }
                i += 1;
            }
            (Tok::Ident(u), ..) if u == "use" => {
                let mut leaves = Vec::new();
                i = use_tree(&t, i + 1, Vec::new(), &mut leaves);
                for (path, binds, line) in leaves {
                    let binds = binds.filter(|_| item_level);
                    s.refs.push(Ref { at: at.clone(), path, line, binds });
                }
                continue;
            }
            // A path in code, from its first segment (not one after `<T>::`).
            (Tok::Ident(first), ..)
                if t.get(i + 1).is_some_and(|x| x.0 == Tok::Sep)
                    && (i == 0 || t[i - 1].0 != Tok::Sep) =>
            {
                let line = t[i].1;
                let mut path = vec![first.clone()];
                while t.get(i + 1).is_some_and(|x| x.0 == Tok::Sep) {
                    let Some(next) = ident(i + 2) else { break };
                    path.push(next.to_string());
                    i += 2;
                }
                s.refs.push(Ref { at, path, line, binds: None });
            }
            _ => {}
        }
        i += 1;
    }
    s
}

/// Reads the `use` tree from `t[i]` into `out` as (path, bound name, line) per leaf: grouped
/// (`{a, b::{c, d}}`), `self` in a group, `as` renames and globs; returns the index after it.
fn use_tree(
    t: &[(Tok, usize)],
    mut i: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>, usize)>,
) -> usize {
    loop {
        match t.get(i) {
            Some((Tok::Sep, _)) => i += 1,
            // A glob binds no name we could follow.
            Some((Tok::Punct('*'), line)) => {
                out.push((prefix, None, *line));
                return i + 1;
            }
            Some((Tok::Punct('{'), _)) => {
                i += 1;
                while !matches!(t.get(i), Some((Tok::Punct('}'), _)) | None) {
                    let next = use_tree(t, i, prefix.clone(), out);
                    // A comma, or anything we do not read: step over it.
                    i = if next == i { i + 1 } else { next };
                }
                return i + 1;
            }
            Some((Tok::Ident(name), line)) => {
                // `a::{self}` is `a` itself.
                if name != "self" || prefix.is_empty() {
                    prefix.push(name.clone());
                }
                if matches!(t.get(i + 1), Some((Tok::Sep, _))) {
                    i += 2;
                    continue;
                }
                let mut binds = prefix.last().cloned();
                if matches!(t.get(i + 1), Some((Tok::Ident(a), _)) if a == "as") {
                    binds = match t.get(i + 2) {
                        Some((Tok::Ident(a), _)) if a != "_" => Some(a.clone()),
                        _ => None,
                    };
                    i += 2;
                }
                out.push((prefix, binds, *line));
                return i + 1;
            }
            _ => return i,
        }
    }
}

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
/// it names.
type Resolved<'a> = (&'a str, usize, String, Vec<String>, Vec<String>);

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
        let mut out = Vec::new();
        for (file, module, scan) in &self.files {
            for r in &scan.refs {
                let here = [module.clone(), r.at.clone()].concat();
                if let Some(path) = self.absolute(&here, &r.path) {
                    let target = self.resolve(path);
                    out.push((*file, r.line, r.path.join("::"), here, target));
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
    for (file, line, written, _, target) in lib.references() {
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
    for (file, line, written, from, to) in krate.references() {
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
    // Under cargo the manifest's folder; run on its own (rustc --test), the current one.
    let root = option_env!("CARGO_MANIFEST_DIR")
        .map_or_else(|| std::env::current_dir().expect("a current directory"), PathBuf::from);
    let read = |p: &str| std::fs::read_to_string(root.join(p)).expect(p);
    let mut files = Vec::new();
    rust_files(&root.join("src"), &root.join("src"), &mut files);
    let violations = check(&read("docs/architecture.md"), &files, &bin_roots(&read("Cargo.toml")));
    assert!(violations.is_empty(), "{}", report(&violations));
}

// ---------------------------------------------------------------------------------------------
// The checker's own tests, on a small tree in memory: each planted violation must be found.

#[cfg(test)]
mod checker {
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
        (
            "base/b.rs",
            "pub struct B(super::Item);\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
        ),
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
        let circle =
            "circle base::a → base::b → base::a\n    src/base/a.rs:2 (`super::b::B`)\n    \
                      src/base/b.rs:3 (`super::a::f`)";
        assert_eq!(found(&[("base/b.rs", b)]), [circle]);
    }

    #[test]
    fn an_inline_modules_super_is_its_files_module() {
        let b = "pub struct B;\n#[cfg(test)]\nmod tests {\n    use super::super::a::f;\n}\n";
        let circle =
            "circle base::a → base::b → base::a\n    src/base/a.rs:2 (`super::b::B`)\n    \
                      src/base/b.rs:4 (`super::super::a::f`)";
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
        let circle =
            "circle base::a → base::b → base::a\n    src/base/a.rs:2 (`super::b::B`)\n    \
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
}
