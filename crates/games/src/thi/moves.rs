//! THI` rules: moves, un-moves and the end of the game, for every rule set.
//!
//! A move lifts a whole stack the mover controls and walks as many orthogonal steps as
//! it is tall, never straight back, dropping the counters bottom first, one per step; a
//! counter dropped on its opponent's first row is borne off. Paths that give the same
//! position are one move, named by the first such path in N, E, S, W order.

use super::board::{Colour, Position, Stack, MAX_MIXED, MAX_SIZE, MAX_SQUARES};
use retro::{Turn, Value};
use std::fmt;

/// The five rule sets of `shared/rules/thi.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// A player who has borne off all his counters wins; a blocked player to move draws.
    Original,
    /// As `Original`, but a blocked player passes; both blocked in turn is a draw.
    OriginalPass,
    /// As `Original`, but a blocked player to move wins.
    Fixed1,
    /// The game ends when the player to move cannot move; fewer counters on the board wins.
    Fixed2,
    /// As `Fixed2`, and a player may also pass at any turn in which he has a move.
    Fixed2Pass,
}

impl RuleSet {
    /// Every rule set, in the order of the rules' table.
    pub const ALL: [RuleSet; 5] =
        [RuleSet::Original, RuleSet::OriginalPass, RuleSet::Fixed1, RuleSet::Fixed2, RuleSet::Fixed2Pass];

    /// The rule set's name on the command line (`--rules`), e.g. `original-pass`.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Original => "original",
            RuleSet::OriginalPass => "original-pass",
            RuleSet::Fixed1 => "fixed1",
            RuleSet::Fixed2 => "fixed2",
            RuleSet::Fixed2Pass => "fixed2-pass",
        }
    }

    /// The rule set a `--rules` name stands for, if any.
    pub fn from_name(name: &str) -> Option<RuleSet> {
        RuleSet::ALL.into_iter().find(|r| r.name() == name)
    }

    /// Whether the game ends by counting when the player to move cannot move.
    fn counts_at_end(self) -> bool {
        matches!(self, RuleSet::Fixed2 | RuleSet::Fixed2Pass)
    }
}

/// Which moves earn a bonus move. The source allows one "whenever a player bears off one
/// or several counters", without saying whose (docs/rules/thi.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bonus {
    /// None.
    No,
    /// A move that bears off one of the mover's own counters (the spec's reading).
    Own,
    /// A move that bears off any counter, the mover's or his opponent's (the words read
    /// literally).
    Any,
}

impl Bonus {
    /// The word tables, the API and reports use: `no`, `yes` (the mover's own counters:
    /// the first reading built, and the word its tables carry) or `any`.
    pub fn name(self) -> &'static str {
        match self {
            Bonus::No => "no",
            Bonus::Own => "yes",
            Bonus::Any => "any",
        }
    }

    /// The reading of [`Bonus::name`]'s word.
    pub fn from_name(name: &str) -> Option<Bonus> {
        [Bonus::No, Bonus::Own, Bonus::Any].into_iter().find(|b| b.name() == name)
    }
}

/// A rule set and which moves earn a bonus move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    /// How the game ends, and whether a blocked player passes.
    pub set: RuleSet,
    /// Which moves earn their mover another move.
    pub bonus: Bonus,
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bonus = match self.bonus {
            Bonus::No => "",
            Bonus::Own => " with bonus moves",
            Bonus::Any => " with bonus moves for any counter borne off",
        };
        write!(f, "{}{bonus}", self.set.name())
    }
}

/// An orthogonal step of a walk, named as White sees the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// One row up, towards Black's first row.
    N,
    /// One file right, away from the a-file.
    E,
    /// One row down, towards White's first row.
    S,
    /// One file left, towards the a-file.
    W,
}

impl Direction {
    /// The four directions in the order paths are tried and named: N, E, S, W.
    pub const ALL: [Direction; 4] = [Direction::N, Direction::E, Direction::S, Direction::W];

    fn opposite(self) -> Direction {
        match self {
            Direction::N => Direction::S,
            Direction::E => Direction::W,
            Direction::S => Direction::N,
            Direction::W => Direction::E,
        }
    }

    fn letter(self) -> char {
        match self {
            Direction::N => 'N',
            Direction::E => 'E',
            Direction::S => 'S',
            Direction::W => 'W',
        }
    }

