//! Puzzles (docs/api.md, "Puzzles"): the puzzles mined by `bao puzzles
//! mine` (bao-engine's `puzzle` module) are embedded from `data/puzzles/VARIANT.json`, those
//! mined from the site's own finished games ([`site`]) follow them; all are served by
//! `GET /api/puzzles?variant=V` and `GET /api/puzzles/{id}` from the [`Live`] catalogue, and
//! each move a player tries is checked against the solution line by the rules crate
//! (`POST /api/puzzles/{id}/check`).

use crate::edge::body::Json as JsonBody;
use crate::error::{ApiError, ApiResult};
use axum::extract::{Path, Query};
use axum::routing::{get, post};
use axum::Extension;
use axum::{Json, Router};
use bao_engine::puzzle::Goal;
use bao_engine::theme::Theme;
use bao_rules::{find_move, legal_moves, trace, Move, Outcome, Position, Rules, Variant};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;

mod daily;
mod dashboard;
mod pack;
mod rated;
pub mod site;

/// One stored puzzle, as in the data files.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// `VARIANT-NNN`.
    pub id: String,
    /// The position (NOT-3); the side to move solves.
    pub position: String,
    /// What the solver must achieve.
    pub goal: Goal,
    /// The solution: solver and opponent moves alternating, canonical (NOT-1), the solver's
    /// first. A win ends with the solver's winning move; seeds and save_house are the
    /// solver's move and the reply that leaves the solver fewest seeds.
    pub moves: Vec<String>,
    /// The proof depth in plies (see bao-engine's `puzzle` module).
    pub depth: u32,
    /// What the line does, read from the rules' events (bao-engine's `theme` module), in
    /// that module's order.
    #[serde(default)]
    pub themes: Vec<Theme>,
    /// The game it came from: self-play or a records file.
    pub source: String,
}

/// The embedded data file of a variant.
pub fn data_file(v: Variant) -> &'static str {
    match v {
        Variant::Kiswahili => include_str!("../../data/puzzles/kiswahili.json"),
        Variant::Kete => include_str!("../../data/puzzles/kete.json"),
        Variant::Kimasai => include_str!("../../data/puzzles/kimasai.json"),
    }
}

/// Why a data file is refused.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// Not JSON of the entry form.
    #[error("{variant}: the puzzle file is not valid: {error}")]
    Json {
        /// The variant.
        variant: &'static str,
        /// serde's message.
        error: serde_json::Error,
    },
    /// An entry whose position or line the rules refuse.
    #[error("puzzle {id}: {why}")]
    Entry {
        /// The puzzle.
        id: String,
        /// What is wrong.
        why: String,
    },
}

/// A puzzle ready to serve: the entry with its parsed position.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// The stored entry.
    pub entry: Entry,
    /// Its rules (the variant's defaults: puzzles are mined under them).
    pub rules: Rules,
    /// Its position.
    pub position: Position,
}

impl Puzzle {
    /// The position after the first `plies` moves of the line.
    fn after(&self, plies: usize) -> Position {
        let mut p = self.position;
        for m in &self.entry.moves[..plies] {
            // The catalogue checked the whole line when it was loaded.
            p = find_move(&p, &self.rules, m).map(|m| m.next).unwrap_or(p);
        }
        p
    }
}

/// Parses and checks one variant's data file: every position valid, every line legal.
pub fn parse_file(v: Variant, text: &str) -> Result<Vec<Puzzle>, DataError> {
    let entries: Vec<Entry> = serde_json::from_str(text).map_err(|error| DataError::Json {
        variant: v.id(),
        error,
    })?;
    let rules = Rules::new(v);
    entries.into_iter().map(|e| checked(v, &rules, e)).collect()
}

