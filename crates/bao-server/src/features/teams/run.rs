//! Running team matches: the start at `starts_at` (the boards and their games) and the
//! results from the games' ends. Each step may run on any instance at any time: the store's
//! conditions let it happen once (see crate::store's teams module).

use crate::domain::events::Event;
use crate::domain::model::{EventKind, GameEvent, Match};
use crate::error::{ApiError, ApiResult};
use crate::game::{Alert, AlertKind, Games, NewPair, PairSeat, Recipient};
use crate::store::{TeamBoardRow, TeamMatchRow};
use crate::util;
use bao_rules::{MatchFormat, Position, RecordResult, Side};

/// The boards of match `m` from its lineups: board i is home[i] against away[i]; a board
/// with a player missing is lost by forfeit by that side (no game), one with neither
/// player counts for nobody (`none`).
pub fn boards_of(
    m: &TeamMatchRow,
    home: &[Option<String>],
    away: &[Option<String>],
) -> Vec<TeamBoardRow> {
    (1..=m.boards)
        .map(|no| {
            let at = |side: &[Option<String>]| side.get(no as usize - 1).cloned().flatten();
            let (h, a) = (at(home), at(away));
            let (game_id, result) = match (&h, &a) {
                (Some(_), Some(_)) => (Some(util::new_game_id()), None),
                (Some(_), None) => (None, Some("home")),
                (None, Some(_)) => (None, Some("away")),
                (None, None) => (None, Some("none")),
            };
            TeamBoardRow {
                board: no,
                home_id: h,
                away_id: a,
                game_id,
                result: result.map(str::to_string),
                ..Default::default()
            }
        })
        .collect()
}

/// Starts match `id` if it is accepted and its time has come: exactly once across
/// instances (the store's conditional UPDATE); the instance that started it makes the games
/// and tells the players. Returns whether this call started it.
pub async fn start(games: &Games, id: &str) -> ApiResult<bool> {
    let Some(m) = games.store.team_match(id).await? else {
        return Ok(false);
    };
    let now = games.clock.now_ms();
    if m.status != "accepted" || m.starts_at > now {
        return Ok(false);
    }
    let lineups = games.store.team_lineups(id).await?;
    let side = |s: &str| {
        let mut v: Vec<Option<String>> = vec![None; m.boards as usize];
        for l in lineups.iter().filter(|l| l.side == s) {
            if let Some(slot) = v.get_mut(l.board as usize - 1) {
                *slot = Some(l.account_id.clone());
            }
        }
        v
    };
    let boards = boards_of(&m, &side("home"), &side("away"));
    if !games.store.start_team_match(id, &boards, now).await? {
        return Ok(false);
    }
    tracing::info!("team match {id} started");
    let names: std::collections::HashMap<String, String> = lineups
        .iter()
        .map(|l| (l.account_id.clone(), l.username.clone()))
        .collect();
    for b in &boards {
        let (Some(g), Some(h), Some(a)) = (&b.game_id, &b.home_id, &b.away_id) else {
            continue;
        };
        if let Err(e) = make_game(games, &m, b.board, g, [h, a], &names).await {
            tracing::warn!("team match {id} board {}: {}", b.board, e.message);
        }
    }
    // The boards were written before their games were made: the match page hears a second
    // time, now that the games can be opened (a failure is caught up by the next event).
    let event = Event::TeamMatch { id: id.to_string() };
    if let Err(e) = games.store.publish(vec![event]).await {
        tracing::warn!("team match {id}: the start was not published: {e}");
    }
    Ok(true)
}

/// Makes the game of board `no`: the home player South on odd boards, North on even ones.
async fn make_game(
    games: &Games,
    m: &TeamMatchRow,
    no: i64,
    game: &str,
    [home, away]: [&String; 2],
    names: &std::collections::HashMap<String, String>,
) -> ApiResult<()> {
    let variant = crate::edge::terms::parse_variant(&m.variant)?;
    let mut rules = crate::edge::terms::parse_rules(variant, &m.rules)?;
    rules.match_format = crate::edge::terms::parse_match(&m.match_format)?;
    let clock = crate::edge::terms::parse_clock(Some(
        &serde_json::from_str(&m.clock).map_err(ApiError::internal)?,
    ))?;
    let (south, north) = if no % 2 == 1 {
        (home, away)
    } else {
        (away, home)
    };
    // The game's page names the match (the clubs) and its board, and links back.
    let mut clubs = Vec::new();
    for c in [&m.home, &m.away] {
        clubs.push(
            games
                .store
                .club(c)
                .await?
                .map(|c| c.name)
                .unwrap_or_default(),
        );
    }
    let event = GameEvent {
        kind: EventKind::TeamMatch,
        id: m.id.clone(),
        name: clubs.join(" – "),
        round: u32::try_from(no).ok(),
    };
    let name = |a: &str| names.get(a).cloned().unwrap_or_default();
    let seat = |a: &str| PairSeat {
        name: name(a),
        account: Some(a.to_string()),
        token_hash: None,
    };
    games
        .create_pair(NewPair {
            start: Position::start(&rules),
            rules,
            players: [seat(south), seat(north)],
            first_side: Side::South,
            clock,
            rated: m.rated,
            id: Some(game.to_string()),
            event: Some(event),
            // The match page follows its boards.
            news: vec![Event::TeamMatch { id: m.id.clone() }],
        })
        .await?;
    // Told as for a tournament round: the player socket and My games hear of the game
    // from its making (GameMade), the players who allow it by Web Push from this alert.
    for (me, them) in [(south, north), (north, south)] {
        games.alerts.publish(Alert {
            to: Recipient::Account(me.to_string()),
            kind: AlertKind::GameStart {
                game: game.to_string(),
                opponent: name(them),
            },
        });
    }
    Ok(())
}

