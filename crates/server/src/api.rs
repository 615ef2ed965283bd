//! The JSON API (`docs/api.md`): `GET /api/games` and `GET /api/{game}?…`, every answer
//! in the schema of `docs/json.md`, every refusal a JSON error with a 4xx status.

use crate::library::Library;
use crate::{Searches, SEARCH_TABLE_ENTRIES};
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Json;
use search::tree::Budget;
use serde::Serialize;
use serde_json::json;
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tablebase::query::{Answer, QueryError, Request};
use tablebase::registry::{self, GameEntry, GAMES};
use tokio::sync::{Semaphore, TryAcquireError};

/// Most parameters one request may give: every game takes fewer than ten.
const MAX_PARAMETERS: usize = 16;

/// The permits of the queries run at once, a few a core: each is short, and more would
/// only queue in the blocking pool. Closing them refuses every query still waiting.
pub(crate) fn query_permits() -> Arc<Semaphore> {
    Arc::new(Semaphore::new(4 * std::thread::available_parallelism().map_or(2, |n| n.get())))
}

struct Shared {
    library: Arc<Library>,
    permits: Arc<Semaphore>,
    searches: Option<Arc<SearchSlots>>,
}

/// The searches above the tables: how long each may take, the slots of those running
/// (one taken for the whole of a search, which a client that hangs up does not stop), and
/// the flag that stops them all when the server stops.
pub(crate) struct SearchSlots {
    time: Duration,
    at_once: usize,
    slots: Arc<Semaphore>,
    stop: Arc<AtomicBool>,
}

impl SearchSlots {
    pub(crate) fn new(searches: Searches) -> Arc<SearchSlots> {
        Arc::new(SearchSlots {
            time: searches.time,
            at_once: searches.at_once,
            slots: Arc::new(Semaphore::new(searches.at_once)),
            stop: Arc::new(AtomicBool::new(false)),
        })
    }

    /// Ends the searches under way (each answers the bounds it proved) and refuses new ones.
    pub(crate) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.slots.close();
    }

    /// Why a search found no free slot.
    fn refusal(&self, e: TryAcquireError) -> ApiError {
        let why = match e {
            TryAcquireError::Closed => "the server is stopping".to_owned(),
            TryAcquireError::NoPermits => format!(
                "the position is above the tables served, and the {} running: try again in a moment",
                counted_searches(self.at_once)
            ),
        };
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy", why)
    }
}

/// `n` searches, as a refusal says it: all the slots `--searches` allows are taken.
fn counted_searches(n: usize) -> String {
    if n == 1 {
        "one search the server runs at a time (--searches) is".to_owned()
    } else {
        format!("{n} searches the server runs at once (--searches) are all")
    }
}

/// A refusal: its status and its JSON body.
#[derive(Debug, Serialize)]
pub(crate) struct ApiError {
    #[serde(skip)]
    status: StatusCode,
    /// What is wrong, in a sentence.
    error: String,
    /// Which kind of fault: `parameter`, `malformed`, `impossible`, `unknown-game`,
    /// `not-built`, `not-found`, `method`, `tables`, `busy`.
    kind: &'static str,
    /// For `not-built`: the command that builds the tables.
    #[serde(skip_serializing_if = "Option::is_none")]
    command: Option<String>,
}

impl ApiError {
    fn new(status: StatusCode, kind: &'static str, error: impl ToString) -> ApiError {
        ApiError { status, error: error.to_string(), kind, command: None }
    }
}

