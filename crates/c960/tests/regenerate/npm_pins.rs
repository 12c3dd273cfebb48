//! Published manifests name an engine run from a package by the package
//! and the file inside it (`stockfish@19.0.0`, `bin/stockfish-19-single.js`),
//! never by a path of the machine that ran it. v3's Stockfish 19 raters
//! were made before the package pin and gave their script by its path;
//! `C960_REPUBLISH=1` rewrites them (the manifest file and the manifest in
//! the sealed table's metadata, the rows untouched), and the v3 report test
//! then republishes what quotes them.

use std::{
    fs,
    path::{Path, PathBuf},
};

use c960_store::PARQUET_MANIFEST_KEY;
use serde_json::{Map, Value};

use super::{data, republish};
use crate::util::read_parquet;

/// Every published manifest file and sealed sweep table under data/.
fn published() -> (Vec<PathBuf>, Vec<PathBuf>) {
    fn walk(dir: &Path, manifests: &mut Vec<PathBuf>, tables: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                walk(&path, manifests, tables);
            } else if name == "manifest.json" || name.ends_with("-manifest.json") {
                manifests.push(path);
            } else if name == "sweep.parquet" || name.ends_with("-sweep.parquet") {
                tables.push(path);
            }
        }
    }
    let (mut manifests, mut tables) = (Vec::new(), Vec::new());
    walk(&data(""), &mut manifests, &mut tables);
    manifests.sort();
    tables.sort();
    (manifests, tables)
}

/// The engine record with the package's script named inside the package
/// (`path` "node", no `args`), if it names its script by a path.
fn repinned(engine: &Map<String, Value>) -> Option<Map<String, Value>> {
    engine.get("package")?.as_str()?;
    let script = engine.get("args")?.as_array()?.first()?.as_str()?;
    let (_, inside) = script.split_once("/node_modules/")?;
    let (_, script) = inside.split_once('/')?;
    let mut out = Map::new();
    for (key, value) in engine {
        match key.as_str() {
            "path" => {
                out.insert(key.clone(), Value::from("node"));
            }
            "args" => {}
            "package" => {
                out.insert(key.clone(), value.clone());
                out.insert("script".to_owned(), Value::from(script));
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    Some(out)
}

/// The manifest's text with its engine repinned, if it needs it; the
/// text is written as c960 writes manifests (pretty JSON, fields in
/// order).
fn repin(text: &str) -> Option<String> {
    let mut manifest: Value = serde_json::from_str(text).unwrap();
    let engine = repinned(manifest.get("engine")?.as_object()?)?;
    manifest["engine"] = Value::Object(engine);
    Some(serde_json::to_string_pretty(&manifest).unwrap())
}

/// Where a manifest names its engine by a path of the machine, if it does.
fn machine_path(text: &str) -> Option<String> {
    let manifest: Value = serde_json::from_str(text).ok()?;
    let engine = manifest.get("engine")?.as_object()?;
    engine.get("package")?;
    let mut paths = vec![engine.get("path")?.as_str()?.to_owned()];
    if let Some(args) = engine.get("args").and_then(Value::as_array) {
        paths.extend(args.iter().filter_map(Value::as_str).map(str::to_owned));
    }
    paths.into_iter().find(|p| p.starts_with('/'))
}

#[test]
fn published_npm_raters_name_their_package_file_not_a_path_of_the_machine() {
    let (manifests, tables) = published();
    assert!(manifests.len() >= 4 && tables.len() >= 4, "{manifests:?}");
    for path in &manifests {
        let text = fs::read_to_string(path).unwrap();
        if republish()
            && let Some(text) = repin(&text)
        {
            fs::write(path, format!("{text}\n")).unwrap();
        }
        let text = fs::read_to_string(path).unwrap();
        assert_eq!(
            machine_path(&text),
            None,
            "{} names its engine by a path of the machine (run with C960_REPUBLISH=1)",
            path.display()
        );
    }
    for path in &tables {
        let info = c960_store::check_parquet(path).unwrap();
        let Some(text) = info.get(PARQUET_MANIFEST_KEY) else {
            continue;
        };
        if republish()
            && let Some(text) = repin(text)
        {
            // The same rows, sealed again with the repinned manifest; any
            // other metadata the writer does not add itself is kept.
            let mut frame = read_parquet(path);
            let metadata: Vec<(String, String)> = info
                .metadata
                .iter()
                .filter(|(k, _)| !k.starts_with("c960.") || k == PARQUET_MANIFEST_KEY)
                .map(|(k, v)| {
                    let v = if k == PARQUET_MANIFEST_KEY {
                        text.clone()
                    } else {
                        v.clone()
                    };
                    (k.clone(), v)
                })
                .collect();
            c960_store::write_atomically(path, |out| {
                c960_store::write_sealed(out, &mut frame, metadata)
            })
            .unwrap();
        }
        let info = c960_store::check_parquet(path).unwrap();
        let text = info.get(PARQUET_MANIFEST_KEY).unwrap();
        assert_eq!(
            machine_path(text),
            None,
            "{}'s manifest names its engine by a path of the machine (run with C960_REPUBLISH=1)",
            path.display()
        );
        // The table's manifest is the one published beside it.
        let beside = path.with_file_name(
            path.file_name()
                .unwrap()
                .to_string_lossy()
                .replace("sweep.parquet", "manifest.json"),
        );
        if beside.is_file() {
            assert_eq!(
                fs::read_to_string(&beside).unwrap().trim_end(),
                text,
                "{} and {}",
                path.display(),
                beside.display()
            );
        }
    }
}
