//! Positions above the tables served: searched over them (exact where the search ends,
//! bounds where its budget does), refused as `busy` while every search slot is taken, and
//! not built (404) when the server searches nothing.

use super::*;
use games::kalah::{Kalah, Rules};
use games::trias::Trias;
use serde_json::Value as Json;
use std::path::Path;
use tower::ServiceExt;

struct Quiet;
impl retro::solve::Observer for Quiet {}

/// The tables of `game` up to `tier`, every tier below it with them, built in `dir`.
fn built<G: retro::Game>(game: &G, dir: &Path, tier: G::Tier) {
    retro::store::build(game, dir, &[tier], &Quiet, &retro::store::BuildOptions::default()).unwrap();
}

/// A root holding Trias 3x2's tables to `stones` stones on the board.
fn trias_root(stones: u32) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    built(&Trias::new(2, stones).unwrap(), &tablebase::registry::trias_dir(root.path(), 2), stones as u8);
    root
}

/// A root holding Kalah's tables of two pits a row to `seeds` seeds in the pits.
fn kalah_root(seeds: u32) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let rules = Rules::EMPTY_CAPTURE;
    built(&Kalah::new(2, seeds, rules).unwrap(), &tablebase::registry::kalah_dir(root.path(), 2, &rules), seeds as u16);
    root
}

/// The API over the tables under `root`, searching for as long as a search takes (these
/// boards are small) in `at_once` slots, or not at all.
fn app(root: &Path, at_once: Option<usize>) -> (axum::Router, Option<Arc<SearchSlots>>) {
    let library = Arc::new(Library::open(root, |_, _| {}).unwrap());
    let searches = at_once.map(|at_once| SearchSlots::new(Searches { time: Duration::from_secs(3600), at_once }));
    (routes(library, query_permits(), searches.clone()), searches)
}

/// The status, headers and JSON body of `GET target`.
async fn get(app: &axum::Router, target: &str) -> (StatusCode, axum::http::HeaderMap, Json) {
    let request = axum::http::Request::get(target).body(axum::body::Body::empty()).unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let (parts, body) = response.into_parts();
    let body = axum::body::to_bytes(body, 1 << 24).await.unwrap();
    (parts.status, parts.headers, serde_json::from_slice(&body).unwrap())
}

/// Trias 3x2's start (six stones) above tables of up to three: the search over them
/// answers the value the full tables give, and every move's, and says it searched.
#[tokio::test]
async fn a_trias_start_above_the_tables_is_searched_to_the_value_the_full_tables_give() {
    let (full, _) = app(trias_root(6).path(), None);
    let below = trias_root(3);
    let (searched, _) = app(below.path(), Some(1));
    let target = "/api/trias?holes=2&stones=1";
    let (status, _, tabled) = get(&full, target).await;
    assert_eq!(status, StatusCode::OK, "{tabled}");
    let (status, headers, found) = get(&searched, target).await;
    assert_eq!(status, StatusCode::OK, "{found}");
    assert_eq!(found["value"], tabled["value"], "{found}");
    assert_eq!(found["moves"], tabled["moves"], "{found}");
    assert_eq!((&found["title"], &found["board"]), (&tabled["title"], &tabled["board"]));
    assert!(found["details"]["search"]["nodes"].as_u64().unwrap() > 0, "{found}");
    assert_eq!(headers[header::CACHE_CONTROL], "max-age=3600", "an exact value holds while the server runs");
    // A position of a tier built is still answered by the tables alone.
    let (status, _, answer) = get(&searched, "/api/trias?holes=2&position=1,1/1,0/0,0%20S").await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert!(answer["details"].get("search").is_none(), "{answer}");
}

