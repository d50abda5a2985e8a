//! A tournament as read from the store, turned into bao-tournament's state (a
//! [`Tournament`] for round robins and Swiss, a [`Knockout`] for brackets), and the JSON of
//! `GET /api/tournaments/{id}` built from both.

use crate::domain::model::TimeControl;
use crate::store::{PlayerRow, RoundRow, TGameRow, TournamentRow};
use bao_tournament::knockout::Knockout;
use bao_tournament::{
    seed_order, Format, GameResult, Pairing, Player, PlayerId, Points, Round, Side, Standing,
    Tiebreak, Tournament, TournamentError,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// FORMAT as the API takes and shows it (docs/api.md, "Tournaments").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum FormatJson {
    /// Everyone meets everyone (twice with `double`).
    RoundRobin {
        /// Two cycles, sides swapped.
        #[serde(default)]
        double: bool,
    },
    /// `rounds` Swiss rounds.
    Swiss {
        /// The number of rounds.
        rounds: usize,
    },
    /// A bracket of best-of-three matches.
    Knockout {
        /// A match for third place.
        #[serde(default)]
        third_place: bool,
    },
}

impl FormatJson {
    /// bao-tournament's format.
    pub fn format(self) -> Format {
        match self {
            FormatJson::RoundRobin { double } => Format::RoundRobin { double },
            FormatJson::Swiss { rounds } => Format::Swiss { rounds },
            FormatJson::Knockout { third_place } => Format::Knockout { third_place },
        }
    }
}

/// Everything stored about one tournament.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The tournament's row.
    pub t: TournamentRow,
    /// Its format.
    pub format: FormatJson,
    /// Its clock.
    pub clock: TimeControl,
    /// Players in registration order: a [`PlayerId`] is an index here.
    pub players: Vec<PlayerRow>,
    /// Paired rounds.
    pub rounds: Vec<RoundRow>,
    /// Their games.
    pub games: Vec<TGameRow>,
    /// Pairings the organiser forbids (account ids; Swiss only).
    pub forbidden: Vec<(String, String)>,
}

/// The pairing state.
#[derive(Clone, Debug)]
pub enum Built {
    /// A round robin or Swiss.
    Table(Tournament),
    /// A knockout.
    Bracket(Knockout),
}

/// A stored result: `S`, `N`, `draw`, with `forfeit` as termination for a forfeit.
pub fn game_result(result: &str, termination: Option<&str>) -> Option<GameResult> {
    let forfeit = termination == Some("forfeit");
    Some(match (result, forfeit) {
        ("S", false) => GameResult::SouthWins,
        ("N", false) => GameResult::NorthWins,
        ("S", true) => GameResult::Forfeit(Side::North),
        ("N", true) => GameResult::Forfeit(Side::South),
        ("draw", _) => GameResult::Draw,
        _ => return None,
    })
}

impl Loaded {
    /// The player id of account `account`.
    pub fn id_of(&self, account: &str) -> Option<PlayerId> {
        self.players
            .iter()
            .position(|p| p.account_id == account)
            .map(PlayerId)
    }

    /// The name of player `p`.
    pub fn name(&self, p: PlayerId) -> &str {
        self.players.get(p.0).map_or("?", |x| x.username.as_str())
    }

    /// The name of account `account`.
    pub fn name_of(&self, account: &str) -> String {
        self.players
            .iter()
            .find(|p| p.account_id == account)
            .map_or_else(|| "?".to_string(), |p| p.username.clone())
    }

    /// The players as bao-tournament sees them.
    pub fn bao_players(&self) -> Vec<Player> {
        self.players
            .iter()
            .map(|p| Player {
                name: p.username.clone(),
                rating: p.rating.map(|r| r as i32),
            })
            .collect()
    }

    /// Points of a bye.
    pub fn bye_points(&self) -> f64 {
        self.t.bye_points.parse().unwrap_or(1.0)
    }

    /// The games of round `no`.
    pub fn round_games(&self, no: i64) -> impl Iterator<Item = &TGameRow> {
        self.games.iter().filter(move |g| g.round_no == no)
    }

    /// Whether every game of the last paired round has a result (true before round 1).
    pub fn last_round_done(&self) -> bool {
        match self.rounds.last() {
            None => true,
            Some(r) => self.round_games(r.round_no).all(|g| g.result.is_some()),
        }
    }

