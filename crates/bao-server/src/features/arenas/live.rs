//! Live standings (docs/api.md, "Arenas", "Live standings"): for each arena that sockets of
//! this instance follow (`?arena=ID`), one task computes the standings once per change and
//! publishes them through the core's feeds ([`crate::edge::feeds`]): one shared message,
//! already serialized (the top [`TOP`] rows, the podium, the count, the battle), and one
//! small message per following account (its own row, wherever it ranks, and its game). At
//! most one computation is in flight per arena; the changes that came meanwhile are
//! coalesced into the next one (the latest state wins).

use super::{battle, run, state};
use crate::domain::events::Event;
use crate::edge::feeds::{Feed, Feeds};
use crate::error::ApiResult;
use crate::game::Games;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};

/// Rows of the shared message.
pub const TOP: usize = 100;
/// A task whose arena nobody follows any more stops within this long at most.
const IDLE_CHECK: Duration = Duration::from_secs(20);

/// The feed key of arena `id`.
pub fn key(id: &str) -> String {
    format!("r:{id}")
}

/// The messages of arena `id` for the accounts `viewers`; `None` when it does not exist.
pub async fn compute(games: &Games, id: &str, viewers: &[String]) -> ApiResult<Option<Feed>> {
    let Some(l) = run::load(games, id).await? else {
        return Ok(None);
    };
    let ranks = state::ranks(&l);
    let top: Vec<Value> = ranks
        .iter()
        .take(TOP)
        .map(|(r, p, s)| state::row(*r, p, s))
        .collect();
    // A battle names each row's club, as in the view (the rows are a prefix of its order).
    let mut b = json!({"standings": top, "you": {}});
    battle::detail(games, &l, None, &mut b).await?;
    let top: Vec<Value> = b["standings"].as_array().cloned().unwrap_or_default();
    let podium: Vec<Value> = top.iter().take(3).cloned().collect();
    let shared = json!({
        "type": "standings",
        "id": l.a.id,
        "status": l.a.status,
        "starts_at": l.a.starts_at,
        "ends_at": l.a.ends_at,
        "now": games.clock.now_ms(),
        "players": l.players.len(),
        "finished": l.games.iter().filter(|g| g.result.is_some()).count(),
        "top": top,
        "podium": podium,
        "battle": b.get("battle").cloned().unwrap_or(Value::Null),
    });
    // In a battle, each player's own row names their club too, as the top rows do.
    let battle_row = if b.get("battle").is_some_and(|x| !x.is_null()) && !viewers.is_empty() {
        games.store.arena_battle(&l.a.id).await?
    } else {
        None
    };
    let wanted: HashSet<&str> = viewers.iter().map(String::as_str).collect();
    let mut mine = HashMap::new();
    for (r, p, s) in &ranks {
        if !wanted.contains(p.account_id.as_str()) {
            continue;
        }
        let game = p.game_id.as_ref().and_then(|g| {
            l.games.iter().find(|x| &x.game_id == g).map(|x| {
                json!({"game": x.game_id, "S": l.name_of(&x.south), "N": l.name_of(&x.north),
                       "result": x.result, "berserk": {"S": x.berserk_s, "N": x.berserk_n}})
            })
        });
        let mut row = state::row(*r, p, s);
        if let Some(br) = &battle_row {
            row["club"] = battle::club_of(br, &p.account_id);
        }
        let msg = json!({
            "type": "standings_you",
            "id": l.a.id,
            "row": row,
            "you": {"joined": true, "paused": p.paused, "game": p.game_id},
            "game": game,
        });
        mine.insert(p.account_id.clone(), msg.to_string().into());
    }
    Ok(Some(Feed {
        shared: shared.to_string().into(),
        mine,
    }))
}

/// Starts the task that starts one task per followed arena (ends when the games are
/// dropped).
pub fn spawn(games: &Arc<Games>) -> tokio::task::JoinHandle<()> {
    let feeds = games.feeds.clone();
    let mut wanted = feeds.wanted();
    let weak = Arc::downgrade(games);
    let running: Arc<Mutex<HashSet<String>>> = Arc::default();
    tokio::spawn(async move {
        for k in feeds.keys() {
            start(&weak, &feeds, &running, k);
        }
        loop {
            match wanted.recv().await {
                Ok(k) => start(&weak, &feeds, &running, k),
                Err(RecvError::Lagged(_)) => {
                    for k in feeds.keys() {
                        start(&weak, &feeds, &running, k);
                    }
                }
                Err(RecvError::Closed) => return,
            }
        }
    })
}

fn start(weak: &Weak<Games>, feeds: &Arc<Feeds>, running: &Arc<Mutex<HashSet<String>>>, k: String) {
    let Some(id) = k.strip_prefix("r:").map(str::to_string) else {
        return;
    };
    if !running.lock().is_ok_and(|mut r| r.insert(k.clone())) {
        return;
    }
    tokio::spawn(follow(weak.clone(), feeds.clone(), running.clone(), k, id));
}

/// Whether the task of `k` stops: nobody follows it (checked under `running`'s lock, so
/// that a socket that starts following meanwhile finds either this task or a new one).
fn done(feeds: &Feeds, running: &Mutex<HashSet<String>>, k: &str) -> bool {
    let Ok(mut r) = running.lock() else {
        return true;
    };
    if feeds.viewers(k).is_some() {
        return false;
    }
    r.remove(k);
    true
}

/// One followed arena's task.
async fn follow(
    weak: Weak<Games>,
    feeds: Arc<Feeds>,
    running: Arc<Mutex<HashSet<String>>>,
    k: String,
    id: String,
) {
    let Some(mut events) = weak.upgrade().map(|g| g.store.subscribe()) else {
        return;
    };
    loop {
        let Some((viewers, joined)) = feeds.viewers(&k) else {
            if done(&feeds, &running, &k) {
                return;
            }
            continue;
        };
        {
            let Some(games) = weak.upgrade() else { return };
            match compute(&games, &id, &viewers).await {
                Ok(Some(feed)) => {
                    if !feeds.publish(&k, feed) && done(&feeds, &running, &k) {
                        return;
                    }
                }
                Ok(None) => {}
                Err(e) => tracing::warn!("arena {id} standings: {}", e.message),
            }
        }
        // Until the arena changes or a socket starts following (its own row).
        loop {
            let changed = tokio::select! {
                e = events.recv() => match e {
                    Ok(d) => matches!(&d.event, Event::Arena { id: x } if *x == id),
                    Err(RecvError::Lagged(_)) => true,
                    Err(RecvError::Closed) => return,
                },
                _ = joined.notified() => true,
                _ = tokio::time::sleep(IDLE_CHECK) => {
                    if feeds.viewers(&k).is_none() && done(&feeds, &running, &k) {
                        return;
                    }
                    false
                }
            };
            if changed {
                break;
            }
        }
        // Coalesced: what queued while computing is in the next computation.
        while let Ok(_) | Err(TryRecvError::Lagged(_)) = events.try_recv() {}
    }
}
