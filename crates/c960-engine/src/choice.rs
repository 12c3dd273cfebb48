//! Which engine a command runs, as the user names it: `auto`, `builtin`,
//! `stockfish`, `ethereal`, `stockfish-npm` (Stockfish from npm, run by
//! Node), `stockfish-npm-lite`, either with a version of the package
//! (`stockfish-npm@17.1`), or any UCI engine's path, name or command line
//! (`node /opt/sf/stockfish-19-single.js`). It parses from and prints
//! as that text, so a manifest or a settings file holds the same words.

use std::{fmt, fs, path::PathBuf, str::FromStr};

use crate::{
    EngineError,
    uci::{
        NpmBuild, NpmVersion, UciConfig, find_ethereal, find_stockfish, find_stockfish_npm,
        find_stockfish_npm_version,
    },
};

/// An engine as named on the command line or in a settings file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum EngineName {
    /// The strongest engine installed: Stockfish from npm, else Debian's
    /// Stockfish, else the built-in engine.
    #[default]
    Auto,
    /// The built-in engine.
    Builtin,
    /// Stockfish on `PATH` or at `/usr/games/stockfish`.
    Stockfish,
    /// Ethereal on `PATH` or at `/usr/games/ethereal-chess`.
    Ethereal,
    /// Stockfish from the npm package `stockfish`, run by Node: the package
    /// `stockfish` found first, or the installed package (or alias) of a
    /// version (`stockfish-npm@17.1`).
    StockfishNpm(NpmBuild, Option<NpmVersion>),
    /// Any UCI engine: a program (path or name on `PATH`) and its
    /// arguments.
    Command {
        /// The program.
        program: PathBuf,
        /// Its arguments.
        args: Vec<String>,
    },
}

/// An engine name that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("engine {0:?} cannot be read: {1}")]
pub struct EngineNameError(String, &'static str);

impl FromStr for EngineName {
    type Err = EngineNameError;

    fn from_str(text: &str) -> Result<EngineName, EngineNameError> {
        let trimmed = text.trim();
        Ok(match trimmed {
            "" => return Err(EngineNameError(text.to_owned(), "it is empty")),
            "auto" => EngineName::Auto,
            "builtin" => EngineName::Builtin,
            "stockfish" => EngineName::Stockfish,
            "ethereal" => EngineName::Ethereal,
            "stockfish-npm" => EngineName::StockfishNpm(NpmBuild::Full, None),
            "stockfish-npm-lite" => EngineName::StockfishNpm(NpmBuild::Lite, None),
            _ if npm_name(trimmed).is_some() => {
                let (build, version) = npm_name(trimmed).expect("checked");
                let version = NpmVersion::parse(version).ok_or(EngineNameError(
                    text.to_owned(),
                    "its version is not one to three numbers separated by dots (stockfish-npm@17, @17.1 or @17.1.0)",
                ))?;
                EngineName::StockfishNpm(build, Some(version))
            }
            // A file of that name is the program itself, spaces and all.
            _ if PathBuf::from(text).is_file() => EngineName::Command {
                program: PathBuf::from(text),
                args: Vec::new(),
            },
            _ => {
                let words = shlex::split(trimmed)
                    .ok_or(EngineNameError(text.to_owned(), "its quotes do not close"))?;
                let mut words = words.into_iter();
                let program = words
                    .next()
                    .ok_or(EngineNameError(text.to_owned(), "it names no program"))?;
                EngineName::Command {
                    program: PathBuf::from(program),
                    args: words.collect(),
                }
            }
        })
    }
}

/// `stockfish-npm@VERSION` or `stockfish-npm-lite@VERSION` as its build
/// and version text.
fn npm_name(text: &str) -> Option<(NpmBuild, &str)> {
    let (engine, version) = text.split_once('@')?;
    match engine {
        "stockfish-npm" => Some((NpmBuild::Full, version)),
        "stockfish-npm-lite" => Some((NpmBuild::Lite, version)),
        _ => None,
    }
}

impl fmt::Display for EngineName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineName::Auto => f.write_str("auto"),
            EngineName::Builtin => f.write_str("builtin"),
            EngineName::Stockfish => f.write_str("stockfish"),
            EngineName::Ethereal => f.write_str("ethereal"),
            EngineName::StockfishNpm(build, version) => {
                f.write_str(match build {
                    NpmBuild::Full => "stockfish-npm",
                    NpmBuild::Lite => "stockfish-npm-lite",
                })?;
                match version {
                    Some(version) => write!(f, "@{version}"),
                    None => Ok(()),
                }
            }
            EngineName::Command { program, args } if args.is_empty() => {
                write!(f, "{}", program.display())
            }
            EngineName::Command { program, args } => {
                let program = program.display().to_string();
                let words =
                    std::iter::once(program.as_str()).chain(args.iter().map(String::as_str));
                match shlex::try_join(words) {
                    Ok(line) => f.write_str(&line),
                    Err(_) => write!(f, "{program} {}", args.join(" ")),
                }
            }
        }
    }
}

impl serde::Serialize for EngineName {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for EngineName {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// An engine as started, for telling whether two names are one engine
/// (see [`EngineName::identity`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineIdentity {
    /// The built-in engine.
    Builtin,
    /// A UCI engine process.
    Uci {
        /// Its executable: an absolute path without symbolic links.
        executable: PathBuf,
        /// Its arguments, as given.
        args: Vec<String>,
    },
}

impl fmt::Display for EngineIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineIdentity::Builtin => f.write_str("builtin"),
            EngineIdentity::Uci { executable, args } => fmt::Display::fmt(
                &EngineName::Command {
                    program: executable.clone(),
                    args: args.clone(),
                },
                f,
            ),
        }
    }
}

