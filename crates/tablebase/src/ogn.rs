//! Aualé's Oware Game Notation (OGN): the text in which Aualé, Joan Sala Soler's Oware
//! program (github.com/joansalasoler/auale: `src/auale/serialize/ogn.py` reads and writes
//! it, `src/auale/game/match.py` makes the moves' text, `src/auale/game/oware.py` the
//! houses' letters and the `FEN` position), keeps a match; read and written here beside
//! our records ([`crate::record`]; `docs/records.md`).
//!
//! Tags as our records write them, Aualé's first: `Variant` (Aualé writes `Oware Abapa`),
//! `Event`, `Site`, `Date`, `Round`, `South`, `North`, `Result` (`?` where unknown; the
//! result `*` until the game ends, then the final counts `South-North`), and `FEN` where
//! the match starts elsewhere than at the start. Then the moves: a move is the house
//! sown, `A`–`F` South's and `a`–`f` North's (each from its owner's left, in sowing order),
//! followed by `+N` where it captured `N` stones; a number `12.` before every second move
//! from the first; a comment in braces after a move; the result last where the game
//! ended. Aualé skips a variation in parentheses; so does this reader.

use crate::record::{Reader, Record, RecordError};
/// A player: South owns houses `A`–`F` and moves first at the start, North `a`–`f`.
pub use games::side::Side;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Houses a row on an OGN board.
pub const HOUSES: usize = 6;
/// Stones on an OGN board.
pub const STONES: u32 = 48;
/// The rules Aualé plays and names in `Variant`.
pub const ABAPA: &str = "Oware Abapa";

/// Why a text is no OGN match, or a record cannot be written as one.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum OgnError {
    /// The tags break the format (as a record's would).
    #[error(transparent)]
    Tags(#[from] RecordError),
    /// The moves break the format at a line.
    #[error("line {line}: {why}")]
    Syntax {
        /// The line, from 1.
        line: usize,
        /// What is wrong there.
        why: String,
    },
    /// No `Variant` tag.
    #[error("no [Variant \"…\"] tag: an OGN match names its rules (Aualé writes \"Oware Abapa\")")]
    NoVariant,
    /// A `Variant` read here as no rule set of ours.
    #[error("the Variant \"{0}\" is none read here (\"Oware Abapa\", \"Wari\", \"Trysse\", \"Awari\")")]
    Variant(String),
    /// A `FEN` tag that is not a position.
    #[error(
        "the FEN tag \"{0}\" is not twelve houses, South's store, North's store and S or N, joined by `-` \
         (4-4-4-4-4-4-4-4-4-4-4-4-0-0-S)"
    )]
    Fen(String),
    /// A record OGN cannot hold.
    #[error("OGN cannot hold this record: {0}")]
    Unwritable(String),
}

/// A position as `FEN` gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fen {
    /// The houses counterclockwise from South's `A`: South's `A`–`F`, then North's `a`–`f`.
    pub houses: [u8; 2 * HOUSES],
    /// Stones South has captured.
    pub south: u8,
    /// Stones North has captured.
    pub north: u8,
    /// The player to move.
    pub to_move: Side,
}

impl Fen {
    /// The start: four stones a house, South to move.
    pub const START: Fen = Fen { houses: [4; 2 * HOUSES], south: 0, north: 0, to_move: Side::South };

    /// The houses from `side`'s first: his row, then his opponent's.
    pub fn rows_from(&self, side: Side) -> [u8; 2 * HOUSES] {
        let mut rows = self.houses;
        if side == Side::North {
            rows.rotate_left(HOUSES);
        }
        rows
    }
}

impl FromStr for Fen {
    type Err = OgnError;

    fn from_str(text: &str) -> Result<Fen, OgnError> {
        let bad = || OgnError::Fen(text.to_owned());
        let words: Vec<&str> = text.split('-').collect();
        let [counts @ .., side] = words.as_slice() else { return Err(bad()) };
        let to_move = match *side {
            "S" => Side::South,
            "N" => Side::North,
            _ => return Err(bad()),
        };
        let counts: Vec<u8> = counts
            .iter()
            .map(|w| match w.parse::<u8>() {
                Ok(n) if w.len() <= 2 && w.bytes().all(|b| b.is_ascii_digit()) && u32::from(n) <= STONES => Ok(n),
                _ => Err(bad()),
            })
            .collect::<Result<_, _>>()?;
        let [houses @ .., south, north] = counts.as_slice() else { return Err(bad()) };
        let houses: [u8; 2 * HOUSES] = houses.try_into().map_err(|_| bad())?;
        Ok(Fen { houses, south: *south, north: *north, to_move })
    }
}

