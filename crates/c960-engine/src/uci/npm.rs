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
    env, fs,
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

/// A version of the `stockfish` package as asked for: one to three
/// numeric components (`17.1`, `18`, `19.0.0`). It matches an installed
/// version by its leading components: `17.1` matches `17.1.0`, `18`
/// matches `18.0.8`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NpmVersion(String);

impl NpmVersion {
    /// The version in `text`, if it is one.
    #[must_use]
    pub fn parse(text: &str) -> Option<NpmVersion> {
        let parts: Vec<&str> = text.split('.').collect();
        let numeric = |p: &&str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
        (parts.len() <= 3 && parts.iter().all(numeric)).then(|| NpmVersion(text.to_owned()))
    }

    /// The version as given.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether the installed version `installed` (`17.1.0`) is this one.
    #[must_use]
    pub fn matches(&self, installed: &str) -> bool {
        let installed: Vec<&str> = installed.split(['.', '-', '+']).collect();
        self.0
            .split('.')
            .enumerate()
            .all(|(i, part)| installed.get(i) == Some(&part))
    }

    /// The npm command that installs it beside the other versions, under an
    /// alias named after its major version (`npm install
    /// sf17@npm:stockfish@17.1.0`).
    #[must_use]
    pub fn install_command(&self) -> String {
        let major = self.0.split('.').next().unwrap_or(&self.0);
        let exact = match self.0.as_str() {
            "16" | "16.0" => "16.0.0",
            "17" | "17.1" => "17.1.0",
            "18" | "18.0" => "18.0.8",
            "19" | "19.0" => "19.0.0",
            other => other,
        };
        format!("npm install sf{major}@npm:stockfish@{exact}")
    }
}

impl std::fmt::Display for NpmVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
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

/// The `node_modules` directories (or package directories) to look in,
/// given the value of [`NODE_MODULES_VAR`]: those it names, then
/// `./node_modules`, then the global ones of the usual prefixes.
fn module_dirs(named: Option<&std::ffi::OsStr>) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = named
        .map(|list| {
            env::split_paths(list)
                .filter(|d| !d.as_os_str().is_empty())
                .collect()
        })
        .unwrap_or_default();
    dirs.push(PathBuf::from("node_modules"));
    for prefix in ["/usr/local/lib", "/usr/lib"] {
        dirs.push(Path::new(prefix).join("node_modules"));
    }
    dirs
}

/// The npm package directories to try, in order, without a version: the
/// package `stockfish` of each directory (or the directory itself when it
/// is the package).
fn candidates(named: Option<&std::ffi::OsStr>) -> Vec<PathBuf> {
    let named_dirs = named.map_or(0, |list| {
        env::split_paths(list)
            .filter(|d| !d.as_os_str().is_empty())
            .count()
    });
    let mut dirs = Vec::new();
    for (i, dir) in module_dirs(named).into_iter().enumerate() {
        dirs.push(dir.join("stockfish"));
        // Either a node_modules directory or the package itself.
        if i < named_dirs {
            dirs.push(dir);
        }
    }
    dirs
}

/// The package directories to try for a version: in each directory, the
/// package `stockfish`, then every other package (aliases such as `sf17`
/// installed by `npm install sf17@npm:stockfish@17.1.0`) by name, then the
/// directory itself.
fn versioned_candidates(named: Option<&std::ffi::OsStr>) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for dir in module_dirs(named) {
        dirs.push(dir.join("stockfish"));
        let mut others: Vec<PathBuf> = fs::read_dir(&dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.file_name().is_some_and(|n| n != "stockfish") && p.is_dir())
                    .collect()
            })
            .unwrap_or_default();
        others.sort();
        dirs.extend(others);
        dirs.push(dir);
    }
    dirs
}

/// Finds the npm build: its package, script and Node. The error says what
/// is missing and how to install it.
pub fn find_stockfish_npm(build: NpmBuild) -> Result<NpmStockfish, EngineError> {
    find_in(&candidates(env::var_os(NODE_MODULES_VAR).as_deref()), build)
}

