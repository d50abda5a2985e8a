//! Rule IDs of docs/spec, found as bao-cli's `spec_ids` test finds them: a heading that starts
//! with an ID (`## KIS-5 ...`) or a bold label that starts with one (`**KIS-5.2 ...**`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// docs/spec, from this crate's manifest directory.
pub fn spec_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/spec")
}

/// The first word shaped like a rule ID at the start of `text` (`KIS-5.2`; a sentence's final
/// dot is not part of it): two to five capitals, `-`, numbers separated by dots.
pub fn leading_id(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let letters = b.iter().take_while(|c| c.is_ascii_uppercase()).count();
    if !(2..=5).contains(&letters) || b.get(letters) != Some(&b'-') {
        return None;
    }
    let mut k = letters + 1;
    if !b.get(k).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    loop {
        while b.get(k).is_some_and(u8::is_ascii_digit) {
            k += 1;
        }
        if b.get(k) == Some(&b'.') && b.get(k + 1).is_some_and(u8::is_ascii_digit) {
            k += 1;
        } else {
            break;
        }
    }
    Some(text[..k].to_string())
}

/// The IDs one spec file defines, in file order without repeats.
pub fn ids_in(file: &str) -> Vec<String> {
    titled_ids_in(file).into_iter().map(|(id, _)| id).collect()
}

/// The IDs one spec file defines with their titles (`KIS-13`, `Reference algorithm ...`).
pub fn titled_ids_in(file: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(spec_dir().join(file))
        .unwrap_or_else(|e| panic!("docs/spec/{file}: {e}"));
    let mut out: Vec<(String, String)> = Vec::new();
    let mut push = |id: String, rest: &str| {
        if !out.iter().any(|(i, _)| *i == id) {
            let title = rest[id.len()..]
                .trim_start_matches(['.', ' '])
                .trim()
                .to_string();
            out.push((id, title));
        }
    };
    for line in text.lines() {
        let heading = line.trim_start_matches('#');
        if heading.len() < line.len() {
            if let Some(id) = leading_id(heading.trim_start()) {
                push(id, heading.trim_start());
            }
        }
        for part in line.split("**").skip(1).step_by(2) {
            if let Some(id) = leading_id(part) {
                push(id, part);
            }
        }
    }
    out
}

/// Every ID defined anywhere in docs/spec.
pub fn all_ids() -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for e in std::fs::read_dir(spec_dir()).expect("docs/spec") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "md") {
            ids.extend(ids_in(p.file_name().unwrap().to_str().unwrap()));
        }
    }
    ids
}