    /// The square one step from `square` on an `n × n` board, if on the board.
    #[inline]
    fn step(self, square: usize, n: usize) -> Option<usize> {
        let next = NEIGHBOURS[n][square][self as usize];
        (next != OFF_BOARD).then_some(next as usize)
    }
}

/// A step off the board in [`NEIGHBOURS`].
const OFF_BOARD: u8 = u8::MAX;

/// Per board side `n` and square: the square one step N, E, S and W, or `OFF_BOARD`.
/// Looked up rather than computed: the row and file of a square cost a division by `n`,
/// which was the costliest instruction of move generation.
static NEIGHBOURS: [[[u8; 4]; MAX_SQUARES]; MAX_SIZE + 1] = neighbours();

const fn neighbours() -> [[[u8; 4]; MAX_SQUARES]; MAX_SIZE + 1] {
    let mut table = [[[OFF_BOARD; 4]; MAX_SQUARES]; MAX_SIZE + 1];
    let mut n = 1;
    while n <= MAX_SIZE {
        let mut square = 0;
        while square < n * n {
            let (row, file) = (square / n, square % n);
            let steps = &mut table[n][square];
            if row + 1 < n {
                steps[Direction::N as usize] = (square + n) as u8;
            }
            if file + 1 < n {
                steps[Direction::E as usize] = (square + 1) as u8;
            }
            if row > 0 {
                steps[Direction::S as usize] = (square - n) as u8;
            }
            if file > 0 {
                steps[Direction::W as usize] = (square - 1) as u8;
            }
            square += 1;
        }
        n += 1;
    }
    table
}

/// The directions of a walk, first step first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Steps {
    directions: [Direction; 4],
    len: u8,
}

impl Steps {
    fn new(path: &[Direction]) -> Steps {
        let mut directions = [Direction::N; 4];
        directions[..path.len()].copy_from_slice(path);
        Steps { directions, len: path.len() as u8 }
    }

    /// The steps taken, one per counter of the lifted stack, first step first.
    pub fn directions(&self) -> &[Direction] {
        &self.directions[..self.len as usize]
    }
}

/// A move: a stack's walk, or a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// Lift the stack on `from` and walk `steps`, dropping one counter per step.
    Sow {
        /// The square of the lifted stack (`row · n + file`).
        from: usize,
        /// The walk, as many steps as the stack is tall.
        steps: Steps,
    },
    /// No walk: the turn goes over (only where the rule set allows a pass).
    Pass,
}

impl Move {
    /// The canonical name, e.g. `b1:NE`, or `pass`.
    pub fn name(&self, position: &Position) -> String {
        match self {
            Move::Pass => "pass".to_owned(),
            Move::Sow { from, steps } => format!(
                "{}:{}",
                position.square_name(*from),
                steps.directions().iter().map(|d| d.letter()).collect::<String>()
            ),
        }
    }
}

/// Walks every path of the lifted stack; `visit` receives each complete walk's board
/// and the counters of each colour borne off. Returning `false` from `visit` stops.
struct Walk<'a, F> {
    n: usize,
    from: usize,
    lifted: Stack,
    board: &'a mut Position,
    borne: [u8; 2],
    path: [Direction; 4],
    visit: &'a mut F,
}

impl<F: FnMut(usize, &Position, [u8; 2], &[Direction]) -> bool> Walk<'_, F> {
    /// Takes step `i` from `at`; `Some(false)` means stop everything.
    fn step(&mut self, i: u8, at: usize, last: Option<Direction>) -> bool {
        if i == self.lifted.height() {
            return (self.visit)(self.from, self.board, self.borne, &self.path[..i as usize]);
        }
        let counter = self.lifted.counter(i);
        for d in Direction::ALL {
            if Some(d.opposite()) == last {
                continue;
            }
            let Some(next) = d.step(at, self.n) else { continue };
            self.path[i as usize] = d;
            // The counter's bear-off row is the opponent's first row.
            let borne_off = match counter {
                Colour::White => next >= self.n * (self.n - 1),
                Colour::Black => next < self.n,
            };
            if borne_off {
                self.borne[counter.index()] += 1;
                let go_on = self.step(i + 1, next, Some(d));
                self.borne[counter.index()] -= 1;
                if !go_on {
                    return false;
                }
            } else {
                let before = self.board.stack(next);
                let Some(after) = before.push(counter) else { continue };
                self.board.set(next, after);
                let go_on = self.step(i + 1, next, Some(d));
                self.board.set(next, before);
                if !go_on {
                    return false;
                }
            }
        }
        true
    }
}