    /// The pairing state after the stored rounds and results.
    pub fn build(&self) -> Result<Built, TournamentError> {
        let players = self.bao_players();
        match self.format.format() {
            Format::Knockout { third_place } => {
                let mut k = Knockout::new(&players, third_place)?;
                for g in &self.games {
                    let (Some(r), Some(s), Some(n)) =
                        (&g.result, self.id_of(&g.south), self.id_of(&g.north))
                    else {
                        continue;
                    };
                    // A level match goes to the upper entrant (the higher seed; see
                    // docs/api.md "Tournaments": the server decides instead of the organiser).
                    let winner = if r == "N" { n } else { s };
                    k.record(g.round_no as usize, g.board as usize, winner)?;
                }
                Ok(Built::Bracket(k))
            }
            format => {
                let mut t = Tournament::new(format, players)?;
                t.points.bye = self.bye_points();
                if self.t.team_boards.is_some() {
                    // Match points (docs/api.md, "Team tournaments"): a bye scores as a
                    // player's does, in matches (the bye's share of a won match).
                    t.points = Points {
                        win: 2.0,
                        draw: 1.0,
                        loss: 0.0,
                        bye: 2.0 * self.bye_points(),
                        forfeit_loss: 0.0,
                    };
                }
                if matches!(format, Format::Swiss { .. }) {
                    for (a, b) in &self.forbidden {
                        if let (Some(a), Some(b)) = (self.id_of(a), self.id_of(b)) {
                            t.forbid(a, b)?;
                        }
                    }
                }
                for r in &self.rounds {
                    let games: Vec<&TGameRow> = self.round_games(r.round_no).collect();
                    let mut pairings = Vec::new();
                    let mut results = Vec::new();
                    for g in games {
                        let (Some(s), Some(n)) = (self.id_of(&g.south), self.id_of(&g.north))
                        else {
                            continue;
                        };
                        pairings.push(Pairing { south: s, north: n });
                        results.push(
                            g.result
                                .as_deref()
                                .and_then(|x| game_result(x, g.termination.as_deref())),
                        );
                    }
                    let bye = r.byes.first().and_then(|a| self.id_of(a));
                    t.rounds.push(Round {
                        number: r.round_no as usize,
                        pairings,
                        results,
                        bye,
                    });
                }
                Ok(Built::Table(t))
            }
        }
    }
}

impl Loaded {
    /// Each entrant's board points in a team tournament, by player id: the boards of its
    /// matches (won 1, drawn ½); a bye scores the bye's share of every board, a withdrawn
    /// club's match every board to the other side. `None` for a tournament of players.
    pub fn board_points(&self) -> Option<Vec<f64>> {
        let boards = self.t.team_boards?;
        let mut halves = vec![0i64; self.players.len()];
        for g in &self.games {
            let Some((s, n)) = g.halves else { continue };
            for (who, h) in [(&g.south, s), (&g.north, n)] {
                if let Some(p) = self.id_of(who) {
                    halves[p.0] += h;
                }
            }
        }
        let bye = (2.0 * self.bye_points() * boards as f64) as i64;
        for r in &self.rounds {
            for b in &r.byes {
                if let Some(p) = self.id_of(b) {
                    halves[p.0] += bye;
                }
            }
        }
        Some(halves.into_iter().map(|h| h as f64 / 2.0).collect())
    }

    /// The standings of `b`: a team tournament's round robin or Swiss by match points,
    /// then board points, then the format's tie-breaks; a team knockout by its bracket,
    /// board points shown last.
    pub fn standings(&self, b: &Built) -> Vec<Standing> {
        let mut s = b.standings();
        if let Some(bp) = self.board_points() {
            match b {
                Built::Table(_) => {
                    bao_tournament::standings::lead_with(&mut s, Tiebreak::BoardPoints, &bp)
                }
                Built::Bracket(_) => {
                    for x in &mut s {
                        let v = bp.get(x.player.0).copied().unwrap_or(0.0);
                        x.tiebreaks.push((Tiebreak::BoardPoints, v));
                    }
                }
            }
        }
        s
    }

    /// The tie-breaks the standings show, in order.
    pub fn tiebreaks(&self) -> Vec<Tiebreak> {
        let mut t = self.format.format().tiebreaks();
        if self.t.team_boards.is_some() {
            if matches!(self.format, FormatJson::Knockout { .. }) {
                t.push(Tiebreak::BoardPoints);
            } else {
                t.insert(0, Tiebreak::BoardPoints);
            }
        }
        t
    }
}

