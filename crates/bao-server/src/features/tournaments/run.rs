//! Running tournaments: results taken from ended games, rounds paired, games made, forfeits,
//! starts at `starts_at` and the finish. One function, [`advance`], does all of it for one
//! tournament and may run on any instance at any time: every step is exactly once through
//! the store's conditions (see crate::store's tournaments module), so the observer's task,
//! the sweep and a request can all call it.

use super::state::{Built, Loaded};
use crate::domain::events::Event;
use crate::domain::model::{EventKind, GameEvent, Match, TimeControl};
use crate::error::ApiResult;
use crate::game::{Alert, AlertKind, Games, NewPair, PairSeat, Recipient};
use crate::store::{RoundRow, StoreError, TGameRow, TeamMatchRow};
use crate::util;
use bao_rules::{MatchFormat, Position, RecordResult, Rules, Side, Termination};
use bao_tournament::{Pairing, PlayerId};

/// Reads everything stored about tournament `id`.
pub async fn load(games: &Games, id: &str) -> ApiResult<Option<Loaded>> {
    let store = &games.store;
    let Some(t) = store.tournament(id).await? else {
        return Ok(None);
    };
    let format = serde_json::from_str(&t.format).map_err(crate::error::ApiError::internal)?;
    let clock = serde_json::from_str(&t.clock).map_err(crate::error::ApiError::internal)?;
    Ok(Some(Loaded {
        format,
        clock,
        players: store.tournament_players(id).await?,
        rounds: store.tournament_rounds(id).await?,
        games: store.tournament_games(id).await?,
        forbidden: store.tournament_forbidden(id).await?,
        t,
    }))
}

/// The result of an ended server game for the tournament: `S`, `N` or `draw` (for a
/// knockout, the match: player 0 is South of game 1) and its termination, `forfeit` when the
/// loser never moved ([`Games::forfeit`] records that as NOT-6.2 `abandoned`).
pub fn result_of(m: &Match) -> (String, Option<String>) {
    let termination = m.current.termination;
    let first_game_unplayed = m.game_no == 1 && m.game.position().ply() <= 1;
    let won = matches!(m.current.result, RecordResult::Win(_));
    let forfeit = termination == Some(Termination::Abandoned) && first_game_unplayed && won;
    let t = if forfeit {
        Some("forfeit".to_string())
    } else {
        termination.map(|t| t.as_str().to_string())
    };
    let r = if m.format == MatchFormat::BestOfThree {
        match m.wins[0].cmp(&m.wins[1]) {
            std::cmp::Ordering::Greater => "S",
            std::cmp::Ordering::Less => "N",
            std::cmp::Ordering::Equal => "draw",
        }
    } else {
        match m.current.result {
            RecordResult::Win(Side::South) => "S",
            RecordResult::Win(Side::North) => "N",
            // A draw, or a match closed without a move (neither played).
            _ => "draw",
        }
    };
    (r.to_string(), t)
}

/// Takes the results of the tournament's ended games; returns how many this call recorded.
async fn record_results(games: &Games, id: &str) -> ApiResult<usize> {
    let mut n = 0;
    for gid in games.store.tournament_games_ended(id).await? {
        // Fresh from the database: the game may have ended on another instance.
        let Some(m) = games.store.load(&gid).await? else {
            continue;
        };
        if !m.finished {
            continue;
        }
        let (r, t) = result_of(&m);
        if games
            .store
            .record_tournament_result(&gid, &r, t.as_deref(), games.clock.now_ms())
            .await?
        {
            n += 1;
        }
    }
    n += record_team_results(games, id).await?;
    Ok(n)
}

/// Takes the results of a team tournament's finished team matches (docs/api.md, "Team
/// tournaments"): the match won by more board points, level ones drawn; in a knockout a
/// level match goes to the side that won the first board not drawn, else to the upper
/// entrant (the higher seed, South of the pairing). Each counted once (the store's
/// `result IS NULL`); returns how many this call recorded.
async fn record_team_results(games: &Games, id: &str) -> ApiResult<usize> {
    let over = games.store.tournament_team_matches_over(id).await?;
    if over.is_empty() {
        return Ok(0);
    }
    let Some(t) = games.store.tournament(id).await? else {
        return Ok(0);
    };
    let knockout = matches!(
        serde_json::from_str(&t.format),
        Ok(super::state::FormatJson::Knockout { .. })
    );
    let mut n = 0;
    for m in over {
        let boards = games.store.team_boards(&m).await?;
        let (mut h, mut a) = (0i64, 0i64);
        for b in &boards {
            match b.result.as_deref() {
                Some("home") => h += 2,
                Some("away") => a += 2,
                Some("draw") => {
                    h += 1;
                    a += 1;
                }
                _ => {}
            }
        }
        // The pairing's South is the match's home club.
        let (result, how) = match h.cmp(&a) {
            std::cmp::Ordering::Greater => ("S", None),
            std::cmp::Ordering::Less => ("N", None),
            std::cmp::Ordering::Equal if !knockout => ("draw", None),
            std::cmp::Ordering::Equal => {
                let first = boards.iter().find_map(|b| match b.result.as_deref() {
                    Some("home") => Some("S"),
                    Some("away") => Some("N"),
                    _ => None,
                });
                match first {
                    Some(r) => (r, Some("first_board")),
                    None => ("S", Some("seed")),
                }
            }
        };
        if games
            .store
            .record_tournament_team_result(id, &m, (result, how), (h, a), games.clock.now_ms())
            .await?
        {
            n += 1;
        }
    }
    Ok(n)
}

