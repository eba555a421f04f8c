//! Reading Rust for the plan's check: a small lexer, so that comments and
//! literals never count as code, and what a file declares and refers to.

#[derive(Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    /// `::`
    Sep,
    Punct(char),
    /// A string literal: kept only for `#[path = "…"]`, never scanned for paths.
    Str(String),
}

/// The tokens of a file with their lines. Comments (doc comments too), char literals,
/// lifetimes' quotes and numbers are dropped; a string literal is one `Str` token.
pub fn lex(src: &str) -> Vec<(Tok, usize)> {
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
pub fn string(c: &[char], i: &mut usize, raw: Option<usize>, line: &mut usize) -> String {
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
pub struct Ref {
    /// The inline modules around it (`mod tests { … }`), from the file's own module.
    pub at: Vec<String>,
    pub path: Vec<String>,
    pub line: usize,
    /// The name a module-level `use` binds (its last segment or its `as`), for re-exports.
    pub binds: Option<String>,
}

/// What one file declares and refers to.
#[derive(Default)]
pub struct Scan {
    /// Inline modules, as paths from the file's module.
    pub inline: Vec<Vec<String>>,
    /// `#[path = "p"] mod name;`: (where, name, p).
    pub path_mods: Vec<(Vec<String>, String, String)>,
    /// Modules declared under `#[cfg(test)]` (inline or in their own file), as paths from
    /// the file's module.
    pub test_mods: Vec<Vec<String>>,
    pub refs: Vec<Ref>,
}

pub fn scan(src: &str) -> Scan {
    let t = lex(src);
    let ident = |i: usize| match t.get(i) {
        Some((Tok::Ident(s), _)) => Some(s.as_str()),
        _ => None,
    };
    let (mut s, mut i, mut depth) = (Scan::default(), 0, 0);
    // The inline modules we are in, each with the brace depth inside it.
    let mut stack: Vec<(String, usize)> = Vec::new();
    let (mut path_attr, mut cfg_test) = (None, false);
    while i < t.len() {
        let at: Vec<String> = stack.iter().map(|m| m.0.clone()).collect();
        let item_level = depth == stack.last().map_or(0, |m| m.1);
        match (&t[i].0, ident(i + 1), t.get(i + 2).map(|x| &x.0)) {
            // `#[cfg(test)]` holds for the next item: a `mod`, or anything else that ends it.
            (Tok::Punct('['), Some("cfg"), Some(Tok::Punct('(')))
                if ident(i + 3) == Some("test") =>
            {
                cfg_test = true
            }
            (Tok::Punct(';'), ..) => cfg_test = false,
            (Tok::Punct('{'), ..) => {
                depth += 1;
                cfg_test = false;
            }
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
                if std::mem::take(&mut cfg_test) {
                    s.test_mods.push([at.clone(), vec![name.to_string()]].concat());
                }
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
pub fn use_tree(
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
