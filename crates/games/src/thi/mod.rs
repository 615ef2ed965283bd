//! THI` ("Transporter"), Andreas E. Verweyen's stacking game. Rules as implemented:
//! `docs/rules/thi.md`; the specification: `shared/rules/thi.md`.

pub mod board;
pub mod index;
pub mod moves;
pub mod notation;

pub use board::{Colour, Position, Stack};
pub use index::{BoardIndex, NearBoards, ThiTier};
pub use moves::{Bonus, Move, RuleSet, Rules};

use encoding::Fold;
use encoding::IndexError;
use retro::{Engine, Footprint, Game, Location, Parent, Turn, Value};
use thiserror::Error;

/// How the players' counters stand at the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setup {
    /// A stack of `height` on every square of each player's first row.
    Height {
        /// Squares a side of the board.
        size: usize,
        /// Counters in each first-row stack.
        height: u8,
    },
    /// A single counter on every square of each player's first `rows` rows.
    Rows {
        /// Squares a side of the board.
        size: usize,
        /// Rows each player fills from his own side.
        rows: u8,
    },
}

/// Why a setup asked for is not one this version can play.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SetupError {
    /// A board name that is none of the four the article names, nor a setup's description.
    #[error(
        "unknown board {0:?}: the named boards are primus, duo, trias (3×3) and quadrat (6×6), \
         and NxN-heightH or NxN-rowsR another setup (as reports name it)"
    )]
    UnknownBoard(String),
    /// A board side outside 3 to `board::MAX_SIZE`.
    #[error("board side {0} is not supported: 3 to {max}", max = board::MAX_SIZE)]
    Size(usize),
    /// A first-row stack height outside 1 to 3 (one colour stands at most 3 high).
    #[error("a first-row stack of {0} is not possible: 1 to 3 (one colour holds at most 3)")]
    Height(u64),
    /// More filled rows than fit on each player's half of the board.
    #[error("{rows} filled rows do not fit a {size}×{size} board: each player's rows must stay on his half")]
    Rows {
        /// Squares a side of the board.
        size: usize,
        /// Rows asked for each player.
        rows: u64,
    },
    /// More counters of one colour than any setup of the board starts with.
    #[error("{counters} counters of one colour: no setup of {size}×{size} has more than {most}")]
    TooManyCounters {
        /// Squares a side of the board.
        size: usize,
        /// The counters.
        counters: u32,
        /// The most any setup of the board has.
        most: u32,
    },
}

/// The boards the article names and their setups, in the order of their counters.
const ARTICLE_BOARDS: [(&str, Setup); 4] = [
    ("primus", Setup::Height { size: 3, height: 1 }),
    ("duo", Setup::Height { size: 3, height: 2 }),
    ("trias", Setup::Height { size: 3, height: 3 }),
    ("quadrat", Setup::Rows { size: 6, rows: 2 }),
];

/// `size` if a board of that side is supported.
fn checked_size(size: usize) -> Result<usize, SetupError> {
    if (3..=board::MAX_SIZE).contains(&size) {
        Ok(size)
    } else {
        Err(SetupError::Size(size))
    }
}

impl Setup {
    /// A setup by its name ([`Setup::name`]): a board the article names (`primus`, `duo`,
    /// `trias`, `quadrat`), or another setup's description, `NxN-heightH` or `NxN-rowsR`,
    /// checked.
    pub fn named(name: &str) -> Result<Setup, SetupError> {
        let lower = name.to_ascii_lowercase();
        if let Some(&(_, setup)) = ARTICLE_BOARDS.iter().find(|(n, _)| *n == lower) {
            return Ok(setup);
        }
        let unknown = || SetupError::UnknownBoard(crate::echo::excerpt(name));
        let (sides, counters) = lower.split_once('-').ok_or_else(unknown)?;
        let (size, other) = sides.split_once('x').ok_or_else(unknown)?;
        // Digits only, as `name` writes them: `parse` would take a sign or leading zeros. A
        // number too large for a setup is still read, so that the error can name it.
        let number = |text: &str| {
            let canonical = text == "0"
                || matches!(text.as_bytes(), [b'1'..=b'9', rest @ ..] if rest.iter().all(u8::is_ascii_digit));
            canonical.then(|| text.parse::<u64>().unwrap_or(u64::MAX)).ok_or_else(unknown)
        };
        let size = number(size)?;
        if number(other)? != size {
            return Err(unknown());
        }
        // The side first, as `checked` does, before a height or a row count that does not fit.
        let size = checked_size(usize::try_from(size).unwrap_or(usize::MAX))?;
        let setup = if let Some(height) = counters.strip_prefix("height") {
            let height = number(height)?;
            Setup::Height { size, height: u8::try_from(height).map_err(|_| SetupError::Height(height))? }
        } else if let Some(rows) = counters.strip_prefix("rows") {
            let rows = number(rows)?;
            Setup::Rows { size, rows: u8::try_from(rows).map_err(|_| SetupError::Rows { size, rows })? }
        } else {
            return Err(unknown());
        };
        setup.checked()
    }

