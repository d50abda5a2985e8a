//! Running arenas: results taken from ended games, waiting players paired again, the start
//! and the end. [`advance`] does it for one arena and may run on any instance at any time:
//! every step is exactly once through the store's conditions (a pairing claims both
//! players, see crate::store's arenas module), so two instances pairing at once make each
//! player at most one game.

use super::state::Loaded;
use crate::domain::events::Event;
use crate::domain::model::{EventKind, GameEvent, Match, TimeControl};
use crate::error::{ApiError, ApiResult};
use crate::game::{Alert, AlertKind, Recipient};
use crate::game::{Games, NewPair, PairSeat};
use crate::store::{ArenaGameRow, ArenaPlayerRow, ArenaRow, Claim, StoreError};
use crate::util;
use bao_rules::{MatchFormat, Position, RecordResult, Side};
use std::collections::HashMap;

/// Reads everything stored about arena `id`.
pub async fn load(games: &Games, id: &str) -> ApiResult<Option<Loaded>> {
    let store = &games.store;
    let Some(a) = store.arena(id).await? else {
        return Ok(None);
    };
    let clock = serde_json::from_str(&a.clock).map_err(ApiError::internal)?;
    Ok(Some(Loaded {
        clock,
        players: store.arena_players(id).await?,
        games: store.arena_games(id).await?,
        a,
    }))
}

/// How long before the end no new game is made (docs/api.md, "Arenas"): one player's whole
/// clock with twenty moves' increments. Most games end well within it (both players rarely
/// use all their time), and a game made later would likely still run at the end.
pub fn last_pairing_ms(c: &TimeControl) -> i64 {
    match *c {
        TimeControl::Real {
            initial_ms,
            increment_ms,
        } => initial_ms + 20 * increment_ms,
        // Arenas are real time (refused at creation).
        TimeControl::Days { .. } => i64::MAX / 4,
    }
}

/// The result of an ended arena game: `S`, `N` or `draw`, and its termination.
fn result_of(m: &Match) -> (String, Option<String>) {
    let r = match m.current.result {
        RecordResult::Win(Side::South) => "S",
        RecordResult::Win(Side::North) => "N",
        _ => "draw",
    };
    (
        r.to_string(),
        m.current.termination.map(|t| t.as_str().to_string()),
    )
}

/// Records the result of arena game `gid` if it has ended (fresh from the database: it may
/// have ended on another instance); `true` when this call recorded it.
pub async fn record(games: &Games, gid: &str) -> ApiResult<bool> {
    let Some(m) = games.store.load(gid).await? else {
        return Ok(false);
    };
    if !m.finished {
        return Ok(false);
    }
    let (r, t) = result_of(&m);
    Ok(games
        .store
        .record_arena_result(gid, &r, t.as_deref(), games.clock.now_ms())
        .await?)
}

/// The pairs to make among the waiting players of `l` at `now` (docs/api.md, "Arenas"):
/// close in score, then in rating; never the opponent of one's last game again while
/// anyone else is in the arena; none in the last moments. `(south, north)` account ids.
pub fn pairs(l: &Loaded, now: i64) -> Vec<(String, String)> {
    if l.a.status != "running" || now + last_pairing_ms(&l.clock) > l.a.ends_at {
        return Vec::new();
    }
    let scores = l.scores();
    let score = |p: &ArenaPlayerRow| scores.get(p.account_id.as_str()).map_or(0, |s| s.score);
    let mut waiting: Vec<&ArenaPlayerRow> = l
        .players
        .iter()
        .filter(|p| !p.paused && p.game_id.is_none())
        .collect();
    waiting.sort_by(|a, b| {
        score(b)
            .cmp(&score(a))
            .then(b.rating.unwrap_or(0).cmp(&a.rating.unwrap_or(0)))
            .then(a.joined.cmp(&b.joined))
    });
    // Two players alone in the arena may meet again: there is nobody else to wait for.
    let active = l.players.iter().filter(|p| !p.paused).count();
    let again = |a: &ArenaPlayerRow, b: &ArenaPlayerRow| {
        a.last_opponent.as_deref() == Some(b.account_id.as_str())
            || b.last_opponent.as_deref() == Some(a.account_id.as_str())
    };
    // Who played South more often plays North.
    let mut south: HashMap<&str, i64> = HashMap::new();
    for g in &l.games {
        *south.entry(g.south.as_str()).or_default() += 1;
        *south.entry(g.north.as_str()).or_default() -= 1;
    }
    let mut used = vec![false; waiting.len()];
    let mut out = Vec::new();
    for i in 0..waiting.len() {
        if used[i] {
            continue;
        }
        let Some(j) = (i + 1..waiting.len())
            .find(|&j| !used[j] && (active <= 2 || !again(waiting[i], waiting[j])))
        else {
            continue;
        };
        used[i] = true;
        used[j] = true;
        let (a, b) = (&waiting[i].account_id, &waiting[j].account_id);
        let sa = south.get(a.as_str()).copied().unwrap_or(0);
        let sb = south.get(b.as_str()).copied().unwrap_or(0);
        if sa <= sb {
            out.push((a.clone(), b.clone()));
        } else {
            out.push((b.clone(), a.clone()));
        }
    }
    out
}

