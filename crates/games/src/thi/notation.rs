//! Reading THI` positions from their text notation (written by `Position`'s `Display`).

use super::board::{Colour, Position, Stack, MAX_SIZE};
use thiserror::Error;

/// Why a text is not a THI` position.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum NotationError {
    /// Not a board and a side to move separated by white space.
    #[error("expected `<rows> <side>`, e.g. `bbb,bbb,bbb/-,-,-/www,www,www w`; got {0:?}")]
    Shape(String),
    /// The side to move is neither `w` nor `b`.
    #[error("side to move must be `w` or `b`, not {0:?}")]
    Side(String),
    /// Too few or too many rows for a board here.
    #[error("a board has 3 to {MAX_SIZE} rows, not {rows}")]
    RowCount {
        /// Rows given.
        rows: usize,
    },
    /// Rows all of one length, but not as long as there are rows.
    #[error("{rows} rows of {squares} squares: a board is square, as many squares a row as rows")]
    NotSquare {
        /// Rows given.
        rows: usize,
        /// Squares in each.
        squares: usize,
    },
    /// A row whose squares are not as many as the rows (boards are square).
    #[error("row {row} has {found} squares, the board has {expected} files")]
    RowLength {
        /// The row, numbered from 1 on White's side.
        row: usize,
        /// Squares given in it.
        found: usize,
        /// Files of the board.
        expected: usize,
    },
    /// A square's text is neither `-` nor `w`/`b` letters.
    #[error("square {square}: {text:?} is not a stack (use `-` for empty, else `w`/`b` letters bottom to top)")]
    BadStack {
        /// The square's name, e.g. `b1`.
        square: String,
        /// What was written there.
        text: String,
    },
    /// A stack over the height limits: 3 of one colour, 4 mixed.
    #[error("square {square}: stack {text:?} breaks the limits (at most 3 of one colour, 4 mixed)")]
    TooTall {
        /// The square's name, e.g. `b1`.
        square: String,
        /// What was written there.
        text: String,
    },
    /// A counter on its opponent's first row, where it would have been borne off.
    #[error(
        "square {square}: a {colour} counter cannot stand on its opponent's first row (it would have been borne off)"
    )]
    Misplaced {
        /// The square's name, e.g. `b1`.
        square: String,
        /// The counter's colour, `White` or `Black`.
        colour: &'static str,
    },
}

/// Parses the notation; checks everything a position needs to be able to arise.
pub fn parse(text: &str) -> Result<Position, NotationError> {
    let mut parts = text.split_whitespace();
    let (Some(rows), Some(side), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(NotationError::Shape(crate::echo::excerpt(text)));
    };
    let to_move = match side {
        "w" | "W" => Colour::White,
        "b" | "B" => Colour::Black,
        _ => return Err(NotationError::Side(crate::echo::excerpt(side))),
    };
    let rows: Vec<&str> = rows.split('/').collect();
    let n = rows.len();
    if !(3..=MAX_SIZE).contains(&n) {
        return Err(NotationError::RowCount { rows: n });
    }
    let lengths: Vec<usize> = rows.iter().map(|r| r.split(',').count()).collect();
    if lengths[0] != n && lengths.iter().all(|&l| l == lengths[0]) {
        return Err(NotationError::NotSquare { rows: n, squares: lengths[0] });
    }
    let mut position = Position::empty(n, to_move);
    for (i, row_text) in rows.iter().enumerate() {
        let row = n - 1 - i;
        let squares: Vec<&str> = row_text.split(',').collect();
        if squares.len() != n {
            return Err(NotationError::RowLength { row: row + 1, found: squares.len(), expected: n });
        }
        for (file, text) in squares.iter().enumerate() {
            let square = row * n + file;
            let name = position.square_name(square);
            let stack = parse_stack(text)
                .ok_or_else(|| NotationError::BadStack { square: name.clone(), text: crate::echo::excerpt(text) })?;
            let stack = stack
                .ok_or_else(|| NotationError::TooTall { square: name.clone(), text: crate::echo::excerpt(text) })?;
            position.set(square, stack);
        }
    }
    if let Some(square) = position.misplaced_counter() {
        let row = square / n;
        let colour = if row == 0 { Colour::Black } else { Colour::White };
        return Err(NotationError::Misplaced { square: position.square_name(square), colour: colour.name() });
    }
    Ok(position)
}

