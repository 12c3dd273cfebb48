//! What an engine command is beyond the engine's own `id name`: the
//! package its script comes from (`stockfish@19.0.0`, read from the nearest
//! `package.json`), the script's place in it, the files beside the script
//! that carry its network (with their SHA-256) and the runtime that runs it
//! (`node v20.20.2`), so every output can say exactly which build produced
//! it without naming a path of this machine.

use std::{
    collections::BTreeMap,
    fs,
    io::{self, Read},
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::{LazyLock, Mutex},
    time::{Duration, Instant, SystemTime},
};

use sha2::{Digest, Sha256};

use crate::Network;

/// What c960 reads of an npm package's `package.json`.
#[derive(serde::Deserialize)]
pub(super) struct Package {
    pub(super) name: String,
    pub(super) version: String,
    /// The Stockfish package's major version, which names its scripts.
    #[serde(rename = "buildVersion")]
    pub(super) build_version: Option<String>,
}

impl Package {
    /// The `package.json` in `dir`, if it is one.
    pub(super) fn read(dir: &Path) -> Option<Package> {
        serde_json::from_str(&fs::read_to_string(dir.join("package.json")).ok()?).ok()
    }
}

/// Programs that run a script rather than being the engine themselves.
const RUNTIMES: [&str; 4] = ["node", "nodejs", "bun", "deno"];

/// `name@version` of the package holding the first argument that is a
/// file, from the nearest `package.json` above it; `None` for a native
/// engine.
#[must_use]
pub fn package_of(args: &[String]) -> Option<String> {
    args.iter()
        .map(Path::new)
        .filter(|arg| arg.is_file())
        .find_map(|script| {
            script.ancestors().skip(1).find_map(|dir| {
                let package = Package::read(dir)?;
                Some(format!("{}@{}", package.name, package.version))
            })
        })
}

/// A script run from a package, as outputs record it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PackagedScript {
    /// Which argument is the script.
    pub(super) index: usize,
    /// `name@version` of its package.
    pub(super) package: String,
    /// The script as a path inside the package (`bin/stockfish-18-single.js`).
    pub(super) script: String,
    /// The package files that carry its network, and their SHA-256.
    pub(super) network: Option<Network>,
}

/// The first argument that is a file inside a package (the nearest
/// `package.json` above it): the package, the script's path inside it and
/// its network files; `None` for a native engine.
pub(super) fn packaged_script(args: &[String]) -> Option<PackagedScript> {
    args.iter().enumerate().find_map(|(index, arg)| {
        let script = Path::new(arg);
        if !script.is_file() {
            return None;
        }
        let script = script.canonicalize().unwrap_or_else(|_| script.to_owned());
        script.ancestors().skip(1).find_map(|dir| {
            let package = Package::read(dir)?;
            let inside = |file: &Path| {
                file.strip_prefix(dir)
                    .ok()
                    .map(|p| p.to_string_lossy().into_owned())
            };
            let files = network_files(&script);
            let network = (!files.is_empty()).then(|| Network {
                names: Vec::new(),
                files: files.iter().filter_map(|f| inside(f)).collect(),
                sha256: sha256_of(&files),
            });
            Some(PackagedScript {
                index,
                package: format!("{}@{}", package.name, package.version),
                script: inside(&script)?,
                network,
            })
        })
    })
}

/// The files beside a WebAssembly build's script that carry its network:
/// its module (`NAME.wasm`, or the parts `NAME-part-0.wasm`, … in order)
/// and any network file (`nn-*.nnue`) in the same directory.
fn network_files(script: &Path) -> Vec<PathBuf> {
    let (Some(dir), Some(stem)) = (script.parent(), script.file_stem()) else {
        return Vec::new();
    };
    let stem = stem.to_string_lossy();
    let whole = dir.join(format!("{stem}.wasm"));
    let mut files = if whole.is_file() {
        vec![whole]
    } else {
        (0..100)
            .map(|part| dir.join(format!("{stem}-part-{part}.wasm")))
            .take_while(|p| p.is_file())
            .collect()
    };
    let mut nets: Vec<PathBuf> = fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name().is_some_and(|n| {
                        let n = n.to_string_lossy();
                        n.starts_with("nn-") && n.ends_with(".nnue")
                    }) && p.is_file()
                })
                .collect()
        })
        .unwrap_or_default();
    nets.sort();
    files.extend(nets);
    files
}

