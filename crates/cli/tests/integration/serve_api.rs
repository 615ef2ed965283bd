//! `solve serve` over a real socket: every game's answers equal the CLI's, bad and hostile
//! requests get a 4xx JSON error and the server keeps serving, thousands of concurrent
//! requests are all answered, and Ctrl-C stops it cleanly.

use crate::common::{json, solve, stderr};
use serde_json::Value as Json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

/// Small tables of every table-only game, built once for every test of this file.
fn tables() -> &'static Path {
    static TABLES: OnceLock<PathBuf> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        for args in [
            // DUO's tables hold PRIMUS's start too.
            &["thi", "--board", "duo"][..],
            &["kalah", "--pits", "3", "--seeds", "2", "--table"],
            &["awari", "--pits", "3", "--seeds", "2"],
            &["awari", "--rules", "wari", "--pits", "2", "--seeds", "2"],
            &["trias", "--holes", "3", "--stones", "1"],
            &["njaka", "--holes", "4", "--counters", "2"],
        ] {
            let out = solve(&dir, args);
            assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        }
        dir
    })
}

/// A running `solve serve`, stopped when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(tables: &Path) -> Server {
        Server::start_with(tables, &[])
    }

    /// A server of `tables` given `options` beside them.
    fn start_with(tables: &Path, options: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_solve"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(options)
            .arg("--tables")
            .arg(tables)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start solve serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let addr = line
            .strip_prefix("listening on http://")
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .parse()
            .unwrap();
        Server { child, addr }
    }

    /// Sends `request` (a whole HTTP request) and reads the status and body.
    fn send(&self, request: &[u8]) -> (u16, String) {
        let mut stream = TcpStream::connect(self.addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        stream.write_all(request).unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).unwrap();
        let text = String::from_utf8_lossy(&response).into_owned();
        let status = text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("{text:?}"));
        let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_owned();
        (status, body)
    }

    /// Sends `request` and reads the response as text until the server closes, or for 5
    /// seconds at most. Neither a refused write nor a reset ends the test: a server that
    /// answers before reading the whole request closes with some of it unread, which resets
    /// the connection once the answer is sent.
    fn exchange(&self, request: &[u8]) -> String {
        let mut stream = TcpStream::connect(self.addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let _ = stream.write_all(request);
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response);
        String::from_utf8_lossy(&response).into_owned()
    }

    fn get(&self, target: &str) -> (u16, String) {
        self.send(format!("GET {target} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").as_bytes())
    }

    fn get_json(&self, target: &str) -> (u16, Json) {
        let (status, body) = self.get(target);
        (status, serde_json::from_str(&body).unwrap_or_else(|e| panic!("{target}: {e}: {body:?}")))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The parts of a report that say what the position is worth.
fn verdict(report: &Json) -> Json {
    let keep = ["game", "position", "to_move", "over", "value", "moves", "best", "line", "line_end"];
    keep.iter().map(|k| (k.to_string(), report[*k].clone())).collect::<serde_json::Map<_, _>>().into()
}

#[test]
fn every_game_answers_as_its_command_does() {
    let tables = tables();
    let server = Server::start(tables);
    // Each start asked by its parameters, then the command that asks for it as a position.
    let cases: [(&str, &[&str], &[&str]); 6] = [
        // PRIMUS's start asked of DUO's tables is named all the same.
        ("thi?board=primus", &["thi", "--board", "primus", "--json"], &["thi", "--board", "duo"]),
        ("kalah?pits=3&seeds=2", &["kalah", "--pits", "3", "--seeds", "2", "--table", "--json"], &["kalah", "--table"]),
        ("awari?pits=3&seeds=2", &["awari", "--pits", "3", "--seeds", "2", "--json"], &["awari"]),
        (
            "oware?rules=wari&pits=2&seeds=2",
            &["awari", "--rules", "wari", "--pits", "2", "--seeds", "2", "--json"],
            &["awari", "--rules", "wari"],
        ),
        ("trias?holes=3&stones=1", &["trias", "--holes", "3", "--stones", "1", "--json"], &["trias"]),
        ("njaka?holes=4&counters=2", &["njaka", "--holes", "4", "--counters", "2", "--json"], &["njaka"]),
    ];
    for (query, args, as_position) in cases {
        let (status, answer) = server.get_json(&format!("/api/{query}"));
        assert_eq!(status, 200, "{query}: {answer}");
        let cli = json(&solve(tables, args));
        assert_eq!(verdict(&answer), verdict(&cli), "{query}");
        assert_eq!(answer["schema"], 1);
        // The command's keys, `details`' too: a key without a value is null, never left out.
        let keys = |report: &serde_json::Value, section: &str| {
            report[section].as_object().map(|o| o.keys().cloned().collect::<Vec<_>>())
        };
        assert_eq!(keys(&answer, "details"), keys(&cli, "details"), "{query}");
        for key in cli.as_object().unwrap().keys().filter(|k| *k != "reachable") {
            assert!(answer.get(key).is_some(), "{query}: no `{key}`");
        }
        // The start given as a position is the start all the same, to the server and the
        // command alike.
        // The parameters that select the game, not the start (a position fixes that).
        let game = query.split('?').next().unwrap();
        let selecting = selecting(&answer);
        let start = answer["position"].as_str().unwrap();
        let (status, again) =
            server.get_json(&format!("/api/{game}?{selecting}position={}", start.replace(' ', "%20")));
        assert_eq!(status, 200, "{game} {start}: {again}");
        let mut args = as_position.to_vec();
        args.extend(["--position", start, "--json"]);
        for report in [&again, &json(&solve(tables, &args))] {
            assert_eq!(report["start"], true, "{query}: {report}");
            assert_eq!(report["parameters"], answer["parameters"], "{query}");
            assert_eq!(report["to_move"], answer["to_move"], "{query}");
            // The details but the time (THI`'s claim above all).
            let timeless = |details: &serde_json::Value| {
                let mut details = details.clone();
                details.as_object_mut().map(|d| d.remove("seconds"));
                details
            };
            assert_eq!(timeless(&report["details"]), timeless(&answer["details"]), "{query}");
        }
        let board = &answer["board"];
        assert!(board["rows"].as_array().is_some_and(|r| !r.is_empty()), "{query}: {board}");
        // Every move but a pass starts at one cell, which names how it begins: the page
        // plays a move by its cell.
        let named: Vec<&str> = board["rows"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r.as_array().unwrap())
            .filter_map(|c| c["move"].as_str())
            .collect();
        for m in
            answer["moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap()).filter(|&m| m != "pass")
        {
            let starts =
                |from: &&&str| m == **from || m.strip_prefix(**from).is_some_and(|rest| rest.starts_with(['-', ':']));
            assert_eq!(named.iter().filter(starts).count(), 1, "{query}: move {m} on {board}");
        }
        // The line's positions start at the position and follow the line's moves.
        let positions = answer["line_positions"].as_array().unwrap();
        assert_eq!(positions[0], answer["position"], "{query}");
        assert_eq!(positions.len(), answer["line"].as_array().unwrap().len() + 1, "{query}");
        // A move's position is answered too, and its value is the move's, seen by the
        // player to move there.
        if let Some(best) = answer["moves"].as_array().unwrap().iter().find(|m| m["move"] == answer["best"]) {
            let position = best["position"].as_str().unwrap().replace(' ', "%20").replace('+', "%2B");
            let next = format!("/api/{game}?{selecting}position={position}");
            let (status, after) = server.get_json(&next);
            assert_eq!(status, 200, "{next}: {after}");
            assert_eq!(after["position"], best["position"]);
        }
    }
    let (status, games) = server.get_json("/api/games");
    assert_eq!(status, 200);
    let held: Vec<&str> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| !g["tables"].as_array().unwrap().is_empty())
        .map(|g| g["game"].as_str().unwrap())
        .collect();
    assert_eq!(held, ["thi", "kalah", "awari", "oware", "trias", "njaka"]);
    assert_eq!(games["skipped"], serde_json::json!([]));
}

/// A finished Kalah game is answered from its stores and rows, however many seeds they
/// hold: no table is needed for it, as `solve kalah` answers it too.
#[test]
fn a_finished_kalah_game_above_the_tables_is_answered() {
    let server = Server::start(tables());
    let (status, answer) = server.get_json("/api/kalah?position=0,0,0/10,10,10%200-0%20S");
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["value"]["score"], -30, "North keeps his row: {answer}");
    assert_eq!(answer["over"], true);
    assert_eq!(answer["moves"].as_array().map(Vec::len), Some(0), "{answer}");
}