/// `S`, `N` or `draw`: who won an ended game (for a best of three, the match).
fn winner_side(m: &Match) -> &'static str {
    if m.format == MatchFormat::BestOfThree {
        match m.wins[0].cmp(&m.wins[1]) {
            std::cmp::Ordering::Greater => "S",
            std::cmp::Ordering::Less => "N",
            std::cmp::Ordering::Equal => "draw",
        }
    } else {
        match m.current.result {
            RecordResult::Win(Side::South) => "S",
            RecordResult::Win(Side::North) => "N",
            _ => "draw",
        }
    }
}

/// Records the result of game `game` on its board, if it is a board's and has ended.
pub async fn game_ended(games: &Games, game: &str) -> ApiResult<()> {
    let Some(id) = games.store.team_match_of_game(game).await? else {
        return Ok(());
    };
    // Fresh from the database: the game may have ended on another instance.
    let Some(m) = games.store.load(game).await? else {
        return Ok(());
    };
    if !m.finished {
        return Ok(());
    }
    let boards = games.store.team_boards(&id).await?;
    let Some(b) = boards.iter().find(|b| b.game_id.as_deref() == Some(game)) else {
        return Ok(());
    };
    // Odd boards: home South.
    let home_south = b.board % 2 == 1;
    let result = match (winner_side(&m), home_south) {
        ("draw", _) => "draw",
        ("S", true) | ("N", false) => "home",
        _ => "away",
    };
    games
        .store
        .record_team_result(game, result, games.clock.now_ms())
        .await?;
    Ok(())
}

/// The safety sweep: matches whose time came (a timer lost with a crashed instance), the
/// games of a started match its instance stopped before making, results not recorded
/// (an observer's message lost), and running matches with every result in (finished by the
/// one write that finishes a match, which tells a team tournament).
pub async fn sweep(games: &Games) {
    let now = games.clock.now_ms();
    match games.store.team_matches_accepted().await {
        Ok(all) => {
            for (id, at) in all {
                if at <= now {
                    if let Err(e) = start(games, &id).await {
                        tracing::warn!("team match {id} not started: {}", e.message);
                    }
                }
            }
        }
        Err(e) => tracing::warn!("team matches: {e}"),
    }
    match games.store.team_boards_missing().await {
        Ok(missing) => {
            for (id, board) in missing {
                if let Err(e) = make_missing(games, &id, board).await {
                    tracing::warn!("team match {id} board {board}: {}", e.message);
                }
            }
        }
        Err(e) => tracing::warn!("team matches: {e}"),
    }
    match games.store.team_games_unrecorded().await {
        Ok(ids) => {
            for g in ids {
                if let Err(e) = game_ended(games, &g).await {
                    tracing::warn!("team match game {g}: {}", e.message);
                }
            }
        }
        Err(e) => tracing::warn!("team matches: {e}"),
    }
    match games.store.team_matches_all_recorded().await {
        Ok(ids) => {
            for id in ids {
                match games
                    .store
                    .finish_team_match(&id, games.clock.now_ms())
                    .await
                {
                    Ok(true) => tracing::warn!("team match {id}: finished, left running"),
                    Ok(false) => {}
                    Err(e) => tracing::warn!("team match {id} not finished: {e}"),
                }
            }
        }
        Err(e) => tracing::warn!("team matches: {e}"),
    }
}

/// Makes the game of board `board` of running match `id`, paired but never made: under the
/// id the start chose, so that two instances sweeping at once make it once (a taken id is
/// refused).
async fn make_missing(games: &Games, id: &str, board: i64) -> ApiResult<()> {
    let Some(m) = games.store.team_match(id).await? else {
        return Ok(());
    };
    let boards = games.store.team_boards(id).await?;
    let Some(b) = boards.iter().find(|b| b.board == board) else {
        return Ok(());
    };
    let (Some(g), Some(h), Some(a)) = (&b.game_id, &b.home_id, &b.away_id) else {
        return Ok(());
    };
    let names: std::collections::HashMap<String, String> = [
        (h.clone(), b.home_name.clone().unwrap_or_default()),
        (a.clone(), b.away_name.clone().unwrap_or_default()),
    ]
    .into();
    match make_game(games, &m, board, g, [h, a], &names).await {
        Ok(()) => {
            tracing::warn!("team match {id} board {board}: made the game a stopped instance left");
            Ok(())
        }
        Err(e) if e.status == axum::http::StatusCode::CONFLICT => Ok(()),
        Err(e) => Err(e),
    }
}
