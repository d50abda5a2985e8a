//! What every WebSocket of the server shares (docs/api.md, "WebSocket"): size limits,
//! buffer sizes, the keep-alive (the server pings a silent client and closes a socket
//! that stays silent past the idle timeout, code 1001), and the one socket driver
//! ([`drive`], docs/architecture.md, "The socket driver"): a socket kind is a [`Handler`]
//! (what to send first, what to do with a client message, with an event, at its own
//! deadline); the driver owns the select loop, the bounded send queue (a client that does
//! not read is closed with [`SLOW_CLIENT`]) and the shutdown (1001).

use super::{going_away, Guard};
use crate::domain::wire::json_text;
use crate::error::ApiError;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use std::collections::VecDeque;
use std::future::Future;
use std::time::Duration;
use tokio::time::Instant;

/// Largest client message handled (bytes).
pub const MAX_MESSAGE: usize = 16 * 1024;
/// Largest message the socket reads at all; between the two, the client is told and closed.
pub const HARD_LIMIT: usize = 256 * 1024;
/// Read and write buffer sizes of a socket. Our messages are small (a move frame is well
/// under 1 KiB, a full state about 20 KiB, written out in pieces): tungstenite's default of
/// 128 KiB each made an idle spectator cost ~156 KiB.
pub const BUFFER: usize = 4 * 1024;

/// Keep-alive of live sockets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WsConfig {
    /// The server sends a ping after this long without a message from the client.
    pub ping_every: Duration,
    /// A socket from which nothing (not even a pong) arrived for this long is closed.
    pub idle_timeout: Duration,
}

/// The keep-alive of one socket (run by [`drive`]): silence first earns a ping, then, past
/// the idle timeout, the close (code 1001).
pub struct KeepAlive {
    cfg: WsConfig,
    heard: Instant,
    pinged: bool,
}

impl KeepAlive {
    /// A socket heard from just now.
    pub fn new(cfg: WsConfig) -> Self {
        KeepAlive {
            cfg,
            heard: Instant::now(),
            pinged: false,
        }
    }

    /// Something (a pong included) came from the client: it is there.
    pub fn heard(&mut self) {
        self.heard = Instant::now();
        self.pinged = false;
    }

    /// When the ping is next due, or after it the idle close.
    pub fn deadline(&self) -> Instant {
        if self.pinged {
            self.heard + self.cfg.idle_timeout
        } else {
            self.heard + self.cfg.ping_every.min(self.cfg.idle_timeout)
        }
    }

    /// Whether the client is silent past the idle timeout (at [`KeepAlive::deadline`]).
    pub fn silent(&self) -> bool {
        self.heard.elapsed() >= self.cfg.idle_timeout
    }

    /// The ping was sent.
    pub fn pinged(&mut self) {
        self.pinged = true;
    }
}

impl Default for WsConfig {
    /// Ping after 30 s of silence, close after 75 s: a browser answers pings by itself, and
    /// the page also sends its own `ping` every 25 s.
    fn default() -> Self {
        WsConfig {
            ping_every: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(75),
        }
    }
}

/// Messages a socket's send queue holds at most before the client counts as not reading.
pub const QUEUE_MESSAGES: usize = 64;
/// Bytes of text a socket's send queue holds at most (four full game states and more).
pub const QUEUE_BYTES: usize = 256 * 1024;
/// The close code for a client whose send queue filled up: it did not read what it was
/// sent, the messages were dropped, and it must load the page (its state) again.
pub const SLOW_CLIENT: u16 = 4000;
/// How long a closing socket may take to write out its last messages and close frame.
const CLOSING: Duration = Duration::from_secs(5);

/// The WebSocket upgrade every socket kind uses: small buffers, frames up to
/// [`HARD_LIMIT`] read (between [`MAX_MESSAGE`] and it the client is told, see [`drive`]).
pub fn upgrade(ws: WebSocketUpgrade) -> WebSocketUpgrade {
    ws.max_message_size(HARD_LIMIT)
        .max_frame_size(HARD_LIMIT)
        .read_buffer_size(BUFFER)
        .write_buffer_size(BUFFER)
}