/// Every start `/api/games` lists is answered, however many seeds a pit: a 1-pit board
/// holds up to 127 a pit.
#[test]
fn every_listed_kalah_start_is_answered() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(dir.path(), &["kalah", "--pits", "1", "--seeds", "70", "--table"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let server = Server::start(dir.path());
    let (_, games) = server.get_json("/api/games");
    let kalah = games["games"].as_array().unwrap().iter().find(|g| g["game"] == "kalah").unwrap();
    let starts = kalah["tables"][0]["starts"].as_array().unwrap();
    assert_eq!(starts.len(), 70, "{kalah}");
    for start in starts {
        let (status, answer) = server.get_json(&format!("/api/kalah?pits=1&seeds={}", start["parameters"]["seeds"]));
        assert_eq!(status, 200, "{start}: {answer}");
        assert_eq!(answer["parameters"]["seeds"], start["parameters"]["seeds"]);
        assert_eq!(answer["title"], start["title"], "a start is listed under the title its answer has");
    }
}

/// The command named for tables not built says what it would cost where that is far
/// past a small build, and what answers the position without it.
#[test]
fn a_kalah_start_past_any_full_table_names_the_cost_and_the_search() {
    let server = Server::start(tables());
    let (status, body) = server.get_json("/api/kalah?pits=6&seeds=4");
    assert_eq!((status, body["kind"].as_str()), (404, Some("not-built")), "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.contains("every board of up to 48 seeds") && error.contains("on disk"), "{error}");
    assert!(error.contains("`solve kalah --pits 6 --seeds 4 --rules empty-capture` answers it"), "{error}");
    // A small build is only named, by a server that does not search above its tables
    // (Kalah(3,2)'s); one that does answers by its search.
    let (status, body) = Server::start_with(tables(), &["--search-ms", "0"]).get_json("/api/kalah?pits=3&seeds=3");
    assert_eq!(status, 404, "{body}");
    assert!(!body["error"].as_str().unwrap().contains("on disk"), "{body}");
    let (status, body) = server.get_json("/api/kalah?pits=3&seeds=3");
    assert_eq!(status, 200, "{body}");
    assert!(body["details"]["search"]["nodes"].is_u64(), "{body}");
    // No 64-bit index numbers every board of 240 seeds in eight pits a row.
    let (status, body) = server.get_json("/api/kalah?pits=8&seeds=15");
    assert_eq!((status, body["kind"].as_str()), (404, Some("beyond-index")), "{body}");
    assert!(body["error"].as_str().unwrap().contains("no command builds"), "{body}");
}

#[test]
fn bad_and_hostile_requests_get_json_errors_and_the_server_keeps_serving() {
    let server = Server::start(tables());
    let long = "1,".repeat(5000);
    let many: String = (0..40).map(|i| format!("p{i}=1&")).collect();
    let cases: [(String, u16, &str); 27] = [
        ("/api/thi?position=-,-,-/www,www,www/www,www,www%20w".into(), 400, "impossible"),
        ("/api/thi?position=xx".into(), 400, "malformed"),
        ("/api/thi?size=4&position=bbb,bbb,bbb/-,-,-/www,www,www%20w".into(), 400, "impossible"),
        ("/api/kalah?pits=3&position=1,2/3,4%200-0%20S".into(), 400, "impossible"),
        // Rows of different lengths are not the notation, in Kalah as in Trias.
        ("/api/kalah?position=3,3,3/3,3%203-0%20S".into(), 400, "malformed"),
        ("/api/trias?position=1,1/1,1,1/1,1,1%20S".into(), 400, "malformed"),
        ("/api/chess?board=1".into(), 400, "unknown-game"),
        ("/api/thi?rules=house".into(), 400, "parameter"),
        ("/api/thi?board=primus&colour=red".into(), 400, "parameter"),
        ("/api/thi?board=primus&board=duo".into(), 400, "parameter"),
        ("/api/kalah?pits=99999999999999999999999&seeds=1".into(), 400, "parameter"),
        ("/api/kalah?pits=-1&seeds=1".into(), 400, "parameter"),
        (format!("/api/awari?position={long}"), 400, "parameter"),
        (format!("/api/thi?{many}"), 400, "parameter"),
        ("/api/thi?position=%FF%FE".into(), 400, "malformed"),
        ("/api/thi?board=trias&rules=fixed1".into(), 404, "not-built"),
        ("/api/kalah?pits=6&seeds=4".into(), 404, "not-built"),
        ("/../../etc/passwd".into(), 404, "not-found"),
        ("/api/..%2F..%2Fetc%2Fpasswd".into(), 400, "unknown-game"),
        // A name that does not decode to text: JSON too, not the framework's plain text.
        ("/api/%FF".into(), 400, "unknown-game"),
        // Stores past any game: refused, not summed until they overflow.
        ("/api/kalah?position=2,2,2/2,2,2%2065534-0%20S".into(), 400, "impossible"),
        ("/api/kalah?position=2,2,2/2,2,2%200-65536%20N".into(), 400, "impossible"),
        // Too many stones is the same kind of fault whichever way it is asked.
        ("/api/kalah?position=255,255,255/255,255,255%200-0%20S".into(), 400, "impossible"),
        ("/api/kalah?pits=8&seeds=64".into(), 400, "impossible"),
        ("/api/njaka?position=255s,2s,2n,2n%20S".into(), 400, "impossible"),
        ("/api/games?board=primus".into(), 400, "parameter"),
        ("/api/thi?size=4".into(), 400, "parameter"),
    ];
    for (target, status, kind) in &cases {
        let (got, body) = server.get_json(target);
        assert_eq!((got, body["kind"].as_str().unwrap()), (*status, *kind), "{target}: {body}");
        assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()), "{target}");
        if *kind == "not-built" {
            assert!(body["command"].as_str().unwrap().starts_with("solve "), "{body}");
        }
    }
    // Not HTTP at all, and a method the API does not take.
    let (status, _) = server.send(b"\x16\x03\x01garbage\r\n\r\n");
    assert_eq!(status, 400);
    for method in ["DELETE /api/thi?board=primus", "POST /api/games", "PUT /"] {
        let (status, body) =
            server.send(format!("{method} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").as_bytes());
        let body: Json = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{method}: {e}: {body:?}"));
        assert_eq!((status, body["kind"].as_str()), (405, Some("method")), "{method}: {body}");
    }
    // Answers and refusals alike are JSON that no browser may read as anything else.
    for target in ["/api/games", "/api/nothing"] {
        let mut stream = TcpStream::connect(server.addr).unwrap();
        write!(stream, "GET {target} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let head = response.split("\r\n\r\n").next().unwrap().to_ascii_lowercase();
        assert!(head.contains("x-content-type-options: nosniff"), "{target}: {head}");
        assert!(head.contains("content-type: application/json"), "{target}: {head}");
    }
    // The fault a misspelt parameter causes is not blamed on another.
    let (_, body) = server.get_json("/api/kalah?pits=3&rules=foo");
    assert!(body["error"].as_str().unwrap().contains("`rules`"), "{body}");
    // Still serving.
    let (status, answer) = server.get_json("/api/thi?board=primus");
    assert_eq!((status, answer["game"].as_str()), (200, Some("thi")));
}

/// A board past the limit is refused with every stone counted, as the command does.
#[test]
fn too_many_stones_are_counted_in_full() {
    let server = Server::start(tables());
    let (status, body) = server.get_json("/api/trias?position=255,0,0/0,0,1/1,2,0%20S");
    assert_eq!((status, body["kind"].as_str()), (400, Some("impossible")), "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.contains("259 stones on the board; a board here holds at most 255"), "{body}");
}

/// A request of `size` bytes up to its headers' end (without it if `finished` is false).
fn request_of(size: usize, finished: bool) -> Vec<u8> {
    let (start, end) = ("GET /api/games HTTP/1.1\r\nHost: t\r\nConnection: close\r\nX-Pad: ", "\r\n\r\n");
    let mut request = start.as_bytes().to_vec();
    request.resize(size - end.len(), b'a');
    if finished {
        request.extend_from_slice(end.as_bytes());
    } else {
        request.resize(size, b'a');
    }
    request
}

/// Headers up to the cap are answered; past it they get 431 as soon as the cap is read,
/// not once the headers end or the header timeout closes the connection.
#[test]
fn headers_past_the_cap_get_431_at_once() {
    let server = Server::start(tables());
    let cap = server::MAX_HEADER_BYTES;
    let at_cap = server.exchange(&request_of(cap, true));
    assert!(at_cap.starts_with("HTTP/1.1 200 "), "{cap} bytes: {at_cap:?}");
    let past = server.exchange(&request_of(cap + 1, true));
    assert!(past.starts_with("HTTP/1.1 431 "), "{} bytes: {past:?}", cap + 1);
    // Headers that never end, longer than the cap: refused while they are still coming.
    let started = std::time::Instant::now();
    let unfinished = server.exchange(&request_of(4 * cap, false));
    assert!(unfinished.starts_with("HTTP/1.1 431 "), "unfinished headers: {unfinished:?}");
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
    assert_eq!(server.get("/api/games").0, 200);
}

/// Every method but GET and HEAD gets 405 and `Allow: GET, HEAD`, on every path: the API's,
/// the page's, paths that lead nowhere, and the targets only CONNECT and OPTIONS take.
#[test]
fn every_method_but_get_and_head_gets_405_on_every_path() {
    let server = Server::start(tables());
    for request_line in [
        "CONNECT /api/games",
        "CONNECT example.com:443",
        "CONNECT /nothing/here",
        "OPTIONS *",
        "OPTIONS /api/games",
        "TRACE /",
        "TRACE /nothing",
        "PATCH /api/thi?board=primus",
        "DELETE /api/nothing",
        "PUT /app.js",
        "POST /api/games",
        "BREW /api/games",
        "BREW /nothing",
    ] {
        let response =
            server.exchange(format!("{request_line} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").as_bytes());
        let (head, body) = response.split_once("\r\n\r\n").unwrap_or_else(|| panic!("{request_line}: {response:?}"));
        assert!(head.starts_with("HTTP/1.1 405 "), "{request_line}: {head}");
        assert!(head.to_ascii_lowercase().contains("\r\nallow: get, head\r\n"), "{request_line}: {head}");
        let body: Json = serde_json::from_str(body).unwrap_or_else(|e| panic!("{request_line}: {e}: {body:?}"));
        assert_eq!(body["kind"], "method", "{request_line}: {body}");
        // The error names the method and the target, CONNECT's `host:port` too.
        let (method, target) = request_line.split_once(' ').unwrap();
        let path = target.split('?').next().unwrap();
        assert!(body["error"].as_str().unwrap().starts_with(&format!("{method} {path}:")), "{request_line}: {body}");
    }
}

/// A client that sends its headers slowly, or nothing at all, is cut off after
/// `--header-timeout`, while others are answered meanwhile.
#[test]
fn slow_or_silent_clients_are_cut_off() {
    let tables = tables();
    let mut child = Command::new(env!("CARGO_BIN_EXE_solve"))
        .args(["serve", "--addr", "127.0.0.1:0", "--header-timeout", "1", "--tables"])
        .arg(tables)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let server =
        Server { addr: line["listening on http://".len()..].split('/').next().unwrap().parse().unwrap(), child };
    let silent = TcpStream::connect(server.addr).unwrap();
    let mut slow = TcpStream::connect(server.addr).unwrap();
    slow.write_all(b"GET /api/games HTTP/1.1\r\nHost: t\r\n").unwrap();
    assert_eq!(server.get("/api/games").0, 200);
    let started = std::time::Instant::now();
    for mut stream in [silent, slow] {
        stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let mut rest = Vec::new();
        // Closed by the server (an empty read or a reset), not by our own timeout.
        match stream.read_to_end(&mut rest) {
            Ok(_) => {}
            Err(e) => assert!(
                !matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut),
                "still open after {:?}",
                started.elapsed()
            ),
        }
    }
    assert!(started.elapsed() < Duration::from_secs(15), "{:?}", started.elapsed());
    assert_eq!(server.get("/api/games").0, 200);
}

#[test]
fn thousands_of_concurrent_requests_are_all_answered() {
    let server = Server::start(tables());
    let targets = ["/api/thi?board=primus", "/api/trias?holes=3&stones=1", "/api/kalah?pits=3&seeds=2"];
    let expected: Vec<String> = targets.iter().map(|t| server.get(t).1).collect();
    let (clients, each) = (200, 12);
    let barrier = std::sync::Barrier::new(clients);
    std::thread::scope(|scope| {
        for c in 0..clients {
            let (server, expected, barrier) = (&server, &expected, &barrier);
            scope.spawn(move || {
                barrier.wait();
                for i in 0..each {
                    let k = (c + i) % targets.len();
                    let (status, body) = server.get(targets[k]);
                    assert_eq!(status, 200);
                    assert_eq!(body, expected[k]);
                }
            });
        }
    });
}

#[test]
fn ctrl_c_stops_the_server_cleanly() {
    let mut server = Server::start(tables());
    assert_eq!(server.get("/api/games").0, 200);
    let pid = server.child.id().to_string();
    assert!(Command::new("kill").args(["-INT", &pid]).status().unwrap().success());
    let status = server.child.wait().unwrap();
    assert!(status.success(), "{status}");
    let mut err = String::new();
    server.child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert!(err.contains("stopped"), "{err}");
}

/// The directory and error of the one directory `/api/games` lists as left out.
fn the_one_skipped(games: &Json) -> (&str, &str) {
    let skipped = games["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1, "{games}");
    (skipped[0]["directory"].as_str().unwrap(), skipped[0]["error"].as_str().unwrap())
}

#[test]
fn a_damaged_directory_is_left_out_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(dir.path(), &["trias", "--holes", "2", "--stones", "1"]);
    assert!(out.status.success());
    let out = solve(dir.path(), &["awari", "--pits", "2", "--seeds", "1"]);
    assert!(out.status.success());
    let file = dir.path().join("trias/3x2/tier-3.tbl");
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&file, bytes).unwrap();
    let server = Server::start(dir.path());
    let (_, games) = server.get_json("/api/games");
    let (directory, error) = the_one_skipped(&games);
    assert!(directory.ends_with("3x2") && error.contains("tier-3.tbl"), "{games}");
    // The rest is served; the damaged game answers as not built, naming what to remove
    // first (the command alone would stop at the damaged file); other games name nothing.
    assert_eq!(server.get("/api/awari?pits=2&seeds=1").0, 200);
    let (status, body) = server.get_json("/api/trias?holes=2&stones=1");
    assert_eq!(status, 404);
    let error = body["error"].as_str().unwrap();
    assert!(error.contains("left out when the tables were opened") && error.contains("tier-3.tbl"), "{body}");
    let (status, body) = server.get_json("/api/njaka?holes=2&counters=1");
    assert_eq!(status, 404);
    assert!(!body["error"].as_str().unwrap().contains("left out"), "{body}");
    // A bad parameter is a 400 whether or not the tables are here.
    assert_eq!(server.get("/api/trias?holes=3&stones=1&max_line=abc").0, 400);
    // Nor does the same game on another board, whose tables live elsewhere.
    let (status, body) = server.get_json("/api/trias?holes=3&stones=1");
    assert_eq!(status, 404);
    assert!(!body["error"].as_str().unwrap().contains("left out"), "{body}");
}