/// The rules of a tournament's games.
fn game_rules(l: &Loaded) -> ApiResult<Rules> {
    let variant = crate::edge::terms::parse_variant(&l.t.variant)?;
    let mut rules = crate::edge::terms::parse_rules(variant, &l.t.rules)?;
    rules.match_format = match l.format.format() {
        bao_tournament::Format::Knockout { .. } => MatchFormat::BestOfThree,
        _ => MatchFormat::SingleGame,
    };
    Ok(rules)
}

/// The games of the next round of `l` (round `no`) and its byes, or `None` when there is
/// nothing to pair (fewer than two players left).
fn next_round(
    l: &Loaded,
    built: &Built,
    no: usize,
) -> ApiResult<Option<(Vec<TGameRow>, Vec<String>)>> {
    let withdrawn = |p: PlayerId| l.players.get(p.0).is_some_and(|x| x.withdrawn);
    let acct = |p: PlayerId| l.players[p.0].account_id.clone();
    let mut pairs: Vec<(usize, Pairing)> = Vec::new();
    let mut byes = Vec::new();
    match built {
        Built::Table(t) => {
            let mut t = t.clone();
            if let bao_tournament::Format::Swiss { .. } = t.format {
                // Withdrawn players are not paired again.
                let active: Vec<_> = t
                    .swiss_players()
                    .into_iter()
                    .filter(|p| !withdrawn(p.id))
                    .collect();
                if active.len() < 2 {
                    return Ok(None);
                }
                let sp = bao_tournament::swiss::pair(&active, &t.forbidden)
                    .map_err(crate::error::ApiError::internal)?;
                pairs = sp
                    .pairings
                    .into_iter()
                    .enumerate()
                    .map(|(i, g)| (i + 1, g))
                    .collect();
                byes.extend(sp.bye.map(acct));
            } else {
                let r = t.pair_round(no).map_err(crate::error::ApiError::internal)?;
                pairs = r
                    .pairings
                    .iter()
                    .copied()
                    .enumerate()
                    .map(|(i, g)| (i + 1, g))
                    .collect();
                // A withdrawn player sitting out by the schedule is no bye.
                byes.extend(r.bye.filter(|&b| !withdrawn(b)).map(acct));
            }
        }
        Built::Bracket(k) => {
            // The bracket's byes (the top seeds of a field short of a power of two) go
            // through round 1 without a match: listed as the round's byes, and told so.
            if no == 1 {
                for m in &k.rounds[0] {
                    if let (Some(u), None) | (None, Some(u)) = (m.upper, m.lower) {
                        byes.push(acct(u));
                    }
                }
            }
            for m in k.ready().into_iter().filter(|m| m.round == no) {
                if let (Some(u), Some(w)) = (m.upper, m.lower) {
                    pairs.push((m.number, Pairing { south: u, north: w }));
                }
            }
        }
    }
    let team_boards = l.t.team_boards;
    let games = pairs
        .into_iter()
        .map(|(board, g)| {
            // A withdrawn player's game is forfeited at once, without a server game; a
            // withdrawn club's match too, every board to the other side.
            let (game_id, result) = match (withdrawn(g.south), withdrawn(g.north)) {
                (false, false) => (Some(util::new_game_id()), None),
                (true, false) => (None, Some("N")),
                (_, true) => (None, Some("S")),
            };
            let (game_id, team_match) = match team_boards {
                Some(_) => (None, game_id.map(|_| util::random_code(10))),
                None => (game_id, None),
            };
            let halves =
                team_boards.zip(result).map(
                    |(b, r)| {
                        if r == "S" {
                            (2 * b, 0)
                        } else {
                            (0, 2 * b)
                        }
                    },
                );
            TGameRow {
                round_no: no as i64,
                board: board as i64,
                game_id,
                south: acct(g.south),
                north: acct(g.north),
                termination: result.map(|_| "forfeit".to_string()),
                result: result.map(str::to_string),
                team_match,
                halves,
            }
        })
        .collect();
    Ok(Some((games, byes)))
}