/// One entry checked: its position valid and of `v`, its line legal, canonical and of the
/// length its goal asks.
pub fn checked(v: Variant, rules: &Rules, entry: Entry) -> Result<Puzzle, DataError> {
    let bad = |why: String| DataError::Entry {
        id: entry.id.clone(),
        why,
    };
    let position = Position::parse(&entry.position, rules).map_err(|e| bad(e.to_string()))?;
    if position.variant() != v {
        return Err(bad(format!("the position is not {}", v.id())));
    }
    let ends_right = match entry.goal {
        Goal::Win => !entry.moves.len().is_multiple_of(2),
        Goal::Seeds { .. } | Goal::SaveHouse => entry.moves.len() == 2,
    };
    if !ends_right {
        return Err(bad(format!(
            "a {} line of {} moves (a win ends with the solver's move; seeds and \
             save_house are the move and the reply)",
            entry.goal.kind(),
            entry.moves.len()
        )));
    }
    let mut p = position;
    for m in &entry.moves {
        let lm = find_move(&p, rules, m).map_err(|e| bad(e.to_string()))?;
        if lm.mv.to_string() != *m {
            return Err(bad(format!("{m} is not canonical ({})", lm.mv)));
        }
        p = lm.next;
    }
    Ok(Puzzle {
        entry,
        rules: *rules,
        position,
    })
}

/// Every puzzle served, by variant: the embedded ones, then those mined from the site's
/// games ([`site`]), in the order found. A snapshot: [`Live`] replaces it when a puzzle is
/// added.
#[derive(Clone)]
pub struct Catalogue {
    by_variant: [Vec<Puzzle>; 3],
    /// How many of each variant's puzzles are the embedded ones (they come first).
    shipped: [usize; 3],
}

impl Catalogue {
    /// The embedded puzzles, checked.
    pub fn embedded() -> Result<Catalogue, DataError> {
        let [a, b, c] = Variant::ALL;
        let by_variant = [
            parse_file(a, data_file(a))?,
            parse_file(b, data_file(b))?,
            parse_file(c, data_file(c))?,
        ];
        Ok(Catalogue {
            shipped: [0, 1, 2].map(|k| by_variant[k].len()),
            by_variant,
        })
    }

    /// No puzzles (a broken data file).
    fn empty() -> Catalogue {
        Catalogue {
            by_variant: Default::default(),
            shipped: [0; 3],
        }
    }

    /// The puzzles of a variant.
    pub fn of(&self, v: Variant) -> &[Puzzle] {
        &self.by_variant[v.index()]
    }

    /// The embedded puzzles of a variant (the first of [`Catalogue::of`]).
    pub fn shipped(&self, v: Variant) -> &[Puzzle] {
        &self.by_variant[v.index()][..self.shipped[v.index()]]
    }

    /// The puzzle with this id.
    pub fn get(&self, id: &str) -> Option<&Puzzle> {
        self.by_variant.iter().flatten().find(|p| p.entry.id == id)
    }

    /// This catalogue with `more` after the puzzles of their variants; ids it has already
    /// are left out.
    fn with(&self, more: Vec<Puzzle>) -> Catalogue {
        let mut next = self.clone();
        for p in more {
            if next.get(&p.entry.id).is_none() {
                next.by_variant[p.rules.variant.index()].push(p);
            }
        }
        next
    }
}

/// The catalogue as it stands now, replaced whole when puzzles are added (a reader keeps
/// the snapshot it took: a request sees one catalogue from start to end).
pub struct Live {
    now: std::sync::RwLock<Arc<Catalogue>>,
}

impl Live {
    /// The embedded puzzles. A broken data file is a build mistake caught by the tests; the
    /// server then serves no embedded puzzles and logs why.
    pub fn embedded() -> Arc<Live> {
        let catalogue = Catalogue::embedded().unwrap_or_else(|e| {
            tracing::error!("puzzles: {e}");
            Catalogue::empty()
        });
        Arc::new(Live {
            now: std::sync::RwLock::new(Arc::new(catalogue)),
        })
    }

