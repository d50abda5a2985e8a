//! The web app (crates/bao-server/web), embedded in the binary: no build step, no files to
//! install next to `bao`.
//!
//! Caching (docs/api.md "Caching"): every file has an ETag (a hash of its content) and
//! answers 304 to a matching `If-None-Match`. Pages link their scripts and styles as
//! `/static/NAME?v=VERSION` and scripts import each other the same way (rewritten when the
//! server starts), so a versioned URL never changes content and is cached for a year
//! (`immutable`); pages and unversioned URLs are revalidated (`no-cache`).

use crate::error::ApiError;
use axum::extract::{Path, Query};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use rust_embed::RustEmbed;
use sha2::{Digest, Sha256};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

#[derive(RustEmbed)]
#[folder = "web/"]
struct Web;

/// The browser engine (crates/bao-wasm for wasm32-unknown-unknown), built by build.rs.
const BAO_WASM: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bao.wasm"));

/// The embedded files whose path (relative to `web/`) starts with `prefix`, with their bytes.
pub(crate) fn embedded(prefix: &str) -> impl Iterator<Item = (String, Vec<u8>)> + '_ {
    Web::iter().filter_map(move |p| {
        if !p.starts_with(prefix) {
            return None;
        }
        Web::get(&p).map(|f| (p.to_string(), f.data.into_owned()))
    })
}

/// `Cache-Control` of versioned URLs.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// One file, ready to send.
struct Asset {
    body: axum::body::Bytes,
    content_type: HeaderValue,
    /// The first 12 hex digits of the SHA-256 of `body`.
    version: String,
}

/// Every embedded file, with versioned links rewritten in.
pub struct Assets {
    files: HashMap<String, Asset>,
}

impl Assets {
    /// Loads every embedded file of `web/static/`; scripts get versioned links to each other.
    /// (Pages are templates: [`crate::web::pages`].)
    pub fn load() -> Assets {
        let mut raw: HashMap<String, (Vec<u8>, String)> = Web::iter()
            .filter(|p| p.starts_with("static/"))
            .filter_map(|p| {
                Web::get(&p).map(|f| {
                    let mime = f.metadata.mimetype().to_string();
                    (p.to_string(), (f.data.into_owned(), mime))
                })
            })
            .collect();
        // The browser engine, built by build.rs from crates/bao-wasm (engine-worker.js loads it).
        raw.insert(
            "static/bao.wasm".into(),
            (BAO_WASM.to_vec(), "application/wasm".into()),
        );
        let mut files = HashMap::new();
        let names: Vec<String> = raw.keys().cloned().collect();
        for p in &names {
            build(p, &raw, &mut files, &mut HashSet::new());
        }
        if let Some(sw) = service_worker(&files) {
            files.insert("sw.js".into(), sw);
        }
        Assets { files }
    }

    /// The version of `static/NAME`, as used in `?v=` (for tests and pages).
    pub fn version(&self, path: &str) -> Option<&str> {
        self.files.get(path).map(|a| a.version.as_str())
    }

    /// `html` with every `"/static/NAME"` link made `"/static/NAME?v=VERSION"`.
    pub fn version_links(&self, html: &str) -> String {
        let mut names: Vec<&String> = self.files.keys().collect();
        // Longer names first, so that `app.js` never rewrites inside `webapp.js`.
        names.sort_by_key(|k| std::cmp::Reverse(k.len()));
        let mut text = html.to_string();
        for path in names {
            let link = format!("\"/{path}\"");
            if text.contains(&link) {
                let v = &self.files[path].version;
                text = text.replace(&link, &format!("\"/{path}?v={v}\""));
            }
        }
        text
    }

    /// The answer for `path`: 200, 304 (If-None-Match) or 404.
    pub fn respond(&self, path: &str, v: Option<&str>, req: &HeaderMap) -> Response {
        let Some(a) = self.files.get(path) else {
            return ApiError::not_found("there is no such file").into_response();
        };
        let etag = format!("\"{}\"", a.version);
        let cache = if path.starts_with("static/") && v == Some(a.version.as_str()) {
            IMMUTABLE
        } else {
            "no-cache"
        };
        let headers = [
            (
                header::ETAG,
                HeaderValue::from_str(&etag).unwrap_or(HeaderValue::from_static("\"\"")),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static(cache)),
        ];
        if etag_matches(req, &etag) {
            return (StatusCode::NOT_MODIFIED, headers).into_response();
        }
        (
            StatusCode::OK,
            headers,
            [(header::CONTENT_TYPE, a.content_type.clone())],
            a.body.clone(),
        )
            .into_response()
    }
}