impl Built {
    /// The number of rounds the tournament has.
    pub fn total_rounds(&self) -> usize {
        match self {
            Built::Table(t) => t.total_rounds(),
            Built::Bracket(k) => k.rounds.len(),
        }
    }

    /// The standings so far.
    pub fn standings(&self) -> Vec<Standing> {
        match self {
            Built::Table(t) => t.standings(),
            Built::Bracket(k) => k.standings(),
        }
    }
}

/// The English name and explanation of a tie-break (the pages show the catalog's, in the
/// reader's language: web/i18n/{en,sw}/tournaments.json).
pub fn tiebreak_text(t: Tiebreak) -> (&'static str, &'static str) {
    match t {
        Tiebreak::DirectEncounter => (
            "Direct encounter",
            "Points scored in the games between the players who are level on points.",
        ),
        Tiebreak::SonnebornBerger => (
            "Sonneborn-Berger",
            "The points of every opponent beaten, plus half the points of every opponent drawn with: beating strong players counts more.",
        ),
        Tiebreak::Buchholz => (
            "Buchholz",
            "The sum of the opponents' points: how strong the opponents were.",
        ),
        Tiebreak::BuchholzCut1 => (
            "Buchholz cut 1",
            "Buchholz without the weakest opponent's points.",
        ),
        Tiebreak::BracketPosition => (
            "Place",
            "The place reached in the bracket: 1 the champion, 2 the runner-up, then the third-place match or the round lost in.",
        ),
        Tiebreak::Seed => (
            "Seed",
            "The seed: 1 for the highest rating at registration.",
        ),
        Tiebreak::BoardPoints => (
            "Board points",
            "The boards of the club's matches: a board won 1, drawn half.",
        ),
    }
}

/// The number as JSON: whole numbers without a fraction.
fn num(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        json!(x as i64)
    } else {
        json!(x)
    }
}