/// Calls `visit` for every walk of every stack the player to move controls, in
/// canonical order (squares in order, paths in N, E, S, W order).
// Generic rather than `dyn`: this is the solver's innermost loop, and the visitor
// inlines into it.
fn for_each_walk<F: FnMut(usize, &Position, [u8; 2], &[Direction]) -> bool>(position: &Position, visit: &mut F) {
    let n = position.size();
    let mover = position.to_move();
    // One working copy for all walks: each walk leaves it as it found it.
    let mut board = position.clone();
    for from in 0..n * n {
        let stack = position.stack(from);
        if stack.top() != Some(mover) {
            continue;
        }
        board.set(from, Stack::EMPTY);
        let mut walk =
            Walk { n, from, lifted: stack, board: &mut board, borne: [0, 0], path: [Direction::N; 4], visit };
        let go_on = walk.step(0, from, None);
        board.set(from, stack);
        if !go_on {
            return;
        }
    }
}

/// Whether the player to move has a walk (a move other than a pass).
pub fn can_walk(position: &Position) -> bool {
    if has_single_step(position) {
        return true;
    }
    let mut found = false;
    for_each_walk(position, &mut |_, _, _, _| {
        found = true;
        false
    });
    found
}

/// Whether the player to move has a lone counter with a step it may take: a walk,
/// found without walking (most positions have one; the end test asks for every
/// position).
fn has_single_step(position: &Position) -> bool {
    let n = position.size();
    let mover = position.to_move();
    (0..n * n).any(|from| {
        let stack = position.stack(from);
        stack.height() == 1
            && stack.top() == Some(mover)
            && Direction::ALL.iter().any(|d| {
                d.step(from, n).is_some_and(|next| {
                    let borne_off = match mover {
                        Colour::White => next >= n * (n - 1),
                        Colour::Black => next < n,
                    };
                    borne_off || position.stack(next).push(mover).is_some()
                })
            })
    })
}

/// The value for the player to move if the game is over.
pub fn outcome(rules: Rules, position: &Position) -> Option<Value> {
    let mover = position.to_move();
    let counts = position.counts();
    let (mine, theirs) = (counts[mover.index()], counts[mover.other().index()]);
    if rules.set.counts_at_end() {
        if can_walk(position) {
            return None;
        }
        return Some(match mine.cmp(&theirs) {
            std::cmp::Ordering::Less => Value::Win(0),
            std::cmp::Ordering::Greater => Value::Loss(0),
            std::cmp::Ordering::Equal => Value::Draw,
        });
    }
    // Bearing off all one's counters wins; when both are gone the player who just
    // moved did it (a finished game is always shown with his opponent to move).
    match (mine, theirs) {
        (0, 0) => return Some(Value::Loss(0)),
        (0, _) => return Some(Value::Win(0)),
        (_, 0) => return Some(Value::Loss(0)),
        _ => {}
    }
    if can_walk(position) {
        return None;
    }
    match rules.set {
        RuleSet::Original => Some(Value::Draw),
        RuleSet::Fixed1 => Some(Value::Win(0)),
        _ => None,
    }
}

/// Who moves after a walk that bore off `borne` counters (by colour).
fn next_turn(rules: Rules, after: &Position, mover: Colour, borne: [u8; 2]) -> Turn {
    let earned = match rules.bonus {
        Bonus::No => false,
        Bonus::Own => borne[mover.index()] > 0,
        Bonus::Any => borne[0] + borne[1] > 0,
    };
    let bonus = earned
        // Under the first three rule sets the game ends at once when a player has no
        // counter left (his own last borne off, or under `--bonus any` his opponent's):
        // the end checks come before the bonus, and a finished game is shown with the
        // mover's opponent to move.
        && (rules.set.counts_at_end() || (after.count(mover) > 0 && after.count(mover.other()) > 0));
    if bonus {
        Turn::Keeps
    } else {
        Turn::Passes
    }
}

