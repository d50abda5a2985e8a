//! Feeds: what many sockets of this instance follow, computed once and sent to each as the
//! same already-serialized message (docs/api.md, "Arenas", "Live standings"). A socket
//! follows a key (`r:ARENA`) with its account; the feature that produces the key's messages
//! hears that it is wanted ([`Feeds::wanted`]), computes them once per change (at most one
//! computation in flight, the latest state wins) and publishes them ([`Feeds::publish`]):
//! one message shared by all, and one small one per following account (its own row). When
//! the last socket stops following, the key is gone and its producer stops.

use axum::extract::ws::Utf8Bytes;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::{broadcast, watch, Notify};

/// One computation's messages.
#[derive(Debug, Default)]
pub struct Feed {
    /// Sent to every socket following the key (a clone is a reference count).
    pub shared: Utf8Bytes,
    /// Sent to the sockets of each account that follows, after `shared`.
    pub mine: HashMap<String, Utf8Bytes>,
}

struct Entry {
    tx: watch::Sender<Option<Arc<Feed>>>,
    /// The sockets following, with their accounts.
    viewers: HashMap<u64, Option<String>>,
    /// Rung when a socket starts following: its account may need its own row.
    joined: Arc<Notify>,
}

/// This instance's feeds, by key.
pub struct Feeds {
    map: Mutex<HashMap<String, Entry>>,
    wanted: broadcast::Sender<String>,
}

impl Default for Feeds {
    fn default() -> Self {
        Feeds {
            map: Mutex::new(HashMap::new()),
            wanted: broadcast::channel(256).0,
        }
    }
}

/// A socket's following of one key; it stops following when dropped.
pub struct Following {
    feeds: Arc<Feeds>,
    key: String,
    socket: u64,
    /// The key's latest messages.
    pub rx: watch::Receiver<Option<Arc<Feed>>>,
}

impl Drop for Following {
    fn drop(&mut self) {
        self.feeds.unfollow(&self.key, self.socket);
    }
}

impl Feeds {
    /// Socket `socket` (of `account`) follows `key`; the key's producer is told when it is
    /// the first.
    pub fn follow(self: &Arc<Self>, key: &str, socket: u64, account: Option<String>) -> Following {
        let Ok(mut m) = self.map.lock() else {
            return Following {
                feeds: self.clone(),
                key: key.to_string(),
                socket,
                rx: watch::channel(None).1,
            };
        };
        let new = !m.contains_key(key);
        let e = m.entry(key.to_string()).or_insert_with(|| Entry {
            tx: watch::channel(None).0,
            viewers: HashMap::new(),
            joined: Arc::new(Notify::new()),
        });
        e.viewers.insert(socket, account);
        e.joined.notify_one();
        let rx = e.tx.subscribe();
        drop(m);
        if new {
            let _ = self.wanted.send(key.to_string());
        }
        Following {
            feeds: self.clone(),
            key: key.to_string(),
            socket,
            rx,
        }
    }

    fn unfollow(&self, key: &str, socket: u64) {
        if let Ok(mut m) = self.map.lock() {
            if let Some(e) = m.get_mut(key) {
                e.viewers.remove(&socket);
                if e.viewers.is_empty() {
                    m.remove(key);
                }
            }
        }
    }

    /// The keys wanted from now on (a producer subscribes, then reads [`Feeds::keys`]).
    pub fn wanted(&self) -> broadcast::Receiver<String> {
        self.wanted.subscribe()
    }

    /// The keys followed now.
    pub fn keys(&self) -> Vec<String> {
        self.map
            .lock()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// The accounts following `key` (each once), and what rings when a socket starts
    /// following it; `None` when nobody follows it.
    pub fn viewers(&self, key: &str) -> Option<(Vec<String>, Arc<Notify>)> {
        let m = self.map.lock().ok()?;
        let e = m.get(key)?;
        let mut accounts: Vec<String> = e.viewers.values().flatten().cloned().collect();
        accounts.sort();
        accounts.dedup();
        Some((accounts, e.joined.clone()))
    }

    /// Publishes `feed` to the sockets following `key`: `false` when nobody does (the
    /// producer stops).
    pub fn publish(&self, key: &str, feed: Feed) -> bool {
        let Ok(m) = self.map.lock() else {
            return false;
        };
        match m.get(key) {
            Some(e) => {
                e.tx.send_replace(Some(Arc::new(feed)));
                true
            }
            None => false,
        }
    }

    /// Sockets following `key` on this instance.
    pub fn following(&self, key: &str) -> usize {
        self.map
            .lock()
            .map_or(0, |m| m.get(key).map_or(0, |e| e.viewers.len()))
    }
}