/// Every game's tables lie where its registry entry says they belong. A copy renamed
/// within a game's directory is left out and named, and `solve info` warns of it; two
/// directories of one key are both served, the one where the game's commands keep them
/// asked first, and a request the first cannot answer falls through to the second.
#[test]
fn a_renamed_directory_is_left_out_and_one_key_in_two_places_is_served_from_both() {
    let root = tables();
    for dir in tablebase::layout::table_dirs(root).unwrap() {
        let key = tablebase::layout::read_directory(&dir).unwrap().key;
        let game = tablebase::registry::game_of_key(&key).unwrap();
        assert_eq!(game.directory(&key, root).unwrap(), dir, "{key}");
        assert_eq!(tablebase::registry::misplaced(&key, &dir), None, "{key}");
    }
    let dir = tempfile::tempdir().unwrap();
    assert!(solve(dir.path(), &["trias", "--holes", "2", "--stones", "1"]).status.success());
    let copy = |from: &str, to: &str| {
        std::fs::create_dir_all(dir.path().join(to)).unwrap();
        for file in std::fs::read_dir(dir.path().join(from)).unwrap() {
            let file = file.unwrap().path();
            std::fs::copy(&file, dir.path().join(to).join(file.file_name().unwrap())).unwrap();
        }
    };
    copy("trias/3x2", "trias/3x3");
    // A second root, sorted before `trias/`, whose tables go one start further.
    assert!(solve(&dir.path().join("a-root"), &["trias", "--holes", "2", "--stones", "2"]).status.success());
    let info = Command::new(env!("CARGO_BIN_EXE_solve")).arg("info").arg(dir.path()).output().unwrap();
    assert!(info.status.success(), "{}", stderr(&info));
    let warning = format!("trias/3x3: these tables belong in {}", dir.path().join("trias/3x2").display());
    assert!(stderr(&info).contains(&warning), "{}", stderr(&info));
    // Spelled otherwise, the renamed directory is judged the same.
    let dotted = dir.path().join("trias/3x3/../3x3");
    assert!(tablebase::registry::misplaced("trias holes=2", &dotted).is_some());
    let server = Server::start(dir.path());
    let (_, games) = server.get_json("/api/games");
    let (directory, error) = the_one_skipped(&games);
    assert!(directory.ends_with("trias/3x3") && error.contains("which belong in"), "{games}");
    let trias = games["games"].as_array().unwrap().iter().find(|g| g["game"] == "trias").unwrap();
    let served: Vec<&str> =
        trias["tables"].as_array().unwrap().iter().map(|t| t["tables"]["directory"].as_str().unwrap()).collect();
    let home = dir.path().join("trias/3x2");
    let second = dir.path().join("a-root/trias/3x2");
    assert_eq!(served, [home.to_str().unwrap(), second.to_str().unwrap()], "{trias}");
    let (status, one) = server.get_json("/api/trias?holes=2&stones=1");
    assert_eq!(status, 200, "{one}");
    assert_eq!(one["tables"]["directory"], home.to_str().unwrap());
    let (status, two) = server.get_json("/api/trias?holes=2&stones=2");
    assert_eq!(status, 200, "{two}");
    assert_eq!(two["tables"]["directory"], second.to_str().unwrap());
}

