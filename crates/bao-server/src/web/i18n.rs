//! Languages of the web app (docs/i18n.md): English and Swahili message catalogs and the choice
//! of a language for each request. How to add text: docs/i18n.md.
//!
//! Catalogs are the files `web/i18n/LANG/AREA.json`, each one flat JSON object whose keys
//! all start with `AREA.` (`"play.clock_out": "Time is up"`). The server merges the files of
//! one language when it starts; a key found in two files is an error (two helpers must never
//! own the same key). Keys starting with `_` (`"_about"`) are comments and are skipped.

use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;

/// A language the web app speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    /// English.
    En,
    /// Swahili (Kiswahili).
    Sw,
}

impl Lang {
    /// Every language, English (the fallback) first.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Sw];

    /// The BCP 47 code: `en` or `sw`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Sw => "sw",
        }
    }

    /// `en` or `sw` (any case; a region such as `sw-TZ` is accepted).
    pub fn from_code(code: &str) -> Option<Lang> {
        let primary = code.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "sw" => Some(Lang::Sw),
            _ => None,
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The cookie that remembers a reader's language.
pub const COOKIE: &str = "bao_lang";

/// Why the catalogs could not be loaded.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum I18nError {
    /// A file that is not valid JSON.
    #[error("message catalog {file}: not valid JSON: {error}")]
    Json {
        /// The file.
        file: String,
        /// The parser's message.
        error: String,
    },
    /// A file that is JSON but not one object of strings.
    #[error("message catalog {file}: {what}")]
    Shape {
        /// The file.
        file: String,
        /// What is wrong.
        what: String,
    },
    /// A file outside `LANG/AREA.json` or for a language we do not have.
    #[error("message catalog {file}: expected web/i18n/en/AREA.json or web/i18n/sw/AREA.json")]
    Path {
        /// The file.
        file: String,
    },
    /// The same key in two files of one language.
    #[error("message key {key:?} is in both {first} and {second}")]
    Duplicate {
        /// The key.
        key: String,
        /// The file read first.
        first: String,
        /// The other file.
        second: String,
    },
}

/// The merged catalogs of every language.
#[derive(Debug, Default, Clone)]
pub struct Catalogs {
    messages: BTreeMap<Lang, BTreeMap<String, String>>,
}

impl Catalogs {
    /// The catalogs embedded in the binary (`web/i18n/`).
    pub fn load() -> Result<Catalogs, I18nError> {
        let files = crate::web::assets::embedded("i18n/").filter_map(|(path, data)| {
            let rel = path.strip_prefix("i18n/")?.to_string();
            rel.ends_with(".json").then_some((rel, data))
        });
        Catalogs::from_files(files)
    }

    /// Merges files named `LANG/AREA.json` (relative to `web/i18n/`).
    pub fn from_files(
        files: impl IntoIterator<Item = (String, Vec<u8>)>,
    ) -> Result<Catalogs, I18nError> {
        let mut files: Vec<(String, Vec<u8>)> = files.into_iter().collect();
        // A fixed order, so that the error for a duplicate names the same files every time.
        files.sort();
        let mut out = Catalogs::default();
        let mut origin: BTreeMap<(Lang, String), String> = BTreeMap::new();
        for (file, data) in files {
            let path_err = || I18nError::Path { file: file.clone() };
            let (dir, name) = file.split_once('/').ok_or_else(path_err)?;
            let lang = Lang::from_code(dir)
                .filter(|l| l.code() == dir)
                .ok_or_else(path_err)?;
            let area = name
                .strip_suffix(".json")
                .filter(|a| !a.is_empty() && !a.contains('/'))
                .ok_or_else(path_err)?;
            let value: Value = serde_json::from_slice(&data).map_err(|e| I18nError::Json {
                file: file.clone(),
                error: e.to_string(),
            })?;
            if !value.is_object() {
                return Err(I18nError::Shape {
                    file,
                    what: "must be one JSON object".into(),
                });
            }
            // Again as a list of pairs: a JSON object keeps only the last of two equal keys,
            // and a key written twice in one file is as wrong as one in two files.
            let Entries(map) = serde_json::from_slice(&data).map_err(|e| I18nError::Json {
                file: file.clone(),
                error: e.to_string(),
            })?;
            let prefix = format!("{area}.");
            for (key, text) in map {
                if key.starts_with('_') {
                    continue; // a comment such as "_about"
                }
                let Value::String(text) = text else {
                    return Err(I18nError::Shape {
                        file,
                        what: format!("the value of {key:?} must be a string"),
                    });
                };
                if !key.starts_with(&prefix) || key.len() == prefix.len() {
                    return Err(I18nError::Shape {
                        file,
                        what: format!("key {key:?} must start with {prefix:?}"),
                    });
                }
                if let Some(first) = origin.get(&(lang, key.clone())) {
                    return Err(I18nError::Duplicate {
                        key,
                        first: first.clone(),
                        second: file,
                    });
                }
                origin.insert((lang, key.clone()), file.clone());
                out.messages.entry(lang).or_default().insert(key, text);
            }
        }
        Ok(out)
    }