impl fmt::Display for Fen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for n in self.houses.iter().chain([&self.south, &self.north]) {
            write!(f, "{n}-")?;
        }
        f.write_str(if self.to_move == Side::South { "S" } else { "N" })
    }
}

/// A move: the house sown and the stones it captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OgnMove {
    /// Whose house.
    pub side: Side,
    /// The house, 1 to 6 from its owner's left (`A`/`a` is 1): the pit our notation names.
    pub house: u8,
    /// Stones captured (`+N`; none written where 0).
    pub captures: u32,
}

impl OgnMove {
    /// A move's text (`C`, `e+2`), if it is one.
    fn parse(word: &str) -> Option<OgnMove> {
        let mut chars = word.chars();
        let letter = chars.next()?;
        let (side, first) = match letter {
            'A'..='F' => (Side::South, 'A'),
            'a'..='f' => (Side::North, 'a'),
            _ => return None,
        };
        let captures = match chars.as_str() {
            "" => 0,
            rest => {
                let digits = rest.strip_prefix('+')?;
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                digits.parse().ok()?
            }
        };
        Some(OgnMove { side, house: (letter as u8 - first as u8) + 1, captures })
    }
}

impl fmt::Display for OgnMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let first = if self.side == Side::South { b'A' } else { b'a' };
        write!(f, "{}", (first + self.house - 1) as char)?;
        if self.captures > 0 {
            write!(f, "+{}", self.captures)?;
        }
        Ok(())
    }
}

/// An OGN match: its tags in the order given, and its moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ogn {
    /// Each tag's name and value (`FEN` among them where given).
    pub tags: Vec<(String, String)>,
    /// The moves.
    pub moves: Vec<OgnMove>,
}

/// The tags Aualé writes first, in its order, and their values where unknown.
const ROSTER: [(&str, &str); 8] = [
    ("Variant", ABAPA),
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "?"),
    ("Round", "?"),
    ("South", "?"),
    ("North", "?"),
    ("Result", "*"),
];

/// The tags of our records that an OGN match says otherwise (`Variant`, `FEN`).
const OURS: [&str; 4] = ["Game", "Board", "Rules", "Start"];

impl Ogn {
    /// Whether `text` is an OGN match rather than one of our records: its first tag is
    /// `Variant`, as Aualé writes it first (and as Aualé's first version told its files).
    pub fn is_ogn(text: &str) -> bool {
        let Some(rest) = text.trim_start().strip_prefix('[') else { return false };
        let rest = rest.trim_start();
        rest.strip_prefix("Variant").is_some_and(|after| after.starts_with(|c: char| c.is_whitespace() || c == '"'))
    }

    /// The value of the tag `name`, if given.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The first position: `FEN`'s, else the start.
    pub fn start(&self) -> Result<Fen, OgnError> {
        self.tag("FEN").map_or(Ok(Fen::START), str::parse)
    }

    /// Reads a match: its tags (`Variant` required, `FEN` a position where given), then
    /// its moves, each the move of the player to move.
    pub fn read(text: &str) -> Result<Ogn, OgnError> {
        let mut reader = Reader { text, at: 0 };
        let mut ogn = Ogn { tags: Vec::new(), moves: Vec::new() };
        while reader.skip_space() == Some('[') {
            let (name, value) = reader.tag()?;
            if ogn.tag(&name).is_some() {
                return Err(RecordError::Twice(name).into());
            }
            ogn.tags.push((name, value));
        }
        ogn.tag("Variant").ok_or(OgnError::NoVariant)?;
        let start = ogn.start()?;
        ogn.moves = read_moves(&mut reader, start.to_move)?;
        Ok(ogn)
    }

    /// The game, rules and board `Variant` names, as our records name them: Aualé's Abapa
    /// is read as Wari, the rule set of ours that plays it but for the grand slam.
    fn rules(&self) -> Result<(&'static str, Option<&'static str>), OgnError> {
        let variant = self.tag("Variant").ok_or(OgnError::NoVariant)?;
        match variant.to_ascii_lowercase().as_str() {
            "oware abapa" | "wari" => Ok(("oware", Some("wari"))),
            "trysse" => Ok(("oware", Some("trysse"))),
            "awari" => Ok(("awari", None)),
            _ => Err(OgnError::Variant(variant.to_owned())),
        }
    }