/// Kalah above its tables is answered by its own search, by complete turns as the full
/// tables answer: the same value, the same moves with the same margins and positions,
/// stores included; out of budget, bounds that hold the value, for the position and for
/// each move.
#[tokio::test]
async fn a_kalah_start_above_the_tables_is_searched_by_turns() {
    let (full, _) = app(kalah_root(8).path(), None);
    let below = kalah_root(6);
    let (searched, _) = app(below.path(), Some(1));
    let (status, _, tabled) = get(&full, "/api/kalah?pits=2&seeds=2").await;
    assert_eq!(status, StatusCode::OK, "{tabled}");
    let (status, _, found) = get(&searched, "/api/kalah?pits=2&seeds=2").await;
    assert_eq!(status, StatusCode::OK, "{found}");
    assert_eq!((&found["value"], &found["position"]), (&tabled["value"], &tabled["position"]), "{found}");
    assert_eq!(found["moves"], tabled["moves"], "{found}");
    assert!(found["details"]["search"]["nodes"].as_u64().unwrap() > 0, "{found}");
    assert_eq!(found["line_positions"][0], found["position"]);
    assert_eq!(found["line_positions"].as_array().unwrap().last(), Some(&found["line_end"]["position"]));
    assert_eq!(found["line_end"]["kind"], "over", "{found}");

    let library = Library::open(below.path(), |_, _| {}).unwrap();
    let entry = registry::game_named("kalah").unwrap();
    let request = Request::new([("pits", "2"), ("seeds", "2")]).unwrap();
    let answer =
        serde_json::to_value(library.search(entry, &request, Budget { nodes: Some(1), ..Budget::default() }).unwrap())
            .unwrap();
    assert_eq!(answer["details"]["search"]["stopped"], "nodes", "{answer}");
    let holds = |bounds: &serde_json::Value, exact: &serde_json::Value| match bounds["kind"].as_str() {
        Some("bounds") => {
            bounds["lower"].as_i64() <= exact["score"].as_i64() && exact["score"].as_i64() <= bounds["upper"].as_i64()
        }
        _ => bounds == exact,
    };
    assert_eq!(answer["value"]["kind"], "bounds", "{answer}");
    assert!(holds(&answer["value"], &tabled["value"]), "{answer}");
    for (m, exact) in answer["moves"].as_array().unwrap().iter().zip(tabled["moves"].as_array().unwrap()) {
        assert_eq!(m["move"], exact["move"]);
        assert!(holds(&m["value"], &exact["value"]), "{m} {exact}");
    }
    assert!(answer["best"].is_string() && answer["line"] == serde_json::json!([]), "{answer}");
}

/// A search stopped at its first node answers the bounds it proved, as the CLI's JSON
/// writes them, the move it prefers, and no line.
#[test]
fn a_search_out_of_budget_answers_bounds() {
    let below = trias_root(3);
    let library = Library::open(below.path(), |_, _| {}).unwrap();
    let entry = registry::game_named("trias").unwrap();
    let request = Request::new([("holes", "2"), ("stones", "1")]).unwrap();
    assert!(library.above(entry, &request));
    let budget = Budget { nodes: Some(1), ..Budget::default() };
    let answer = serde_json::to_value(library.search(entry, &request, budget).unwrap()).unwrap();
    assert_eq!(answer["value"]["kind"], "bounds", "{answer}");
    assert_eq!(answer["details"]["search"]["stopped"], "nodes", "{answer}");
    assert!(answer["best"].is_string() && answer["line"] == serde_json::json!([]), "{answer}");
}

/// With every slot taken, a position to search is refused at once as `busy`, while one
/// the tables answer is still answered; a slot freed, it is searched.
#[tokio::test]
async fn a_search_while_every_slot_is_taken_is_refused_as_busy() {
    let below = trias_root(3);
    let (app, searches) = app(below.path(), Some(1));
    let searches = searches.unwrap();
    let taken = Arc::clone(&searches.slots).try_acquire_owned().unwrap();
    let (status, headers, body) = get(&app, "/api/trias?holes=2&stones=1").await;
    assert_eq!((status, body["kind"].as_str()), (StatusCode::SERVICE_UNAVAILABLE, Some("busy")), "{body}");
    assert!(body["error"].as_str().unwrap().contains("--searches"), "{body}");
    assert_eq!(headers[header::RETRY_AFTER], "1");
    let (status, _, body) = get(&app, "/api/trias?holes=2&position=1,1/1,0/0,0%20S").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    drop(taken);
    assert_eq!(get(&app, "/api/trias?holes=2&stones=1").await.0, StatusCode::OK);
    // Stopped, the server searches no more.
    searches.stop();
    let (status, _, body) = get(&app, "/api/trias?holes=2&stones=1").await;
    assert_eq!((status, body["error"].as_str()), (StatusCode::SERVICE_UNAVAILABLE, Some("the server is stopping")));
}

/// A server that searches nothing answers a position above its tables as not built, with
/// the command that builds them; so does any server for a board it holds no tables of.
#[tokio::test]
async fn without_searches_a_position_above_the_tables_is_not_built() {
    let below = trias_root(3);
    let (app, _) = app(below.path(), None);
    let (status, _, body) = get(&app, "/api/trias?holes=2&stones=1").await;
    assert_eq!((status, body["kind"].as_str()), (StatusCode::NOT_FOUND, Some("not-built")), "{body}");
    assert!(body["command"].as_str().unwrap().starts_with("solve trias --holes 2 --stones 1"), "{body}");
    let (searching, _) = super::search_tests::app(below.path(), Some(1));
    let (status, _, body) = get(&searching, "/api/trias?holes=3&stones=1").await;
    assert_eq!((status, body["kind"].as_str()), (StatusCode::NOT_FOUND, Some("not-built")), "{body}");
}