/// Whether the driver goes on after a handler's step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    Go,
    /// Close the socket (after what is queued, with a normal close, 1000).
    Stop,
}

/// A socket's bounded send queue: what a handler sends goes here, the driver writes it out
/// while the client reads. Past [`QUEUE_MESSAGES`] or [`QUEUE_BYTES`] the client is too
/// slow: what waits is dropped and the socket closes with [`SLOW_CLIENT`].
pub struct Outbox {
    queue: VecDeque<Message>,
    bytes: usize,
    /// Something was queued since the last complete flush.
    dirty: bool,
    overflow: bool,
}

impl Outbox {
    fn new() -> Outbox {
        Outbox {
            queue: VecDeque::new(),
            bytes: 0,
            dirty: false,
            overflow: false,
        }
    }

    /// Queues a message.
    pub fn send(&mut self, m: Message) {
        if self.overflow {
            return;
        }
        let len = match &m {
            Message::Text(t) => t.len(),
            _ => 0,
        };
        if self.queue.len() >= QUEUE_MESSAGES || self.bytes + len > QUEUE_BYTES {
            self.overflow = true;
            self.queue.clear();
            self.bytes = 0;
            return;
        }
        self.bytes += len;
        self.queue.push_back(m);
        self.dirty = true;
    }

    /// Queues a text message.
    pub fn text(&mut self, t: impl Into<axum::extract::ws::Utf8Bytes>) {
        self.send(Message::Text(t.into()));
    }

    /// Queues a typed message as JSON text.
    pub fn json<T: serde::Serialize>(&mut self, m: &T) {
        self.text(json_text(m));
    }

    /// Queues the `error` frame of a refused client message (docs/api.md, "WebSocket").
    pub fn error(&mut self, e: &ApiError) {
        self.json(&crate::domain::wire::ServerMsg::Error {
            error: e.category.as_str(),
            message: &e.message,
        });
    }

    /// Messages waiting to be written.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    fn pop(&mut self) -> Option<Message> {
        let m = self.queue.pop_front()?;
        if let Message::Text(t) = &m {
            self.bytes -= t.len();
        }
        Some(m)
    }
}

/// Writes out what `out` holds, then flushes. Cancel-safe: a message leaves the queue only
/// when the sink has taken it.
async fn write_out(
    sink: &mut SplitSink<WebSocket, Message>,
    out: &mut Outbox,
) -> Result<(), axum::Error> {
    loop {
        if out.queue.is_empty() {
            std::future::poll_fn(|cx| sink.poll_flush_unpin(cx)).await?;
            out.dirty = false;
            return Ok(());
        }
        std::future::poll_fn(|cx| sink.poll_ready_unpin(cx)).await?;
        if let Some(m) = out.pop() {
            sink.start_send_unpin(m)?;
        }
    }
}

/// One kind of socket, plugged into [`drive`]. Each step queues what it sends in the
/// [`Outbox`]; none may wait on the client.
pub trait Handler: Send {
    /// What wakes the socket besides its client (an update, an event of the bus).
    type Event: Send;

    /// What to send first. The handler registered for its events before (in its
    /// constructor), so no event falls between the two.
    fn open(&mut self, out: &mut Outbox) -> impl Future<Output = Flow> + Send;

    /// The next event; `None` when their source is gone (the socket then closes). Must be
    /// cancel-safe: the driver drops it when something else comes first.
    fn next_event(&mut self) -> impl Future<Output = Option<Self::Event>> + Send;

    /// An event came.
    fn on_event(&mut self, e: Self::Event, out: &mut Outbox) -> impl Future<Output = Flow> + Send;

    /// A text message of the client, at most [`MAX_MESSAGE`] bytes.
    fn on_text(&mut self, text: &str, out: &mut Outbox) -> impl Future<Output = Flow> + Send;

