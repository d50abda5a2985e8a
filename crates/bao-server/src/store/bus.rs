//! The event bus (docs/architecture.md, "The event bus"): one per instance.
//!
//! A change that others must hear of carries its events ([`Event`]) into the transaction
//! that makes it ([`stage`]); once the transaction commits they are delivered to this
//! instance's subscribers ([`Store::subscribe`]). On PostgreSQL the same transaction also
//! numbers them from a one-row counter (its row lock orders the numbers as the transactions
//! commit), keeps them in the `events` table (migration 0014) and sends them with `NOTIFY
//! bao_events`; one listener connection per instance ([`Store::spawn_listener`]) hears the
//! other instances' and delivers them here. A notification sent while the listener was
//! disconnected is lost, the table is not: after a reconnect, or when the numbers jump, the
//! listener reads what it missed from the table. On SQLite (one instance) events travel in
//! process only.

use super::{Backend, Store, StoreError};
use crate::domain::events::{Delivered, Event};
use sqlx::Row;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;

/// The PostgreSQL channel of the bus (for the tables of the `public` schema; see
/// [`channel_for`]).
pub const EVENTS_CHANNEL: &str = "bao_events";
/// The listener connection's `application_name` is this followed by the instance's id (an
/// operator, or a test, finds it in `pg_stat_activity`).
pub const LISTENER_NAME: &str = "bao-events-";
/// Events kept in the table for replay (an hour): a listener away longer than that relies
/// on the instances' safety sweeps.
pub const KEEP_EVENTS_MS: i64 = 3_600_000;
/// Events a subscriber may fall behind before it is told it lagged (and reads again).
const BUFFER: usize = 4096;
/// A NOTIFY payload stays under PostgreSQL's 8000 bytes: longer batches are sent in parts.
const MAX_PAYLOAD: usize = 7000;
/// Rows read at a time when replaying.
const REPLAY_PAGE: i64 = 1000;

/// The bus's channel for the tables of `schema`. A notification reaches every listener of
/// the database whatever its schema, so the instances of another schema (each test's own,
/// tests/common/mod.rs) get a channel of their own and never hear the others' events; the
/// `public` schema keeps [`EVENTS_CHANNEL`].
pub fn channel_for(schema: &str) -> String {
    if schema == "public" {
        EVENTS_CHANNEL.to_string()
    } else {
        format!("{EVENTS_CHANNEL}_{schema}")
    }
}

/// This instance's end of the bus.
pub(crate) struct Bus {
    tx: broadcast::Sender<Arc<Delivered>>,
    /// The PostgreSQL channel ([`channel_for`] the store's schema; unused on SQLite).
    pub(crate) channel: String,
    /// The numbers of SQLite's events (PostgreSQL's come from the database).
    seq: AtomicI64,
    /// Events the listener read from the table instead of a notification.
    replayed: AtomicU64,
}

impl Bus {
    pub(crate) fn new(channel: String) -> Bus {
        Bus {
            tx: broadcast::channel(BUFFER).0,
            channel,
            seq: AtomicI64::new(0),
            replayed: AtomicU64::new(0),
        }
    }

    /// Hands committed events to this instance's subscribers, numbering SQLite's.
    pub(crate) fn deliver(&self, events: Vec<Delivered>) {
        for mut d in events {
            if d.id == 0 {
                d.id = self.seq.fetch_add(1, Ordering::Relaxed) + 1;
            }
            let _ = self.tx.send(Arc::new(d));
        }
    }
}