/// `--addr` takes a host name as well as an address; a port out of range or a name
/// that does not resolve is refused before anything is opened.
#[test]
fn the_address_may_be_a_host_name() {
    let serve = |addr: &str| {
        Command::new(env!("CARGO_BIN_EXE_solve"))
            .args(["serve", "--addr", addr, "--tables"])
            .arg(tables())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut child = serve("localhost:0");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(line.starts_with("listening on http://"), "{line:?}");
    for (addr, why) in [("localhost:99999", "`99999` is not a port"), ("localhost", "HOST:PORT")] {
        let out = serve(addr).wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{addr}");
        assert!(stderr(&out).contains(why), "{addr}: {}", stderr(&out));
    }
}

#[test]
fn no_tables_is_an_error_naming_the_directory() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_solve"))
        .args(["serve", "--addr", "127.0.0.1:0", "--tables"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no table files"), "{err}");
    // No directory at all: how to make one, or where else to look.
    let out = Command::new(env!("CARGO_BIN_EXE_solve"))
        .args(["serve", "--addr", "127.0.0.1:0", "--tables"])
        .arg(dir.path().join("missing"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("missing: no such directory: build tables first") && err.contains("--tables"), "{err}");
}

/// A search time past an hour, or no search slot at all, is refused before anything is
/// opened, naming the option and what it takes.
#[test]
fn absurd_search_options_are_refused() {
    for (option, value) in
        [("--searches", "0"), ("--searches", "65"), ("--search-ms", "3600001"), ("--search-ms", "-1")]
    {
        let out = Command::new(env!("CARGO_BIN_EXE_solve"))
            .args(["serve", "--addr", "127.0.0.1:0", &format!("{option}={value}"), "--tables"])
            .arg(tables())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{option} {value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(option) && err.contains(&format!("'{value}'")), "{option} {value}: {err}");
    }
}

#[test]
fn mutated_positions_are_answered_or_refused_never_a_server_error() {
    // Positions above the tables are searched too, each for a moment.
    let server = Server::start_with(tables(), &["--search-ms", "20"]);
    let starts = [
        ("thi", "board=primus"),
        ("kalah", "pits=3&seeds=2"),
        ("awari", "pits=3&seeds=2"),
        ("oware", "rules=wari&pits=2&seeds=2"),
        ("trias", "holes=3&stones=1"),
        ("njaka", "holes=4&counters=2"),
    ];
    // A fixed-seed generator: the same requests on every run.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let alphabet: Vec<char> = "0123456789,/- wbsnSN".chars().collect();
    for (game, start) in starts {
        let (_, answer) = server.get_json(&format!("/api/{game}?{start}"));
        let selecting = selecting(&answer);
        let mut positions: Vec<String> =
            answer["moves"].as_array().unwrap().iter().map(|m| m["position"].as_str().unwrap().to_owned()).collect();
        positions.push(answer["position"].as_str().unwrap().to_owned());
        for i in 0..150 {
            let mut chars: Vec<char> = positions[i % positions.len()].chars().collect();
            for _ in 0..1 + next(3) {
                let at = next(chars.len());
                match next(3) {
                    0 => chars[at] = alphabet[next(alphabet.len())],
                    1 => chars.insert(at, alphabet[next(alphabet.len())]),
                    _ => {
                        chars.remove(at);
                    }
                }
                if chars.is_empty() {
                    chars.push('0');
                }
            }
            let text: String = chars.into_iter().collect();
            let encoded: String =
                text.bytes()
                    .map(|b| {
                        if b.is_ascii_alphanumeric() || b == b',' {
                            (b as char).to_string()
                        } else {
                            format!("%{b:02X}")
                        }
                    })
                    .collect();
            let target = format!("/api/{game}?{selecting}position={encoded}");
            let (status, body) = server.get_json(&target);
            assert!([200, 400, 404].contains(&status), "{target} ({text}): {status} {body}");
        }
    }
    assert_eq!(server.get("/api/games").0, 200);
}

/// The command a 404 names builds what the request needs, even a Trysse position whose
/// tier the start never reaches (captures take two or three stones).
#[test]
fn the_command_named_for_a_position_builds_its_tables() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(dir.path(), &["awari", "--rules", "trysse", "--pits", "3", "--seeds", "2", "--target", "6"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let target = "/api/oware?rules=trysse&target=6&position=1,2,2,2,2,2%201-0";
    // Not searched above the tables of its board and rules, it is not built.
    let (status, body) = Server::start_with(dir.path(), &["--search-ms", "0"]).get_json(target);
    assert_eq!(status, 404, "{body}");
    let command = body["command"].as_str().unwrap();
    assert!(command.contains("--position \"1,2,2,2,2,2 1-0\""), "{command}");
    let built = crate::common::run_named_command(&format!("`{command}`"), dir.path());
    assert!(built.status.success(), "{command}: {}", String::from_utf8_lossy(&built.stderr));
    let server = Server::start(dir.path());
    let (status, body) = server.get_json(target);
    assert_eq!(status, 200, "{body}");
    // A board size the position contradicts is named as such, as the command names it.
    let (status, body) = server.get_json("/api/oware?rules=trysse&target=6&position=1,2,2,2,2,2%201-0&pits=6");
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("the position has 3 pits a row, but pits says 6"), "{body}");
}

/// Tables built with a switch changed from its preset are served under the rules' name
/// that reports give (`capture-…_skip-…`), and the command for other switches sets each.
#[test]
fn rules_off_the_presets_are_served_by_their_name() {
    let dir = tempfile::tempdir().unwrap();
    let built =
        json(&solve(dir.path(), &["kalah", "--pits", "3", "--seeds", "2", "--end", "no-move", "--table", "--json"]));
    let name = built["rules"].as_str().unwrap().to_owned();
    assert_eq!(name, "capture-empty_skip-no_end-no-move_leftovers-owner_leave-no");
    let server = Server::start(dir.path());
    let (_, games) = server.get_json("/api/games");
    let kalah = games["games"].as_array().unwrap().iter().find(|g| g["game"] == "kalah").unwrap();
    assert_eq!(kalah["tables"][0]["parameters"]["rules"], name.as_str(), "{kalah}");
    let (status, answer) = server.get_json(&format!("/api/kalah?pits=3&seeds=2&rules={name}"));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["value"], built["value"]);
    let other = "capture-standard_skip-yes_end-no-move_leftovers-none_leave-no";
    let (status, body) = server.get_json(&format!("/api/kalah?pits=3&seeds=2&rules={other}"));
    assert_eq!(status, 404, "{body}");
    let command = body["command"].as_str().unwrap();
    let out = crate::common::run_named_command(&format!("`{command} --json`"), dir.path());
    assert_eq!(json(&out)["rules"], other, "{command}");
    let (status, _) = server.get_json("/api/kalah?pits=3&seeds=2&rules=capture-sometimes");
    assert_eq!(status, 400);
}

/// A setup of a board the article does not name has one name, `4x4-height1` (one row of
/// single counters is the first-row stacks of one), which the command and the server
/// both report, both take as `--board`/`board=`, and both recognise in the start given
/// as a position.
#[test]
fn a_custom_setup_is_named_and_recognised_alike_by_the_command_and_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let built = json(&solve(dir.path(), &["thi", "--size", "4", "--rows", "1", "--json"]));
    assert_eq!(built["parameters"]["board"], "4x4-height1", "{built}");
    assert_eq!(built["start"], true);
    let start = built["position"].as_str().unwrap();
    let named = json(&solve(dir.path(), &["thi", "--board", "4x4-height1", "--json"]));
    let as_position = json(&solve(dir.path(), &["thi", "--position", start, "--json"]));
    let server = Server::start(dir.path());
    let (status, by_board) = server.get_json("/api/thi?board=4x4-height1");
    assert_eq!(status, 200, "{by_board}");
    let (status, by_position) = server.get_json(&format!("/api/thi?size=4&position={}", start.replace(' ', "%20")));
    assert_eq!(status, 200, "{by_position}");
    for report in [&named, &as_position, &by_board, &by_position] {
        assert_eq!(report["parameters"], built["parameters"], "{report}");
        assert_eq!(report["start"], true, "{report}");
        assert_eq!(report["details"]["claim_perfect_play_draws"], built["details"]["claim_perfect_play_draws"]);
        assert_eq!(verdict(report), verdict(&built));
    }
    let (_, games) = server.get_json("/api/games");
    let thi = games["games"].as_array().unwrap().iter().find(|g| g["game"] == "thi").unwrap();
    assert_eq!(thi["tables"][0]["starts"][0]["parameters"]["board"], "4x4-height1", "{thi}");
    assert_eq!(thi["tables"][0]["starts"][0]["title"], "THI` 4x4-height1 (4×4, 4 counters each), rules: original");
    let (status, refused) = server.get_json("/api/thi?board=4x04-height1");
    assert_eq!((status, refused["kind"].as_str()), (400, Some("parameter")), "{refused}");
}

/// A board beside a position names the tables it is answered from, to the server as to
/// the command: the answer is the command's, and a position the board cannot hold (more
/// counters a side, another size) is impossible there.
#[test]
fn a_thi_position_asked_of_a_board_is_answered_as_the_command_answers_it() {
    let tables = tables();
    let server = Server::start(tables);
    for position in ["b,b,b/-,-,-/w,w,w w", "b,b,-/-,b,-/w,w,w w"] {
        let (status, answer) =
            server.get_json(&format!("/api/thi?board=duo&position={}", position.replace(' ', "%20")));
        assert_eq!(status, 200, "{position}: {answer}");
        let cli = json(&solve(tables, &["thi", "--board", "duo", "--position", position, "--json"]));
        assert_eq!(verdict(&answer), verdict(&cli), "{position}");
        assert_eq!(answer["parameters"], cli["parameters"], "{position}");
    }
    for position in ["bb,bb,bb/-,-,-/ww,ww,ww%20w", "b,b,b,b/-,-,-,-/-,-,-,-/w,w,w,w%20w"] {
        let (status, refused) = server.get_json(&format!("/api/thi?board=primus&position={position}"));
        assert_eq!((status, refused["kind"].as_str()), (400, Some("impossible")), "{position}: {refused}");
    }
}

/// The table files under `dir`, every one.
fn table_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(table_files(&path));
        } else if path.extension().is_some_and(|x| x == "tbl") {
            files.push(path);
        }
    }
    files
}

