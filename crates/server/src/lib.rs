#![warn(missing_docs)]
//! `solve serve`: every table directory under a root opened once, answered over HTTP
//! (`docs/api.md`) and explored with a web page shipped inside the binary.
//!
//! The steps, in order: [`Library::open`] finds and opens the tables (each file's header
//! and checksum checked, as every command does); `router` maps the API and the page onto
//! them; [`serve`] listens until Ctrl-C. Queries run on blocking threads, at most a few a
//! core at once, so a burst of requests queues instead of starving the listener. A
//! position of a board and rules served whose tier is not built is searched above the
//! tables ([`Searches`]): each search in a bounded time and memory, a bounded number at
//! once, a request past them refused at once.

mod api;
mod page;

use tablebase::library;
pub use tablebase::library::{Library, Skipped};

use api::SearchSlots;
use axum::extract::Request;
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::io::Write as _;
use std::net::SocketAddr;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {cause}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why (in the message, not a `source`: printed once).
        cause: std::io::Error,
    },
}

/// How long a connection may take to send a request's headers, counted from when the
/// server starts waiting for them (a new connection, or the next request on a kept-alive
/// one): a client that sends nothing, or a byte now and then, is cut off then instead of
/// holding its connection for ever.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// The most bytes a request may take up to the end of its headers (its request line
/// included); a request past it gets `431 Request Header Fields Too Large` as soon as that
/// many bytes are read, and its connection is closed. The longest request the API answers
/// is a position: at most 1,024 bytes of value, 3 KiB once percent-encoded, beside a few
/// short parameters; a browser adds a few hundred bytes of its own headers, more with
/// cookies set for the host by something else served there. 16 KiB holds all that, and
/// bounds what a connection can make the server hold while its headers come in.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;

/// The most connections served at once; past it, a connection is told `503 Service
/// Unavailable` (`busy`) and closed, and one is served again as soon as another closes.
/// Each served connection holds a file descriptor and, with [`MAX_HEADER_BYTES`], at most
/// some 32 KiB of buffers: 256 of them hold under 10 MB and stay far below the usual limit
/// of 1,024 open files, while a browser opens at most six connections to a server.
pub const MAX_CONNECTIONS: usize = 256;

/// How long a search above the tables may take by default (`solve serve --search-ms`).
pub const DEFAULT_SEARCH_TIME: Duration = Duration::from_secs(2);

/// The longest a search may be given: past it, a request would hold its slot, a core and
/// its client's connection for longer than any client waits.
pub const MAX_SEARCH_TIME: Duration = Duration::from_secs(3600);

/// The most searches that may run at once: each takes a core for its whole time.
pub const MAX_SEARCHES: usize = 64;

/// The positions a search's transposition table holds at most: some 10 to 50 MB a search,
/// whatever the position, so that requests cannot take the machine's memory; past it the
/// search goes on, storing nothing new.
pub const SEARCH_TABLE_ENTRIES: usize = 1 << 19;

/// How positions above the tables served are answered: by a search of at most `time`
/// each ([`tablebase::front::search_above`]), at most `at_once` at a time; a request for
/// one while all are running is refused (`503`, `busy`) at once rather than queued.
#[derive(Debug, Clone, Copy)]
pub struct Searches {
    /// The time a search may take, at most [`MAX_SEARCH_TIME`].
    pub time: Duration,
    /// The searches run at once, 1 to [`MAX_SEARCHES`].
    pub at_once: usize,
}

/// How long a connection past the cap has to read its 503 and close before the server
/// closes it.
const REFUSAL_LINGER: Duration = Duration::from_secs(1);

/// How long connections still open at Ctrl-C have to finish their requests.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// The routes: the page at `/`, the API under `/api/`, its queries run under `permits`;
/// any method but GET and HEAD refused on every path.
fn router(library: Arc<Library>, permits: Arc<Semaphore>, searches: Option<Arc<SearchSlots>>) -> axum::Router {
    axum::Router::new()
        .merge(page::routes())
        .merge(api::routes(library, permits, searches))
        .layer(axum::middleware::from_fn(only_get_and_head))
}

/// Refuses every method but GET and HEAD, whichever route or fallback the request reached.
/// A method fallback alone misses two kinds: a path no route takes, which goes to the 404
/// fallback whatever its method, and CONNECT's `host:port` target, which has no path at
/// all and goes to axum's catch-all (404 too).
async fn only_get_and_head(request: Request, next: Next) -> Response {
    if matches!(*request.method(), Method::GET | Method::HEAD) {
        return next.run(request).await;
    }
    api::wrong_method(request.method().clone(), request.uri().clone()).await.into_response()
}