/// Finds the npm build of one version of the package, among the packages
/// and aliases installed in [`NODE_MODULES_VAR`] and the usual places;
/// without a version, as [`find_stockfish_npm`].
pub fn find_stockfish_npm_version(
    build: NpmBuild,
    version: Option<&NpmVersion>,
) -> Result<NpmStockfish, EngineError> {
    let Some(version) = version else {
        return find_stockfish_npm(build);
    };
    let named = env::var_os(NODE_MODULES_VAR);
    let found = versioned_candidates(named.as_deref())
        .into_iter()
        .filter(|dir| {
            Package::read(dir).is_some_and(|p| p.name == "stockfish" && version.matches(&p.version))
        })
        .find_map(|dir| find_in(&[dir], build).ok());
    found.ok_or_else(|| {
        let engine = match build {
            NpmBuild::Full => "stockfish-npm",
            NpmBuild::Lite => "stockfish-npm-lite",
        };
        let place = named.map_or_else(
            || format!("{NODE_MODULES_VAR} (unset), ./node_modules or the global node_modules"),
            |list| format!("{NODE_MODULES_VAR} ({})", list.to_string_lossy()),
        );
        EngineError::PackageMissing {
            engine: format!("{engine}@{version}"),
            reason: format!(
                "no stockfish {version} package in {place}: install it with `{}` in that \
                 node_modules",
                version.install_command()
            ),
        }
    })
}

/// The single-threaded UCI script of `build` in the package at `package`
/// whose scripts are named after `major`, relative to the package: the
/// first by name of `bin/` then `src/`. Layouts differ between versions:
/// `bin/stockfish-19-single.js`, `src/stockfish-17.1-single-a496a04.js`,
/// `src/stockfish-17.1-lite-single-03e3232.js`.
fn script_in(package: &Path, major: &str, build: NpmBuild) -> Option<PathBuf> {
    let wanted = |name: &str| {
        let Some(stem) = name
            .strip_prefix("stockfish-")
            .and_then(|n| n.strip_suffix(".js"))
        else {
            return false;
        };
        let words: Vec<&str> = stem.split('-').collect();
        let versioned = words.iter().any(|w| {
            w.split('.').next() == Some(major) && w.contains(|c: char| c.is_ascii_digit())
        });
        versioned
            && words.contains(&"single")
            && words.contains(&"lite") == (build == NpmBuild::Lite)
    };
    ["bin", "src"].into_iter().find_map(|sub| {
        let mut names: Vec<String> = fs::read_dir(package.join(sub))
            .ok()?
            .filter_map(Result::ok)
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| wanted(n))
            .collect();
        names.sort();
        names.into_iter().next().map(|n| Path::new(sub).join(n))
    })
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
        let script = package.join(script_in(package, &major, build)?);
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
    fn a_version_matches_by_its_leading_components() {
        let v = |text: &str| NpmVersion::parse(text).unwrap();
        assert!(v("17.1").matches("17.1.0"));
        assert!(v("18").matches("18.0.8"));
        assert!(v("19.0.0").matches("19.0.0"));
        assert!(!v("17").matches("16.0.0"));
        assert!(!v("1").matches("17.1.0"));
        assert!(!v("17.1.0").matches("17.1"));
        assert_eq!(
            v("17.1").install_command(),
            "npm install sf17@npm:stockfish@17.1.0"
        );
        for bad in ["", "17.", "x", "1.2.3.4"] {
            assert_eq!(NpmVersion::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_script_of_each_layout_is_found() {
        let dir = tempfile::tempdir().unwrap();
        for file in [
            "src/stockfish-17.1-single-a496a04.js",
            "src/stockfish-17.1-lite-single-03e3232.js",
            "src/stockfish-17.1-8e4d048.js",
            "src/stockfish-17.1-asm-341ff22.js",
        ] {
            fs::create_dir_all(dir.path().join("src")).unwrap();
            fs::write(dir.path().join(file), "").unwrap();
        }
        assert_eq!(
            script_in(dir.path(), "17", NpmBuild::Full).unwrap(),
            Path::new("src/stockfish-17.1-single-a496a04.js")
        );
        assert_eq!(
            script_in(dir.path(), "17", NpmBuild::Lite).unwrap(),
            Path::new("src/stockfish-17.1-lite-single-03e3232.js")
        );
        assert_eq!(script_in(dir.path(), "18", NpmBuild::Full), None);
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