/// Rewrites the body of the table `file` in place, each byte complemented (its length and
/// inode kept): another table copied over it, as far as a reader of the old one can tell.
fn rewrite_body_in_place(file: &Path) {
    use std::io::{Seek, SeekFrom};
    let bytes = std::fs::read(file).unwrap();
    let body_offset = u64::from_le_bytes(bytes[24..32].try_into().unwrap()) as usize;
    let changed: Vec<u8> = bytes[body_offset..].iter().map(|b| !b).collect();
    let mut handle = std::fs::OpenOptions::new().write(true).open(file).unwrap();
    handle.seek(SeekFrom::Start(body_offset as u64)).unwrap();
    handle.write_all(&changed).unwrap();
    handle.sync_all().unwrap();
}

/// A table rewritten in place while the server runs gives no value: the query that would
/// read it answers 500 naming the file; a truncated one the same, and the server lives on
/// (a mapped table would kill it with SIGBUS). What was read and checked before the
/// change still answers, unchanged.
#[test]
fn a_table_changed_or_truncated_under_the_server_is_named_never_served() {
    let dir = tempfile::tempdir().unwrap();
    let out = solve(dir.path(), &["trias", "--holes", "3", "--stones", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let files = table_files(dir.path());
    assert!(!files.is_empty());
    let start = "/api/trias?holes=3&stones=2";
    let server = Server::start(dir.path());
    let (status, answered) = server.get(start);
    assert_eq!(status, 200, "{answered}");
    // A second server opens the same files; neither has read them past the opening check.
    let fresh = Server::start(dir.path());
    files.iter().for_each(|f| rewrite_body_in_place(f));
    let (status, body) = fresh.get_json(start);
    assert_eq!(status, 500, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.contains("changed since it was opened") && error.contains("tier-"), "{body}");
    assert!(body.get("value").is_none(), "{body}");
    // The first server read the start's line from checked bytes: the same answer.
    assert_eq!(server.get(start), (200, answered));
    for file in &files {
        std::fs::OpenOptions::new().write(true).open(file).unwrap().set_len(70).unwrap();
    }
    let (status, body) = fresh.get_json("/api/trias?holes=3&stones=2&max_line=3");
    assert_eq!(status, 500, "{body}");
    assert!(body["error"].as_str().unwrap().contains("shorter than"), "{body}");
    assert_eq!(fresh.get("/api/games").0, 200, "the server lives on");
}

/// A target with no path (`host:port`) is named whole in the 404, as in the 405.
#[test]
fn a_target_without_a_path_is_named_in_the_404() {
    let server = Server::start(tables());
    let (status, body) = server.send(b"GET example.com:443 HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n");
    assert_eq!(status, 404, "{body}");
    assert!(body.contains("nothing at example.com:443: the API is under /api/"), "{body}");
}

/// The parameters an answer says select its board and rules, as the start of a query
/// (`pits=3&rules=standard&`): with `position=` added, a request for any position of the game.
fn selecting(answer: &serde_json::Value) -> String {
    let pairs = answer["board_and_rules"].as_object().expect("an answer says its board and rules");
    pairs
        .iter()
        .map(|(name, value)| match value {
            serde_json::Value::String(text) => format!("{name}={text}&"),
            other => format!("{name}={other}&"),
        })
        .collect()
}

/// The toy game, registered by its front end alone (`tablebase/src/front/toy.rs`, one line
/// of the registry), is listed, served and queried as every game is: the worked example of
/// docs/adding-a-game.md.
#[test]
fn the_toy_game_is_served_through_its_front_end_alone() {
    use retro::toy::{Pile, Toy};
    use tablebase::front::FrontEnd;
    let root = tempfile::tempdir().unwrap();
    let game = Toy::cyclic_score(3);
    let dir = game.directory(root.path());
    let options = retro::store::BuildOptions::default();
    let (tables, _) = retro::store::build(&game, &dir, &[4], &retro::solve::Silent, &options).unwrap();
    let server = Server::start(root.path());
    let (_, games) = server.get_json("/api/games");
    let toy = games["games"].as_array().unwrap().iter().find(|g| g["game"] == "toy").expect("the toy is listed");
    let starts = toy["tables"][0]["starts"].as_array().unwrap();
    assert_eq!(starts.len(), 4, "{toy}");
    assert_eq!(starts[3]["title"], "Toy, 3 cells in a ring, a pile of 4 stones", "{toy}");
    for stones in 1..=4u8 {
        let (status, answer) = server.get_json(&format!("/api/toy?cells=3&stones={stones}"));
        assert_eq!(status, 200, "{answer}");
        let value = tables.value(&game, &Pile { stones, marker: 0 }).unwrap();
        assert_eq!(answer["value"]["score"], value, "{answer}");
        // Every move's position is a request of its own, made of the board and rules.
        for m in answer["moves"].as_array().unwrap() {
            let position = m["position"].as_str().unwrap().replace(' ', "%20");
            let (status, after) = server.get_json(&format!("/api/toy?{}position={position}", selecting(&answer)));
            assert_eq!(status, 200, "{after}");
            assert_eq!(after["position"], m["position"]);
        }
    }
    let (status, refused) = server.get_json("/api/toy?cells=3&position=1%20stones,%20marker%20on%207");
    assert_eq!((status, refused["kind"].as_str()), (400, Some("impossible")), "{refused}");
    let (status, missing) = server.get_json("/api/toy?cells=3&stones=9");
    assert_eq!((status, missing["kind"].as_str()), (400, Some("impossible")), "no command builds them: {missing}");
}
