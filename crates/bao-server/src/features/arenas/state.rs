//! An arena as the feature reads it: its row, players and games, the scores that follow
//! from the games in order (docs/api.md, "Arenas": win 2, draw 1, loss 0; double while on
//! fire, after two wins in a row, until a game that is not a win; a berserk win one more),
//! and the JSON of `GET /api/arenas/{id}`.

use crate::domain::model::TimeControl;
use crate::store::{ArenaGameRow, ArenaPlayerRow, ArenaRow};
use serde_json::{json, Value};
use std::collections::HashMap;

/// Everything stored about one arena.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The arena's row.
    pub a: ArenaRow,
    /// Its clock.
    pub clock: TimeControl,
    /// Its players, in joining order.
    pub players: Vec<ArenaPlayerRow>,
    /// Its games, in pairing order.
    pub games: Vec<ArenaGameRow>,
}

/// One player's score.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Points in all.
    pub score: i64,
    /// Points of each finished game, in order.
    pub sheet: Vec<i64>,
    /// Wins in a row at the end of the sheet.
    pub streak: u32,
    /// Finished games.
    pub games: usize,
    /// Finished games in which the player went berserk.
    pub berserk: usize,
}

impl Score {
    /// On fire: the next win scores double.
    pub fn fire(&self) -> bool {
        self.streak >= 2
    }

    /// Adds one finished game: `outcome` 2 a win, 1 a draw, 0 a loss; `berserk` if the
    /// player went berserk in it.
    pub fn add(&mut self, outcome: i64, berserk: bool) {
        let mut points = if self.fire() { 2 * outcome } else { outcome };
        if outcome == 2 && berserk {
            points += 1;
        }
        self.streak = if outcome == 2 { self.streak + 1 } else { 0 };
        self.score += points;
        self.sheet.push(points);
        self.games += 1;
        self.berserk += usize::from(berserk);
    }
}

impl Loaded {
    /// Every player's score, by account id.
    pub fn scores(&self) -> HashMap<&str, Score> {
        let mut out: HashMap<&str, Score> = self
            .players
            .iter()
            .map(|p| (p.account_id.as_str(), Score::default()))
            .collect();
        for g in &self.games {
            let Some(r) = g.result.as_deref() else {
                continue;
            };
            let (s, n) = match r {
                "S" => (2, 0),
                "N" => (0, 2),
                _ => (1, 1),
            };
            out.entry(g.south.as_str()).or_default().add(s, g.berserk_s);
            out.entry(g.north.as_str()).or_default().add(n, g.berserk_n);
        }
        out
    }

    /// The players ranked: by score, then rating, then joining order.
    pub fn ranked(&self) -> Vec<(&ArenaPlayerRow, Score)> {
        let scores = self.scores();
        let mut list: Vec<(&ArenaPlayerRow, Score)> = self
            .players
            .iter()
            .map(|p| {
                (
                    p,
                    scores
                        .get(p.account_id.as_str())
                        .cloned()
                        .unwrap_or_default(),
                )
            })
            .collect();
        list.sort_by(|(a, sa), (b, sb)| {
            sb.score
                .cmp(&sa.score)
                .then(b.rating.unwrap_or(0).cmp(&a.rating.unwrap_or(0)))
        });
        list
    }

    /// The name of account `account`.
    pub fn name_of(&self, account: &str) -> String {
        self.players
            .iter()
            .find(|p| p.account_id == account)
            .map_or_else(|| "?".to_string(), |p| p.username.clone())
    }
}

/// The players ranked with their ranks: players level on points share a rank.
pub fn ranks(l: &Loaded) -> Vec<(usize, &ArenaPlayerRow, Score)> {
    let mut rank = 0;
    let mut last: Option<i64> = None;
    l.ranked()
        .into_iter()
        .enumerate()
        .map(|(i, (p, s))| {
            if last != Some(s.score) {
                rank = i + 1;
                last = Some(s.score);
            }
            (rank, p, s)
        })
        .collect()
}

/// One row of the standings.
pub fn row(rank: usize, p: &ArenaPlayerRow, s: &Score) -> Value {
    json!({
        "rank": rank,
        "username": p.username,
        "score": s.score,
        "sheet": s.sheet,
        "fire": s.fire(),
        "games": s.games,
        "berserk": s.berserk,
        "rating": p.rating,
        "paused": p.paused,
        "playing": p.game_id.is_some(),
    })
}

/// `GET /api/arenas/{id}` (docs/api.md, "Arenas"). `viewer`: the account asking.
pub fn detail(l: &Loaded, viewer: Option<&str>, now: i64) -> Value {
    let standings: Vec<Value> = ranks(l)
        .iter()
        .map(|(rank, p, s)| row(*rank, p, s))
        .collect();
    let me = viewer.and_then(|v| l.players.iter().find(|p| p.account_id == v));
    let games: Vec<Value> = l
        .games
        .iter()
        .map(|g| {
            json!({"game": g.game_id, "S": l.name_of(&g.south), "N": l.name_of(&g.north),
                   "result": g.result, "berserk": {"S": g.berserk_s, "N": g.berserk_n}})
        })
        .collect();
    json!({
        "id": l.a.id,
        "name": l.a.name,
        "status": l.a.status,
        "starts_at": l.a.starts_at,
        "ends_at": l.a.ends_at,
        "now": now,
        "clock": l.clock,
        "variant": l.a.variant,
        "rules": l.a.rules,
        "rated": l.a.rated,
        "berserk": l.a.berserk,
        "organiser": organiser(&l.a),
        "club": l.a.club,
        "private": l.a.private,
        "series": l.a.series,
        "repeat": l.a.repeats,
        "standings": standings,
        "games": games,
        "you": {
            "joined": me.is_some(),
            "paused": me.is_some_and(|p| p.paused),
            "game": me.and_then(|p| p.game_id.clone()),
        },
    })
}

/// One line of `GET /api/arenas`.
pub fn summary(a: &ArenaRow, players: usize) -> Value {
    let clock: Value = serde_json::from_str(&a.clock).unwrap_or(Value::Null);
    json!({
        "id": a.id,
        "name": a.name,
        "variant": a.variant,
        "status": a.status,
        "starts_at": a.starts_at,
        "ends_at": a.ends_at,
        "rated": a.rated,
        "berserk": a.berserk,
        "clock": clock,
        "players": players,
        "url": format!("/a/{}", a.id),
        "organiser": organiser(a),
        "club": a.club,
        "series": a.series,
        "repeat": a.repeats,
    })
}

/// The maker's name, or null for an arena of the site's operators (`bao admin arena`).
pub fn organiser(a: &ArenaRow) -> Option<&str> {
    Some(a.organiser_name.as_str()).filter(|_| !a.organiser_id.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fire_doubles_after_two_wins_until_a_game_that_is_not_a_win() {
        let mut s = Score::default();
        for (o, b) in [
            (2, false),
            (2, true),
            (2, false),
            (1, false),
            (2, false),
            (0, false),
        ] {
            s.add(o, b);
        }
        // 2, 2+1 berserk, 4 on fire, 2 a draw on fire (fire ends), 2, 0.
        assert_eq!(s.sheet, vec![2, 3, 4, 2, 2, 0]);
        assert_eq!(s.score, 13);
        assert!(!s.fire());
        s.add(2, false);
        s.add(2, true);
        assert!(s.fire());
        // A berserk win on fire: 4 + 1.
        s.add(2, true);
        assert_eq!(s.sheet[8], 5);
    }
}