/// Makes the server game of a paired tournament game under its chosen id; `false` when it
/// exists already (made by another instance).
async fn make_game(games: &Games, l: &Loaded, g: &TGameRow) -> ApiResult<bool> {
    let Some(id) = &g.game_id else {
        return Ok(false);
    };
    let rules = game_rules(l)?;
    let seat = |a: &str| PairSeat {
        name: l.name_of(a),
        account: Some(a.to_string()),
        token_hash: None,
    };
    let made = games
        .create_pair(NewPair {
            start: Position::start(&rules),
            rules,
            players: [seat(&g.south), seat(&g.north)],
            first_side: Side::South,
            clock: Some(l.clock),
            rated: l.t.rated,
            id: Some(id.clone()),
            // The game's page names the tournament and round and links back.
            event: Some(GameEvent {
                kind: EventKind::Tournament,
                id: l.t.id.clone(),
                name: l.t.name.clone(),
                round: u32::try_from(g.round_no).ok(),
            }),
            // Its page follows the round (docs/api.md, "Tournaments").
            news: vec![Event::Tournament { id: l.t.id.clone() }],
        })
        .await;
    match made {
        Ok(_) => Ok(true),
        // Taken: another instance made it first.
        Err(e) if e.status == axum::http::StatusCode::CONFLICT => Ok(false),
        Err(e) => Err(e),
    }
}

/// Makes every game of the tournament paired but missing.
async fn make_missing(games: &Games, l: &Loaded) -> ApiResult<usize> {
    let mut n = 0;
    for g in games.store.tournament_games_missing(&l.t.id).await? {
        match make_game(games, l, &g).await {
            Ok(true) => n += 1,
            Ok(false) => {}
            Err(e) => tracing::warn!("tournament {} game {:?}: {}", l.t.id, g.game_id, e.message),
        }
    }
    Ok(n)
}

/// Forfeits the games of the current round whose player to move has not made a first move
/// within the tournament's forfeit time.
async fn forfeits(games: &Games, l: &Loaded) -> ApiResult<usize> {
    let (Some(after), Some(r)) = (l.t.forfeit_after_ms, l.rounds.last()) else {
        return Ok(0);
    };
    if l.t.status != "running" || games.clock.now_ms() < r.started + after {
        return Ok(0);
    }
    let mut n = 0;
    for g in l.round_games(r.round_no) {
        let (Some(id), None) = (&g.game_id, &g.result) else {
            continue;
        };
        let slot = match games.slot(id).await {
            Ok(s) => s,
            Err(_) => continue,
        };
        let player = {
            let m = slot.m.lock().await;
            if m.finished {
                continue;
            }
            m.to_move()
        };
        if let Some(p) = player {
            if games.forfeit(&slot, p).await? {
                n += 1;
            }
        }
    }
    Ok(n)
}

/// Brings tournament `id` up to date: results of ended games, the next round paired (or the
/// tournament finished), missing games made, forfeits. Safe to call anywhere, any time.
pub async fn advance(games: &Games, id: &str) -> ApiResult<()> {
    // Rounds can follow one another at once (forfeits, withdrawals): a few passes at most.
    for _ in 0..4 {
        record_results(games, id).await?;
        let Some(l) = load(games, id).await? else {
            return Ok(());
        };
        if !matches!(l.t.status.as_str(), "running" | "paused") {
            return Ok(());
        }
        if make_missing(games, &l).await? > 0 {
            games_made(games, id).await;
        }
        if forfeits(games, &l).await? > 0 {
            continue;
        }
        if l.t.status != "running" || !l.last_round_done() {
            return Ok(());
        }
        let built = l.build().map_err(crate::error::ApiError::internal)?;
        let no = l.rounds.len() + 1;
        let finished = match &built {
            Built::Table(t) => no > t.total_rounds(),
            Built::Bracket(k) => k.is_finished(),
        };
        let paired = if finished {
            None
        } else {
            next_round(&l, &built, no)?
        };
        let Some((round_games, byes)) = paired else {
            if games
                .store
                .set_tournament_status(id, "running", "finished", games.clock.now_ms())
                .await?
            {
                tracing::info!("tournament {id} finished");
            }
            return Ok(());
        };
        let row = RoundRow {
            round_no: no as i64,
            started: games.clock.now_ms(),
            byes: byes.clone(),
        };
        let matches = team_matches(&l, &row, &round_games);
        if !games
            .store
            .insert_tournament_round(id, &row, &round_games, &matches)
            .await?
        {
            // Another instance paired it: it makes the games and tells the players.
            return Ok(());
        }
        tracing::info!("tournament {id}: round {no} paired");
        if !matches.is_empty() {
            // The team matches' own timers start them and tell their players.
            continue;
        }
        for g in &round_games {
            if let Err(e) = make_game(games, &l, g).await {
                tracing::warn!("tournament {id} game {:?}: {}", g.game_id, e.message);
            }
        }
        tell_players(games, &l, no, &round_games, &byes);
        games_made(games, id).await;
    }
    Ok(())
}