/// Makes the server game of arena game `g` under its chosen id; `false` when it exists
/// already (made by another instance).
async fn make_game(games: &Games, l: &Loaded, g: &ArenaGameRow) -> ApiResult<bool> {
    let variant = crate::edge::terms::parse_variant(&l.a.variant)?;
    let mut rules = crate::edge::terms::parse_rules(variant, &l.a.rules)?;
    rules.match_format = MatchFormat::SingleGame;
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
            rated: l.a.rated,
            id: Some(g.game_id.clone()),
            // The game's page names the arena and links back.
            event: Some(GameEvent {
                kind: EventKind::Arena,
                id: l.a.id.clone(),
                name: l.a.name.clone(),
                round: None,
            }),
            // One event for the whole wave once its games exist ([`advance`]).
            news: Vec::new(),
        })
        .await;
    match made {
        Ok(_) => Ok(true),
        Err(e) if e.status == axum::http::StatusCode::CONFLICT => Ok(false),
        Err(e) => Err(e),
    }
}

/// Server games made at once by one wave: the store's single writer commits them together
/// (one disk sync for many), while the reads of their players' accounts run side by side.
const MAKE_AT_ONCE: usize = 128;

/// Brings arena `id` up to date: results of ended games, missing games made, the waiting
/// players paired. Safe to call anywhere, any time. A wave of pairs is one transaction and
/// one event, and its games are made together (docs/api.md, "Arenas", "Measured": a wave
/// of 1,000 waiting players).
pub async fn advance(games: &Games, id: &str) -> ApiResult<()> {
    for gid in games.store.arena_games_ended(id).await? {
        record(games, &gid).await?;
    }
    let Some(l) = load(games, id).await? else {
        return Ok(());
    };
    let missing = games.store.arena_games_missing(id).await?;
    let now = games.clock.now_ms();
    let wave: Vec<ArenaGameRow> = pairs(&l, now)
        .into_iter()
        .map(|(south, north)| ArenaGameRow {
            game_id: util::new_game_id(),
            south,
            north,
            started: now,
            result: None,
            termination: None,
            berserk_s: false,
            berserk_n: false,
        })
        .collect();
    let claims = games.store.pair_arena_wave(id, &wave).await?;
    // A claim Taken: another instance paired one of them first.
    let paired = wave
        .into_iter()
        .zip(claims)
        .filter(|(_, c)| *c == Claim::Paired)
        .map(|(g, _)| g);
    let to_make: Vec<ArenaGameRow> = missing.into_iter().chain(paired).collect();
    let mut made = 0;
    for chunk in to_make.chunks(MAKE_AT_ONCE) {
        let mut at_once = Vec::with_capacity(chunk.len());
        for g in chunk {
            at_once.push(make_game(games, &l, g));
        }
        for r in futures_util::future::join_all(at_once).await {
            match r {
                Ok(true) => made += 1,
                Ok(false) => {}
                Err(e) => tracing::warn!("arena {id}: a game was not made: {}", e.message),
            }
        }
    }
    if made > 0 {
        // The pairing's event came before its games existed: the pages hear again that
        // they can be opened.
        if let Err(e) = games
            .store
            .publish(vec![Event::Arena { id: id.into() }])
            .await
        {
            tracing::warn!("arena {id}: the change was not published: {e}");
        }
    }
    Ok(())
}

