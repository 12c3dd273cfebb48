//! The manifests c960 writes are modelled in c960-store, beside the model
//! that reads them: no other crate declares a `*Manifest*` struct.

use std::{fs, path::Path};

/// `file: line` for every line of `dir`'s Rust files declaring a struct
/// whose name holds `Manifest`.
fn manifest_structs(root: &Path, dir: &Path, found: &mut Vec<String>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            manifest_structs(root, &path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let name = path.strip_prefix(root).expect("under the root").display();
            let text = fs::read_to_string(&path).expect("a source file");
            for line in text.lines().map(str::trim) {
                let declared = line
                    .trim_start_matches("pub(crate) ")
                    .trim_start_matches("pub ")
                    .strip_prefix("struct ")
                    .is_some_and(|rest| {
                        rest.split(|c: char| !c.is_alphanumeric() && c != '_')
                            .next()
                            .is_some_and(|ident| ident.contains("Manifest"))
                    });
                if declared {
                    found.push(format!("{name}: {line}"));
                }
            }
        }
    }
}

#[test]
fn no_manifest_struct_outside_the_store() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("the crate lies in crates/");
    let mut found = Vec::new();
    for krate in fs::read_dir(root.join("crates")).expect("crates/") {
        let krate = krate.expect("a directory entry").path();
        if krate.ends_with("c960-store") || !krate.join("src").is_dir() {
            continue;
        }
        manifest_structs(root, &krate.join("src"), &mut found);
    }
    found.sort();
    assert!(found.is_empty(), "model manifests in c960-store: {found:?}");
    let mut ours = Vec::new();
    manifest_structs(root, &root.join("crates/c960-store/src"), &mut ours);
    for model in ["struct SweepManifest", "struct SelfplayManifest"] {
        assert!(ours.iter().any(|l| l.contains(model)), "{model}: {ours:?}");
    }
}
