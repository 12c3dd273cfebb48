//! Stockfish from npm: the package `stockfish` (a WebAssembly build of
//! Stockfish with its full network, `npm install stockfish@19.0.0`), run by
//! Node. Its single-threaded script speaks UCI on standard input and output
//! and, with one thread and node limits, repeats its searches exactly.
//!
//! The package is looked for in the `node_modules` directories named by
//! `C960_NODE_MODULES` (separated by `:`; a directory holding the package
//! itself also works), then in `./node_modules`, then in the global
//! `node_modules` of the usual prefixes.

use std::{
    env,
    path::{Path, PathBuf},
    time::Duration,
};

use crate::EngineError;

use super::{
    config::{UciConfig, resolve},
    identity::Package,
};

/// The environment variable naming where the npm package is installed.
pub const NODE_MODULES_VAR: &str = "C960_NODE_MODULES";

/// How long the npm build may take to answer `uciok` and `readyok`: it
/// compiles a 99 MB WebAssembly module first, which takes seconds on an
/// idle core and longer on a busy one.
pub const NPM_HANDSHAKE: Duration = Duration::from_secs(90);

/// Which network the npm build carries.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum NpmBuild {
    /// The full network (`stockfish-VERSION-single.js`).
    Full,
    /// The small network (`stockfish-VERSION-lite-single.js`): faster per
    /// node, weaker per node.
    Lite,
}

/// Where `stockfish` from npm is installed and how to run it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NpmStockfish {
    /// The package directory (`…/node_modules/stockfish`).
    pub package: PathBuf,
    /// The package's version (`19.0.0`).
    pub version: String,
    /// The single-threaded UCI script.
    pub script: PathBuf,
    /// The Node executable.
    pub node: PathBuf,
}

impl NpmStockfish {
    /// The UCI configuration that runs it: `node SCRIPT`, with the longer
    /// handshake this build needs.
    #[must_use]
    pub fn config(&self) -> UciConfig {
        let mut config = UciConfig::new(&self.node);
        config.args = vec![self.script.display().to_string()];
        config.handshake_timeout = NPM_HANDSHAKE;
        config
    }
}

/// The npm package directories to try, in order, given the value of
/// [`NODE_MODULES_VAR`].
fn candidates(named: Option<&std::ffi::OsStr>) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(list) = named {
        for dir in env::split_paths(list).filter(|d| !d.as_os_str().is_empty()) {
            // Either a node_modules directory or the package itself.
            dirs.push(dir.join("stockfish"));
            dirs.push(dir);
        }
    }
    dirs.push(PathBuf::from("node_modules/stockfish"));
    for prefix in ["/usr/local/lib", "/usr/lib"] {
        dirs.push(Path::new(prefix).join("node_modules/stockfish"));
    }
    dirs
}

/// Finds the npm build: its package, script and Node. The error says what
/// is missing and how to install it.
pub fn find_stockfish_npm(build: NpmBuild) -> Result<NpmStockfish, EngineError> {
    find_in(&candidates(env::var_os(NODE_MODULES_VAR).as_deref()), build)
}

fn find_in(candidates: &[PathBuf], build: NpmBuild) -> Result<NpmStockfish, EngineError> {
    let flavour = match build {
        NpmBuild::Full => "single",
        NpmBuild::Lite => "lite-single",
    };
    let found = candidates.iter().find_map(|package| {
        let read = Package::read(package).filter(|p| p.name == "stockfish")?;
        let version = read.version;
        let major = read
            .build_version
            .unwrap_or_else(|| version.split('.').next().unwrap_or("").to_owned());
        let script = package.join(format!("bin/stockfish-{major}-{flavour}.js"));
        script.is_file().then(|| {
            let package = package.canonicalize().unwrap_or_else(|_| package.clone());
            let script = script.canonicalize().unwrap_or(script);
            (package, version, script)
        })
    });
    let Some((package, version, script)) = found else {
        return Err(EngineError::NotFound {
            path: PathBuf::from(format!("node_modules/stockfish (stockfish-*-{flavour}.js)")),
            hint: format!(
                " (install it with `npm install stockfish@19.0.0` and run c960 where \
                 node_modules is, or set {NODE_MODULES_VAR} to that node_modules directory)"
            ),
        });
    };
    let node = resolve(Path::new("node"))
        .or_else(|_| resolve(Path::new("nodejs")))
        .map_err(|_| EngineError::NotFound {
            path: PathBuf::from("node"),
            hint: " (Stockfish from npm runs under Node.js: install it with \
                   `apt-get install nodejs`)"
                .to_owned(),
        })?;
    Ok(NpmStockfish {
        package,
        version,
        script,
        node,
    })
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    #[test]
    fn the_script_is_chosen_by_build_version_and_network() {
        let dir = tempfile::tempdir().unwrap();
        let package = dir.path().join("stockfish");
        fs::create_dir_all(package.join("bin")).unwrap();
        fs::write(
            package.join("package.json"),
            r#"{"name": "stockfish", "version": "19.0.0", "buildVersion": "19"}"#,
        )
        .unwrap();
        for script in ["stockfish-19-single.js", "stockfish-19-lite-single.js"] {
            fs::write(package.join("bin").join(script), "").unwrap();
        }
        let candidates = candidates(Some(dir.path().as_os_str()));
        assert_eq!(candidates[0], package);
        if resolve(Path::new("node")).is_err() && resolve(Path::new("nodejs")).is_err() {
            let err = find_in(&candidates, NpmBuild::Full).unwrap_err();
            assert!(err.to_string().contains("Node.js"), "{err}");
            return;
        }
        let full = find_in(&candidates, NpmBuild::Full).unwrap();
        assert_eq!(full.version, "19.0.0");
        assert!(full.script.ends_with("bin/stockfish-19-single.js"));
        let lite = find_in(&candidates, NpmBuild::Lite).unwrap();
        assert!(lite.script.ends_with("bin/stockfish-19-lite-single.js"));
        assert_eq!(lite.config().args, vec![lite.script.display().to_string()]);
        assert_eq!(lite.config().handshake_timeout, NPM_HANDSHAKE);
    }

    #[test]
    fn a_missing_package_says_how_to_install_it() {
        let dir = tempfile::tempdir().unwrap();
        let err = find_in(&[dir.path().join("stockfish")], NpmBuild::Full).unwrap_err();
        assert!(
            err.to_string().contains("npm install stockfish@19.0.0"),
            "{err}"
        );
    }
}