/// `GET /api/tournaments/{id}` (docs/api.md, "Tournaments"). `viewer`: the account asking.
pub fn detail(l: &Loaded, built: Option<&Built>, viewer: Option<&str>) -> Value {
    let bao = l.bao_players();
    let seeds = seed_order(&bao);
    let seed_of = |i: usize| seeds.iter().position(|p| p.0 == i).map_or(0, |s| s + 1);
    let players: Vec<Value> = l
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut v = json!({
                "username": p.username,
                "rating": p.rating.map(|r| format!("{r}{}", if p.provisional { "?" } else { "" })),
                "seed": seed_of(i),
                "withdrawn": p.withdrawn,
            });
            // A team tournament's entrant is a club: its name, and its id for /club/{id}.
            if l.t.team_boards.is_some() {
                v["club"] = json!(p.account_id);
            }
            v
        })
        .collect();
    let rounds: Vec<Value> = l
        .rounds
        .iter()
        .map(|r| {
            let pairings: Vec<Value> = l
                .round_games(r.round_no)
                .map(|g| {
                    let mut v = json!({
                        "S": l.name_of(&g.south),
                        "N": l.name_of(&g.north),
                        "game": g.game_id,
                        "result": g.result,
                    });
                    if let Some(t) = &g.termination {
                        v["termination"] = json!(t);
                    }
                    if l.t.team_boards.is_some() {
                        v["match"] = json!(g.team_match);
                        v["url"] = json!(g.team_match.as_ref().map(|m| format!("/m/{m}")));
                        v["score"] = json!(g.halves.map(|(s, n)| json!({
                            "S": num(s as f64 / 2.0), "N": num(n as f64 / 2.0)
                        })));
                    }
                    v
                })
                .collect();
            let byes: Vec<String> = r.byes.iter().map(|a| l.name_of(a)).collect();
            json!({"no": r.round_no, "pairings": pairings, "byes": byes})
        })
        .collect();
    let tiebreaks: Vec<Value> = l
        .tiebreaks()
        .into_iter()
        .map(|t| {
            let (name, explain) = tiebreak_text(t);
            json!({"key": t.name(), "name": name, "explain": explain})
        })
        .collect();
    let standings: Vec<Value> = built
        .map(|b| {
            l.standings(b)
                .iter()
                .map(|s| {
                    let tb: serde_json::Map<String, Value> = s
                        .tiebreaks
                        .iter()
                        .map(|(t, x)| (t.name().to_string(), num(*x)))
                        .collect();
                    let mut v = json!({"rank": s.rank, "player": l.name(s.player),
                                       "points": num(s.points), "tiebreaks": tb});
                    if l.t.team_boards.is_some() {
                        v["club"] = json!(l.players.get(s.player.0).map(|p| &p.account_id));
                        v["board_points"] = s
                            .tiebreaks
                            .iter()
                            .find(|(t, _)| *t == Tiebreak::BoardPoints)
                            .map_or(Value::Null, |(_, x)| num(*x));
                    }
                    v
                })
                .collect()
        })
        .unwrap_or_default();
    let mut v = json!({
        "id": l.t.id,
        "name": l.t.name,
        "variant": l.t.variant,
        "rules": l.t.rules,
        "format": l.format,
        "clock": l.clock,
        "rated": l.t.rated,
        "status": l.t.status,
        "organiser": l.t.organiser_name,
        "starts_at": l.t.starts_at,
        "max_players": l.t.max_players,
        "private": l.t.code.is_some(),
        "club": l.t.club,
        "teams": l.t.team_boards.map(|b| json!({"boards": b})),
        "bye_points": num(l.bye_points()),
        "forfeit_after_ms": l.t.forfeit_after_ms,
        "round": l.rounds.len(),
        "rounds_total": built.map(Built::total_rounds),
        "players": players,
        "rounds": rounds,
        "standings": standings,
        "tiebreaks": tiebreaks,
        "you": {
            "joined": viewer.is_some_and(|a| l.players.iter().any(|p| p.account_id == a)),
            "organiser": viewer == Some(l.t.organiser_id.as_str()),
        },
    });
    // Who may not meet whom is the organiser's business (a club, a family): only they see it.
    if viewer == Some(l.t.organiser_id.as_str()) {
        v["forbidden"] = l
            .forbidden
            .iter()
            .map(|(a, b)| json!([l.name_of(a), l.name_of(b)]))
            .collect();
    }
    if let Some(Built::Bracket(k)) = built {
        let name = |p: Option<PlayerId>| p.map(|p| l.name(p).to_string());
        let mut out: Vec<Vec<Value>> = Vec::new();
        for (ri, round) in k.rounds.iter().enumerate() {
            let mut list: Vec<Value> = round
                .iter()
                .collect::<Vec<_>>()
                .into_iter()
                .map(|m| {
                    let games: Vec<Value> = l
                        .games
                        .iter()
                        .filter(|g| g.round_no as usize == m.round && g.board as usize == m.number)
                        .map(|g| {
                            json!({"game": g.game_id, "S": l.name_of(&g.south),
                                    "N": l.name_of(&g.north), "result": g.result})
                        })
                        .collect();
                    json!({"a": name(m.upper), "b": name(m.lower), "games": games,
                       "winner": name(m.winner)})
                })
                .collect();
            if ri + 1 == k.rounds.len() {
                if let Some(m) = &k.third_place {
                    let games: Vec<Value> = l
                        .games
                        .iter()
                        .filter(|g| g.round_no as usize == m.round && g.board == 2)
                        .map(|g| {
                            json!({"game": g.game_id, "S": l.name_of(&g.south),
                                        "N": l.name_of(&g.north), "result": g.result})
                        })
                        .collect();
                    list.push(
                        json!({"a": name(m.upper), "b": name(m.lower), "games": games,
                                     "winner": name(m.winner), "third_place": true}),
                    );
                }
            }
            out.push(list);
        }
        v["knockout"] = json!({"rounds": out});
    }
    v
}

/// One line of `GET /api/tournaments`.
pub fn summary(t: &TournamentRow) -> Value {
    let format: Value = serde_json::from_str(&t.format).unwrap_or(Value::Null);
    let clock: Value = serde_json::from_str(&t.clock).unwrap_or(Value::Null);
    json!({
        "id": t.id,
        "name": t.name,
        "variant": t.variant,
        "format": format,
        "status": t.status,
        "players": t.players,
        "max_players": t.max_players,
        "starts_at": t.starts_at,
        "rated": t.rated,
        "clock": clock,
        "organiser": t.organiser_name,
        "club": t.club,
        "teams": t.team_boards.map(|b| json!({"boards": b})),
    })
}
