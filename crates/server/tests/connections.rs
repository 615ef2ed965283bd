//! The cap on open connections, over a real socket: a small cap given to `serve`, the
//! connection past it refused with 503, and served again once the others close.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// The cap the test gives the server.
const CAP: usize = 3;

/// A server of the smallest tables there are (Kalah with one pit a row, to 2 seeds), in a
/// thread of its own until the test ends, serving at most `CAP` connections.
fn start() -> SocketAddr {
    struct Quiet;
    impl retro::solve::Observer for Quiet {}
    let root = tempfile::tempdir().unwrap().keep();
    let rules = games::kalah::Rules::EMPTY_CAPTURE;
    let game = games::kalah::Kalah::new(1, 2, rules).unwrap();
    let dir = tablebase::registry::kalah_dir(&root, 1, &rules);
    retro::store::build(&game, &dir, &[2], &Quiet, &retro::store::BuildOptions::default()).unwrap();
    let library = server::Library::open(&root, |_, _| {}).unwrap();
    let (bound, addr) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
        let listen = "127.0.0.1:0".parse().unwrap();
        // Held connections must not be cut off as idle while the test looks.
        let header_timeout = Duration::from_secs(60);
        runtime
            .block_on(server::serve(library, listen, header_timeout, CAP, None, |a| bound.send(a).unwrap()))
            .unwrap();
    });
    addr.recv().unwrap()
}

/// A connection that asks for `/api/games`, keeps alive, and has read its whole answer.
fn served_and_kept(addr: SocketAddr) -> BufReader<TcpStream> {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    stream.write_all(b"GET /api/games HTTP/1.1\r\nHost: t\r\n\r\n").unwrap();
    let mut reader = BufReader::new(stream);
    let mut length = None;
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(line.starts_with("HTTP/1.1 200 "), "{line:?}");
    while line != "\r\n" {
        line.clear();
        reader.read_line(&mut line).unwrap();
        if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = Some(value.trim().parse::<usize>().unwrap());
        }
    }
    let mut body = vec![0; length.expect("a content-length")];
    reader.read_exact(&mut body).unwrap();
    reader
}

/// Asks for `/api/games` on a new connection and reads the answer until the server closes.
fn ask(addr: SocketAddr) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    // Refused, the server may have answered and closed before the request is written.
    let _ = stream.write_all(b"GET /api/games HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    String::from_utf8_lossy(&response).into_owned()
}

#[test]
fn a_connection_past_the_cap_gets_503_and_once_others_close_is_served() {
    let addr = start();
    let mut held: Vec<_> = (0..CAP).map(|_| served_and_kept(addr)).collect();
    let refused = ask(addr);
    let (head, body) = refused.split_once("\r\n\r\n").unwrap_or_else(|| panic!("{refused:?}"));
    assert!(head.starts_with("HTTP/1.1 503 "), "{head}");
    let head = head.to_ascii_lowercase();
    for header in ["connection: close", "content-type: application/json", "retry-after: "] {
        assert!(head.contains(&format!("\r\n{header}")), "no `{header}`: {head}");
    }
    let body: serde_json::Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body:?}"));
    assert_eq!(body["kind"], "busy", "{body}");
    assert!(body["error"].as_str().unwrap().contains(&format!("{CAP} connections")), "{body}");
    // A held connection is still served, and closed after this request.
    held[0].get_mut().write_all(b"GET /api/games HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    held[0].read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 200 "), "{response:?}");
    // Once the server has seen the others close too, a new connection is served.
    drop(held);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let response = ask(addr);
        if response.starts_with("HTTP/1.1 200 ") {
            break;
        }
        assert!(Instant::now() < deadline, "still refused: {response:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}
