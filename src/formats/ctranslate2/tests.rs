//! The reader on small files built here byte by byte: what it must read,
//! and every way a file can lie or end early.

use super::*;

fn string(s: &str) -> Vec<u8> {
    let mut b = ((s.len() + 1) as u16).to_le_bytes().to_vec();
    b.extend_from_slice(s.as_bytes());
    b.push(0);
    b
}

/// A variable's header and data, with the size its dtype and shape imply.
fn var(name: &str, shape: &[u32], dtype: u8, data: &[u8]) -> Vec<u8> {
    let mut b = string(name);
    b.push(shape.len() as u8);
    for d in shape {
        b.extend(d.to_le_bytes());
    }
    b.push(dtype);
    b.extend((data.len() as u32).to_le_bytes());
    b.extend_from_slice(data);
    b
}

fn f16s(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| half::f16::from_f32(*v).to_le_bytes()).collect()
}

/// A file of `variables` (already encoded) and `aliases`.
fn file(version: u32, variables: &[Vec<u8>], aliases: &[(&str, &str)]) -> Vec<u8> {
    let mut b = version.to_le_bytes().to_vec();
    b.extend(string("TinySpec"));
    b.extend(3u32.to_le_bytes());
    b.extend((variables.len() as u32).to_le_bytes());
    for v in variables {
        b.extend_from_slice(v);
    }
    b.extend((aliases.len() as u32).to_le_bytes());
    for (alias, name) in aliases {
        b.extend(string(alias));
        b.extend(string(name));
    }
    b
}

/// A 2×3 float16 matrix, a float32 vector, a bfloat16 scalar, an int16 and
/// an int8 scalar, and an alias of the matrix.
fn tiny() -> Vec<u8> {
    let bf16 = half::bf16::from_f32(-2.5).to_le_bytes();
    file(
        VERSION,
        &[
            var("a/weight", &[2, 3], 4, &f16s(&[0.5, -1.0, 2.0, 65504.0, 0.0, -0.25])),
            var("b/bias", &[2], 0, &[1.5f32.to_le_bytes(), (-3.0f32).to_le_bytes()].concat()),
            var("c/scale", &[], 5, &bf16),
            var("d/num_heads", &[], 2, &6i16.to_le_bytes()),
            var("e/layer", &[], 1, &[0xff]),
        ],
        &[("z/projection", "a/weight")],
    )
}

#[test]
fn reads_header_variables_and_aliases() {
    let bytes = tiny();
    let src = Bytes::new("tiny.bin", &bytes);
    let f = Ct2File::read(&src).unwrap();
    assert_eq!((f.version, f.spec.as_str(), f.revision), (6, "TinySpec", 3));
    assert_eq!(f.variables.len(), 5);
    let a = f.variable("a/weight").unwrap();
    assert_eq!((a.shape.clone(), a.dtype, a.len, a.elements()), (vec![2, 3], DType::F16, 12, 6));
    assert_eq!(f.f32s(&src, "a/weight").unwrap(), [0.5, -1.0, 2.0, 65504.0, 0.0, -0.25]);
    assert_eq!(f.f32s(&src, "b/bias").unwrap(), [1.5, -3.0]);
    assert_eq!(f.f32s(&src, "c/scale").unwrap(), [-2.5]);
    assert_eq!(f.int(&src, "d/num_heads").unwrap(), 6);
    assert_eq!(f.int(&src, "e/layer").unwrap(), -1);
    // The alias is the matrix itself, not a copy with its own offset.
    assert_eq!(f.variable("z/projection").unwrap(), a);
    assert_eq!(f.aliases, [("z/projection".to_string(), "a/weight".to_string())]);
    assert_eq!(&f.bytes(&src, "b/bias").unwrap()[..4], &1.5f32.to_le_bytes()[..]);
}

#[test]
fn wrong_kinds_of_reads_are_errors() {
    let bytes = tiny();
    let src = Bytes::new("tiny.bin", &bytes);
    let f = Ct2File::read(&src).unwrap();
    assert!(f.variable("missing").unwrap_err().to_string().contains("missing"));
    assert!(f.f32s(&src, "d/num_heads").is_err(), "integers are not numbers to widen");
    assert!(f.int(&src, "a/weight").is_err(), "a matrix is not one integer");
    assert!(f.int(&src, "c/scale").is_err(), "a float is not an integer");
}