/// Writes `events` into transaction `tx` (PostgreSQL: numbered, stored, sent with NOTIFY,
/// all delivered only if `tx` commits; their `id` is ignored). Answers them as
/// [`Bus::deliver`] takes them once the transaction has committed. Call it last in a
/// transaction: the counter's row stays locked until the commit.
pub(crate) async fn stage(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    backend: Backend,
    channel: &str,
    mut events: Vec<Delivered>,
) -> Result<Vec<Delivered>, StoreError> {
    if events.is_empty() || backend == Backend::Sqlite {
        return Ok(events);
    }
    let n = events.len() as i64;
    let last: i64 =
        sqlx::query("UPDATE event_counter SET last = last + $1 WHERE one = 1 RETURNING last")
            .bind(n)
            .fetch_one(&mut **tx)
            .await?
            .try_get("last")?;
    let now = crate::util::now_ms();
    for (i, d) in events.iter_mut().enumerate() {
        d.id = last - n + 1 + i as i64;
    }
    for chunk in events.chunks(100) {
        let rows: Vec<String> = (0..chunk.len())
            .map(|i| format!("(${}, $1, ${}, ${})", 3 * i + 2, 3 * i + 3, 3 * i + 4))
            .collect();
        let sql = format!(
            "INSERT INTO events (id, at, origin, payload) VALUES {}",
            rows.join(", ")
        );
        let mut q = sqlx::query(&sql).bind(now);
        for d in chunk {
            q = q
                .bind(d.id)
                .bind(d.origin.clone())
                .bind(serde_json::to_string(&d.event).unwrap_or_default());
        }
        q.execute(&mut **tx).await?;
    }
    for payload in payloads(&events) {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(channel)
            .bind(payload)
            .execute(&mut **tx)
            .await?;
    }
    Ok(events)
}

/// `events` as published by `origin`, not numbered yet.
pub(crate) fn from(origin: &str, events: Vec<Event>) -> Vec<Delivered> {
    events
        .into_iter()
        .map(|event| Delivered {
            id: 0,
            origin: origin.to_string(),
            event,
        })
        .collect()
}

/// The NOTIFY payloads of `events`: JSON arrays of [`Delivered`], each under
/// [`MAX_PAYLOAD`] bytes (a single larger event is sent alone; the listener then finds a
/// gap and reads it from the table).
fn payloads(events: &[Delivered]) -> Vec<String> {
    let mut out = Vec::new();
    let mut part: Vec<String> = Vec::new();
    let mut len = 2;
    for d in events {
        let text = serde_json::to_string(d).unwrap_or_default();
        if text.len() + 2 > MAX_PAYLOAD {
            continue;
        }
        if !part.is_empty() && len + text.len() + 1 > MAX_PAYLOAD {
            out.push(format!("[{}]", part.join(",")));
            part.clear();
            len = 2;
        }
        len += text.len() + 1;
        part.push(text);
    }
    if !part.is_empty() {
        out.push(format!("[{}]", part.join(",")));
    }
    out
}