/// Each file's path, length and modification time: what a hash is kept
/// under, so that a changed file is hashed again.
type Stamp = Vec<(PathBuf, u64, Option<SystemTime>)>;

/// Hashes already computed in this process: engines of one run share a
/// package, and its files are tens of megabytes.
static HASHES: LazyLock<Mutex<BTreeMap<Stamp, String>>> =
    LazyLock::new(|| Mutex::new(BTreeMap::new()));

/// The SHA-256 (hex) of `files` read one after the other; `None` when one
/// cannot be read.
fn sha256_of(files: &[PathBuf]) -> Option<String> {
    let stamp: Stamp = files
        .iter()
        .map(|f| {
            let meta = fs::metadata(f).ok()?;
            Some((f.clone(), meta.len(), meta.modified().ok()))
        })
        .collect::<Option<_>>()?;
    if let Some(hash) = HASHES.lock().ok()?.get(&stamp) {
        return Some(hash.clone());
    }
    let mut hasher = Sha256::new();
    for file in files {
        io::copy(&mut fs::File::open(file).ok()?, &mut hasher).ok()?;
    }
    let hash = hasher
        .finalize()
        .iter()
        .fold(String::new(), |hex, b| hex + &format!("{b:02x}"));
    HASHES.lock().ok()?.insert(stamp, hash.clone());
    Some(hash)
}

/// `node v20.20.2` when `program` is a script runtime (asked for its
/// version, with a deadline), `None` for anything else.
#[must_use]
pub fn runtime_of(program: &Path) -> Option<String> {
    let name = program.file_name()?.to_str()?;
    if !RUNTIMES.contains(&name) {
        return None;
    }
    let mut child = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Some(name.to_owned());
            }
        }
    }
    let mut out = String::new();
    child.stdout.take()?.read_to_string(&mut out).ok()?;
    let version = out.lines().next().unwrap_or("").trim();
    Some(if version.is_empty() {
        name.to_owned()
    } else {
        format!("{name} {version}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_names_its_package_and_a_native_engine_none() {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("node_modules/stockfish/bin");
        fs::create_dir_all(&bin).unwrap();
        fs::write(
            dir.path().join("node_modules/stockfish/package.json"),
            r#"{"name": "stockfish", "version": "19.0.0"}"#,
        )
        .unwrap();
        let script = bin.join("stockfish-19-single.js");
        fs::write(&script, "").unwrap();
        let args = vec!["--flag".to_owned(), script.display().to_string()];
        assert_eq!(package_of(&args).as_deref(), Some("stockfish@19.0.0"));
        assert_eq!(package_of(&["--flag".to_owned()]), None);
        assert_eq!(runtime_of(Path::new("/usr/games/stockfish")), None);
    }

    #[test]
    fn a_packaged_script_names_its_place_and_hashes_its_network_files() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("sf17/src");
        fs::create_dir_all(&src).unwrap();
        fs::write(
            dir.path().join("sf17/package.json"),
            r#"{"name": "stockfish", "version": "17.1.0"}"#,
        )
        .unwrap();
        let script = src.join("stockfish-17.1-single-a496a04.js");
        fs::write(&script, "").unwrap();
        fs::write(
            src.join("stockfish-17.1-single-a496a04-part-1.wasm"),
            "world",
        )
        .unwrap();
        fs::write(
            src.join("stockfish-17.1-single-a496a04-part-0.wasm"),
            "hello ",
        )
        .unwrap();
        fs::write(src.join("stockfish-17.1-lite-single-03e3232.wasm"), "other").unwrap();
        let found = packaged_script(&[script.display().to_string()]).unwrap();
        assert_eq!(found.index, 0);
        assert_eq!(found.package, "stockfish@17.1.0");
        assert_eq!(found.script, "src/stockfish-17.1-single-a496a04.js");
        let network = found.network.unwrap();
        assert_eq!(
            network.files,
            [
                "src/stockfish-17.1-single-a496a04-part-0.wasm",
                "src/stockfish-17.1-single-a496a04-part-1.wasm"
            ]
        );
        // `printf 'hello world' | sha256sum`
        assert_eq!(
            network.sha256.as_deref(),
            Some("b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9")
        );
    }
}