impl From<QueryError> for ApiError {
    fn from(e: QueryError) -> ApiError {
        let message = e.to_string();
        match e {
            QueryError::Parameter { .. } => ApiError::new(StatusCode::BAD_REQUEST, "parameter", message),
            QueryError::Malformed(_) => ApiError::new(StatusCode::BAD_REQUEST, "malformed", message),
            QueryError::Impossible(_) => ApiError::new(StatusCode::BAD_REQUEST, "impossible", message),
            QueryError::BeyondIndex(_) => ApiError::new(StatusCode::NOT_FOUND, "beyond-index", message),
            QueryError::NotHere => ApiError::new(StatusCode::NOT_FOUND, "not-built", message),
            QueryError::NotBuilt { command, .. } => {
                ApiError { command: Some(command), ..ApiError::new(StatusCode::NOT_FOUND, "not-built", message) }
            }
            QueryError::Tables(_) => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "tables", message),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if self.status.is_server_error() {
            // The server's fault, not the client's: whoever runs it must hear of it.
            // Written as best it can be: a closed standard error must not end the answer.
            let _ = writeln!(std::io::stderr(), "error: answered {}: {}", self.status, self.error);
        }
        let headers = [(header::CACHE_CONTROL, "no-store"), (header::X_CONTENT_TYPE_OPTIONS, "nosniff")];
        if self.status == StatusCode::METHOD_NOT_ALLOWED {
            return (self.status, headers, [(header::ALLOW, "GET, HEAD")], Json(&self)).into_response();
        }
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            return (self.status, headers, [(header::RETRY_AFTER, "1")], Json(&self)).into_response();
        }
        (self.status, headers, Json(&self)).into_response()
    }
}

/// A JSON answer that holds for `cache` (a `Cache-Control` value).
fn answer(cache: &'static str, body: impl Serialize) -> Response {
    ([(header::CACHE_CONTROL, cache), (header::X_CONTENT_TYPE_OPTIONS, "nosniff")], Json(body)).into_response()
}

/// `/api/games`, `/api/{game}`, and a JSON 404 for every other path; a query waits for
/// one of `permits`, and is refused as `busy` once they are closed. A position of a board
/// and rules served, whose tier is not built, is searched above the tables under
/// `searches`, and refused as `busy` when all its slots are taken; without `searches`, it
/// is not built (404).
pub(crate) fn routes(
    library: Arc<Library>,
    permits: Arc<Semaphore>,
    searches: Option<Arc<SearchSlots>>,
) -> axum::Router {
    let shared = Arc::new(Shared { library, permits, searches });
    axum::Router::new()
        .route("/api/games", get(games))
        .route("/api/{game}", get(position))
        .fallback(not_found)
        .with_state(shared)
}

/// Every path here is read-only: any method but `GET` (and `HEAD`) is refused.
pub(crate) async fn wrong_method(method: Method, uri: Uri) -> ApiError {
    let method: String = method.as_str().chars().take(20).collect();
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method",
        format!("{method} {}: this server only answers GET (and HEAD)", shown_target(&uri)),
    )
}

async fn not_found(uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not-found",
        format!("nothing at {}: the API is under /api/ (docs/api.md)", shown_target(&uri)),
    )
}

/// A request's target as a message names it: its path, or, where it has none (a
/// `host:port`, as CONNECT sends and a client may send with GET), the whole target; at
/// most 200 characters.
fn shown_target(uri: &Uri) -> String {
    let target = if uri.path().is_empty() { uri.to_string() } else { uri.path().to_owned() };
    target.chars().take(200).collect()
}

/// What the server holds: every game of the registry with the tables opened for it.
async fn games(State(shared): State<Arc<Shared>>, RawQuery(query): RawQuery) -> Result<Response, ApiError> {
    if let Some((name, _)) = form_urlencoded::parse(query.unwrap_or_default().as_bytes()).next() {
        let name: String = name.chars().take(40).collect();
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "parameter",
            format!("parameter `{name}`: /api/games takes no parameters"),
        ));
    }
    let library = &shared.library;
    let games: Vec<_> = GAMES
        .iter()
        .map(|g| {
            let tables: Vec<_> = library.holdings().filter(|h| h.game == g.name).collect();
            json!({ "game": g.name, "summary": g.summary, "tables": tables })
        })
        .collect();
    let body = json!({
        "schema": tablebase::report::SCHEMA,
        "root": library.root().display().to_string(),
        "games": games,
        "skipped": library.skipped(),
    });
    Ok(answer("no-cache", body))
}