impl Store {
    /// This instance's id: the `origin` of the events it publishes.
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// Every event delivered to this instance from now on: its own (once committed) and,
    /// on PostgreSQL, the other instances'. A subscriber that falls [`BUFFER`] events
    /// behind gets `Lagged` and should read again what it keeps.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Delivered>> {
        self.bus.tx.subscribe()
    }

    /// Publishes `events` on their own (news that is no change of a row: a review's
    /// progress, a lapse found): in a transaction of their own on PostgreSQL.
    pub async fn publish(&self, events: Vec<Event>) -> Result<(), StoreError> {
        if events.is_empty() {
            return Ok(());
        }
        let mut tx = self.write.begin().await?;
        let staged = self.stage(&mut tx, events).await?;
        tx.commit().await?;
        self.bus.deliver(staged);
        Ok(())
    }

    /// Writes `events` into `tx` as this instance's (see [`stage`]).
    pub(crate) async fn stage(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        events: Vec<Event>,
    ) -> Result<Vec<Delivered>, StoreError> {
        stage(
            tx,
            self.backend,
            &self.bus.channel,
            from(&self.instance, events),
        )
        .await
    }

    /// Writes `events` into `tx`, commits it, then delivers them (see [`stage`]).
    pub(crate) async fn commit_events(
        &self,
        mut tx: sqlx::Transaction<'_, sqlx::Any>,
        events: Vec<Event>,
    ) -> Result<(), StoreError> {
        let staged = self.stage(&mut tx, events).await?;
        tx.commit().await?;
        self.deliver(staged);
        Ok(())
    }

    /// Moves row `id` of `table` (a table with `id`, `status` and `updated` columns) from
    /// status `from` to `to` with `events` in the same transaction; `false`, and nothing
    /// written, when it was not in `from` (another request or instance came first): exactly
    /// once across instances.
    pub(crate) async fn move_status(
        &self,
        table: &'static str,
        (id, from, to): (&str, &str, &str),
        now: i64,
        events: Vec<Event>,
    ) -> Result<bool, StoreError> {
        let mut tx = self.write.begin().await?;
        let n = sqlx::query(&format!(
            "UPDATE {table} SET status = $3, updated = $4 WHERE id = $1 AND status = $2"
        ))
        .bind(id)
        .bind(from)
        .bind(to)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if n == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        self.commit_events(tx, events).await?;
        Ok(true)
    }

    /// Other instances' events this instance's listener read from the table because their
    /// notification never came (a dropped connection).
    pub fn events_replayed(&self) -> u64 {
        self.bus.replayed.load(Ordering::Relaxed)
    }

    /// Delivers events staged in a transaction that has committed.
    pub(crate) fn deliver(&self, staged: Vec<Delivered>) {
        self.bus.deliver(staged);
    }

    /// Deletes the events older than `before` (ms since the epoch); PostgreSQL only.
    pub async fn prune_events(&self, before: i64) -> Result<u64, StoreError> {
        if self.backend != Backend::Postgres {
            return Ok(0);
        }
        Ok(sqlx::query("DELETE FROM events WHERE at < $1")
            .bind(before)
            .execute(&self.write)
            .await?
            .rows_affected())
    }

    /// Starts this instance's listener (PostgreSQL; `None` on SQLite): one connection that
    /// LISTENs on the bus's channel and delivers the other instances' events here, reading
    /// from the table what a dropped connection missed. Ends when aborted.
    pub async fn spawn_listener(&self) -> Result<Option<tokio::task::JoinHandle<()>>, StoreError> {
        if self.backend != Backend::Postgres {
            return Ok(None);
        }
        let listener = listen(&self.url, &self.instance, &self.bus.channel).await?;
        // Read once LISTEN is active: anything committed later comes as a notification.
        let last = self.last_event_id().await?;
        let store = self.clone();
        Ok(Some(tokio::spawn(async move {
            Listening {
                store,
                listener,
                last,
            }
            .run()
            .await
        })))
    }

    /// The number of the last event committed.
    async fn last_event_id(&self) -> Result<i64, StoreError> {
        Ok(sqlx::query("SELECT last FROM event_counter WHERE one = 1")
            .fetch_one(&self.read)
            .await?
            .try_get("last")?)
    }
}

/// A listener connection LISTENing on `channel`, named [`LISTENER_NAME`] and the instance's
/// id.
async fn listen(
    url: &str,
    instance: &str,
    channel: &str,
) -> Result<sqlx::postgres::PgListener, StoreError> {
    use std::str::FromStr;
    let opts = sqlx::postgres::PgConnectOptions::from_str(url)?
        .application_name(&format!("{LISTENER_NAME}{instance}"));
    // A pool of one: PgListener takes its reconnections from it.
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .acquire_timeout(Duration::from_secs(10))
        .connect_lazy_with(opts);
    let mut l = sqlx::postgres::PgListener::connect_with(&pool).await?;
    l.listen(channel).await?;
    Ok(l)
}

/// The listener's state: the last event number delivered (or skipped as this instance's).
struct Listening {
    store: Store,
    listener: sqlx::postgres::PgListener,
    last: i64,
}