    /// The match as one of our records: `Game`, `Board` and `Rules` from `Variant`,
    /// `Start` from `FEN` (seen from the player to move; an Awari position keeps no
    /// captures), the moves by their pits; every other tag kept, `FEN` but.
    pub fn record(&self) -> Result<Record, OgnError> {
        let (game, rules) = self.rules()?;
        let start = self.start()?;
        let rows = start.rows_from(start.to_move).map(|n| n.to_string()).join(",");
        let (mine, theirs) = match start.to_move {
            Side::South => (start.south, start.north),
            Side::North => (start.north, start.south),
        };
        let (board, position) = match game {
            "awari" => ("pits=6", rows),
            _ => ("pits=6 seeds=4", format!("{rows} {mine}-{theirs}")),
        };
        let mut tags = vec![("Game".to_owned(), game.to_owned()), ("Board".to_owned(), board.to_owned())];
        tags.extend(rules.map(|r| ("Rules".to_owned(), r.to_owned())));
        tags.push(("Start".to_owned(), position));
        tags.extend(self.tags.iter().filter(|(n, _)| n != "FEN" && !OURS.contains(&n.as_str())).cloned());
        Ok(Record { tags, moves: self.moves.iter().map(|m| m.house.to_string()).collect() })
    }

    /// One of our records as an OGN match, `first` the player to move at its start and
    /// `captures` what each of its moves captured. OGN holds the real board only (6 houses
    /// a row, 48 stones), a position with both players' captures (an Awari position keeps
    /// none: only one with all 48 stones on the board), and the rules by name (Wari and
    /// Trysse to their usual targets).
    pub fn from_record(record: &Record, first: Side, captures: &[u32]) -> Result<Ogn, OgnError> {
        if captures.len() != record.moves.len() {
            return Err(OgnError::Unwritable(format!(
                "{} moves but {} captures given",
                record.moves.len(),
                captures.len()
            )));
        }
        let (variant, rows, mine, theirs) = written_start(record)?;
        let mut fen = Fen { houses: rows, south: mine, north: theirs, to_move: first };
        if first == Side::North {
            fen.houses.rotate_left(HOUSES);
            (fen.south, fen.north) = (theirs, mine);
        }
        let mut side = first;
        let mut moves = Vec::new();
        for (name, &captures) in record.moves.iter().zip(captures) {
            let house = match name.parse::<u8>() {
                Ok(house) if (1..=HOUSES as u8).contains(&house) => house,
                _ => return Err(OgnError::Unwritable(format!("the move `{name}` is no house of 1 to {HOUSES}"))),
            };
            moves.push(OgnMove { side, house, captures });
            side = side.other();
        }
        let mut tags: Vec<(String, String)> = ROSTER
            .iter()
            .map(|&(name, unknown)| {
                let value = if name == "Variant" { variant } else { record.tag(name).unwrap_or(unknown) };
                (name.to_owned(), value.to_owned())
            })
            .collect();
        if fen != Fen::START {
            tags.push(("FEN".to_owned(), fen.to_string()));
        }
        let written = |n: &str| OURS.contains(&n) || n == "FEN" || ROSTER.iter().any(|(r, _)| *r == n);
        tags.extend(record.tags.iter().filter(|(n, _)| !written(n)).cloned());
        Ok(Ogn { tags, moves })
    }
}