/// Serves `library` on `addr` until Ctrl-C (or SIGTERM), each connection given
/// `header_timeout` to send each request's headers ([`HEADER_TIMEOUT`] is the default),
/// at most `max_connections` at once ([`MAX_CONNECTIONS`] is the default), positions
/// above the tables answered under `searches` (`None`: not built, 404); `ready` hears the
/// address bound (port 0 asks the system for a free one).
///
/// Its own accept loop rather than `axum::serve`, which sets no deadline on the headers.
pub async fn serve(
    library: Library,
    addr: SocketAddr,
    header_timeout: Duration,
    max_connections: usize,
    searches: Option<Searches>,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    let listener = TcpListener::bind(addr).await.map_err(|cause| ServeError::Bind { addr, cause })?;
    let bound = listener.local_addr().map_err(|cause| ServeError::Bind { addr, cause })?;
    ready(bound);
    let permits = api::query_permits();
    let searches = searches.map(SearchSlots::new);
    let service = TowerToHyperService::new(router(Arc::new(library), Arc::clone(&permits), searches.clone()));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(header_timeout).max_buf_size(MAX_HEADER_BYTES);
    let open = Arc::new(Semaphore::new(max_connections));
    let refusals = Refusals::new(max_connections);
    let connections = GracefulShutdown::new();
    let mut stop = pin!(stopped());
    loop {
        let stream = tokio::select! {
            stream = next_connection(&listener) => stream,
            () = &mut stop => break,
        };
        let Ok(slot) = Arc::clone(&open).try_acquire_owned() else {
            refusals.refuse(stream);
            continue;
        };
        let connection = connections.watch(http.serve_connection(TokioIo::new(stream), service.clone()));
        tokio::spawn(async move {
            // A client that hangs up or times out ends only its own connection.
            let _ = connection.await;
            drop(slot);
        });
    }
    drop(listener);
    // Queries still waiting for their turn are refused (`busy`) rather than run now, and
    // searches under way answer what they proved so far.
    permits.close();
    if let Some(searches) = &searches {
        searches.stop();
    }
    // Idle connections close at once; busy ones finish their request, for a while.
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, connections.shutdown()).await;
    Ok(())
}

/// The next connection `listener` accepts.
async fn next_connection(listener: &TcpListener) -> TcpStream {
    loop {
        match listener.accept().await {
            Ok((stream, _)) => return stream,
            // Out of file descriptors and the like: the listener itself is fine, so wait a
            // little rather than spin, then take the next one.
            Err(e) if !is_connection_error(&e) => {
                // A closed standard error must not take the server down with it.
                let _ = writeln!(std::io::stderr(), "warning: accepting a connection: {e}");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            Err(_) => {}
        }
    }
}

/// How the connections past the cap are told so: a 503 with the API's JSON error, written
/// by a task each, at most as many tasks at once as connections served; past those, a
/// connection is closed without a word, so refusing costs no more than serving.
struct Refusals {
    answer: Arc<[u8]>,
    at_work: Arc<Semaphore>,
}

impl Refusals {
    fn new(max_connections: usize) -> Refusals {
        let body = serde_json::json!({
            "error": format!(
                "the server is serving {max_connections} connections, the most it serves at once: \
                 try again in a moment"
            ),
            "kind": "busy",
        })
        .to_string();
        let answer = format!(
            "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
             connection: close\r\nretry-after: 1\r\ncache-control: no-store\r\nx-content-type-options: nosniff\r\n\r\n{body}",
            body.len()
        );
        Refusals { answer: answer.into_bytes().into(), at_work: Arc::new(Semaphore::new(max_connections)) }
    }

    /// Answers `stream` with the 503 (without waiting for its request: a server may answer
    /// early) and closes it, within [`REFUSAL_LINGER`].
    fn refuse(&self, mut stream: TcpStream) {
        let Ok(permit) = Arc::clone(&self.at_work).try_acquire_owned() else { return };
        let answer = Arc::clone(&self.answer);
        tokio::spawn(async move {
            let _ = tokio::time::timeout(REFUSAL_LINGER, async {
                stream.write_all(&answer).await?;
                stream.shutdown().await?;
                // What the client sends is read and dropped until it closes: a socket closed
                // with data unread resets the connection, and a reset may discard the 503
                // before the client has read it.
                let mut sink = [0; 1024];
                while stream.read(&mut sink).await? > 0 {}
                Ok::<_, std::io::Error>(())
            })
            .await;
            drop(permit);
        });
    }
}

/// Errors of one incoming connection, not of the listener.
fn is_connection_error(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(e.kind(), ConnectionRefused | ConnectionAborted | ConnectionReset)
}

/// Resolves when the process is asked to stop.
async fn stopped() {
    let interrupt = async {
        // An error here means no handler could be set: then only SIGTERM (or a kill) stops.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}