impl Listening {
    async fn run(mut self) {
        loop {
            match self.listener.try_recv().await {
                Ok(Some(n)) => {
                    let batch: Vec<Delivered> = match serde_json::from_str(n.payload()) {
                        Ok(b) => b,
                        Err(e) => {
                            tracing::warn!("event bus: an unreadable notification: {e}");
                            continue;
                        }
                    };
                    for d in batch {
                        self.take(d).await;
                    }
                }
                // The connection dropped; PgListener has connected and LISTENs again.
                Ok(None) => {
                    tracing::warn!(
                        "event bus: the listener's connection dropped; reading what it missed"
                    );
                    self.replay().await;
                }
                Err(e) => {
                    tracing::warn!("event bus: {e}; listening again");
                    self.reconnect().await;
                    self.replay().await;
                }
            }
        }
    }

    /// A fresh listener connection, trying until one comes.
    async fn reconnect(&mut self) {
        let mut wait = Duration::from_millis(200);
        loop {
            match listen(
                &self.store.url,
                self.store.instance(),
                &self.store.bus.channel,
            )
            .await
            {
                Ok(l) => {
                    self.listener = l;
                    return;
                }
                Err(e) => {
                    tracing::warn!("event bus: cannot listen: {e}");
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(Duration::from_secs(5));
                }
            }
        }
    }

    /// One event from a notification: skipped if seen, after the missed ones if the
    /// numbers jump.
    async fn take(&mut self, d: Delivered) {
        if d.id <= self.last {
            return;
        }
        if d.id > self.last + 1 {
            self.replay().await;
            if d.id <= self.last {
                return;
            }
        }
        self.last = d.id;
        if d.origin != self.store.instance() {
            self.store.bus.deliver(vec![d]);
        }
    }

    /// Delivers every event after [`Listening::last`] from the table.
    async fn replay(&mut self) {
        loop {
            let rows = sqlx::query(
                "SELECT id, origin, payload FROM events WHERE id > $1 ORDER BY id LIMIT $2",
            )
            .bind(self.last)
            .bind(REPLAY_PAGE)
            .fetch_all(&self.store.read)
            .await;
            let rows = match rows {
                Ok(r) => r,
                Err(e) => {
                    tracing::warn!("event bus: reading missed events: {e}");
                    return;
                }
            };
            let n = rows.len() as i64;
            for r in rows {
                let (Ok(id), Ok(origin), Ok(payload)) = (
                    r.try_get::<i64, _>("id"),
                    r.try_get::<String, _>("origin"),
                    r.try_get::<String, _>("payload"),
                ) else {
                    continue;
                };
                if id > self.last + 1 {
                    tracing::warn!(
                        "event bus: events {} to {} are gone from the table (older than it keeps); the safety sweeps repair what they carried",
                        self.last + 1,
                        id - 1
                    );
                }
                self.last = id;
                if origin == self.store.instance() {
                    continue;
                }
                match serde_json::from_str::<Event>(&payload) {
                    Ok(event) => {
                        self.store.bus.replayed.fetch_add(1, Ordering::Relaxed);
                        self.store
                            .bus
                            .deliver(vec![Delivered { id, origin, event }]);
                    }
                    // An event of a newer build: not for this one.
                    Err(e) => tracing::debug!("event bus: event {id} unknown here: {e}"),
                }
            }
            if n < REPLAY_PAGE {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_stay_under_the_limit_and_keep_the_order() {
        let events: Vec<Delivered> = (1..=200)
            .map(|i| Delivered {
                id: i,
                origin: "abcdefghijkl".into(),
                event: Event::Game {
                    id: format!("game{i:06}"),
                    version: i,
                },
            })
            .collect();
        let parts = payloads(&events);
        assert!(parts.len() > 1);
        let mut back = Vec::new();
        for p in &parts {
            assert!(p.len() <= MAX_PAYLOAD, "{}", p.len());
            back.extend(serde_json::from_str::<Vec<Delivered>>(p).unwrap());
        }
        assert_eq!(back, events);
    }
}