    /// The catalogue now.
    pub fn now(&self) -> Arc<Catalogue> {
        match self.now.read() {
            Ok(g) => g.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }

    /// Adds puzzles (those of ids already served are left out).
    pub fn add(&self, more: Vec<Puzzle>) {
        if more.is_empty() {
            return;
        }
        let mut g = match self.now.write() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        let next = g.with(more);
        *g = Arc::new(next);
    }
}

/// A puzzle as the API shows it.
#[derive(Serialize)]
struct Shown {
    id: String,
    position: String,
    goal: Goal,
    moves: Vec<String>,
    themes: Vec<Theme>,
    /// Only for one puzzle: the legal moves of its position, for the board.
    #[serde(skip_serializing_if = "Option::is_none")]
    legal: Option<Vec<String>>,
}

fn view(p: &Puzzle, with_legal: bool) -> Shown {
    Shown {
        id: p.entry.id.clone(),
        position: p.entry.position.clone(),
        goal: p.entry.goal,
        moves: p.entry.moves.clone(),
        themes: p.entry.themes.clone(),
        legal: with_legal.then(|| legal_list(&p.position, &p.rules)),
    }
}

fn legal_list(p: &Position, rules: &Rules) -> Vec<String> {
    legal_moves(p, rules)
        .iter()
        .map(|m| m.mv.to_string())
        .collect()
}

/// The puzzle routes, over the live catalogue (the embedded puzzles and the site's).
pub fn routes(games: Arc<crate::game::Games>, live: Arc<Live>) -> Router {
    let clock = games.clock.clone();
    Router::new()
        .route("/api/puzzles", get(list))
        .route("/api/puzzles/daily", get(daily::daily))
        .route("/api/puzzles/pack", get(pack::pack))
        .route("/api/puzzles/{id}/check", post(check))
        .merge(rated::routes(games.clone()))
        .merge(dashboard::routes(games))
        .layer(Extension(live))
        .layer(Extension(clock))
}

type Cat = Extension<Arc<Live>>;

/// The `variant` and optional `theme` of a query.
fn variant_and_theme(q: &HashMap<String, String>) -> ApiResult<(Variant, Option<Theme>)> {
    let name = q.get("variant").ok_or_else(|| {
        ApiError::bad_request("name the variant: /api/puzzles?variant=kiswahili (or kete, kimasai)")
    })?;
    let v = Variant::from_id(name).ok_or_else(|| {
        ApiError::bad_request(format!(
            "unknown variant {name:?}: the variants are kiswahili, kete and kimasai"
        ))
    })?;
    let theme = match q.get("theme") {
        None => None,
        Some(t) => Some(Theme::parse(t).ok_or_else(|| {
            ApiError::bad_request(format!(
                "unknown theme {t:?}: see docs/api.md, \"Puzzles\", for the themes"
            ))
        })?),
    };
    Ok((v, theme))
}

async fn list(
    Extension(live): Cat,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Json<Vec<Shown>>> {
    let cat = live.now();
    let (v, theme) = variant_and_theme(&q)?;
    Ok(Json(
        cat.of(v)
            .iter()
            .filter(|p| theme.is_none_or(|t| p.entry.themes.contains(&t)))
            .map(|p| view(p, false))
            .collect(),
    ))
}

/// The next puzzle of a variant, of a theme if one is named: the first after `after` in
/// the data file's order (easy ones first), from the start again after the last.
async fn next(
    Extension(live): Cat,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Json<Shown>> {
    let cat = live.now();
    let (v, theme) = variant_and_theme(&q)?;
    let all = cat.of(v);
    let from = match q.get("after") {
        Some(id) => all
            .iter()
            .position(|p| p.entry.id == *id)
            .map_or(0, |i| i + 1),
        None => 0,
    };
    let fits = |p: &&Puzzle| theme.is_none_or(|t| p.entry.themes.contains(&t));
    let found = all[from.min(all.len())..]
        .iter()
        .chain(&all[..from.min(all.len())])
        .find(fits)
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "no {} puzzle has the theme {}",
                v.id(),
                theme.map(|t| t.name()).unwrap_or_default()
            ))
        })?;
    Ok(Json(view(found, true)))
}

fn find<'a>(cat: &'a Catalogue, id: &str) -> ApiResult<&'a Puzzle> {
    cat.get(id)
        .ok_or_else(|| ApiError::not_found(format!("there is no puzzle {id:?}")))
}

async fn one(Extension(live): Cat, Path(id): Path<String>) -> ApiResult<Json<Shown>> {
    Ok(Json(view(find(&live.now(), &id)?, true)))
}