    /// The text of `key` in `lang`, if the catalog has it.
    pub fn get(&self, lang: Lang, key: &str) -> Option<&str> {
        self.messages.get(&lang)?.get(key).map(String::as_str)
    }

    /// Every message of `lang`, by key.
    pub fn messages(&self, lang: Lang) -> impl Iterator<Item = (&str, &str)> {
        self.messages
            .get(&lang)
            .into_iter()
            .flatten()
            .map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

/// The members of a JSON object in file order, duplicates kept.
struct Entries(Vec<(String, Value)>);

impl<'de> serde::Deserialize<'de> for Entries {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Entries;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<Entries, A::Error> {
                let mut out = Vec::new();
                while let Some(kv) = m.next_entry::<String, Value>()? {
                    out.push(kv);
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// `{name}` in `text` replaced by `params[name]`; an unknown `{name}` is left as it is.
pub fn format(text: &str, params: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close)
                if close > 0
                    && after[..close]
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                let name = &after[..close];
                match params(name) {
                    Some(v) => out.push_str(&v),
                    None => out.push_str(&rest[open..open + close + 2]),
                }
                rest = &after[close + 1..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The language for a request: `?lang=` first, then the `bao_lang` cookie, then the
/// best-liked language of `Accept-Language` that we have (q-values; `q=0` means "not this"),
/// else English.
pub fn choose(query: Option<&str>, cookie: Option<&str>, accept_language: Option<&str>) -> Lang {
    query
        .and_then(Lang::from_code)
        .or_else(|| cookie.and_then(Lang::from_code))
        .or_else(|| accept_language.and_then(from_accept_language))
        .unwrap_or(Lang::En)
}

/// The value of cookie `name` in a `Cookie` header (`a=1; bao_lang=sw`).
pub fn cookie_value<'a>(header: &'a str, name: &str) -> Option<&'a str> {
    header.split(';').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        (k.trim() == name).then(|| v.trim().trim_matches('"'))
    })
}

/// The language we have that `Accept-Language` likes best (RFC 9110 12.5.4).
pub fn from_accept_language(header: &str) -> Option<Lang> {
    let mut best: Option<(f32, usize, Lang)> = None;
    for (i, item) in header.split(',').enumerate() {
        let mut parts = item.split(';');
        let tag = parts.next().unwrap_or("").trim();
        let mut q = 1.0f32;
        for p in parts {
            if let Some(v) = p.trim().strip_prefix("q=") {
                q = v.trim().parse().unwrap_or(0.0);
            }
        }
        if q <= 0.0 {
            continue;
        }
        let Some(lang) = Lang::from_code(tag) else {
            continue;
        };
        // Higher q wins; among equal q the one listed first.
        if best.is_none_or(|(bq, bi, _)| q > bq || (q == bq && i < bi)) {
            best = Some((q, i, lang));
        }
    }
    best.map(|(_, _, l)| l)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(list: &[(&str, &str)]) -> Vec<(String, Vec<u8>)> {
        list.iter()
            .map(|(p, t)| (p.to_string(), t.as_bytes().to_vec()))
            .collect()
    }

    #[test]
    fn language_choice_order() {
        assert_eq!(choose(Some("sw"), Some("en"), Some("en")), Lang::Sw);
        assert_eq!(choose(Some("fr"), Some("sw"), Some("en")), Lang::Sw);
        assert_eq!(choose(None, Some("en"), Some("sw")), Lang::En);
        assert_eq!(choose(None, None, Some("sw-TZ, en;q=0.5")), Lang::Sw);
        assert_eq!(choose(None, None, Some("en-GB,sw;q=0.9")), Lang::En);
        assert_eq!(choose(None, None, Some("en;q=0.3, sw;q=0.8")), Lang::Sw);
        assert_eq!(choose(None, None, Some("fr, de;q=0.5")), Lang::En);
        assert_eq!(choose(None, None, Some("sw;q=0, en;q=0.1")), Lang::En);
        assert_eq!(choose(None, None, Some("fr, sw;q=0.2")), Lang::Sw);
        assert_eq!(choose(None, None, None), Lang::En);
        assert_eq!(choose(None, None, Some("garbage;;q=x")), Lang::En);
    }

    #[test]
    fn cookie_parsing() {
        assert_eq!(cookie_value("a=1; bao_lang=sw", COOKIE), Some("sw"));
        assert_eq!(cookie_value("bao_lang=en;x=2", COOKIE), Some("en"));
        assert_eq!(cookie_value("xbao_lang=sw", COOKIE), None);
    }

    #[test]
    fn merges_and_refuses_duplicates() {
        let c = Catalogs::from_files(files(&[
            ("en/a.json", r#"{"_about":"x","a.one":"One {n}"}"#),
            ("en/b.json", r#"{"b.two":"Two"}"#),
            ("sw/a.json", r#"{"a.one":"Moja {n}"}"#),
        ]))
        .unwrap();
        assert_eq!(c.get(Lang::En, "a.one"), Some("One {n}"));
        assert_eq!(c.get(Lang::En, "b.two"), Some("Two"));
        assert_eq!(c.get(Lang::Sw, "a.one"), Some("Moja {n}"));
        assert_eq!(c.get(Lang::En, "_about"), None);

        let dup = Catalogs::from_files(files(&[
            ("en/a.json", r#"{"a.x":"1"}"#),
            ("en/b.json", r#"{"a.x":"2"}"#),
        ]));
        // b.json may not hold a key of area a at all; that is the first error found.
        assert!(matches!(dup, Err(I18nError::Shape { .. })), "{dup:?}");
        let bad = Catalogs::from_files(files(&[("fr/a.json", r#"{"a.x":"1"}"#)]));
        assert!(matches!(bad, Err(I18nError::Path { .. })));
        let bad = Catalogs::from_files(files(&[("en/a.json", r#"{"a.x":1}"#)]));
        assert!(matches!(bad, Err(I18nError::Shape { .. })));
        let bad = Catalogs::from_files(files(&[("en/a.json", r#"["a"]"#)]));
        assert!(matches!(bad, Err(I18nError::Shape { .. })));
        let bad = Catalogs::from_files(files(&[("en/a.json", r#"{"a.x":"#)]));
        assert!(matches!(bad, Err(I18nError::Json { .. })));
    }

    #[test]
    fn duplicate_key_in_one_language_is_an_error() {
        let dup = Catalogs::from_files(files(&[(
            "en/a.json",
            r#"{"a.x":"1","a.y":"2","a.x":"3"}"#,
        )]));
        assert_eq!(
            dup.unwrap_err(),
            I18nError::Duplicate {
                key: "a.x".into(),
                first: "en/a.json".into(),
                second: "en/a.json".into()
            }
        );
        // The same key in both languages is what we want, not a duplicate.
        let ok = Catalogs::from_files(files(&[
            ("en/a.json", r#"{"a.x":"1"}"#),
            ("sw/a.json", r#"{"a.x":"1"}"#),
        ]));
        assert!(ok.is_ok());
    }

    #[test]
    fn formats_params() {
        let p = |n: &str| (n == "name").then(|| "Asha".to_string());
        assert_eq!(format("Hi {name}!", &p), "Hi Asha!");
        assert_eq!(format("{other} {name}", &p), "{other} Asha");
        assert_eq!(format("a { b } {}", &p), "a { b } {}");
        assert_eq!(format("{name", &p), "{name");
    }
}