/// A deadline of arena `id` came: its reminder (its players told, five minutes ahead), its
/// start (it runs and pairs its players, and its series' next arena is made) or its end.
pub async fn due(games: &Games, id: &str) -> ApiResult<()> {
    let Some(a) = games.store.arena(id).await? else {
        return Ok(());
    };
    let now = games.clock.now_ms();
    match a.status.as_str() {
        "upcoming" if a.starts_at <= now => {
            if games
                .store
                .set_arena_status(id, "upcoming", "running", now)
                .await?
            {
                tracing::info!("arena {id} started");
            }
            advance(games, id).await?;
            if a.series.is_some() {
                series(games).await?;
            }
        }
        "upcoming" if a.starts_at - super::REMIND_MS <= now => remind(games, &a).await?,
        "running"
            if a.ends_at <= now
                && games
                    .store
                    .set_arena_status(id, "running", "finished", now)
                    .await? =>
        {
            tracing::info!("arena {id} finished");
        }
        _ => {}
    }
    Ok(())
}

/// Tells the players of upcoming arena `a` that it starts soon (Web Push, docs/api.md,
/// "Arenas"): exactly once across instances, by the instance whose store write marked it.
async fn remind(games: &Games, a: &ArenaRow) -> ApiResult<()> {
    let Some(to) = games.store.remind_arena(&a.id).await? else {
        return Ok(());
    };
    if !to.is_empty() {
        games.alerts.publish(Alert {
            to: Recipient::Accounts(to),
            kind: AlertKind::ArenaSoon {
                arena: a.id.clone(),
                name: a.name.clone(),
            },
        });
    }
    Ok(())
}

/// Makes the next arena of every series whose newest arena has started (docs/api.md,
/// "Arenas": the next one exists a whole period ahead). Exactly once across instances: the
/// store's write moves the series on only from the start it read. After a long stop, the
/// next start is the first one still ahead.
pub async fn series(games: &Games) -> ApiResult<()> {
    let now = games.clock.now_ms();
    for (sid, last_start) in games.store.arena_series_due(now).await? {
        let Some(newest) = games.store.arena_series_newest(&sid).await? else {
            continue;
        };
        let Some(every) = newest.repeats.as_deref().and_then(super::repeat_ms) else {
            continue;
        };
        let mut starts_at = last_start + every;
        while starts_at <= now {
            starts_at += every;
        }
        let next = ArenaRow {
            id: util::random_code(10),
            status: "upcoming".into(),
            starts_at,
            ends_at: starts_at + (newest.ends_at - newest.starts_at),
            created: now,
            updated: now,
            ..newest
        };
        match games.store.next_in_series(last_start, &next).await {
            Ok(true) => tracing::info!("arena series {sid}: {} made", next.id),
            Ok(false) => {}
            Err(e) => tracing::warn!("arena series {sid}: {e}"),
        }
    }
    Ok(())
}

/// One pass of the safety sweep: every arena not finished is brought up to date (its
/// deadline acted on if it passed), and every series' next arena made, repairing what a
/// crashed instance left.
pub async fn sweep(games: &Games) -> Result<(), StoreError> {
    for (id, _) in games.store.arena_deadlines(None, super::REMIND_MS).await? {
        if let Err(e) = due(games, &id).await {
            tracing::warn!("arena {id}: {}", e.message);
        }
        if let Err(e) = advance(games, &id).await {
            tracing::warn!("arena {id}: {}", e.message);
        }
    }
    if let Err(e) = series(games).await {
        tracing::warn!("arena series: {}", e.message);
    }
    Ok(())
}
