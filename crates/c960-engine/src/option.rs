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
}
