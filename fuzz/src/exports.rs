//! Any token labels (the input split at 0xFF bytes, which UTF-8 never
//! uses) in the heatmap's SVG and the head's CSV: the SVG is always
//! well-formed XML, and no CSV cell starts with what a spreadsheet runs as
//! a formula.

use attnscope::attention::Mask;
use attnscope::draw::{heatmap_svg, Heatmap, ValueKind};
use attnscope::export::head_csv;
use attnscope::Matrix;

/// The quoted cells of one CSV line (cells are quoted, `""` inside is a quote).
fn cells(line: &str) -> Vec<String> {
    let mut cells = Vec::new();
    let mut chars = line.chars().peekable();
    while chars.peek().is_some() {
        let mut cell = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            while let Some(c) = chars.next() {
                match (c, chars.peek()) {
                    ('"', Some('"')) => {
                        chars.next();
                        cell.push('"');
                    }
                    ('"', _) => break,
                    _ => cell.push(c),
                }
            }
        }
        for c in chars.by_ref() {
            if c == ',' {
                break;
            }
            cell.push(c);
        }
        cells.push(cell);
    }
    cells
}

/// One input of the fuzz target `exports` (fuzz/fuzz_targets/exports.rs).
pub fn run(data: &[u8]) {
    let labels: Vec<String> = data
        .split(|&b| b == 0xff)
        .take(40)
        .map(|l| String::from_utf8_lossy(l).into_owned())
        .collect();
    let n = labels.len();
    // A valid A: row i puts all of its weight on key (i·7) mod n.
    let mut a = Matrix::zeros(n, n);
    for i in 0..n {
        a.data[i * n + (i * 7) % n] = 1.0;
    }
    for kind in [ValueKind::Weights, ValueKind::Signed] {
        let title = format!("fuzz\n{}", labels.first().map_or("", String::as_str));
        // A causal mask, so that hidden keys' cells (drawn without a number) are drawn too.
        let h = Heatmap {
            title,
            row_labels: &labels,
            col_labels: &labels,
            values: &a,
            kind,
            mask: Mask::Causal,
            // The axes' names are the caller's text too (the page's, in its language).
            axes: (
                labels.first().map_or("keys →", String::as_str),
                labels.last().map_or("queries ↓", String::as_str),
            ),
        };
        let svg = heatmap_svg(&h).expect("a heatmap of valid weights draws");
        if let Err(e) = roxmltree::Document::parse(&svg) {
            panic!("not well-formed XML ({e}) for labels {labels:?}");
        }
    }
    let csv = head_csv(&labels, &a);
    // Cells are quoted, so a newline inside a label does not end a row: read
    // the whole text as one run of cells and check each label cell.
    for cell in cells(&csv.replace('\n', ",")) {
        assert!(
            !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
            "a formula cell {cell:?} in {csv:?}"
        );
    }
}
