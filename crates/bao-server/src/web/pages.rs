//! The pages of the web app: minijinja templates (`web/templates/`) rendered in each language.
//!
//! Every template that does not start with `_` and is not `base.html` is a page, named by
//! its file stem (`game.html` is page `game`). Pages extend `base.html`, which holds the
//! shared head, header, navigation, language switcher and footer once. Text comes from the
//! catalogs ([`crate::web::i18n`]) through the template function `t("area.key", name=value)`.
//!
//! Pages depend only on the language, so each is rendered once per language when the server
//! starts (the same output as rendering per request, without the cost). The ETag is the hash
//! of the rendered body; `"/static/NAME"` links get `?v=VERSION` as before (docs/api.md).
//! Each page carries its language's catalog inline for the scripts (static/i18n.js), so the
//! scripts need no extra request; keys of the `rules` area (long texts of the rules pages,
//! used only in templates) are left out of it.

use crate::web::assets::{etag_matches, hash12, Assets};
use crate::web::i18n::{self, Catalogs, Lang};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use minijinja::value::Kwargs;
use minijinja::{Environment, Error, ErrorKind, HtmlEscape, State, Value};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Why the pages could not be built.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// The catalogs are broken.
    #[error("{0}")]
    Catalog(#[from] i18n::I18nError),
    /// A template is broken or asks for a message that is not in a catalog.
    #[error("page {page} ({lang}): {error:#}")]
    Template {
        /// The page.
        page: String,
        /// The language being rendered.
        lang: Lang,
        /// minijinja's error.
        error: Error,
    },
}

/// One rendered page.
struct Rendered {
    body: axum::body::Bytes,
    etag: String,
}

/// Every page in every language, ready to send.
pub struct Pages {
    rendered: HashMap<(String, Lang), Rendered>,
}

/// Catalog areas that stay out of the inline catalog for scripts (templates only). The learn
/// area holds the lesson texts of bao-learn (18 KB a language): kept out of every page until
/// a Learn page asks for them.
const TEMPLATE_ONLY_AREAS: &[&str] = &["rules.", "learn."];

impl Pages {
    /// Renders the embedded templates with the embedded catalogs.
    pub fn load(assets: &Assets) -> Result<Pages, PageError> {
        let catalogs = Arc::new(Catalogs::load()?);
        let templates: BTreeMap<String, String> = crate::web::assets::embedded("templates/")
            .filter_map(|(p, data)| {
                let name = p.strip_prefix("templates/")?.to_string();
                Some((name, String::from_utf8_lossy(&data).into_owned()))
            })
            .collect();
        Pages::render(&templates, catalogs, assets)
    }

    /// Renders `templates` (name → source) in every language.
    pub fn render(
        templates: &BTreeMap<String, String>,
        catalogs: Arc<Catalogs>,
        assets: &Assets,
    ) -> Result<Pages, PageError> {
        let env = environment(templates, catalogs.clone());
        let mut rendered = HashMap::new();
        for name in templates.keys() {
            let Some(page) = page_name(name) else {
                continue;
            };
            for lang in Lang::ALL {
                let err = |error| PageError::Template {
                    page: page.to_string(),
                    lang,
                    error,
                };
                let template = env.get_template(name).map_err(err)?;
                let ctx = minijinja::context! {
                    lang => lang.code(),
                    page => page,
                    catalog_json => Value::from_safe_string(script_catalog(&catalogs, lang)),
                };
                let html = template.render(ctx).map_err(err)?;
                let body = assets.version_links(&html);
                let etag = format!("\"{}\"", hash12(body.as_bytes()));
                rendered.insert(
                    (page.to_string(), lang),
                    Rendered {
                        body: body.into(),
                        etag,
                    },
                );
            }
        }
        Ok(Pages { rendered })
    }

    /// The rendered HTML of `page` in `lang` (for tests).
    pub fn html(&self, page: &str, lang: Lang) -> Option<&str> {
        let r = self.rendered.get(&(page.to_string(), lang))?;
        std::str::from_utf8(&r.body).ok()
    }

    /// The names of all pages.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        let mut names: Vec<&str> = self.rendered.keys().map(|(p, _)| p.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        names.into_iter()
    }

    /// The answer for `page`: in the language of the request ([`i18n::choose`]), 200 or 304.
    /// A valid `?lang=` is remembered in the `bao_lang` cookie.
    pub fn respond(&self, page: &str, query_lang: Option<&str>, req: &HeaderMap) -> Response {
        let query_lang = query_lang.and_then(Lang::from_code);
        let cookie = req
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find_map(|c| i18n::cookie_value(c, i18n::COOKIE));
        let accept = req
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok());
        let lang = i18n::choose(query_lang.map(Lang::code), cookie, accept);
        let Some(r) = self.rendered.get(&(page.to_string(), lang)) else {
            return crate::error::ApiError::not_found("there is no such page").into_response();
        };
        let mut headers = HeaderMap::new();
        if let Ok(v) = HeaderValue::from_str(&r.etag) {
            headers.insert(header::ETAG, v);
        }
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        headers.insert(
            header::VARY,
            HeaderValue::from_static("Accept-Language, Cookie"),
        );
        headers.insert(
            header::CONTENT_LANGUAGE,
            HeaderValue::from_static(lang.code()),
        );
        if let Some(l) = query_lang {
            let cookie = format!(
                "{}={}; Path=/; Max-Age=31536000; SameSite=Lax",
                i18n::COOKIE,
                l.code()
            );
            if let Ok(v) = HeaderValue::from_str(&cookie) {
                headers.insert(header::SET_COOKIE, v);
            }
        }
        if etag_matches(req, &r.etag) {
            return (StatusCode::NOT_MODIFIED, headers).into_response();
        }
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        );
        (StatusCode::OK, headers, r.body.clone()).into_response()
    }
}