    /// The name the article gives this setup's board, if it names it.
    pub fn article_name(self) -> Option<&'static str> {
        ARTICLE_BOARDS.iter().find(|(_, s)| *s == self).map(|&(n, _)| n)
    }

    /// Every setup of the `size`×`size` board ([`Setup::checked`] ones), fewest counters
    /// first.
    pub fn of_board(size: usize) -> impl Iterator<Item = Setup> {
        let heights = (1..=3).map(move |height| Setup::Height { size, height });
        let rows = (2..=(size / 2).min(u8::MAX as usize) as u8).map(move |rows| Setup::Rows { size, rows });
        let mut all: Vec<Setup> = heights.chain(rows).filter_map(|s| s.checked().ok()).collect();
        all.sort_by_key(|s| s.counters());
        all.into_iter()
    }

    /// The setup whose start `position` is, if any.
    pub fn of_start(position: &Position) -> Option<Setup> {
        Setup::of_board(position.size()).find(|s| s.start() == *position)
    }

    /// The smallest setup of the `size`×`size` board whose tables hold a position of up
    /// to `counters` a side: stacks on the first row where they fit (three high at
    /// most), else single counters on as many rows as they fill; an error past the
    /// largest (stacks of three, or single counters on half the board). The board side
    /// itself is not checked ([`Setup::checked`]).
    pub fn holding(size: usize, counters: u32) -> Result<Setup, SetupError> {
        let most = (3 * size).max(size * (size / 2)) as u32;
        if counters > most {
            return Err(SetupError::TooManyCounters { size, counters, most });
        }
        let rows = counters.max(1).div_ceil(size.max(1) as u32) as u8;
        Ok(if rows <= 3 { Setup::Height { size, height: rows } } else { Setup::Rows { size, rows } })
    }

    /// Checks the parameters. One row of single counters is the first-row stacks of one,
    /// and is given as those, so that a start has one name.
    pub fn checked(self) -> Result<Setup, SetupError> {
        let size = checked_size(self.size())?;
        match self {
            Setup::Height { height, .. } if !(1..=3).contains(&height) => Err(SetupError::Height(height.into())),
            Setup::Rows { rows, .. } if rows == 0 || 2 * rows as usize > size => {
                Err(SetupError::Rows { size, rows: rows.into() })
            }
            Setup::Rows { rows: 1, .. } => Ok(Setup::Height { size, height: 1 }),
            _ => Ok(self),
        }
    }

    /// Squares a side of the board: `n` of the `n × n` board.
    pub fn size(self) -> usize {
        match self {
            Setup::Height { size, .. } | Setup::Rows { size, .. } => size,
        }
    }

    /// Counters each player starts with.
    pub fn counters(self) -> u8 {
        match self {
            Setup::Height { size, height } => size as u8 * height,
            Setup::Rows { size, rows } => size as u8 * rows,
        }
    }

    /// The board's name as the article gives it, or a description.
    pub fn name(self) -> String {
        match self {
            Setup::Height { size: 3, height: 1 } => "primus".into(),
            Setup::Height { size: 3, height: 2 } => "duo".into(),
            Setup::Height { size: 3, height: 3 } => "trias".into(),
            Setup::Rows { size: 6, rows: 2 } => "quadrat".into(),
            Setup::Height { size, height } => format!("{size}x{size}-height{height}"),
            Setup::Rows { size, rows } => format!("{size}x{size}-rows{rows}"),
        }
    }

    /// Whether the tables of this setup can answer for `position`: a position of its
    /// board with no more counters a side than it starts with.
    pub fn check(self, position: &Position) -> Result<(), PositionError> {
        holds(self.size(), self.counters(), position)
    }

    /// The start position, White to move.
    pub fn start(self) -> Position {
        let n = self.size();
        let mut p = Position::empty(n, Colour::White);
        match self {
            Setup::Height { height, .. } => {
                let white = Stack::from_counters(&vec![Colour::White; height as usize]).expect("height 1..=3");
                for file in 0..n {
                    p.set(file, white);
                    p.set((n - 1) * n + file, white.swapped());
                }
            }
            Setup::Rows { rows, .. } => {
                let one = Stack::from_counters(&[Colour::White]).expect("one counter");
                for row in 0..rows as usize {
                    for file in 0..n {
                        p.set(row * n + file, one);
                        p.set((n - 1 - row) * n + file, one.swapped());
                    }
                }
            }
        }
        p
    }
}

