//! Every relative link between the repository's documents leads somewhere: the file exists, and
//! a `#fragment` names one of its headings (as GitHub spells heading anchors). Documents move
//! between the README, `protocol.md` and `docs/`; this keeps their cross-references true.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The markdown documents of the repository (not `target/` or hidden directories).
fn documents(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable directory") {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if name.starts_with('.') || name == "target" {
            continue;
        }
        if path.is_dir() {
            documents(&path, found);
        } else if name.ends_with(".md") {
            found.push(path);
        }
    }
}

/// GitHub's anchor of a heading: lowercase, spaces to `-`, punctuation other than `-` and `_`
/// dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a document's headings (outside code blocks).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut fenced = false;
    let mut found = BTreeSet::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            found.insert(anchor(line.trim_start_matches('#')));
        }
    }
    found
}

/// The targets of a document's inline links `[text](target)`, outside code spans and blocks.
fn links(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        if fenced || line.starts_with("    ") {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            found.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    found
}

#[test]
fn every_relative_link_between_documents_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    documents(root, &mut files);
    assert!(files.iter().any(|file| file.ends_with("README.md")));
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a readable document");
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, fragment) = match target.split_once('#') {
                Some((path, fragment)) => (path, Some(fragment)),
                None => (target.as_str(), None),
            };
            let linked = if path.is_empty() {
                file.clone()
            } else {
                file.parent().expect("a directory").join(path)
            };
            let shown = format!("{}: {target}", file.strip_prefix(root).unwrap().display());
            if !linked.exists() {
                broken.push(format!("{shown} (no such file)"));
                continue;
            }
            if let Some(fragment) = fragment {
                let text = std::fs::read_to_string(&linked).unwrap_or_default();
                if !anchors(&text).contains(fragment) {
                    broken.push(format!("{shown} (no such heading)"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn anchors_are_spelled_as_github_spells_them() {
    assert_eq!(anchor(" The GUI server"), "the-gui-server");
    assert_eq!(anchor(" `go perft <depth>`"), "go-perft-depth");
    assert_eq!(anchor(" Network 3: more games"), "network-3-more-games");
    assert_eq!(
        links("see [a](docs/a.md#x) and [b](b.md)"),
        ["docs/a.md#x", "b.md"]
    );
}