/// What an engine name resolves to on this machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// The built-in engine.
    Builtin,
    /// A UCI engine to start (with default threads and hash).
    Uci(UciConfig),
}

impl EngineName {
    /// The engine this name means here. `auto` takes the strongest
    /// installed engine and never fails; a named engine that is not
    /// installed is an error that says how to install it.
    pub fn resolve(&self) -> Result<Resolved, EngineError> {
        Ok(match self {
            EngineName::Auto => {
                if let Ok(npm) = find_stockfish_npm(NpmBuild::Full) {
                    Resolved::Uci(npm.config())
                } else if let Some(path) = find_stockfish() {
                    Resolved::Uci(UciConfig::new(path))
                } else {
                    Resolved::Builtin
                }
            }
            EngineName::Builtin => Resolved::Builtin,
            EngineName::Stockfish => Resolved::Uci(UciConfig::new(
                find_stockfish().unwrap_or_else(|| PathBuf::from("stockfish")),
            )),
            EngineName::Ethereal => Resolved::Uci(UciConfig::new(
                find_ethereal().unwrap_or_else(|| PathBuf::from("ethereal-chess")),
            )),
            EngineName::StockfishNpm(build, version) => {
                Resolved::Uci(find_stockfish_npm_version(*build, version.as_ref())?.config())
            }
            EngineName::Command { program, args } => {
                let mut config = UciConfig::new(program);
                config.args.clone_from(args);
                Resolved::Uci(config)
            }
        })
    }

    /// What this name starts here, whatever its spelling: `stockfish` and
    /// `/usr/games/stockfish` are one engine when `PATH` finds the one at
    /// the other. A UCI engine is its executable (found on `PATH`, its
    /// symbolic links followed) and its arguments; a UCI engine that is
    /// not installed is the error [`EngineName::resolve`] gives.
    pub fn identity(&self) -> Result<EngineIdentity, EngineError> {
        Ok(match self.resolve()? {
            Resolved::Builtin => EngineIdentity::Builtin,
            Resolved::Uci(config) => {
                let executable = config.executable()?;
                EngineIdentity::Uci {
                    executable: fs::canonicalize(&executable).unwrap_or(executable),
                    args: config.args,
                }
            }
        })
    }

    /// The engine this name starts here, named without `auto`: `auto`
    /// becomes the command (or `builtin`) it chooses on this machine;
    /// every other name is already one engine and stays as it is.
    #[must_use]
    pub fn without_auto(&self) -> EngineName {
        if *self != EngineName::Auto {
            return self.clone();
        }
        match self.resolve() {
            Ok(Resolved::Uci(config)) => EngineName::Command {
                program: config.executable().unwrap_or(config.path),
                args: config.args,
            },
            Ok(Resolved::Builtin) | Err(_) => EngineName::Builtin,
        }
    }

    /// A short name for file and directory names (`stockfish`,
    /// `stockfish-npm`, the program's file stem for a command).
    #[must_use]
    pub fn stem(&self) -> String {
        match self {
            EngineName::Command { program, args } => {
                // `node …/stockfish-19-single.js` is named after its script.
                let named = args
                    .iter()
                    .map(PathBuf::from)
                    .find(|a| a.extension().is_some_and(|e| e == "js"))
                    .unwrap_or_else(|| program.clone());
                named
                    .file_stem()
                    .map_or_else(|| "engine".to_owned(), |s| s.to_string_lossy().into_owned())
            }
            other => other.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_their_text() {
        for text in [
            "auto",
            "builtin",
            "stockfish",
            "ethereal",
            "stockfish-npm",
            "stockfish-npm-lite",
            "stockfish-npm@17.1",
            "stockfish-npm-lite@17.1",
            "stockfish-npm@18",
            "stockfish-npm@19.0.0",
            "/usr/games/stockfish",
            "node /opt/sf/stockfish-19-single.js",
            "node '/opt/my engines/sf.js' --flag",
        ] {
            let name: EngineName = text.parse().unwrap();
            assert_eq!(name.to_string(), text);
            assert_eq!(name.to_string().parse::<EngineName>().unwrap(), name);
        }
    }

    #[test]
    fn a_command_splits_into_program_and_arguments() {
        let name: EngineName = "node '/opt/my engines/sf.js' --x".parse().unwrap();
        assert_eq!(
            name,
            EngineName::Command {
                program: PathBuf::from("node"),
                args: vec!["/opt/my engines/sf.js".to_owned(), "--x".to_owned()],
            }
        );
        assert_eq!(name.stem(), "sf");
        assert_eq!(
            "stockfish-npm".parse::<EngineName>().unwrap().stem(),
            "stockfish-npm"
        );
    }

    #[test]
    fn unreadable_names_are_refused() {
        assert!("".parse::<EngineName>().is_err());
        assert!("  ".parse::<EngineName>().is_err());
        let err = "node 'unclosed".parse::<EngineName>().unwrap_err();
        assert!(err.to_string().contains("quotes"), "{err}");
        for bad in [
            "stockfish-npm@",
            "stockfish-npm@17.x",
            "stockfish-npm@1.2.3.4",
        ] {
            let err = bad.parse::<EngineName>().unwrap_err().to_string();
            assert!(
                err.contains("its version is not one to three numbers separated by dots"),
                "{err}"
            );
        }
    }
}
