//! Team battles (docs/api.md, "Arenas", "Team battles"): an arena among 2 to 10 clubs. Only
//! their members join, each for one club (chosen once); a club scores the sum of its N best
//! players' arena scores. Pairing, scoring and the running of the arena are the arena's own:
//! this part checks the clubs at creation, the club at joining, and adds the clubs' ranking
//! to the views. Membership is asked of the store (a feature never imports another).

use super::state::Loaded;
use crate::error::{ApiError, ApiResult, Category};
use crate::game::Games;
use crate::store::{ArenaRow, BattleRow, ClubChoice, StoreError};
use crate::util;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::ops::RangeInclusive;

/// A battle has 2 to 10 clubs.
pub const CLUBS: RangeInclusive<usize> = 2..=10;
/// A club scores its 1 to 20 best players.
pub const LEADERS: RangeInclusive<i64> = 1..=20;
/// Club ids are short; a longer one names nothing and is not looked up.
const MAX_CLUB_ID: usize = 40;

/// `"battle"` of `POST /api/arenas`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleReq {
    clubs: Vec<String>,
    leaders: i64,
}

/// A battle checked: ready to store.
pub struct Checked {
    leaders: i64,
    clubs: Vec<(String, String)>,
}

/// Checks a battle made by `maker` (docs/api.md, "Team battles"): 2 to 10 distinct clubs
/// that exist (400, 404), N 1 to 20 (400), the maker a leader or admin of at least one of
/// them (403).
pub async fn check(games: &Games, maker: &str, req: &BattleReq) -> ApiResult<Checked> {
    if !CLUBS.contains(&req.clubs.len()) {
        return Err(ApiError::bad_request(format!(
            "battle.clubs names {} to {} clubs",
            CLUBS.start(),
            CLUBS.end()
        )));
    }
    let mut seen = HashSet::new();
    if let Some(twice) = req.clubs.iter().find(|c| !seen.insert(c.as_str())) {
        return Err(ApiError::bad_request(format!(
            "battle.clubs names club {twice} twice"
        )));
    }
    if !LEADERS.contains(&req.leaders) {
        return Err(ApiError::bad_request(format!(
            "battle.leaders is {} to {}",
            LEADERS.start(),
            LEADERS.end()
        )));
    }
    let mut clubs = Vec::with_capacity(req.clubs.len());
    for id in &req.clubs {
        let club = if id.len() > MAX_CLUB_ID {
            None
        } else {
            // A dissolved club plays no more.
            games
                .store
                .club(id)
                .await?
                .filter(|c| c.dissolved.is_none())
        };
        let Some(club) = club else {
            return Err(ApiError::not_found(format!(
                "battle.clubs: there is no club {id}"
            )));
        };
        clubs.push((club.id, club.name));
    }
    let mut leads = false;
    for (id, _) in &clubs {
        let role = games.store.club_role(id, maker).await?;
        if matches!(role.as_deref(), Some("leader" | "admin")) {
            leads = true;
            break;
        }
    }
    if !leads {
        return Err(ApiError::forbidden(
            "only a leader or admin of one of the battle's clubs makes a team battle",
        ));
    }
    Ok(Checked {
        leaders: req.leaders,
        clubs,
    })
}

/// Stores arena `row` with its battle `b`: the battle's rows first, then the arena's (which
/// makes it seen). Ids are random; a clash only draws again.
pub async fn create(games: &Games, row: &mut ArenaRow, b: &Checked) -> ApiResult<()> {
    for _ in 0..4 {
        if !games
            .store
            .create_battle(&row.id, b.leaders, &b.clubs)
            .await?
        {
            row.id = util::random_code(10);
            continue;
        }
        match games.store.create_arena(row).await {
            Ok(()) => return Ok(()),
            Err(StoreError::Conflict(_)) => {
                games.store.drop_battle(&row.id).await?;
                row.id = util::random_code(10);
            }
            Err(e) => {
                games.store.drop_battle(&row.id).await?;
                return Err(e.into());
            }
        }
    }
    Err(ApiError::conflict("the arena id is taken"))
}

fn name_of(b: &BattleRow, club: &str) -> String {
    b.clubs
        .iter()
        .find(|(id, _)| id == club)
        .map_or_else(|| club.to_string(), |(_, n)| n.clone())
}

/// Which club `account` joins battle `arena_id` for (docs/api.md, "Team battles"): `asked`
/// (`{"club": ID}`), else the one chosen before, else the one battle club the player is a
/// member of. The choice is written once, only for a member. Returns the club's id.
pub async fn choose(
    games: &Games,
    arena_id: &str,
    b: &BattleRow,
    account: &str,
    asked: Option<&str>,
) -> ApiResult<String> {
    let club = match (asked, b.players.get(account)) {
        (Some(c), _) => {
            if !b.clubs.iter().any(|(id, _)| id == c) {
                return Err(ApiError::bad_request(format!(
                    "club {c} is not in this battle"
                )));
            }
            c.to_string()
        }
        (None, Some(c)) => c.clone(),
        (None, None) => {
            let mine: Vec<String> = games
                .store
                .clubs_of(account)
                .await?
                .into_iter()
                .map(|(id, _, _)| id)
                .filter(|id| b.clubs.iter().any(|(c, _)| c == id))
                .collect();
            match mine.as_slice() {
                [] => return Err(not_member()),
                [one] => one.clone(),
                _ => return Err(ApiError::bad_request(
                    "you belong to several of this battle's clubs: say which with {\"club\": ID}",
                )),
            }
        }
    };
    match games
        .store
        .choose_battle_club(arena_id, account, &club)
        .await?
    {
        ClubChoice::Chosen => Ok(club),
        ClubChoice::Refused => Err(not_member()),
        ClubChoice::Other(c) => Err(ApiError::of(
            Category::Conflict,
            format!(
                "you play for {} in this battle: the choice is final",
                name_of(b, &c)
            ),
        )),
    }
}

