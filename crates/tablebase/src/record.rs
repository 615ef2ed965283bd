//! A game kept as text (`docs/records.md`): tags `[Name "value"]` first (`Game`, `Board`,
//! `Rules`, `Start`, and any other, kept as read), then the moves in the game's notation,
//! each numbered or not, comments in braces. What the page downloads and loads, and what
//! `solve <game> --record FILE` replays.

use std::fmt;
use thiserror::Error;

/// A record: its tags in the order given, and its moves.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Record {
    /// Each tag's name and value.
    pub tags: Vec<(String, String)>,
    /// The moves, by name.
    pub moves: Vec<String>,
}

/// Why a text is no record.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum RecordError {
    /// The text breaks the format at a line.
    #[error("line {line}: {why}")]
    Syntax {
        /// The line, from 1.
        line: usize,
        /// What is wrong there.
        why: String,
    },
    /// A tag every record has is missing.
    #[error("no [{0} \"…\"] tag")]
    Missing(&'static str),
    /// A tag is given twice.
    #[error("the tag {0} is given twice")]
    Twice(String),
    /// A word of the `Board` tag is not `name=value`.
    #[error("the Board tag's `{0}` is not name=value")]
    Board(String),
}

impl Record {
    /// A record of `moves` from `start` in `game`, on the board and rules of `parameters`
    /// (the API's names and values; `rules` becomes the `Rules` tag, the rest `Board`).
    pub fn new<'a>(
        game: &str,
        parameters: impl IntoIterator<Item = (&'a str, String)>,
        start: &str,
        moves: Vec<String>,
    ) -> Record {
        let (mut board, mut rules) = (Vec::new(), None);
        for (name, value) in parameters {
            match name {
                "rules" => rules = Some(value),
                _ => board.push(format!("{name}={value}")),
            }
        }
        let mut tags = vec![("Game".to_owned(), game.to_owned()), ("Board".to_owned(), board.join(" "))];
        tags.extend(rules.map(|r| ("Rules".to_owned(), r)));
        tags.push(("Start".to_owned(), start.to_owned()));
        Record { tags, moves }
    }

    /// The value of the tag `name`, if given.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The game's name (`Game`).
    pub fn game(&self) -> Result<&str, RecordError> {
        self.tag("Game").ok_or(RecordError::Missing("Game"))
    }

    /// The parameters of a request for the record's first position: the `Board` tag's,
    /// `rules` from `Rules`, `position` from `Start`.
    pub fn request(&self) -> Result<Vec<(String, String)>, RecordError> {
        let mut pairs = Vec::new();
        for word in self.tag("Board").unwrap_or_default().split_whitespace() {
            match word.split_once('=') {
                Some((name, value)) if !name.is_empty() => pairs.push((name.to_owned(), value.to_owned())),
                _ => return Err(RecordError::Board(word.to_owned())),
            }
        }
        pairs.extend(self.tag("Rules").map(|r| ("rules".to_owned(), r.to_owned())));
        pairs.push(("position".to_owned(), self.tag("Start").ok_or(RecordError::Missing("Start"))?.to_owned()));
        Ok(pairs)
    }

    /// Reads a record: its tags, then its moves; `Game` and `Start` are required.
    pub fn read(text: &str) -> Result<Record, RecordError> {
        let mut reader = Reader { text, at: 0 };
        let mut record = Record::default();
        while reader.skip_space() == Some('[') {
            let (name, value) = reader.tag()?;
            if record.tag(&name).is_some() {
                return Err(RecordError::Twice(name));
            }
            record.tags.push((name, value));
        }
        record.moves = reader.moves()?;
        record.game()?;
        record.request()?;
        Ok(record)
    }
}

/// Where a reading stands in the text. Aualé's OGN ([`crate::ogn`]) writes its tags
/// alike and reads them with this.
pub(crate) struct Reader<'a> {
    pub(crate) text: &'a str,
    pub(crate) at: usize,
}