/// Generates the moves of a position that is not over into `out` in canonical order,
/// with their names into `names` when given. With names, paths that give the same
/// position are one move (the first path names it); without, every path is listed, as
/// the engine folds equal successors itself and is spared the comparisons.
fn generate(
    rules: Rules,
    position: &Position,
    out: &mut Vec<retro::Move<Position>>,
    mut names: Option<&mut Vec<Move>>,
) {
    let mover = position.to_move();
    let first = out.len();
    for_each_walk(position, &mut |from, board, borne, path| {
        if names.is_some() && out[first..].iter().any(|s| s.position.squares() == board.squares()) {
            return true;
        }
        let turn = next_turn(rules, board, mover, borne);
        let mut next = board.clone();
        next.set_to_move(if turn == Turn::Keeps { mover } else { mover.other() });
        out.push(retro::Move { position: next, gain: 0, turn });
        if let Some(names) = names.as_deref_mut() {
            names.push(Move::Sow { from, steps: Steps::new(path) });
        }
        true
    });
    if pass_allowed(rules, out.len() > first) {
        let mut next = position.clone();
        next.set_to_move(mover.other());
        out.push(retro::Move { position: next, gain: 0, turn: Turn::Passes });
        if let Some(names) = names {
            names.push(Move::Pass);
        }
    }
}

/// Whether the player to move may pass, given whether he has a walk.
fn pass_allowed(rules: Rules, can_walk: bool) -> bool {
    match rules.set {
        RuleSet::OriginalPass => !can_walk,
        RuleSet::Fixed2Pass => can_walk,
        _ => false,
    }
}

/// Calls `visit(board, next, turn, left)` for every path's resulting board (its side to
/// move left as it was) and for a pass, with the player to move next and whether the move
/// bore counters off (and so left the tier): the engine's hot path, which ranks boards
/// without building positions.
pub fn for_each_successor(rules: Rules, position: &Position, mut visit: impl FnMut(&Position, Colour, Turn, bool)) {
    let mover = position.to_move();
    let mut walked = false;
    for_each_walk(position, &mut |_, board, borne, _| {
        walked = true;
        let turn = next_turn(rules, board, mover, borne);
        visit(board, if turn == Turn::Keeps { mover } else { mover.other() }, turn, borne != [0, 0]);
        true
    });
    if pass_allowed(rules, walked) {
        visit(position, mover.other(), Turn::Passes, false);
    }
}

/// Every move of a position that is not over, with the position it leads to.
pub fn moves(rules: Rules, position: &Position) -> Vec<(Move, retro::Move<Position>)> {
    let mut successors = Vec::new();
    let mut names = Vec::new();
    generate(rules, position, &mut successors, Some(&mut names));
    names.into_iter().zip(successors).collect()
}

/// The positions one move away, one per path (the engine's view of [`moves`]).
pub fn successors(rules: Rules, position: &Position, out: &mut Vec<retro::Move<Position>>) {
    generate(rules, position, out, None);
}

/// What the walks taken back from a position change and find: a board (the position,
/// its other side to move), changed square by square, and each parent it becomes.
pub trait Unwalked {
    /// The board as it stands.
    fn board(&self) -> &Position;
    /// Puts `stack` on `square`.
    fn set(&mut self, square: usize, stack: Stack);
    /// The board, as it stands, is a parent, differing from the position on the squares
    /// `changed` at most; its move to the position passes the turn.
    fn parent(&mut self, changed: &[usize]);
}

/// Parents listed as positions.
struct Listed<'a> {
    board: Position,
    out: &'a mut Vec<retro::Move<Position>>,
}

impl Unwalked for Listed<'_> {
    fn board(&self) -> &Position {
        &self.board
    }

    fn set(&mut self, square: usize, stack: Stack) {
        self.board.set(square, stack);
    }

    fn parent(&mut self, _changed: &[usize]) {
        self.out.push(retro::Move { position: self.board.clone(), gain: 0, turn: Turn::Passes });
    }
}

/// The positions, with the same counters on the board, from which one move leads to
/// `position`: walks that bore nothing off, and passes.
pub fn unmoves(rules: Rules, position: &Position, out: &mut Vec<retro::Move<Position>>) {
    let mut board = position.clone();
    board.set_to_move(position.to_move().other());
    unwalk_all(rules, position, &mut Listed { board, out });
}