fn not_member() -> ApiError {
    ApiError::forbidden("only members of the battle's clubs join it")
}

/// One club's standing: its players in the arena's order, its score.
struct ClubStanding<'a> {
    id: &'a str,
    name: &'a str,
    score: i64,
    players: usize,
    leaders: Vec<(String, i64)>,
}

/// The clubs ranked (docs/api.md, "Team battles"): a club's score is the sum of its
/// `leaders` best players' scores; equal scores share a rank, in the order the maker named
/// them.
fn clubs_ranked<'a>(l: &Loaded, b: &'a BattleRow) -> Vec<(usize, ClubStanding<'a>)> {
    let ranked = l.ranked();
    let mut clubs: Vec<ClubStanding> = b
        .clubs
        .iter()
        .map(|(id, name)| {
            // The arena's standings order: by score, then rating, then joining.
            let members: Vec<(String, i64)> = ranked
                .iter()
                .filter(|(p, _)| b.players.get(&p.account_id).map(String::as_str) == Some(id))
                .map(|(p, s)| (p.username.clone(), s.score))
                .collect();
            let leaders: Vec<(String, i64)> =
                members.iter().take(b.leaders as usize).cloned().collect();
            ClubStanding {
                id,
                name,
                score: leaders.iter().map(|(_, s)| s).sum(),
                players: members.len(),
                leaders,
            }
        })
        .collect();
    clubs.sort_by_key(|c| std::cmp::Reverse(c.score));
    let mut rank = 0;
    let mut last = None;
    clubs
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            if last != Some(c.score) {
                rank = i + 1;
                last = Some(c.score);
            }
            (rank, c)
        })
        .collect()
}

/// The club `account` plays for in battle `b`: `{"id", "name"}`, or null.
pub fn club_of(b: &BattleRow, account: &str) -> Value {
    b.players
        .get(account)
        .map_or(Value::Null, |c| json!({"id": c, "name": name_of(b, c)}))
}

/// Adds the battle to `GET /api/arenas/{id}`'s `v` (nothing for a plain arena): `battle`,
/// each standings row's `club`, and `you.club` (the viewer's club in it) and `you.clubs`
/// (the battle's clubs the viewer may join for).
pub async fn detail(
    games: &Games,
    l: &Loaded,
    viewer: Option<&str>,
    v: &mut Value,
) -> ApiResult<()> {
    let Some(b) = games.store.arena_battle(&l.a.id).await? else {
        return Ok(());
    };
    let club = |account: &str| club_of(&b, account);
    // The standings' rows are in `ranked` order (state::detail).
    if let Some(rows) = v["standings"].as_array_mut() {
        for (row, (p, _)) in rows.iter_mut().zip(l.ranked()) {
            row["club"] = club(&p.account_id);
        }
    }
    let clubs: Vec<Value> = clubs_ranked(l, &b)
        .into_iter()
        .map(|(rank, c)| {
            json!({
                "rank": rank,
                "id": c.id,
                "name": c.name,
                "score": c.score,
                "players": c.players,
                "leaders": c.leaders.iter()
                    .map(|(u, s)| json!({"username": u, "score": s}))
                    .collect::<Vec<_>>(),
            })
        })
        .collect();
    v["battle"] = json!({"leaders": b.leaders, "clubs": clubs});
    if let Some(me) = viewer {
        let mine: Vec<Value> = games
            .store
            .clubs_of(me)
            .await?
            .into_iter()
            .filter(|(id, _, _)| b.clubs.iter().any(|(c, _)| c == id))
            .map(|(id, _, _)| json!({"id": id, "name": name_of(&b, &id)}))
            .collect();
        v["you"]["club"] = club(me);
        v["you"]["clubs"] = json!(mine);
    } else {
        v["you"]["club"] = Value::Null;
        v["you"]["clubs"] = json!([]);
    }
    Ok(())
}

/// The battle of one line of `GET /api/arenas`: `{"leaders", "clubs": [{"id", "name"}]}`, or
/// `None` for a plain arena.
pub async fn summary(games: &Games, arena_id: &str) -> ApiResult<Option<Value>> {
    Ok(games.store.arena_battle(arena_id).await?.map(|b| {
        json!({
            "leaders": b.leaders,
            "clubs": b.clubs.iter().map(|(id, name)| json!({"id": id, "name": name})).collect::<Vec<_>>(),
        })
    }))
}
