//! Accepting connections (hyper's HTTP/1 server under the axum router): a cap on open
//! connections, a time limit for request headers, the client's address for the router, and
//! a graceful end.

use axum::extract::ConnectInfo;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tower::ServiceExt;

/// A connection that holds one permit of the connection cap until it is dropped, also after
/// it became a WebSocket (hyper hands this same stream to the socket).
struct Counted {
    io: TcpStream,
    _permit: OwnedSemaphorePermit,
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, buf)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.io).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}

/// Accepts connections until `stop` turns true, each served by its own task. At the cap,
/// new connections wait in the listen queue until one closes.
pub async fn accept_loop(
    listener: TcpListener,
    router: Router,
    connections: Arc<Semaphore>,
    header_timeout: Duration,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        let permit = tokio::select! {
            p = connections.clone().acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => return,
            },
            _ = stopped(&mut stop) => return,
        };
        let (tcp, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(c) => c,
                Err(e) => {
                    // Out of file descriptors and the like: wait instead of spinning.
                    tracing::warn!("accepting a connection failed: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = stopped(&mut stop) => return,
        };
        let _ = tcp.set_nodelay(true);
        let io = TokioIo::new(Counted {
            io: tcp,
            _permit: permit,
        });
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<_>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            router.clone().oneshot(req)
        });
        let mut stop = stop.clone();
        tokio::spawn(async move {
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(io, service)
                .with_upgrades();
            tokio::pin!(conn);
            tokio::select! {
                r = conn.as_mut() => {
                    if let Err(e) = r {
                        tracing::debug!("connection from {peer}: {e}");
                    }
                }
                _ = stopped(&mut stop) => {
                    // Finish the request in flight (and its commit), then close.
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
        });
    }
}

/// Resolves once `stop` is true (without holding its lock across an await).
async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

/// Waits for Ctrl-C or SIGTERM (what systemd and container runtimes send); names it.
pub async fn shutdown_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => tokio::select! {
                _ = tokio::signal::ctrl_c() => "interrupted",
                _ = term.recv() => "terminated",
            },
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                "interrupted"
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
        "interrupted"
    }
}