/// The `Variant` a record is written under, and its first position: the houses from the
/// mover's first, his captures and his opponent's.
fn written_start(record: &Record) -> Result<(&'static str, [u8; 2 * HOUSES], u8, u8), OgnError> {
    let unwritable = OgnError::Unwritable;
    let request = record.request()?;
    let given = |name: &str| request.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
    let game = record.game()?;
    let variant = match (game, given("rules")) {
        ("awari", _) => "Awari",
        ("oware", Some("wari")) => "Wari",
        ("oware", Some("trysse")) => "Trysse",
        (game, _) => return Err(unwritable(format!("OGN keeps Oware games (awari, oware), not `{game}`"))),
    };
    for (name, real) in [("pits", "6"), ("seeds", "4")] {
        if given(name).is_some_and(|v| v != real) {
            return Err(unwritable(format!(
                "{name}={}: OGN's board has 6 houses a row of 4 stones",
                given(name).unwrap()
            )));
        }
    }
    if let Some(target) = given("target") {
        let usual = if variant == "Trysse" { "21" } else { "25" };
        if target != usual {
            return Err(unwritable(format!("target={target}: OGN names the rules, {variant} plays to {usual}")));
        }
    }
    let start = given("position").unwrap_or_default();
    let start_error = |e: String| unwritable(format!("its start \"{start}\": {e}"));
    let (board, mine, theirs) = if game == "awari" {
        let board: games::awari::Board =
            start.parse().map_err(|e: games::awari::BoardError| start_error(e.to_string()))?;
        if board.stones() != STONES {
            let why = "an Awari position keeps no captured counts, which FEN gives: only one with all 48 stones";
            return Err(start_error(why.to_owned()));
        }
        (board, 0, 0)
    } else {
        let p: games::oware::Position =
            start.parse().map_err(|e: games::oware::NotationError| start_error(e.to_string()))?;
        (p.board, p.mine, p.theirs)
    };
    if board.pits_per_row() != HOUSES || board.stones() + u32::from(mine) + u32::from(theirs) != STONES {
        return Err(start_error("OGN's board has 6 houses a row and 48 stones".to_owned()));
    }
    Ok((variant, board.cells().try_into().expect("6 pits a row are 12 houses"), mine, theirs))
}

/// The moves after the tags, `to_move` to play the first: numbers, comments and
/// variations skipped, the result last.
fn read_moves(reader: &mut Reader, mut to_move: Side) -> Result<Vec<OgnMove>, OgnError> {
    let syntax = |reader: &Reader, why: String| OgnError::Syntax { line: reader.line(), why };
    let mut moves = Vec::new();
    let mut result: Option<String> = None;
    while let Some(c) = reader.skip_space() {
        let closing = match c {
            '{' => Some(('}', "a comment `{` that does not end")),
            '(' => Some((')', "a variation `(` that does not end")),
            '[' => return Err(syntax(reader, "a tag after the moves: the tags come first".to_owned())),
            _ => None,
        };
        if let Some((end, why)) = closing {
            match reader.rest().find(end) {
                Some(at) => reader.at += at + 1,
                None => return Err(syntax(reader, why.to_owned())),
            }
            continue;
        }
        let word: String = reader.rest().chars().take_while(|c| !c.is_whitespace() && !"{([".contains(*c)).collect();
        let token = unnumbered(&word);
        if let Some(result) = &result {
            return Err(syntax(reader, format!("`{word}` after the result `{result}`: the result comes last")));
        }
        if token == "*" || is_result(token) {
            result = Some(token.to_owned());
        } else if !token.is_empty() {
            let Some(played) = OgnMove::parse(token) else {
                let why = format!(
                    "`{token}` is not an OGN move: a house `A`–`F` (South's) or `a`–`f` (North's), `+N` after it \
                     where it captured N"
                );
                return Err(syntax(reader, why));
            };
            if played.side != to_move {
                let why = format!(
                    "move {} `{token}` is {}'s, but {} is to move",
                    moves.len() + 1,
                    played.side.name(),
                    to_move.name()
                );
                return Err(syntax(reader, why));
            }
            moves.push(played);
            to_move = to_move.other();
        }
        reader.at += word.len();
    }
    Ok(moves)
}

/// A word without its move number (`12.`, `12...`, written alone or before the move).
fn unnumbered(word: &str) -> &str {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let dots = word[digits..].bytes().take_while(|&b| b == b'.').count();
    if digits > 0 && dots > 0 {
        &word[digits + dots..]
    } else {
        word
    }
}

/// Whether a word is a game's result, the final counts `South-North` (`25-23`).
fn is_result(word: &str) -> bool {
    let counts = |w: &str| !w.is_empty() && w.len() <= 2 && w.bytes().all(|b| b.is_ascii_digit());
    word.split_once('-').is_some_and(|(s, n)| counts(s) && counts(n))
}