    /// The handler's own next deadline, if any (the player socket's seek keep-alive).
    fn deadline(&self) -> Option<Instant> {
        None
    }

    /// At [`Handler::deadline`].
    fn on_deadline(&mut self, _out: &mut Outbox) -> impl Future<Output = Flow> + Send {
        async { Flow::Go }
    }

    /// The socket closed (whatever the reason): undo what opening it did.
    fn close(self) -> impl Future<Output = ()> + Send;
}

fn close_frame(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: reason.into(),
    }))
}

/// Runs socket `socket` with handler `h` until the client leaves, the handler stops, the
/// keep-alive gives up, the client does not read ([`SLOW_CLIENT`]) or the server shuts
/// down (1001). The task sleeps until one of those, an event or the handler's deadline.
pub async fn drive<H: Handler>(socket: WebSocket, mut h: H, cfg: WsConfig, guard: Option<Guard>) {
    let (mut sink, mut rx) = socket.split();
    let mut out = Outbox::new();
    let mut alive = KeepAlive::new(cfg);
    let stopping = async {
        match &guard {
            Some(g) => g.stopping().await,
            None => std::future::pending().await,
        }
    };
    tokio::pin!(stopping);
    let mut last: Option<Message> = None;
    let mut flow = h.open(&mut out).await;
    while flow == Flow::Go && !out.overflow {
        let own = h.deadline();
        tokio::select! {
            _ = &mut stopping => {
                last = Some(going_away());
                break;
            }
            r = write_out(&mut sink, &mut out), if out.dirty => {
                if r.is_err() {
                    return h.close().await;
                }
            }
            _ = tokio::time::sleep_until(alive.deadline()) => {
                if alive.silent() {
                    last = Some(close_frame(1001, "no answer from the client"));
                    break;
                }
                alive.pinged();
                out.send(Message::Ping(Default::default()));
            }
            _ = tokio::time::sleep_until(own.unwrap_or_else(Instant::now)), if own.is_some() => {
                flow = h.on_deadline(&mut out).await;
            }
            msg = rx.next() => {
                let msg = match msg {
                    None => break,
                    Some(Ok(m)) => m,
                    Some(Err(e)) => {
                        // The only read errors that leave the socket usable to say why.
                        let s = e.to_string();
                        if s.contains("too long") || s.contains("Space limit") {
                            last = Some(close_frame(1009, "message too big"));
                        }
                        break;
                    }
                };
                alive.heard();
                match msg {
                    Message::Text(t) if t.len() > MAX_MESSAGE => {
                        out.error(&ApiError::too_large(format!(
                            "a message is at most {} KiB",
                            MAX_MESSAGE / 1024
                        )));
                        last = Some(close_frame(1009, "message too big"));
                        break;
                    }
                    Message::Text(t) => flow = h.on_text(t.as_str(), &mut out).await,
                    Message::Binary(_) => {
                        out.error(&ApiError::bad_request("messages are JSON text frames"))
                    }
                    Message::Close(_) => break,
                    Message::Ping(_) | Message::Pong(_) => {}
                }
            }
            e = h.next_event() => {
                match e {
                    Some(e) => flow = h.on_event(e, &mut out).await,
                    None => break,
                }
            }
        }
    }
    if flow == Flow::Stop && last.is_none() {
        last = Some(close_frame(1000, "closed"));
    }
    if out.overflow {
        last = Some(close_frame(
            SLOW_CLIENT,
            "too slow to read: load the page again",
        ));
        out.overflow = false;
    }
    if let Some(m) = last {
        out.queue.push_back(m);
        out.dirty = true;
    }
    // What is queued goes out, the close frame last, as long as the client reads it.
    if out.dirty {
        let _ = tokio::time::timeout(CLOSING, write_out(&mut sink, &mut out)).await;
    }
    drop(sink);
    h.close().await;
}