/// The page a template file is, if it is one.
fn page_name(template: &str) -> Option<&str> {
    let stem = template.strip_suffix(".html")?;
    (!stem.starts_with('_') && stem != "base" && !stem.contains('/')).then_some(stem)
}

/// `{"lang": "sw", "messages": {...}}` for static/i18n.js, safe inside `<script>`.
fn script_catalog(catalogs: &Catalogs, lang: Lang) -> String {
    let messages: BTreeMap<&str, &str> = catalogs
        .messages(lang)
        .filter(|(k, _)| !TEMPLATE_ONLY_AREAS.iter().any(|a| k.starts_with(a)))
        .collect();
    let json = serde_json::json!({ "lang": lang.code(), "messages": messages }).to_string();
    // `<` escaped as JSON's \u003c, so no text can close the script element early.
    json.replace('<', "\\u003c")
}

/// The template environment: templates, autoescaping and `t()`.
fn environment(
    templates: &BTreeMap<String, String>,
    catalogs: Arc<Catalogs>,
) -> Environment<'static> {
    let mut env = Environment::new();
    let sources = templates.clone();
    env.set_loader(move |name| Ok(sources.get(name).cloned()));
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
    // t("area.key", name=value): the message in the page's language, with {name} filled in
    // (escaped). Catalog text is ours and may hold markup such as <span lang="sw">.
    env.add_function(
        "t",
        move |state: &State, key: &str, kwargs: Kwargs| -> Result<Value, Error> {
            let lang = state
                .lookup("lang")
                .and_then(|v| v.as_str().and_then(Lang::from_code))
                .unwrap_or(Lang::En);
            let text = catalogs.get(lang, key).ok_or_else(|| {
                Error::new(
                    ErrorKind::InvalidOperation,
                    format!("there is no message {key:?} in the {lang} catalog"),
                )
            })?;
            let out = i18n::format(text, &|name| {
                kwargs
                    .get::<Option<Value>>(name)
                    .ok()
                    .flatten()
                    .map(|v| HtmlEscape(&v.to_string()).to_string())
            });
            Ok(Value::from_safe_string(out))
        },
    );
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalogs(list: &[(&str, &str)]) -> Arc<Catalogs> {
        Arc::new(
            Catalogs::from_files(
                list.iter()
                    .map(|(p, t)| (p.to_string(), t.as_bytes().to_vec())),
            )
            .unwrap(),
        )
    }

    fn templates(list: &[(&str, &str)]) -> BTreeMap<String, String> {
        list.iter()
            .map(|(n, s)| (n.to_string(), s.to_string()))
            .collect()
    }

    #[test]
    fn renders_each_language_with_params_escaped() {
        let c = catalogs(&[
            ("en/a.json", r#"{"a.hi":"Hello <b>{name}</b>"}"#),
            ("sw/a.json", r#"{"a.hi":"Habari <b>{name}</b>"}"#),
        ]);
        let t = templates(&[
            ("base.html", "<html lang=\"{{ lang }}\">{% block main %}{% endblock %}</html>"),
            (
                "x.html",
                "{% extends \"base.html\" %}{% block main %}{{ t(\"a.hi\", name=\"<Asha>\") }}{% endblock %}",
            ),
        ]);
        let p = Pages::render(&t, c, &Assets::load()).unwrap();
        assert_eq!(
            p.html("x", Lang::En).unwrap(),
            "<html lang=\"en\">Hello <b>&lt;Asha&gt;</b></html>"
        );
        assert_eq!(
            p.html("x", Lang::Sw).unwrap(),
            "<html lang=\"sw\">Habari <b>&lt;Asha&gt;</b></html>"
        );
        assert!(p.html("base", Lang::En).is_none());
    }

    #[test]
    fn a_missing_message_is_an_error() {
        let c = catalogs(&[("en/a.json", r#"{"a.hi":"Hello"}"#), ("sw/a.json", "{}")]);
        let t = templates(&[("x.html", "{{ t(\"a.hi\") }}")]);
        let e = Pages::render(&t, c, &Assets::load()).err().unwrap();
        assert!(e.to_string().contains("a.hi"), "{e}");
        assert!(e.to_string().contains("sw"), "{e}");
    }

    #[test]
    fn inline_catalog_cannot_close_the_script() {
        let c = catalogs(&[("en/a.json", r#"{"a.x":"</script><b>"}"#)]);
        let j = script_catalog(&c, Lang::En);
        assert!(!j.contains('<'), "{j}");
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(v["messages"]["a.x"], "</script><b>");
        assert_eq!(v["lang"], "en");
    }
}