/// One position of one game.
async fn position(
    State(shared): State<Arc<Shared>>,
    game: Result<Path<String>, PathRejection>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    // Left to axum, a name that does not decode (`/api/%FF`) got a plain-text 400.
    let Ok(Path(game)) = game else {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "unknown-game",
            "the game's name in the path is not UTF-8 once decoded",
        ));
    };
    let Some(entry) = registry::game_named(&game) else {
        let known: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
        let name: String = game.chars().take(40).collect();
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "unknown-game",
            format!("unknown game `{name}` (known: {})", known.join(", ")),
        ));
    };
    let query = query.unwrap_or_default();
    let pairs: Vec<(String, String)> =
        form_urlencoded::parse(query.as_bytes()).into_owned().take(MAX_PARAMETERS + 1).collect();
    if pairs.len() > MAX_PARAMETERS {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "parameter",
            format!("more than {MAX_PARAMETERS} parameters"),
        ));
    }
    let request = Request::new(pairs)?;
    let permit = shared
        .permits
        .acquire()
        .await
        .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy", "the server is stopping"))?;
    let library = Arc::clone(&shared.library);
    let (answer, request) =
        tokio::task::spawn_blocking(move || (library.query(entry, &request), request)).await.map_err(failed)?;
    drop(permit);
    let answer = match (answer, &shared.searches) {
        (Err(QueryError::NotBuilt { .. }), Some(searches)) if shared.library.above(entry, &request) => {
            searched(&shared.library, searches, entry, request).await?
        }
        (answer, _) => answer?,
    };
    // Tables never change while served: an answer holds as long as the server runs; bounds
    // a search proved in its time may be narrowed by the next.
    let cache = if answer.report.value.is_exact() { "max-age=3600" } else { "no-store" };
    Ok(self::answer(cache, answer))
}

/// The answer to `request` by a search above the tables, in a slot of `searches`.
async fn searched(
    library: &Arc<Library>,
    searches: &SearchSlots,
    entry: &'static GameEntry,
    request: Request,
) -> Result<Answer, ApiError> {
    let slot = Arc::clone(&searches.slots).try_acquire_owned().map_err(|e| searches.refusal(e))?;
    let (library, stop, time) = (Arc::clone(library), Arc::clone(&searches.stop), searches.time);
    let answer = tokio::task::spawn_blocking(move || {
        // One thread a search: `--searches` bounds the cores the searches take.
        let budget = Budget {
            time: Some(time),
            stop: Some(&stop),
            table_entries: SEARCH_TABLE_ENTRIES,
            threads: 1,
            ..Budget::default()
        };
        let answer = library.search(entry, &request, budget);
        // Freed when the search ends, whether or not its client still waits.
        drop(slot);
        answer
    })
    .await
    .map_err(failed)??;
    Ok(answer)
}

/// A query whose thread failed.
fn failed(e: tokio::task::JoinError) -> ApiError {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "tables", format!("the query failed: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower::ServiceExt;

    /// At Ctrl-C the permits close: a query still waiting for one is refused, in JSON.
    #[tokio::test]
    async fn a_query_once_the_permits_are_closed_is_refused_as_busy() {
        // The smallest tables there are: Kalah with one pit a row, to 2 seeds.
        struct Quiet;
        impl retro::solve::Observer for Quiet {}
        let root = tempfile::tempdir().unwrap();
        let rules = games::kalah::Rules::EMPTY_CAPTURE;
        let game = games::kalah::Kalah::new(1, 2, rules).unwrap();
        let dir = tablebase::registry::kalah_dir(root.path(), 1, &rules);
        retro::store::build(&game, &dir, &[2], &Quiet, &retro::store::BuildOptions::default()).unwrap();
        let library = Arc::new(Library::open(root.path(), |_, _| {}).unwrap());
        let permits = query_permits();
        let app = routes(library, Arc::clone(&permits), None);
        let ask = || axum::http::Request::get("/api/kalah?pits=1&seeds=1").body(axum::body::Body::empty()).unwrap();
        assert_eq!(app.clone().oneshot(ask()).await.unwrap().status(), StatusCode::OK);
        permits.close();
        let response = app.oneshot(ask()).await.unwrap();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        let body = axum::body::to_bytes(response.into_body(), 1 << 16).await.unwrap();
        let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(body["kind"], "busy", "{body}");
    }
}

#[cfg(test)]
mod search_tests;