/// A move tried at one of the solver's turns.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckReq {
    /// The ply in the line of the solver's turn: 0, 2, 4...
    ply: usize,
    /// The move (NOT-2: a canonical move or an unambiguous shorter form).
    #[serde(rename = "move")]
    mv: String,
}

/// `correct`: the line's move; `wrong`: legal but not the solution.
#[derive(Serialize, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
enum Verdict {
    Correct,
    Wrong,
}

#[derive(Serialize)]
struct CheckResp {
    verdict: Verdict,
    /// The move tried, canonical.
    #[serde(rename = "move")]
    mv: String,
    /// The position after it.
    position: String,
    /// Its event lines (CLI-5.1) for the board's animation; empty when wrong.
    events: Vec<String>,
    /// Correct: the opponent's answer from the line, if it has one.
    reply: Option<String>,
    /// The position after the answer (the solver's next turn).
    reply_position: Option<String>,
    /// The answer's event lines.
    reply_events: Option<Vec<String>>,
    /// The solver's legal moves there, when the puzzle goes on.
    legal: Option<Vec<String>>,
    /// Correct and the solver's last move of the line.
    solved: bool,
    /// The result after the move (`-`, `S`, `N`, `draw`).
    result: &'static str,
}

fn events(pos: &Position, rules: &Rules, m: &Move) -> Vec<String> {
    trace(pos, rules, m)
        .0
        .iter()
        .map(|e| e.to_string())
        .collect()
}

async fn check(
    Extension(live): Cat,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<CheckReq>,
) -> ApiResult<Json<CheckResp>> {
    let cat = live.now();
    let p = find(&cat, &id)?;
    let line = &p.entry.moves;
    if !req.ply.is_multiple_of(2) || req.ply >= line.len() {
        return Err(ApiError::bad_request(format!(
            "ply {} is not one of the solver's turns in this puzzle (0 to {}, even)",
            req.ply,
            line.len() - 1
        )));
    }
    let here = p.after(req.ply);
    let tried = find_move(&here, &p.rules, &req.mv)?;
    let mv = tried.mv.to_string();
    let outcome: Outcome = tried.outcome(&p.rules);
    if mv != line[req.ply] {
        return Ok(Json(CheckResp {
            verdict: Verdict::Wrong,
            mv,
            position: tried.next.to_string(),
            events: Vec::new(),
            reply: None,
            reply_position: None,
            reply_events: None,
            legal: None,
            solved: false,
            result: outcome.token(),
        }));
    }
    let reply = line.get(req.ply + 1).cloned();
    let after_reply = reply.as_ref().map(|_| p.after(req.ply + 2));
    let reply_events = reply.as_ref().and_then(|r| {
        let lm = find_move(&tried.next, &p.rules, r).ok()?;
        Some(events(&tried.next, &p.rules, &lm.mv))
    });
    // Solved by the solver's last move; a seeds or house line still shows the reply.
    let solved = req.ply + 2 >= line.len();
    Ok(Json(CheckResp {
        verdict: Verdict::Correct,
        mv,
        position: tried.next.to_string(),
        events: events(&here, &p.rules, &tried.mv),
        reply,
        reply_position: after_reply.map(|q| q.to_string()),
        reply_events,
        legal: after_reply
            .filter(|_| !solved)
            .map(|q| legal_list(&q, &p.rules)),
        solved,
        result: outcome.token(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_files_parse_and_every_line_is_legal() {
        let c = Catalogue::embedded().unwrap();
        for v in Variant::ALL {
            for p in c.of(v) {
                assert!(p.entry.id.starts_with(v.id()), "{}", p.entry.id);
            }
        }
    }

    #[test]
    fn a_line_that_breaks_the_rules_is_refused_with_its_id() {
        let text = r#"[{"id":"kiswahili-1","position":"kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/22 house:S,house:N 0","goal":{"kind":"win"},
            "moves":["A1L"],"depth":3,"source":"test"}]"#;
        let e = parse_file(Variant::Kiswahili, text)
            .err()
            .unwrap()
            .to_string();
        assert!(e.starts_with("puzzle kiswahili-1:"), "{e}");
    }
}
