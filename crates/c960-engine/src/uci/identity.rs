//! What an engine command is beyond the engine's own `id name`: the
//! package its script comes from (`stockfish@19.0.0`, read from the nearest
//! `package.json`) and the runtime that runs it (`node v20.20.2`), so every
//! output can say exactly which build produced it.

use std::{
    fs,
    io::Read,
    path::Path,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

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
}