impl Reader<'_> {
    pub(crate) fn rest(&self) -> &str {
        &self.text[self.at..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    pub(crate) fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        Some(c)
    }

    /// Skips white space; the character after it.
    pub(crate) fn skip_space(&mut self) -> Option<char> {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
        self.peek()
    }

    /// The line, from 1, where the reading stands.
    pub(crate) fn line(&self) -> usize {
        self.text[..self.at].matches('\n').count() + 1
    }

    pub(crate) fn error(&self, why: impl Into<String>) -> RecordError {
        RecordError::Syntax { line: self.line(), why: why.into() }
    }

    /// `[Name "value"]`, the `\` escapes of `"` and `\` read.
    pub(crate) fn tag(&mut self) -> Result<(String, String), RecordError> {
        self.bump();
        let name: String = self.rest().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if name.is_empty() {
            return Err(self.error("a tag without a name: `[Name \"value\"]`"));
        }
        self.at += name.len();
        if self.skip_space() != Some('"') {
            return Err(self.error(format!("the tag {name} has no quoted value")));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('"') => break,
                Some('\\') => value.extend(self.bump()),
                Some('\n') | None => return Err(self.error(format!("the value of the tag {name} does not end"))),
                Some(c) => value.push(c),
            }
        }
        let value_end = self.at;
        if self.skip_space() != Some(']') {
            self.at = value_end;
            return Err(self.error(format!("the tag {name} does not end with `]`")));
        }
        self.bump();
        Ok((name, value))
    }

    /// The moves: words, but move numbers (`12.`) and `{comments}`.
    fn moves(&mut self) -> Result<Vec<String>, RecordError> {
        let mut moves = Vec::new();
        while let Some(c) = self.skip_space() {
            match c {
                '{' => match self.rest().find('}') {
                    Some(end) => self.at += end + 1,
                    None => return Err(self.error("a comment `{` that does not end")),
                },
                '[' => return Err(self.error("a tag after the moves: the tags come first")),
                _ => {
                    let word: String =
                        self.rest().chars().take_while(|c| !c.is_whitespace() && *c != '{' && *c != '[').collect();
                    self.at += word.len();
                    let numbered = word.strip_suffix('.').is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()));
                    if !numbered {
                        moves.push(word);
                    }
                }
            }
        }
        Ok(moves)
    }
}

impl fmt::Display for Record {
    /// The tags a line each, a blank line, the moves numbered, eight a line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.tags {
            writeln!(f, "[{name} \"{}\"]", value.replace('\\', "\\\\").replace('"', "\\\""))?;
        }
        writeln!(f)?;
        for (i, chunk) in self.moves.chunks(8).enumerate() {
            let numbered: Vec<String> =
                chunk.iter().enumerate().map(|(j, m)| format!("{}. {m}", i * 8 + j + 1)).collect();
            writeln!(f, "{}", numbered.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn primus(moves: &[&str]) -> Record {
        let parameters = [("size", "3".to_owned()), ("rules", "original".to_owned()), ("bonus", "no".to_owned())];
        Record::new("thi", parameters, "b,b,b/-,-,-/w,w,w w", moves.iter().map(|m| m.to_string()).collect())
    }

    #[test]
    fn a_record_written_reads_back_the_same() {
        let moves: Vec<String> = (0..20).map(|i| format!("a{i}:N")).collect();
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        let mut record = primus(&moves);
        record.tags.push(("Title".to_owned(), "a \"quoted\" \\ title".to_owned()));
        let text = record.to_string();
        assert!(text.starts_with("[Game \"thi\"]\n[Board \"size=3 bonus=no\"]\n[Rules \"original\"]\n"), "{text}");
        assert!(text.contains("\n\n1. a0:N 2. a1:N"), "{text}");
        assert_eq!(Record::read(&text).unwrap(), record);
    }

    #[test]
    fn a_record_asks_for_its_start_on_its_board_and_rules() {
        let pairs = primus(&[]).request().unwrap();
        let expected = [("size", "3"), ("bonus", "no"), ("rules", "original"), ("position", "b,b,b/-,-,-/w,w,w w")];
        assert_eq!(pairs, expected.map(|(n, v)| (n.to_owned(), v.to_owned())));
    }

    #[test]
    fn numbers_comments_and_line_breaks_are_not_moves() {
        let text = "[Game \"kalah\"] [Board \"pits=3\"]\r\n[Start \"2,2,2/2,2,2 0-0 S\"]\n1. 2-3 {best} 2.\n1-3\t{a\nlong one}3. 2";
        let record = Record::read(text).unwrap();
        assert_eq!(record.moves, ["2-3", "1-3", "2"]);
        assert_eq!(record.tag("Board"), Some("pits=3"));
    }

    #[test]
    fn what_is_wrong_is_named_with_its_line() {
        let cases = [
            ("[Game \"thi\"]\n[Start \"x\"]\n1. a {open", "line 3: a comment `{` that does not end"),
            ("[Game \"thi\"]\n[Start \"x\"\n", "line 2: the tag Start does not end with `]`"),
            ("[Game thi]", "line 1: the tag Game has no quoted value"),
            ("[Game \"thi\"]\n1. a\n[Start \"x\"]", "line 3: a tag after the moves: the tags come first"),
            ("[Game \"thi\"]\n\n1. a", "no [Start \"…\"] tag"),
            ("[Start \"x\"]", "no [Game \"…\"] tag"),
            ("[Game \"a\"][Game \"b\"]", "the tag Game is given twice"),
            ("[Game \"kalah\"][Board \"pits\"][Start \"x\"]", "the Board tag's `pits` is not name=value"),
        ];
        for (text, why) in cases {
            assert_eq!(Record::read(text).unwrap_err().to_string(), why, "{text:?}");
        }
    }
}
