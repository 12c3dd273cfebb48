//! Reading a manifest's fields by name, with the one-line error that names
//! a field of the wrong type or a missing one the run's kind needs.

use serde_json::{Map, Value};

use super::{EngineRecord, FailedUnit, ManifestError, Variant};

/// The fields of one JSON object, read by name; `prefix` names the object
/// in errors (`engine.`).
pub(super) struct Fields<'a> {
    pub(super) map: &'a Map<String, Value>,
    pub(super) prefix: String,
}

impl Fields<'_> {
    pub(super) fn wrong(&self, field: &str, expected: &'static str) -> ManifestError {
        ManifestError::Field {
            field: format!("{}{field}", self.prefix),
            expected,
        }
    }

    /// A field that may be missing (or null).
    pub(super) fn present(&self, field: &str) -> Option<&Value> {
        self.map.get(field).filter(|v| !v.is_null())
    }

    pub(super) fn text(&self, field: &str) -> Result<Option<String>, ManifestError> {
        match self.present(field) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(self.wrong(field, "a string")),
        }
    }

    /// A string the run is labelled by: present and not empty.
    pub(super) fn required_text(&self, field: &str) -> Result<String, ManifestError> {
        match self.present(field) {
            Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
            _ => Err(self.wrong(field, "a non-empty string")),
        }
    }

    pub(super) fn number<T: TryFrom<u64>>(&self, field: &str) -> Result<Option<T>, ManifestError> {
        match self.present(field) {
            None => Ok(None),
            Some(v) => v
                .as_u64()
                .and_then(|n| T::try_from(n).ok())
                .map(Some)
                .ok_or_else(|| self.wrong(field, "a whole number")),
        }
    }

    pub(super) fn list(
        &self,
        field: &str,
        expected: &'static str,
    ) -> Result<&[Value], ManifestError> {
        match self.present(field) {
            None => Ok(&[]),
            Some(Value::Array(items)) => Ok(items),
            Some(_) => Err(self.wrong(field, expected)),
        }
    }

    pub(super) fn texts(&self, field: &str) -> Result<Vec<String>, ManifestError> {
        self.list(field, "a list of strings")?
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| self.wrong(field, "a list of strings"))
            })
            .collect()
    }
}

/// The engine object at `field` (a sweep's `engine`, or an entry of a
/// self-play run's `engines`, then named `engines[]`).
pub(super) fn engine(
    parent: &Map<String, Value>,
    field: &str,
) -> Result<EngineRecord, ManifestError> {
    let empty = Map::new();
    let map = match parent.get(field) {
        Some(Value::Object(map)) => map,
        _ => &empty,
    };
    engine_of(map, field)
}

fn engine_of(map: &Map<String, Value>, name: &str) -> Result<EngineRecord, ManifestError> {
    let fields = Fields {
        map,
        prefix: format!("{name}."),
    };
    let options = fields
        .list("options", "a list of [name, value] pairs")?
        .iter()
        .map(|pair| match pair.as_array().map(Vec::as_slice) {
            Some([Value::String(k), Value::String(v)]) => Ok((k.clone(), v.clone())),
            _ => Err(fields.wrong("options", "a list of [name, value] pairs")),
        })
        .collect::<Result<_, _>>()?;
    Ok(EngineRecord {
        name: fields.required_text("name")?,
        author: fields.text("author")?,
        path: fields.text("path")?,
        options,
    })
}

/// A self-play run's `engines`: one or two.
pub(super) fn engine_list(map: &Map<String, Value>) -> Result<Vec<EngineRecord>, ManifestError> {
    let list = match map.get("engines") {
        Some(Value::Array(list)) if !list.is_empty() => list,
        _ => {
            return Err(ManifestError::Field {
                field: "engines".to_owned(),
                expected: "a list of engines",
            });
        }
    };
    let empty = Map::new();
    list.iter()
        .map(|e| engine_of(e.as_object().unwrap_or(&empty), "engines[]"))
        .collect()
}

/// The `failed` list: `{sp, reason}` per position, `{sp, game, reason}`
/// per game.
pub(super) fn failed(
    map: &Map<String, Value>,
    variant: Variant,
) -> Result<Vec<FailedUnit>, ManifestError> {
    let top = Fields {
        map,
        prefix: String::new(),
    };
    let empty = Map::new();
    top.list("failed", "a list")?
        .iter()
        .enumerate()
        .map(|(k, entry)| {
            let fields = Fields {
                map: entry.as_object().unwrap_or(&empty),
                prefix: format!("failed[{k}]."),
            };
            let sp = match variant {
                Variant::Chess960 => fields
                    .number::<u32>("sp")?
                    .filter(|sp| *sp < 960)
                    .ok_or_else(|| fields.wrong("sp", "a start position number (0 to 959)"))?,
                Variant::Dfrc => fields
                    .number::<u32>("sp")?
                    .filter(|n| *n < c960_core::DFRC_COUNT)
                    .ok_or_else(|| fields.wrong("sp", "a DFRC setup index (0 to 921599)"))?,
            };
            Ok(FailedUnit {
                sp,
                game: fields.number("game")?,
                reason: fields.text("reason")?,
            })
        })
        .collect()
}
