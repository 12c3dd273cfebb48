//! A journal's settings as its header line holds them, for the readers
//! that do not know the run's own settings type: the resume check of a
//! journal, `c960 merge` comparing its inputs, and the words that name
//! what differs between two runs.
//!
//! Each top-level field is kept as its value's compact JSON text, by name;
//! two settings are the same when every field's text is. A reader that
//! needs a field's meaning reads it as its own type with
//! [`Settings::field`]. [`Verbatim`] keeps any JSON value as its text, for
//! records that carry a part they do not read forward unchanged.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer, de::DeserializeOwned};

/// A run's settings, field by field: each field's value as compact JSON.
/// Settings that are not an object (a test's plain string, say) are one
/// field without a name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    fields: BTreeMap<String, Verbatim>,
}

/// The name under which settings that are not an object are kept whole.
const WHOLE: &str = "";

impl Settings {
    /// The settings `settings` serializes to (an object of fields).
    pub fn of<S: Serialize>(settings: &S) -> Result<Settings, serde_json::Error> {
        serde_json::from_str(&serde_json::to_string(settings)?)
    }

    /// Whether the settings have the field `name`.
    #[must_use]
    pub fn has(&self, name: &str) -> bool {
        self.fields.contains_key(name)
    }

    /// The field `name` read as a `T`, or `None` when absent.
    pub fn field<T: DeserializeOwned>(&self, name: &str) -> Option<Result<T, serde_json::Error>> {
        self.fields.get(name).map(Verbatim::read)
    }

    /// These settings without the top-level fields `names`.
    #[must_use]
    pub fn without(mut self, names: &[&str]) -> Settings {
        self.fields
            .retain(|name, _| !names.contains(&name.as_str()));
        self
    }

    /// The fields that differ from `ours`, readably, a field inside an
    /// object by its path: `nodes: 5 there, 6 now; sweep.hash: nothing
    /// there, 16 now`.
    #[must_use]
    pub fn differences(&self, ours: &Settings) -> String {
        let mut out = Vec::new();
        self.differing("", ours, &mut out);
        out.join("; ")
    }

    fn differing(&self, prefix: &str, ours: &Settings, out: &mut Vec<String>) {
        let mut keys: Vec<&String> = self.fields.keys().chain(ours.fields.keys()).collect();
        keys.sort();
        keys.dedup();
        for key in keys {
            let (x, y) = (self.fields.get(key), ours.fields.get(key));
            if x == y {
                continue;
            }
            let object = |v: &Verbatim| {
                v.text()
                    .starts_with('{')
                    .then(|| v.read::<Settings>().ok())
                    .flatten()
            };
            if let (Some(a), Some(b)) = (x.and_then(object), y.and_then(object)) {
                a.differing(&format!("{prefix}{key}."), &b, out);
                continue;
            }
            let show = |v: Option<&Verbatim>| v.map_or("nothing", Verbatim::text).to_owned();
            out.push(match key.as_str() {
                WHOLE => format!("{} there, {} now", show(x), show(y)),
                _ => format!("{prefix}{key}: {} there, {} now", show(x), show(y)),
            });
        }
    }
}

/// A JSON value kept as its compact text, its fields in their order: what
/// a record carries forward without reading it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verbatim(String);

impl Verbatim {
    /// The value `value` serializes to.
    pub fn of<T: Serialize>(value: &T) -> Result<Verbatim, serde_json::Error> {
        serde_json::from_str(&serde_json::to_string(value)?)
    }

    /// The value read as a `T`.
    pub fn read<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        serde_json::from_str(&self.0)
    }

    /// The compact text.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.0
    }
}

impl Serialize for Verbatim {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut value = serde_json::Deserializer::from_str(&self.0);
        serde_transcode::Transcoder::new(&mut value).serialize(serializer)
    }
}

