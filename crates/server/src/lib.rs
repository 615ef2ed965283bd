#![warn(missing_docs)]
//! `solve serve`: every table directory under a root opened once, answered over HTTP
//! (`docs/api.md`) and explored with a web page shipped inside the binary.
//!
//! The steps, in order: [`Library::open`] finds and opens the tables (each file's header
//! and checksum checked, as every command does); [`router`] maps the API and the page onto
//! them; [`serve`] listens until Ctrl-C. Queries run on blocking threads, at most a few a
//! core at once, so a burst of requests queues instead of starving the listener.

mod api;
mod library;
mod page;

pub use library::{Library, Skipped};

use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpListener;

/// Why the server could not start or stopped.
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
    /// The server failed while serving.
    #[error("serving: {0}")]
    Serve(std::io::Error),
}

/// The routes: the page at `/`, the API under `/api/`.
pub fn router(library: Arc<Library>) -> axum::Router {
    axum::Router::new().merge(page::routes()).merge(api::routes(library))
}

/// Serves `library` on `addr` until Ctrl-C (or SIGTERM); `ready` hears the address bound
/// (port 0 asks the system for a free one).
pub async fn serve(library: Library, addr: SocketAddr, ready: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    let listener = TcpListener::bind(addr).await.map_err(|cause| ServeError::Bind { addr, cause })?;
    let bound = listener.local_addr().map_err(|cause| ServeError::Bind { addr, cause })?;
    ready(bound);
    axum::serve(listener, router(Arc::new(library))).with_graceful_shutdown(stopped()).await.map_err(ServeError::Serve)
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
