//! The Argon2id workers (docs/api.md, "Accounts"): [`HASHING_AT_ONCE`] threads of their own,
//! each with one Argon2id memory ([`BLOCKS`] blocks, 19 MiB) that it fills for every hash it
//! computes, and a queue of at most [`QUEUE`] jobs in front of them.
//!
//! Why not `spawn_blocking`: each hash needs 19 MiB, and the allocator keeps what a thread
//! freed for that thread's next allocation. Logins spread over tokio's many blocking threads
//! left 19 MiB behind on each of them (a fresh server at 24 MiB held 766 MiB after 120
//! sign-ups and logins and kept it). Here the memory is allocated once per worker, at its first
//! job, and reused: the server holds at most `HASHING_AT_ONCE` such memories however many
//! logins come, and a full queue answers 503 `busy` instead of growing.

use argon2::Block;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};

/// Argon2id hashes computed at once (each takes its worker's 19 MiB and a core for tens of
/// ms).
pub const HASHING_AT_ONCE: usize = 2;
/// Jobs waiting for a worker at most (about a second of logins); more are refused.
pub const QUEUE: usize = 64;
/// The blocks of one worker's memory: the OWASP parameters' 19 MiB (`secrets::params`).
pub const BLOCKS: usize = argon2::Params::DEFAULT_M_COST as usize;

type Job = Box<dyn FnOnce(&mut [Block]) + Send>;

/// Why a job was not run.
#[derive(Debug, PartialEq, Eq)]
pub enum HashError {
    /// The queue is full: the caller answers 503 `busy`.
    Busy,
    /// The workers are gone (the server is stopping) or the job panicked.
    Gone,
}

/// The workers and their queue. Dropping it ends the workers (once their jobs are done) and
/// frees their memory.
pub struct Hashers {
    queue: SyncSender<Job>,
    memories: Arc<AtomicUsize>,
}

impl Hashers {
    /// `workers` threads behind a queue of `queue` jobs.
    pub fn new(workers: usize, queue: usize) -> Hashers {
        let (tx, rx) = sync_channel::<Job>(queue);
        let rx = Arc::new(Mutex::new(rx));
        let memories = Arc::new(AtomicUsize::new(0));
        for i in 0..workers.max(1) {
            let (rx, memories) = (rx.clone(), memories.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("bao-argon2-{i}"))
                .spawn(move || work(&rx, &memories));
            if let Err(e) = spawned {
                tracing::error!("the Argon2id worker {i} could not start: {e}");
            }
        }
        Hashers {
            queue: tx,
            memories,
        }
    }

    /// Runs `f` with a worker's Argon2id memory (at least [`BLOCKS`] blocks, holding
    /// whatever the last hash left: the hash overwrites it). Refused at once when the queue
    /// is full; a job whose caller went away before a worker took it is not run.
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut [Block]) -> T + Send + 'static,
    ) -> Result<T, HashError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move |memory| {
            if !tx.is_closed() {
                let _ = tx.send(f(memory));
            }
        });
        self.queue.try_send(job).map_err(|e| match e {
            TrySendError::Full(_) => HashError::Busy,
            TrySendError::Disconnected(_) => HashError::Gone,
        })?;
        rx.await.map_err(|_| HashError::Gone)
    }

    /// How many Argon2id memories the workers have allocated (at most one each).
    pub fn memories(&self) -> usize {
        self.memories.load(Ordering::Relaxed)
    }
}

/// One worker: takes jobs until the queue's sender is dropped, with one memory allocated at
/// its first job and kept.
fn work(rx: &Mutex<Receiver<Job>>, memories: &AtomicUsize) {
    let mut memory: Vec<Block> = Vec::new();
    loop {
        // One worker waits in `recv` at a time; the others wait for the lock.
        let job = match rx.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        let Ok(job) = job else { return };
        if memory.is_empty() {
            memory = vec![Block::default(); BLOCKS];
            memories.fetch_add(1, Ordering::Relaxed);
        }
        // A panicking job drops its answer (the caller sees `Gone`); the worker goes on.
        let run = std::panic::AssertUnwindSafe(|| job(&mut memory));
        if std::panic::catch_unwind(run).is_err() {
            tracing::error!("an Argon2id job panicked");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn full_queue_is_refused_and_memories_are_bounded() {
        let h = Hashers::new(1, 2);
        // The one worker is held until `go`; two jobs fill the queue; the next is refused.
        let (go_tx, go_rx) = std::sync::mpsc::channel::<()>();
        let (took_tx, took_rx) = std::sync::mpsc::channel::<()>();
        h.queue
            .try_send(Box::new(move |_| {
                took_tx.send(()).unwrap();
                go_rx.recv().unwrap();
            }))
            .unwrap();
        took_rx.recv().unwrap();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        for _ in 0..2 {
            let done_tx = done_tx.clone();
            h.queue
                .try_send(Box::new(move |_| done_tx.send(()).unwrap()))
                .unwrap();
        }
        assert_eq!(h.run(|m| m.len()).await, Err(HashError::Busy));
        go_tx.send(()).unwrap();
        // Once the worker has drained the queue,
        for _ in 0..2 {
            done_rx.recv().unwrap();
        }
        // Then every job runs, on the one memory.
        for _ in 0..6 {
            assert_eq!(h.run(|m| m.len()).await, Ok(BLOCKS));
        }
        assert_eq!(h.memories(), 1);
        // A panicking job loses its answer, not the worker.
        assert_eq!(
            h.run(|_| panic!("boom")).await,
            Err::<(), _>(HashError::Gone)
        );
        assert_eq!(h.run(|m| m.len()).await, Ok(BLOCKS));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_burst_holds_one_memory_per_worker() {
        // Forty hashes asked at once, each holding its worker a moment: all are answered,
        // and no more memories exist than workers, however many asked.
        let h = Arc::new(Hashers::new(2, 64));
        let mut set = tokio::task::JoinSet::new();
        for _ in 0..40 {
            let h = h.clone();
            set.spawn(async move {
                h.run(|m| {
                    std::thread::sleep(std::time::Duration::from_millis(2));
                    m.len()
                })
                .await
            });
        }
        while let Some(r) = set.join_next().await {
            assert_eq!(r.unwrap(), Ok(BLOCKS));
        }
        assert!((1..=2).contains(&h.memories()), "{}", h.memories());
    }
}