/// Whether `If-None-Match` names this ETag (weak or strong, or `*`).
pub(crate) fn etag_matches(req: &HeaderMap, etag: &str) -> bool {
    req.get_all(header::IF_NONE_MATCH).iter().any(|v| {
        v.to_str().is_ok_and(|s| {
            s.split(',').any(|t| {
                let t = t.trim();
                t == "*" || t.strip_prefix("W/").unwrap_or(t) == etag
            })
        })
    })
}

pub(crate) fn hash12(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))[..12].to_string()
}

/// Builds `path` (and first the files it links to): versioned links, hash, content type.
fn build(
    path: &str,
    raw: &HashMap<String, (Vec<u8>, String)>,
    done: &mut HashMap<String, Asset>,
    visiting: &mut HashSet<String>,
) {
    if done.contains_key(path) || !visiting.insert(path.to_string()) {
        return;
    }
    let Some((data, mime)) = raw.get(path) else {
        return;
    };
    let mime = mime.clone();
    let is_js = path.ends_with(".js");
    let is_html = path.ends_with(".html");
    let body = match std::str::from_utf8(data) {
        Ok(text) if is_js || is_html => {
            let mut text = text.to_string();
            let mut links: Vec<&String> = raw
                .keys()
                .filter(|k| k.starts_with("static/") && k.as_str() != path)
                .collect();
            // Longer names first, so that `app.js` never rewrites inside `webapp.js`.
            links.sort_by_key(|k| std::cmp::Reverse(k.len()));
            for link in links {
                let name = &link["static/".len()..];
                // Pages link "/static/NAME"; scripts (all in static/) import './NAME'.
                let forms: Vec<String> = if is_html {
                    vec![format!("\"/static/{name}\"")]
                } else if path.starts_with("static/") && !name.contains('/') {
                    vec![format!("'./{name}'"), format!("\"./{name}\"")]
                } else {
                    vec![]
                };
                if !forms.iter().any(|f| text.contains(f.as_str())) {
                    continue;
                }
                build(link, raw, done, visiting);
                let Some(v) = done.get(link.as_str()).map(|a| a.version.clone()) else {
                    continue; // a cycle: that link stays unversioned
                };
                for f in forms {
                    let q = &f[..1];
                    let inner = &f[1..f.len() - 1];
                    text = text.replace(&f, &format!("{q}{inner}?v={v}{q}"));
                }
            }
            text.into_bytes()
        }
        _ => data.clone(),
    };
    let ct = if mime.starts_with("text/") || mime.ends_with("javascript") {
        format!("{mime}; charset=utf-8")
    } else {
        mime
    };
    done.insert(
        path.to_string(),
        Asset {
            version: hash12(&body),
            body: body.into(),
            content_type: HeaderValue::from_str(&ct)
                .unwrap_or_else(|_| HeaderValue::from_static("application/octet-stream")),
        },
    );
    visiting.remove(path);
}

/// The service worker served at `/sw.js` (static/sw.js): its precache list is every
/// versioned static file (`/static/NAME?v=HASH`), its cache name the hash of that list, so
/// that a server with other files is a new service worker (which drops the old cache).
fn service_worker(files: &HashMap<String, Asset>) -> Option<Asset> {
    let sw = std::str::from_utf8(&files.get("static/sw.js")?.body).ok()?;
    let mut urls: Vec<String> = files
        .iter()
        .filter(|(p, _)| p.starts_with("static/") && p.as_str() != "static/sw.js")
        .map(|(p, a)| format!("/{p}?v={}", a.version))
        .collect();
    urls.sort();
    let list = serde_json::to_string(&urls).ok()?;
    let body = sw
        .replace("'__BAO_PRECACHE__'", &list)
        .replace("__BAO_VERSION__", &hash12(list.as_bytes()));
    Some(Asset {
        version: hash12(body.as_bytes()),
        body: body.into(),
        content_type: HeaderValue::from_static("text/javascript; charset=utf-8"),
    })
}