/// How long the clubs have to name their players between the pairing of a team
/// tournament's round and the start of its matches (docs/api.md, "Team tournaments").
pub const LINEUP_WINDOW_MS: i64 = 10 * 60 * 1000;

/// The team matches of a team tournament's round `r` (none for a tournament of players):
/// one per pairing with a match id, South's club at home, accepted already, starting
/// [`LINEUP_WINDOW_MS`] after the pairing with the tournament's variant, rules, clock and
/// rating, single games on every board.
fn team_matches(l: &Loaded, r: &RoundRow, games: &[TGameRow]) -> Vec<TeamMatchRow> {
    let Some(boards) = l.t.team_boards else {
        return Vec::new();
    };
    games
        .iter()
        .filter_map(|g| {
            Some(TeamMatchRow {
                id: g.team_match.clone()?,
                home: g.south.clone(),
                away: g.north.clone(),
                boards,
                variant: l.t.variant.clone(),
                rules: l.t.rules.clone(),
                match_format: MatchFormat::SingleGame.as_str().to_string(),
                clock: l.t.clock.clone(),
                rated: l.t.rated,
                starts_at: r.started + LINEUP_WINDOW_MS,
                status: "accepted".into(),
                proposer: l.t.organiser_id.clone(),
                created: r.started,
                tournament: Some((l.t.id.clone(), r.round_no)),
            })
        })
        .collect()
}

/// Publishes `TournamentRound` to every player of round `no`.
fn tell_players(games: &Games, l: &Loaded, no: usize, round: &[TGameRow], byes: &[String]) {
    let tell = |account: &str, game: Option<String>| {
        games.alerts.publish(Alert {
            to: Recipient::Account(account.to_string()),
            kind: AlertKind::TournamentRound {
                tournament: l.t.id.clone(),
                name: l.t.name.clone(),
                round: no as u32,
                game,
            },
        });
    };
    for g in round {
        for a in [&g.south, &g.north] {
            tell(a, g.game_id.clone());
        }
    }
    for b in byes {
        tell(b, None);
    }
}

/// Starts tournament `id` if it is open: `running` and round 1 paired, or `cancelled` with
/// fewer than two players. Exactly once (a conditional UPDATE of the status). Returns
/// whether this call started it.
pub async fn start(games: &Games, id: &str) -> ApiResult<bool> {
    let Some(t) = games.store.tournament(id).await? else {
        return Ok(false);
    };
    let now = games.clock.now_ms();
    if t.players < 2 {
        // Exactly once: only the call that moves it from open says so (the store's event).
        games
            .store
            .set_tournament_status(id, "open", "cancelled", now)
            .await?;
        return Ok(false);
    }
    let started = games
        .store
        .set_tournament_status(id, "open", "running", now)
        .await?;
    if started {
        advance(games, id).await?;
    }
    Ok(started)
}

/// A deadline of tournament `id` came: its start time (an open one starts) or its round's
/// forfeit time (brought up to date: the forfeits).
pub async fn due(games: &Games, id: &str) -> ApiResult<()> {
    let Some(t) = games.store.tournament(id).await? else {
        return Ok(());
    };
    match t.status.as_str() {
        "open" if t.starts_at.is_some_and(|at| at <= games.clock.now_ms()) => {
            start(games, id).await?;
        }
        "running" => advance(games, id).await?,
        _ => {}
    }
    Ok(())
}

/// One pass of the sweep: tournaments due to start, then every tournament in play.
pub async fn sweep(games: &Games) -> Result<(), StoreError> {
    let now = games.clock.now_ms();
    for id in games.store.tournaments_due(now).await? {
        if let Err(e) = start(games, &id).await {
            tracing::warn!("tournament {id} not started: {}", e.message);
        }
    }
    for id in games.store.tournaments_in_play().await? {
        if let Err(e) = advance(games, &id).await {
            tracing::warn!("tournament {id}: {}", e.message);
        }
    }
    Ok(())
}

/// Publishes [`Event::Tournament`] for `id` once a round's games exist. Every change of a
/// tournament publishes it with its write (the store does), but the round's row is written
/// before its games are made, so its pages hear a second time that the games can be opened.
/// A failure is logged: the next event, and the safety sweep, catch up.
async fn games_made(games: &Games, id: &str) {
    let event = Event::Tournament { id: id.to_string() };
    if let Err(e) = games.store.publish(vec![event]).await {
        tracing::warn!("tournament {id}: the change was not published: {e}");
    }
}

/// Whether a clock is a live one (real time), for forfeits.
pub fn live(c: &TimeControl) -> bool {
    matches!(c, TimeControl::Real { .. })
}