/// [`unmoves`], each parent handed to `parents`, whose board must start as `position`
/// with its other side to move.
pub fn unwalk_all(rules: Rules, position: &Position, parents: &mut impl Unwalked) {
    debug_assert!(parents.board().squares() == position.squares());
    let mover = position.to_move().other();
    if matches!(rules.set, RuleSet::OriginalPass | RuleSet::Fixed2Pass) {
        let before = parents.board();
        // Whether a pass is among its moves depends only on whether it has a walk.
        if outcome(rules, before).is_none() && pass_allowed(rules, can_walk(before)) {
            parents.parent(&[]);
        }
    }
    // A walk taken back leads to a position that has that walk, so no parent is over for
    // want of a walk; and walks keep every counter on the board, so a parent is over
    // for want of counters exactly when `position` has none of one colour.
    if !rules.set.counts_at_end() && (position.count(mover) == 0 || position.count(mover.other()) == 0) {
        return;
    }
    let n = position.size();
    for end in 0..n * n {
        let Some((rest, top)) = position.stack(end).pop() else { continue };
        if top != mover {
            continue;
        }
        parents.set(end, rest);
        let mut taken = [top; MAX_MIXED as usize];
        let mut path = [end; MAX_MIXED as usize + 1];
        unwalk(parents, 1, end, None, &mut taken, &mut path);
        parents.set(end, position.stack(end));
    }
}

/// Walks back from `at`, whose counter has just been taken off, towards the square the
/// stack was lifted from; `taken[..k]` are the counters taken back so far, the last
/// dropped first, `path[..k]` the squares they were taken from (`at` the last), and
/// `came_from` is the square taken back before `at`. An empty
/// neighbour is where a stack of those `k` counters was lifted from; a stack is taken
/// back further from one that is not. Every walk of every height is followed once: the
/// walks of `k` steps and of more share their last `k` steps.
fn unwalk(
    parents: &mut impl Unwalked,
    k: usize,
    at: usize,
    came_from: Option<usize>,
    taken: &mut [Colour; MAX_MIXED as usize],
    path: &mut [usize; MAX_MIXED as usize + 1],
) {
    let n = parents.board().size();
    for d in Direction::ALL {
        let Some(prev) = d.step(at, n) else { continue };
        if Some(prev) == came_from {
            continue;
        }
        let here = parents.board().stack(prev);
        match here.pop() {
            None => {
                // The counter dropped first was the lifted stack's bottom.
                let lifted = taken[..k].iter().rev().try_fold(Stack::EMPTY, |s, &c| s.push(c));
                let Some(stack) = lifted else { continue };
                // Taking counters back misplaces none, so only the stack put back can stand
                // where its counters may not (the position un-moved from is legal).
                if parents.board().misplaced(prev, stack) {
                    continue;
                }
                parents.set(prev, stack);
                path[k] = prev;
                parents.parent(&path[..=k]);
                parents.set(prev, Stack::EMPTY);
            }
            Some((rest, counter)) if k < MAX_MIXED as usize => {
                taken[k] = counter;
                path[k] = prev;
                parents.set(prev, rest);
                unwalk(parents, k + 1, prev, Some(at), taken, path);
                parents.set(prev, here);
            }
            Some(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::thi::index::{BoardIndex, ThiTier};

    /// Every board with up to four counters a colour on 3×3, and up to two on 4×4, with
    /// each side to move.
    fn boards() -> impl Iterator<Item = Position> {
        [(3, 4), (4, 2)].into_iter().flat_map(|(size, max)| {
            let index = BoardIndex::new(size, max).unwrap();
            let tiers: Vec<ThiTier> = (0..=max).flat_map(|a| (0..=a).map(move |b| ThiTier::new(a, b))).collect();
            tiers.into_iter().flat_map(move |tier| {
                let index = index.clone();
                (0..index.tier_size(tier)).flat_map(move |rank| {
                    let board = index.board(tier, rank);
                    [board.clone(), board.turned()]
                })
            })
        })
    }

    #[test]
    fn a_walk_is_found_exactly_when_one_exists() {
        for position in boards() {
            let mut walks = 0;
            for_each_walk(&position, &mut |_, _, _, _| {
                walks += 1;
                true
            });
            assert_eq!(can_walk(&position), walks > 0, "{position}");
        }
    }

    #[test]
    fn counts_are_each_colours_counters() {
        for position in boards() {
            assert_eq!(position.counts(), [position.count(Colour::White), position.count(Colour::Black)], "{position}");
        }
    }
}