/// `None` if not stack syntax; `Some(None)` if syntax but over the limits.
fn parse_stack(text: &str) -> Option<Option<Stack>> {
    if text == "-" || text == "." {
        return Some(Some(Stack::EMPTY));
    }
    if text.is_empty() {
        return None;
    }
    let counters: Option<Vec<Colour>> = text
        .chars()
        .map(|c| match c {
            'w' | 'W' => Some(Colour::White),
            'b' | 'B' => Some(Colour::Black),
            _ => None,
        })
        .collect();
    // However tall, a stack of letters is a stack (past the limits if too tall).
    Some(Stack::from_counters(&counters?))
}

/// [`parse`], for what reads positions of any game from their text (a proof file's).
impl std::str::FromStr for Position {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Position, NotationError> {
        parse(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn trias_start_round_trips() {
        let text = "bbb,bbb,bbb/-,-,-/www,www,www w";
        assert_eq!(parse(text).unwrap().to_string(), text);
    }

    #[test]
    fn errors_name_the_problem() {
        assert!(matches!(parse("bbb,bbb,bbb/-,-,-/www,www,www"), Err(NotationError::Shape(_))));
        assert!(matches!(parse("b,b,b/-,-,-/w,w,w x"), Err(NotationError::Side(_))));
        assert!(matches!(parse("b,b,b/w,w,w w"), Err(NotationError::RowCount { rows: 2 })));
        assert!(matches!(parse("b,b/-,-,-/w,w,w w"), Err(NotationError::RowLength { row: 3, .. })));
        assert_eq!(parse("b,b,b/-,-,-/w,w,w/-,-,- w"), Err(NotationError::NotSquare { rows: 4, squares: 3 }));
        assert!(matches!(parse("b,b,b/-,x,-/w,w,w w"), Err(NotationError::BadStack { .. })));
        assert!(matches!(parse("b,b,b/-,wwww,-/w,w,w w"), Err(NotationError::TooTall { .. })));
        assert!(matches!(parse("b,b,b/-,wwwwwwwwwwww,-/w,w,w w"), Err(NotationError::TooTall { .. })));
        assert_eq!(
            parse("b,b,w/-,-,-/w,w,w w"),
            Err(NotationError::Misplaced { square: "c3".into(), colour: "White" })
        );
        assert_eq!(
            parse("b,b,b/-,-,-/w,wb,w w"),
            Err(NotationError::Misplaced { square: "b1".into(), colour: "Black" })
        );
    }

    proptest! {
        #[test]
        fn parse_never_panics(text in "\\PC{0,40}") {
            let _ = parse(&text);
        }

        #[test]
        fn printed_positions_parse_back(cells in proptest::collection::vec(0usize..29, 16), black in any::<bool>()) {
            let all = Stack::all();
            let mut p = Position::empty(4, if black { Colour::Black } else { Colour::White });
            for (sq, &c) in cells.iter().enumerate() {
                // Keep counters off their bear-off rows by choosing among the allowed stacks.
                let allowed: Vec<Stack> = all
                    .iter()
                    .copied()
                    .filter(|s| (sq >= 4 || s.count(Colour::Black) == 0) && (sq < 12 || s.count(Colour::White) == 0))
                    .collect();
                p.set(sq, allowed[c % allowed.len()]);
            }
            prop_assert_eq!(parse(&p.to_string()).unwrap(), p);
        }
    }
}