/// THI` on one board size under one set of rules, indexed up to a number of counters
/// per player.
#[derive(Debug, Clone)]
pub struct Thi {
    rules: Rules,
    index: BoardIndex,
    size: usize,
}

/// Why a position cannot be looked up in a game's tables.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PositionError {
    /// The position is on another board size than the tables'.
    #[error("the position is on a {found}×{found} board, these tables are for {expected}×{expected}")]
    Size {
        /// Squares a side of the position's board.
        found: usize,
        /// Squares a side of the tables' board.
        expected: usize,
    },
    /// A player has more counters than the tables cover.
    #[error(
        "the position has {found} {colour} counters; the tables cover at most {max} per player (choose a larger setup)"
    )]
    Material {
        /// The player, `White` or `Black`.
        colour: &'static str,
        /// His counters on the board.
        found: u32,
        /// Most counters per player the tables cover.
        max: u8,
    },
}

/// Whether tables of the `size`×`size` board up to `max` counters a side hold `position`.
fn holds(size: usize, max: u8, position: &Position) -> Result<(), PositionError> {
    if position.size() != size {
        return Err(PositionError::Size { found: position.size(), expected: size });
    }
    for colour in [Colour::White, Colour::Black] {
        let found = position.count(colour);
        if found > max as u32 {
            return Err(PositionError::Material { colour: colour.name(), found, max });
        }
    }
    Ok(())
}

impl Thi {
    /// The game on `size × size` boards, positions with up to `max` counters per player.
    pub fn new(size: usize, max: u8, rules: Rules) -> Result<Thi, IndexError> {
        Ok(Thi { rules, index: BoardIndex::new(size, max)?, size })
    }

    /// The game for a setup: its board, its counters.
    pub fn for_setup(setup: Setup, rules: Rules) -> Result<Thi, IndexError> {
        Thi::new(setup.size(), setup.counters(), rules)
    }

    /// The game answering `position` asked alone, `holding` being the smallest setup of its
    /// board that holds its counters ([`Setup::holding`]): that setup's, or, where it has
    /// more positions than a 64-bit index numbers, one indexed up to the position's own
    /// counters (`None` for the setup). Counters are only ever borne off, and a tier's
    /// ranks do not depend on the most counters indexed (one directory serves every setup
    /// of its board), so those tables are the setup's own lower tiers.
    pub fn answering(holding: Setup, position: &Position, rules: Rules) -> Result<(Thi, Option<Setup>), IndexError> {
        if let Ok(game) = Thi::for_setup(holding, rules) {
            return Ok((game, Some(holding)));
        }
        let counters = position.count(Colour::White).max(position.count(Colour::Black));
        let counters = u8::try_from(counters).unwrap_or(u8::MAX);
        Ok((Thi::new(position.size(), counters, rules)?, None))
    }

    /// The rule set, and whether bearing off one's own counter earns a bonus move.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Squares a side of the board the tables are for.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Most counters a side the tables hold.
    pub fn most_counters(&self) -> u8 {
        self.index.max()
    }

    /// Whether the tables of this game can answer for `position`.
    pub fn check(&self, position: &Position) -> Result<(), PositionError> {
        holds(self.size, self.index.max(), position)
    }

    /// Every move with the position it leads to, in canonical order.
    pub fn named_moves(&self, position: &Position) -> Vec<(Move, retro::Move<Position>)> {
        if self.end(position).is_some() {
            return Vec::new();
        }
        moves::moves(self.rules, position)
    }

    /// Every tier with at most `max` counters per player, fewest first.
    pub fn all_tiers(&self) -> Vec<ThiTier> {
        let max = self.index.max();
        let mut tiers: Vec<ThiTier> =
            (0..=max).flat_map(|h| (0..=h).map(move |l| ThiTier { high: h, low: l })).collect();
        tiers.sort();
        tiers
    }
}

impl Game for Thi {
    type Position = Position;
    type Tier = ThiTier;
    type Value = Value;

    fn table_key(&self) -> String {
        format!(
            "thi size={} rules={} bonus={} mirror=folded",
            self.size,
            self.rules.set.name(),
            self.rules.bonus.name()
        )
    }