#[test]
fn every_truncation_is_an_error_not_a_panic() {
    let bytes = tiny();
    for cut in 0..bytes.len() {
        let r = Ct2File::parse(&bytes[..cut]);
        assert!(matches!(r, Err(Error::ModelFile(_))), "cut at {cut}");
    }
    // And a byte too many is not a file we understand either.
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(Ct2File::parse(&longer).unwrap_err().to_string().contains("after its aliases"));
}

#[test]
fn other_binary_versions_are_refused() {
    for version in [0, 1, 5, 7, u32::MAX] {
        let bytes = file(version, &[var("x", &[1], 0, &[0; 4])], &[]);
        let e = Ct2File::parse(&bytes).unwrap_err().to_string();
        assert!(e.contains(&format!("version {version}")), "{e}");
    }
    assert!(Ct2File::parse(b"PK\x03\x04 a zip file, not a model").is_err());
}

#[test]
fn sizes_that_lie_are_errors() {
    // 2×3 float16 is 12 bytes: claiming 8 or 16 (and holding them) is refused.
    for n in [8, 16] {
        let bytes = file(VERSION, &[var("w", &[2, 3], 4, &vec![0; n])], &[]);
        let e = Ct2File::parse(&bytes).unwrap_err().to_string();
        assert!(e.contains("claims") && e.contains("takes 12"), "{e}");
    }
    // A size that agrees with the shape but runs past the end of the file.
    let mut bytes = file(VERSION, &[var("w", &[1000], 0, &[0; 4000])], &[]);
    bytes.truncate(bytes.len() - 200);
    assert!(Ct2File::parse(&bytes).unwrap_err().to_string().contains("variable `w`'s data"));
    // A shape whose product overflows u64.
    let big = file(VERSION, &[var("w", &[u32::MAX, u32::MAX, u32::MAX], 0, &[])], &[]);
    assert!(Ct2File::parse(&big).unwrap_err().to_string().contains("overflows"));
    // A rank no model has.
    let deep = file(VERSION, &[var("w", &[1; 9], 0, &[0; 4])], &[]);
    assert!(Ct2File::parse(&deep).unwrap_err().to_string().contains("9 dimensions"));
}

#[test]
fn claimed_counts_allocate_nothing_the_file_cannot_hold() {
    // Four billion variables in a file of a few bytes: refused before any allocation.
    let mut bytes = VERSION.to_le_bytes().to_vec();
    bytes.extend(string("TinySpec"));
    bytes.extend(3u32.to_le_bytes());
    bytes.extend(u32::MAX.to_le_bytes());
    bytes.extend([0; 64]);
    let e = Ct2File::parse(&bytes).unwrap_err().to_string();
    assert!(e.contains("claims 4294967295 variables"), "{e}");
    // The same for aliases.
    let mut bytes = file(VERSION, &[], &[]);
    let n = bytes.len();
    bytes[n - 4..].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(Ct2File::parse(&bytes).unwrap_err().to_string().contains("aliases"));
}

#[test]
fn unknown_types_are_refused() {
    for id in [6, 7, 255] {
        let bytes = file(VERSION, &[var("w", &[1], id, &[0; 4])], &[]);
        let e = Ct2File::parse(&bytes).unwrap_err().to_string();
        assert!(e.contains(&format!("type {id}")), "{e}");
    }
}

#[test]
fn bad_strings_and_names_are_refused() {
    let ok = var("w", &[1], 0, &[0; 4]);
    // A string without its closing NUL, and one of length 0.
    let mut no_nul = ok.clone();
    no_nul[3] = b'x';
    let mut empty = ok.clone();
    empty[..2].copy_from_slice(&0u16.to_le_bytes());
    for v in [no_nul, empty] {
        assert!(Ct2File::parse(&file(VERSION, &[v], &[])).is_err());
    }
    let mut not_utf8 = var("ab", &[1], 0, &[0; 4]);
    not_utf8[2] = 0xff;
    let mut inner_nul = not_utf8.clone();
    inner_nul[2] = 0;
    assert!(Ct2File::parse(&file(VERSION, &[inner_nul], &[])).is_err());
    assert!(Ct2File::parse(&file(VERSION, &[not_utf8], &[])).is_err());
    // A name twice, an alias of nothing, an alias that shadows a variable.
    assert!(Ct2File::parse(&file(VERSION, &[ok.clone(), ok.clone()], &[])).is_err());
    let e = Ct2File::parse(&file(VERSION, std::slice::from_ref(&ok), &[("p", "q")])).unwrap_err();
    assert!(e.to_string().contains("`q`"), "{e}");
    assert!(Ct2File::parse(&file(VERSION, std::slice::from_ref(&ok), &[("w", "w")])).is_err());
}