/// The page routes of docs/api.md. Pages answer in the reader's language ([`crate::web::pages`]).
pub fn pages() -> Router {
    let assets = Arc::new(Assets::load());
    // The templates and catalogs are part of the binary: a broken one is a build defect,
    // found by the tests (pages::tests, tests/i18n.rs), not something a server can recover from.
    let rendered = Arc::new(
        crate::web::pages::Pages::load(&assets)
            .unwrap_or_else(|e| panic!("the embedded web app is broken: {e}")),
    );
    let page = |name: &'static str, pages: &Arc<crate::web::pages::Pages>| {
        let pages = pages.clone();
        get(
            move |Query(q): Query<HashMap<String, String>>, h: HeaderMap| async move {
                pages.respond(name, q.get("lang").map(String::as_str), &h)
            },
        )
    };
    let file = |name: &'static str, assets: &Arc<Assets>| {
        let assets = assets.clone();
        get(move |h: HeaderMap| async move { assets.respond(name, None, &h) })
    };
    let rules = rendered.clone();
    let learn = rendered.clone();
    let lessons: Arc<HashSet<(String, String)>> = Arc::new(
        bao_rules::Variant::ALL
            .iter()
            .flat_map(|&v| {
                bao_learn::course(v)
                    .lessons
                    .into_iter()
                    .map(move |l| (v.id().to_string(), l.id))
            })
            .collect(),
    );
    let profiles = rendered.clone();
    let statics = assets.clone();
    Router::new()
        .route("/", page("index", &rendered))
        .route("/g/{id}", page("game", &rendered))
        .route("/replay", page("replay", &rendered))
        // Installable and offline (docs/api.md, "Pages"): the service worker must be served from the
        // root to control every page; the manifest beside it.
        .route("/sw.js", file("sw.js", &assets))
        .route(
            "/manifest.webmanifest",
            file("static/manifest.webmanifest", &assets),
        )
        .route("/puzzles", page("puzzles", &rendered))
        .route("/puzzles/dashboard", page("puzzle-dashboard", &rendered))
        .route("/analysis", page("analysis", &rendered))
        // Jifunze / Learn (docs/learn.md): the course list and one address per lesson, the
        // same page (static/learn.js reads the address); an unknown lesson is a 404.
        .route("/learn", page("learn", &rendered))
        .route(
            "/learn/{variant}/{lesson}",
            get(
                |Path((v, l)): Path<(String, String)>,
                 Query(q): Query<HashMap<String, String>>,
                 h: HeaderMap| async move {
                    if !lessons.contains(&(v, l)) {
                        return ApiError::not_found(
                            "there is no such lesson: /learn lists the lessons of each game",
                        )
                        .into_response();
                    }
                    learn.respond("learn", q.get("lang").map(String::as_str), &h)
                },
            ),
        )
        // Accounts, profiles and the leaderboard (docs/api.md "Pages"): the pages are the same
        // for everyone; their scripts ask the API who is signed in and what to show.
        .route("/account", page("account", &rendered))
        .route("/account/signup", page("account-signup", &rendered))
        .route("/account/login", page("account-login", &rendered))
        .route("/account/recover", page("account-recover", &rendered))
        .route("/leaderboard", page("leaderboard", &rendered))
        // Tournaments (docs/api.md "Tournaments"): the list, the form, and one page per
        // tournament whose script asks the API for it (an unknown id is said on the page).
        .route("/tournaments", page("tournaments", &rendered))
        .route("/tournaments/new", page("tournament-new", &rendered))
        .route("/t/{id}", page("tournament", &rendered))
        // Clubs (docs/api.md "Clubs"): the list with its form, and one page per club whose
        // script asks the API for it.
        .route("/clubs", page("clubs", &rendered))
        .route("/club/{id}", page("club", &rendered))
        // A team match between two clubs (docs/api.md "Team matches").
        .route("/m/{id}", page("team-match", &rendered))
        // Arenas (docs/api.md "Arenas"): the list with its form, and one page per arena.
        .route("/mod", page("mod", &rendered))
        .route("/arenas", page("arenas", &rendered))
        .route("/a/{id}", page("arena", &rendered))
        // The calendar (docs/api.md "Calendar"): the coming arenas in the reader's time.
        .route("/calendar", page("calendar", &rendered))
        .route(
            "/@/{name}",
            get(
                |Path(name): Path<String>,
                 Query(q): Query<HashMap<String, String>>,
                 h: HeaderMap| async move {
                    // Only what can be a name (docs/api.md "Accounts") gets the profile page;
                    // whether that player exists the page asks the API.
                    if !could_be_name(&name) {
                        return ApiError::not_found("there is no player of that name")
                            .into_response();
                    }
                    profiles.respond("profile", q.get("lang").map(String::as_str), &h)
                },
            ),
        )
        .route(
            "/rules/{variant}",
            get(
                |Path(v): Path<String>,
                 Query(q): Query<HashMap<String, String>>,
                 h: HeaderMap| async move {
                    if bao_rules::Variant::from_id(&v).is_none() {
                        return ApiError::not_found(
                            "there are rules for kiswahili, kete and kimasai",
                        )
                        .into_response();
                    }
                    rules.respond(&format!("rules-{v}"), q.get("lang").map(String::as_str), &h)
                },
            ),
        )
        .route(
            "/static/{*path}",
            get(
                |Path(p): Path<String>,
                 Query(q): Query<HashMap<String, String>>,
                 h: HeaderMap| async move {
                    statics.respond(&format!("static/{p}"), q.get("v").map(String::as_str), &h)
                },
            ),
        )
}