impl fmt::Display for Ogn {
    /// As Aualé writes a match: the tags a line each, a blank line, the moves numbered
    /// every second one, lines shorter than 80 characters, the result last where known.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.tags {
            writeln!(f, "[{name} \"{}\"]", value.replace('\\', "\\\\").replace('"', "\\\""))?;
        }
        if self.moves.is_empty() {
            return Ok(());
        }
        let mut tokens = Vec::new();
        for (i, m) in self.moves.iter().enumerate() {
            if i % 2 == 0 {
                tokens.push(format!("{}.", i / 2 + 1));
            }
            tokens.push(m.to_string());
        }
        tokens.extend(self.tag("Result").filter(|r| *r != "*" && *r != "?").map(str::to_owned));
        writeln!(f)?;
        let mut line = String::new();
        for token in tokens {
            if !line.is_empty() && line.len() + 1 + token.len() >= 80 {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        writeln!(f, "{line}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Matches Aualé wrote (`tests/ogn/README.md` says how).
    const MATCH: &str = include_str!("../tests/ogn/auale-match.ogn");
    const FROM_FEN: &str = include_str!("../tests/ogn/auale-fen.ogn");

    fn captures(ogn: &Ogn) -> Vec<u32> {
        ogn.moves.iter().map(|m| m.captures).collect()
    }

    #[test]
    fn an_aualé_match_reads_as_a_wari_record() {
        let ogn = Ogn::read(MATCH).unwrap();
        assert!(Ogn::is_ogn(MATCH));
        assert_eq!(ogn.tag("Result"), Some("26-12"));
        assert_eq!(ogn.moves.len(), 71);
        assert_eq!(ogn.moves[0], OgnMove { side: Side::South, house: 2, captures: 0 });
        assert_eq!(ogn.moves[1], OgnMove { side: Side::North, house: 5, captures: 0 });
        assert_eq!(ogn.moves[8], OgnMove { side: Side::South, house: 5, captures: 3 }, "5. E+3");
        let record = ogn.record().unwrap();
        assert_eq!(record.game(), Ok("oware"));
        assert_eq!(record.tag("Rules"), Some("wari"));
        assert_eq!(record.tag("Start"), Some("4,4,4,4,4,4,4,4,4,4,4,4 0-0"));
        assert_eq!(record.tag("South"), Some("Random"));
        assert_eq!(&record.moves[..4], ["2", "5", "5", "1"]);
        assert!(!Ogn::is_ogn(&record.to_string()), "our records are not OGN");
    }

    #[test]
    fn a_fen_start_is_seen_from_the_player_to_move() {
        let ogn = Ogn::read(FROM_FEN).unwrap();
        let fen = ogn.start().unwrap();
        assert_eq!(fen.to_move, Side::North);
        assert_eq!((fen.south, fen.north), (3, 0));
        assert_eq!(ogn.moves[0], OgnMove { side: Side::North, house: 3, captures: 0 }, "1. c");
        let record = ogn.record().unwrap();
        assert_eq!(record.tag("Start"), Some("0,7,7,0,2,0,7,3,1,9,0,9 0-3"));
        assert_eq!(record.tag("FEN"), None, "the FEN is the record's Start");
    }

    #[test]
    fn written_back_an_aualé_match_is_what_aualé_wrote_but_its_variant() {
        let ogn = Ogn::read(FROM_FEN).unwrap();
        let written = Ogn::from_record(&ogn.record().unwrap(), Side::North, &captures(&ogn)).unwrap();
        assert_eq!(written.to_string(), FROM_FEN.replace("Oware Abapa", "Wari"));
        // Aualé's comments are not kept; the rest is.
        let ogn = Ogn::read(MATCH).unwrap();
        let written = Ogn::from_record(&ogn.record().unwrap(), Side::South, &captures(&ogn)).unwrap().to_string();
        let again = Ogn::read(&written).unwrap();
        assert_eq!(again.moves, ogn.moves);
        assert_eq!(again.tags[1..], ogn.tags[1..]);
        assert!(written.ends_with(" 36. F+6 26-12\n"), "{written}");
    }

    #[test]
    fn a_record_written_as_ogn_reads_back_the_same() {
        let moves: Vec<String> = ["3", "6", "1", "2"].map(str::to_owned).to_vec();
        let start = "5,0,5,5,5,5,5,5,0,5,4,4 0-0";
        let mut record = Record::new("oware", [("pits", "6".to_owned()), ("rules", "wari".to_owned())], start, moves);
        record.tags.push(("Title".to_owned(), "a \"quoted\" title".to_owned()));
        let ogn = Ogn::from_record(&record, Side::North, &[0, 0, 2, 0]).unwrap();
        let text = ogn.to_string();
        assert!(text.contains("[FEN \"5-5-0-5-4-4-5-0-5-5-5-5-0-0-N\"]\n"), "{text}");
        assert!(text.ends_with("\n\n1. c F 2. a+2 B\n"), "{text}");
        let back = Ogn::read(&text).unwrap();
        assert_eq!(back, ogn);
        let mut expected = record.clone();
        expected.tags[1].1 = "pits=6 seeds=4".to_owned();
        let read = back.record().unwrap();
        assert_eq!(read.moves, expected.moves);
        for name in ["Game", "Board", "Rules", "Start", "Title"] {
            assert_eq!(read.tag(name), expected.tag(name), "{name}");
        }
        assert_eq!(read.tag("Variant"), Some("Wari"));
    }

    #[test]
    fn an_awari_game_is_written_from_a_position_of_all_48_stones() {
        let record = Record::new("awari", [("pits", "6".to_owned())], "4,4,4,4,4,4,4,4,4,4,4,4", vec!["6".to_owned()]);
        let text = Ogn::from_record(&record, Side::South, &[0]).unwrap().to_string();
        assert!(text.starts_with("[Variant \"Awari\"]\n") && text.ends_with("\n\n1. F\n"), "{text}");
        let read = Ogn::read(&text).unwrap().record().unwrap();
        assert_eq!((read.game(), read.tag("Start")), (Ok("awari"), Some("4,4,4,4,4,4,4,4,4,4,4,4")));
    }

    #[test]
    fn what_ogn_cannot_hold_is_named() {
        let record = |game: &str, board: &[(&'static str, &str)], start: &str| {
            Record::new(game, board.iter().map(|&(n, v)| (n, v.to_owned())), start, Vec::new())
        };
        let cases = [
            (record("kalah", &[("pits", "6")], "4,4,4,4,4,4/4,4,4,4,4,4 0-0 S"), "OGN keeps Oware games"),
            (record("oware", &[("rules", "wari"), ("pits", "3")], "2,2,2,2,2,2 0-0"), "pits=3"),
            (record("oware", &[("rules", "wari"), ("target", "20")], "4,4,4,4,4,4,4,4,4,4,4,4 0-0"), "target=20"),
            (record("awari", &[], "4,4,4,4,4,4,4,4,4,4,0,0"), "keeps no captured counts"),
            (record("oware", &[("rules", "trysse")], "2,2,2,2,2,2,2,2,2,2,2,2 0-0"), "48 stones"),
        ];
        for (record, why) in cases {
            let error = Ogn::from_record(&record, Side::South, &[]).unwrap_err().to_string();
            assert!(error.starts_with("OGN cannot hold this record: ") && error.contains(why), "{error}");
        }
    }

    #[test]
    fn what_is_wrong_is_named_with_its_line() {
        let abapa = "[Variant \"Oware Abapa\"]\n";
        let cases = [
            (format!("{abapa}\n1. A b\n2. X"), "line 4: `X` is not an OGN move"),
            (format!("{abapa}1. A B"), "line 2: move 2 `B` is South's, but North is to move"),
            (format!("{abapa}1. A {{ open\n"), "line 2: a comment `{` that does not end"),
            (format!("{abapa}\n1. A (b B\n"), "line 3: a variation `(` that does not end"),
            (format!("{abapa}1. A 25-23\nb"), "line 3: `b` after the result `25-23`"),
            (format!("{abapa}1. A+x"), "line 2: `A+x` is not an OGN move"),
            (format!("{abapa}1. A\n[Date \"?\"]"), "line 3: a tag after the moves"),
            ("[Variant \"Oware Abapa\"\n1. A".to_owned(), "line 1: the tag Variant does not end with `]`"),
            ("[Event \"?\"]\n1. A".to_owned(), "no [Variant \"…\"] tag"),
            (format!("{abapa}[FEN \"4-4-4-S\"]"), "the FEN tag \"4-4-4-S\" is not twelve houses"),
        ];
        for (text, why) in cases {
            let error = Ogn::read(&text).unwrap_err().to_string();
            assert!(error.starts_with(why), "{text:?}: {error}");
        }
        let ogn = Ogn::read("[Variant \"Abapa\"]\n1. A").unwrap();
        assert!(ogn.record().unwrap_err().to_string().starts_with("the Variant \"Abapa\" is none read here"));
    }

    #[test]
    fn numbers_may_stand_before_a_move_and_variations_are_skipped() {
        let ogn = Ogn::read("[Variant \"Oware Abapa\"]\n1.A b (2. C) 2...C").unwrap();
        assert_eq!(ogn.moves.iter().map(ToString::to_string).collect::<Vec<_>>(), ["A", "b", "C"]);
    }
}