    fn tier_size(&self, tier: ThiTier) -> u64 {
        self.index.tier_size(tier)
    }

    fn child_tiers(&self, tier: ThiTier) -> Vec<ThiTier> {
        // Counters only leave: any tier with no more counters on either side.
        let mut out = Vec::new();
        for high in 0..=tier.high {
            for low in 0..=high.min(tier.low) {
                let t = ThiTier { high, low };
                if t != tier {
                    out.push(t);
                }
            }
        }
        out
    }

    fn orientations(&self) -> u8 {
        2
    }

    fn images(&self, position: &Position) -> u64 {
        self.index.images(position)
    }

    fn locate(&self, position: &Position) -> Location<ThiTier> {
        let (tier, rank, orientation) = self.index.locate(position, position.to_move());
        Location { tier, rank, orientation }
    }

    /// The players' counter counts.
    fn material_tier(&self, position: &Position) -> ThiTier {
        let [white, black] = position.counts();
        ThiTier::new(u8::try_from(white).unwrap_or(u8::MAX), u8::try_from(black).unwrap_or(u8::MAX))
    }

    fn position(&self, location: Location<ThiTier>) -> Position {
        let board = self.index.board(location.tier, location.rank);
        if location.orientation == 0 {
            board
        } else {
            board.turned()
        }
    }

    fn next_position(&self, tier: ThiTier, rank: u64, previous: &Position) -> Position {
        self.index.next_board(tier, rank, previous)
    }

    fn end(&self, position: &Position) -> Option<Value> {
        moves::outcome(self.rules, position)
    }

    fn moves(&self, position: &Position, out: &mut Vec<retro::Move<Position>>) {
        moves::successors(self.rules, position, out)
    }

    fn move_locations(&self, position: &Position, out: &mut Vec<retro::Move<Location<ThiTier>>>) {
        moves::for_each_successor(self.rules, position, |board, next, turn, _| {
            let (tier, rank, orientation) = self.index.locate(board, next);
            out.push(retro::Move { position: Location { tier, rank, orientation }, gain: 0, turn });
        });
    }

    fn scan_moves(
        &self,
        _tier: ThiTier,
        position: &Position,
        out: &mut Vec<retro::Move<Location<ThiTier>>>,
        _same_tier: &mut Vec<(u64, Turn)>,
    ) -> usize {
        // Ranking is most of a scan's time, and of the children on 4×4 three quarters stay
        // in the tier, where only their number counts: every path, even where two give one
        // board, as the un-moves find them (weighed by `unmove_weight`).
        let mut same_tier = 0;
        moves::for_each_successor(self.rules, position, |board, next, turn, left| {
            if left {
                let (tier, rank, orientation) = self.index.locate(board, next);
                out.push(retro::Move { position: Location { tier, rank, orientation }, gain: 0, turn });
            } else {
                same_tier += 1;
            }
        });
        same_tier
    }

    fn lists_unmoves(&self) -> bool {
        true
    }

    fn footprint(&self, _tier: ThiTier) -> Footprint {
        // A rank's walks and children grow with the board: measured under `original`,
        // about 1.26 M ranks a second a thread on 3×3 and 0.39 M on 5×5
        // (docs/performance.md, "The mirror fold").
        let squares = (self.size * self.size) as f64;
        let rate = 10.0e6 / squares / build_time_against_original(self.rules, self.size);
        let table = TABLE_BYTES_PER_RANK;
        Footprint { rate, table, mapped: table, ..Footprint::of(Engine::Outcome, true) }
    }

    fn unmoves(&self, position: &Position, out: &mut Vec<retro::Move<Position>>) {
        moves::unmoves(self.rules, position, out)
    }

    fn unmove_locations(
        &self,
        position: &Position,
        scratch: &mut Vec<retro::Move<Position>>,
        out: &mut Vec<Parent<ThiTier>>,
    ) {
        // A parent differs from the position only where its walk went, so on 5×5 and
        // larger it is ranked from the position's word and the terms of that word's rank
        // (docs/performance.md, "Parents ranked near the position"). On smaller boards
        // ranking each parent's board whole costs no more.
        if self.size < 5 {
            return self.unmoves_located(position, scratch, out);
        }
        let mut board = position.clone();
        let mover = position.to_move().other();
        board.set_to_move(mover);
        NEAR.with_borrow_mut(|near| {
            if self.index.prepare_near(&board, mover, near) {
                let symmetric = near.symmetric();
                let parents = &mut LocatedParents { index: &self.index, board, near, symmetric, out };
                moves::unwalk_all(self.rules, position, parents);
            } else {
                self.unmoves_located(position, scratch, out);
            }
        })
    }
}

