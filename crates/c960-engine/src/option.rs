//! A UCI option as the user gives it, `NAME=VALUE`: parsed once where it
//! enters (a flag, a settings file), printed back as the same text in every
//! record.

use std::{fmt, str::FromStr};

use serde::{Deserialize, Serialize};

/// One UCI option: its name and the value to set.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct UciOption {
    /// The option's name, as the engine declares it (`Hash`, `MultiPV`).
    pub name: String,
    /// The value to set.
    pub value: String,
}

/// Text that is not `NAME=VALUE`.
#[derive(Debug, thiserror::Error)]
#[error("option {0:?} is not NAME=VALUE")]
pub struct UciOptionError(String);

impl FromStr for UciOption {
    type Err = UciOptionError;

    fn from_str(text: &str) -> Result<UciOption, UciOptionError> {
        match text.split_once('=') {
            Some((name, value)) if !name.trim().is_empty() => Ok(UciOption {
                name: name.trim().to_owned(),
                value: value.trim().to_owned(),
            }),
            _ => Err(UciOptionError(text.to_owned())),
        }
    }
}

impl TryFrom<String> for UciOption {
    type Error = UciOptionError;

    fn try_from(text: String) -> Result<UciOption, UciOptionError> {
        text.parse()
    }
}

impl From<UciOption> for String {
    fn from(option: UciOption) -> String {
        option.to_string()
    }
}

impl fmt::Display for UciOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.name, self.value)
    }
}

/// The options c960 sets itself, with the flag that sets each: given as
/// `--option` they would change the searches while the records name the
/// flag's value (`Hash=16` beside `--hash 64`), or break what every run
/// assumes (`UCI_Chess960=false`).
pub const SET_BY_C960: [(&str, &str); 4] = [
    (
        "UCI_Chess960",
        "c960 always sets it to true: every start position is Chess960",
    ),
    ("Hash", "give it with --hash"),
    ("Threads", "give it with --threads"),
    (
        "UCI_ShowWDL",
        "c960 sets it to true whenever the engine offers it",
    ),
];

/// Refuses user options that name an option c960 sets itself
/// ([`SET_BY_C960`]; UCI option names are compared without case) or one
/// option twice.
///
/// # Errors
/// The option and what to do instead, in one line.
pub fn check_user_options(options: &[UciOption]) -> Result<(), String> {
    for (i, option) in options.iter().enumerate() {
        if let Some((name, why)) = SET_BY_C960
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(&option.name))
        {
            return Err(format!("--option {option}: c960 sets {name} itself; {why}"));
        }
        if let Some(earlier) = options[..i]
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(&option.name))
        {
            return Err(format!(
                "--option {option} and --option {earlier} set one option twice; give it once"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_from_and_print_as_name_equals_value() {
        let option: UciOption = " Hash = 64".parse().unwrap();
        assert_eq!(
            (option.name.as_str(), option.value.as_str()),
            ("Hash", "64")
        );
        assert_eq!(option.to_string(), "Hash=64");
        let empty: UciOption = "UCI_Elo=".parse().unwrap();
        assert_eq!(empty.value, "");
        for bad in ["Hash", "=64", " = 1", ""] {
            let err = bad.parse::<UciOption>().unwrap_err();
            assert!(err.to_string().contains("NAME=VALUE"), "{bad:?}: {err}");
        }
        let json = serde_json::to_string(&option).unwrap();
        assert_eq!(json, "\"Hash=64\"");
        assert_eq!(serde_json::from_str::<UciOption>(&json).unwrap(), option);
    }

    #[test]
    fn options_c960_sets_itself_or_given_twice_are_refused() {
        let options = |texts: &[&str]| -> Vec<UciOption> {
            texts.iter().map(|t| t.parse().unwrap()).collect()
        };
        check_user_options(&options(&["Contempt=0", "SyzygyPath=/tb"])).unwrap();
        let chess960 = check_user_options(&options(&["UCI_Chess960=false"])).unwrap_err();
        assert!(chess960.contains("always sets it to true"), "{chess960}");
        let hash = check_user_options(&options(&["hash=16"])).unwrap_err();
        assert_eq!(
            hash,
            "--option hash=16: c960 sets Hash itself; give it with --hash"
        );
        let twice = check_user_options(&options(&["Contempt=0", "contempt=5"])).unwrap_err();
        assert!(twice.contains("set one option twice"), "{twice}");
    }
}