/// Whether `name` has the shape of an account name (docs/api.md "Accounts": 3 to 20 of
/// `A-Z a-z 0-9 _ -`); the profile page is served only for those.
fn could_be_name(name: &str) -> bool {
    (3..=20).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_addresses_are_names() {
        assert!(could_be_name("Asha"));
        assert!(could_be_name("a_b-9"));
        assert!(!could_be_name("ab"));
        assert!(!could_be_name(&"a".repeat(21)));
        assert!(!could_be_name("As ha"));
        assert!(!could_be_name("<script>"));
    }

    #[test]
    fn pages_and_scripts_link_versioned_files() {
        let a = Assets::load();
        let pages = crate::web::pages::Pages::load(&a).unwrap();
        let game = pages.html("game", crate::web::i18n::Lang::En).unwrap();
        let v = a.version("static/game.js").unwrap();
        assert!(
            game.contains(&format!("\"/static/game.js?v={v}\"")),
            "{game}"
        );
        let css = a.version("static/style.css").unwrap();
        assert!(game.contains(&format!("\"/static/style.css?v={css}\"")));
        // Every script imports app.js by the same versioned URL (one module instance).
        let app = a.version("static/app.js").unwrap();
        for s in ["static/game.js", "static/board.js", "static/home.js"] {
            let t = std::str::from_utf8(&a.files[s].body).unwrap();
            assert!(t.contains(&format!("'./app.js?v={app}'")), "{s}");
            assert!(!t.contains("'./app.js'"), "{s}");
        }
        // The version is the hash of what is sent.
        let body = &a.files["static/game.js"].body;
        assert_eq!(hash12(body), a.version("static/game.js").unwrap());
    }

    #[test]
    fn the_browser_engine_and_service_worker_are_served_versioned() {
        let a = Assets::load();
        let text = |p: &str| std::str::from_utf8(&a.files[p].body).unwrap().to_string();
        // build.rs embedded a WebAssembly module exporting the ABI of crates/bao-wasm.
        let wasm = &a.files["static/bao.wasm"];
        assert_eq!(&wasm.body[..4], b"\0asm");
        assert_eq!(wasm.content_type, "application/wasm");
        let wv = a.version("static/bao.wasm").unwrap();
        assert!(text("static/engine-worker.js").contains(&format!("'./bao.wasm?v={wv}'")));
        // The service worker precaches every versioned static file, the wasm and itself excepted.
        let sw = text("sw.js");
        assert!(!sw.contains("__BAO_"), "placeholders left: {sw}");
        for p in [
            "static/bao.wasm",
            "static/engine-worker.js",
            "static/game.js",
            "static/style.css",
        ] {
            let v = a.version(p).unwrap();
            assert!(
                sw.contains(&format!("\"/{p}?v={v}\"")),
                "{p} is not precached"
            );
        }
        assert!(!sw.contains("/static/sw.js?v="));
    }

    #[test]
    fn if_none_match_forms() {
        let mut h = HeaderMap::new();
        h.insert(header::IF_NONE_MATCH, "W/\"abc\", \"def\"".parse().unwrap());
        assert!(etag_matches(&h, "\"abc\""));
        assert!(etag_matches(&h, "\"def\""));
        assert!(!etag_matches(&h, "\"ab\""));
        assert!(!etag_matches(&HeaderMap::new(), "\"abc\""));
    }
}