/// How many of a parent's counted moves an un-move stands for, given how the parent's
/// board stands to its mirror image and whether the position un-moved from is its own.
///
/// The scan counts the paths from a rank's board into each rank; a push finds the paths
/// into the pushed rank's board, from the parents' boards as they stand. So:
/// - a symmetric parent's paths to the position and to its image are both counted, and
///   as many go to either: each found stands for two;
/// - a symmetric position is reached from a parent's board and from its image alike,
///   and only the board ranked as it stands was counted: the image's are repeats.
#[inline]
fn unmove_weight(parent: Fold, symmetric: bool) -> u8 {
    match (parent, symmetric) {
        (Fold::Symmetric, false) => 2,
        (Fold::Mirrored, true) => 0,
        _ => 1,
    }
}

impl Thi {
    /// The parents of `position` listed in `scratch` and located whole board by board.
    #[inline]
    fn unmoves_located(
        &self,
        position: &Position,
        scratch: &mut Vec<retro::Move<Position>>,
        out: &mut Vec<Parent<ThiTier>>,
    ) {
        let symmetric = self.index.images(position) == 1;
        scratch.clear();
        self.unmoves(position, scratch);
        out.extend(scratch.iter().map(|p| {
            let (tier, rank, orientation, fold) = self.index.locate_folded(&p.position, p.position.to_move());
            Parent {
                location: Location { tier, rank, orientation },
                turn: p.turn,
                weight: unmove_weight(fold, symmetric),
            }
        }));
    }
}

/// Parents located as they are found, from the position's word with the squares their
/// walks changed read again.
struct LocatedParents<'a> {
    index: &'a BoardIndex,
    board: Position,
    near: &'a mut NearBoards,
    /// Whether the position un-moved from is its own mirror image.
    symmetric: bool,
    out: &'a mut Vec<Parent<ThiTier>>,
}

impl moves::Unwalked for LocatedParents<'_> {
    #[inline]
    fn board(&self) -> &Position {
        &self.board
    }

    #[inline]
    fn set(&mut self, square: usize, stack: Stack) {
        self.board.set(square, stack);
    }

    #[inline]
    fn parent(&mut self, changed: &[usize]) {
        let (tier, rank, fold) = self.index.locate_near(self.near, &self.board, changed);
        let orientation = self.near.turned() as u8;
        let weight = unmove_weight(fold, self.symmetric);
        self.out.push(Parent { location: Location { tier, rank, orientation }, turn: Turn::Passes, weight });
    }
}

thread_local! {
    /// The word of the position whose parents are being located, and its rank's terms.
    static NEAR: std::cell::RefCell<NearBoards> = std::cell::RefCell::new(NearBoards::default());
}

/// Bytes a rank takes in a table as built: its code packed among the codes that occur,
/// measured 1.00 on 5×5 and 0.79 on TRIAS (blocks, where they pay, take far less).
pub const TABLE_BYTES_PER_RANK: f64 = 1.0;

/// How many times as long as under `original` a build takes under `rules` on a board of
/// side `size`: the more positions a rule set decides, the more are pushed to their
/// parents through un-moves. Measured on TRIAS, one thread (`solve --threads 1 thi
/// --board trias --rules R [--bonus] --position …`, docs/performance.md "Build time by
/// rule set"). From 5×5 on, parents are ranked near the pushed position, which halves
/// what pushing adds: the whole 5×5 `fixed1` build took 1.4 times the announced
/// `original` time (docs/results.md), against 1.8 on TRIAS.
fn build_time_against_original(rules: Rules, size: usize) -> f64 {
    // Measured with bonus moves for the mover's own counters; any counter's taken alike.
    let on_trias = match (rules.set, rules.bonus != Bonus::No) {
        (RuleSet::Original, false) => 1.0,
        (RuleSet::Original, true) => 1.5,
        (RuleSet::OriginalPass, false) => 1.5,
        (RuleSet::OriginalPass, true) => 1.6,
        (RuleSet::Fixed1, false) => 1.8,
        (RuleSet::Fixed1, true) => 1.8,
        (RuleSet::Fixed2, false) => 1.6,
        (RuleSet::Fixed2, true) => 1.8,
        (RuleSet::Fixed2Pass, false) => 1.6,
        (RuleSet::Fixed2Pass, true) => 2.0,
    };
    if size >= 5 {
        1.0 + (on_trias - 1.0) / 2.0
    } else {
        on_trias
    }
}