/// A value is written out as compact JSON as it is read.
impl<'de> Deserialize<'de> for Verbatim {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Verbatim, D::Error> {
        let mut out = Vec::new();
        serde_transcode::transcode(deserializer, &mut serde_json::Serializer::new(&mut out))
            .map_err(serde::de::Error::custom)?;
        String::from_utf8(out)
            .map(Verbatim)
            .map_err(serde::de::Error::custom)
    }
}

/// Settings serialize as an object of their fields, by name.
impl Serialize for Settings {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.fields.get(WHOLE) {
            Some(whole) => whole.serialize(serializer),
            None => self.fields.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for Settings {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Settings, D::Error> {
        let whole = Verbatim::deserialize(deserializer)?;
        if whole.text().starts_with('{') {
            let fields = whole.read().map_err(serde::de::Error::custom)?;
            Ok(Settings { fields })
        } else if whole.text() == "null" {
            Ok(Settings::default())
        } else {
            Ok(Settings {
                fields: BTreeMap::from([(WHOLE.to_owned(), whole)]),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Run {
        nodes: u64,
        engine: &'static str,
        hash: Option<u32>,
        nested: [f64; 2],
    }

    #[test]
    fn settings_read_back_field_by_field_and_name_what_differs() {
        let ours = Settings::of(&Run {
            nodes: 6,
            engine: "sf",
            hash: Some(16),
            nested: [0.1, 2.0],
        })
        .unwrap();
        let theirs: Settings = serde_json::from_str(
            r#"{ "engine": "sf", "nested": [0.1, 2.0], "nodes": 5, "extra": {"a": 1} }"#,
        )
        .unwrap();
        assert_eq!(
            theirs.differences(&ours),
            "extra: {\"a\":1} there, nothing now; hash: nothing there, 16 now; \
             nodes: 5 there, 6 now"
        );
        assert_ne!(theirs, ours);
        // Layout and field order aside, the same values are the same settings.
        let same: Settings =
            serde_json::from_str(r#"{"nested":[0.1,2.0],"hash":16,"engine":"sf","nodes":6}"#)
                .unwrap();
        assert_eq!(same, ours);
        assert_eq!(same.differences(&ours), "");
        assert_eq!(ours.field::<u64>("nodes").unwrap().unwrap(), 6);
        assert!(ours.field::<u64>("engine").unwrap().is_err());
        assert!(ours.field::<u64>("seed").is_none() && !ours.has("seed"));
        let nested = |text: &str| serde_json::from_str::<Settings>(text).unwrap();
        assert_eq!(
            nested(r#"{"sweep":{"nodes":1,"hash":16},"jobs":2}"#)
                .without(&["jobs"])
                .differences(
                    &nested(r#"{"sweep":{"nodes":2,"hash":16},"jobs":3}"#).without(&["jobs"])
                ),
            "sweep.nodes: 1 there, 2 now"
        );
        let kept: Verbatim = serde_json::from_str(r#"{ "z": 1, "a": [0.5, null] }"#).unwrap();
        assert_eq!(
            serde_json::to_string(&kept).unwrap(),
            r#"{"z":1,"a":[0.5,null]}"#
        );
        assert_eq!(
            kept.read::<Settings>()
                .unwrap()
                .field::<u8>("z")
                .unwrap()
                .unwrap(),
            1
        );
        let again: Settings =
            serde_json::from_str(&serde_json::to_string(&theirs).unwrap()).unwrap();
        assert_eq!(again, theirs);
        let none: Settings = serde_json::from_str("null").unwrap();
        assert_eq!(none, Settings::default());
        // Settings that are not an object are one value.
        let plain = |text: &str| serde_json::from_str::<Settings>(text).unwrap();
        assert_eq!(
            plain("[1, 2]").differences(&plain("\"s\"")),
            "[1,2] there, \"s\" now"
        );
        assert_eq!(serde_json::to_string(&plain("[1, 2]")).unwrap(), "[1,2]");
        assert_eq!(Settings::of(&"s").unwrap(), plain(" \"s\""));
    }
}
