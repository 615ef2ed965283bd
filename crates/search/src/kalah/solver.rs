//! Kalah solved from any position: endgame tables up to some number of seeds, and the
//! search above them; what they need in memory, checked before anything is built.

use super::{Search, SearchError};
use crate::tree::Stop;
use encoding::IndexError;
use games::kalah::{turn_name, Board, Capture, Kalah, Position, Rules};
use retro::memory;
use retro::solve::Observer;
use retro::store::{self, BuildError, BuildOptions, BuildReport, ProbeError};
use retro::table::Reading;
use retro::{Game, Tables};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Working memory of a tier build: one 2-byte value slot per board of the tier.
pub const WORK_BYTES_PER_POSITION: f64 = 2.0;
/// Table bytes per board (about 6 bits a value, memory-mapped).
pub const TABLE_BYTES_PER_POSITION: f64 = 0.8;
/// Bytes of one transposition-table entry.
pub const TRANSPOSITION_BYTES_PER_ENTRY: u64 = 16;
/// Bits of the transposition table when none are asked for: 2^27 entries, 2 GiB.
pub const DEFAULT_TT_BITS: u32 = 27;

/// Bits of the transposition table when none are asked for: [`DEFAULT_TT_BITS`], or
/// fewer where that table would pass a quarter of the free memory. The table's memory is
/// only taken as the search fills it, but a long search fills all of it, and the plan
/// refuses a table that cannot fit; a short search on a small machine should run with
/// the table it can have rather than be refused.
pub fn default_tt_bits() -> u32 {
    memory::available().map_or(DEFAULT_TT_BITS, tt_bits_within)
}

/// The bits of the largest transposition table, at most [`DEFAULT_TT_BITS`] and at least
/// 16 (1 MiB), within a quarter of `free` bytes.
fn tt_bits_within(free: u64) -> u32 {
    let entries = free / 4 / TRANSPOSITION_BYTES_PER_ENTRY;
    entries.max(1).ilog2().clamp(16, DEFAULT_TT_BITS)
}

/// Boards an automatic endgame build may cover (Kalah(6, ·): every board up to 17 seeds,
/// 51.9 million): the size at which a larger table stopped paying for itself in the time
/// from an empty directory (the measurements: docs/performance.md, Kalah endgame tables).
pub const AUTO_POSITIONS: u64 = 55_000_000;
/// The budget for instances of more than [`LARGE_INSTANCE`] seeds, where the search, not
/// the build, dominates: every board up to 24 seeds for six pits (1.25 billion), 31 for
/// five. With 18-seed tables the search for Kalah(6,5)'s value ran far longer than with
/// 24-seed tables (docs/performance.md, Kalah endgame tables).
pub const LARGE_AUTO_POSITIONS: u64 = 1_300_000_000;
/// Seeds in all above which an instance counts as large (Kalah(5,6) and (6,5) have 60).
pub const LARGE_INSTANCE: u32 = 50;
/// Seeds an automatic build leaves above its tables at most, under rules whose capture
/// needs seeds opposite (standard, bassett), within the budget of an instance of more
/// than [`LARGE_INSTANCE`] seeds: their search trees are four to nine times
/// empty-capture's, and the search grows fast with the seeds above the tables. It binds
/// only on rows of seven pits or more (the budget leaves six pits 31 seeds above their
/// 17-seed tables at 48 seeds); Kalah(8,3) under bassett, from an empty directory: 12-seed
/// tables (the budget's) over 47 minutes of CPU unfinished, 15 seeds 833 s, 16 seeds 436 s
/// (docs/performance.md, Kalah endgame tables).
pub const MOST_SEEDS_ABOVE: u32 = 32;
/// Seeds in all up to which an instance counts as small (Kalah(6,3) has 36, Kalah(5,4)
/// 40): its search is short even above small tables, so an automatic build stops at a
/// third of its seeds rather than at the budget (docs/performance.md, Kalah endgame
/// tables: 17-seed tables cost Kalah(6,3) a minute for a search of seconds).
pub const SMALL_INSTANCE: u32 = 40;

/// Why the solver could not be set up or could not answer.
#[derive(Debug, thiserror::Error)]
pub enum SolverError {
    // `Index`, `Reserve` and `Build` hold their causes as fields, not `source`s: each
    // message says its cause once, and a printer following the source chain would repeat it.
    /// The boards of the endgame tables cannot be indexed.
    #[error("indexing the boards: {0}")]
    Index(IndexError),
    /// The endgame tables asked for do not fit in the memory available.
    #[error(
        "tables up to {seeds} seeds need about {} of memory (largest tier {largest:.3e} boards); \
         this machine has {} available: use fewer endgame seeds",
        memory::human(*need),
        memory::human(*free)
    )]
    TablesTooBig {
        /// Seeds in the pits of the largest tier.
        seeds: u32,
        /// Bytes the build needs.
        need: f64,
        /// Boards of the largest tier.
        largest: f64,
        /// Bytes available.
        free: f64,
    },
    /// The transposition table asked for does not fit in the memory available.
    #[error(
        "the transposition table (2^{bits} entries: {}) does not fit in the {} of memory available: \
         use fewer table bits",
        memory::human(*need),
        memory::human(*free)
    )]
    TranspositionTooBig {
        /// Its entries, as a power of two.
        bits: u32,
        /// Bytes it needs.
        need: f64,
        /// Bytes available.
        free: f64,
    },
    /// The system refused the transposition table's memory.
    #[error("reserving the transposition table ({}): {error}", memory::human(*bytes))]
    Reserve {
        /// Bytes asked for.
        bytes: f64,
        /// The system's answer.
        error: std::io::Error,
    },
    /// The endgame tables could not be built or opened.
    #[error("building tables in {}: {error}", dir.display())]
    Build {
        /// Their directory.
        dir: PathBuf,
        /// Why.
        error: BuildError,
    },
    /// A table probe failed (a damaged or missing table).
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// The search's budget ran out where only an exact answer would do.
    #[error(transparent)]
    Spent(SearchError),
    /// The search and the best turn it found disagree: a bug, never a result.
    #[error("internal error: the position's margin {margin:+} differs from its best turn's {best:+}")]
    Disagreement {
        /// The position's margin.
        margin: i32,
        /// Its best turn's margin.
        best: i32,
    },
}

impl From<SearchError> for SolverError {
    fn from(e: SearchError) -> SolverError {
        match e {
            SearchError::Probe(e) => SolverError::Probe(e),
            spent => SolverError::Spent(spent),
        }
    }
}

/// Proven bounds on a margin (the final store difference for a player), equal once it is
/// exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Margin {
    /// The least it can be.
    pub lower: i32,
    /// The most it can be.
    pub upper: i32,
}

impl Margin {
    /// A margin known exactly.
    pub fn exact(v: i32) -> Margin {
        Margin { lower: v, upper: v }
    }

    /// The margin, where proven.
    pub fn value(self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }

    /// The same margin seen by the other player.
    fn negated(self) -> Margin {
        Margin { lower: -self.upper, upper: -self.lower }
    }

    /// What both bounds say.
    fn meet(self, other: Margin) -> Margin {
        Margin { lower: self.lower.max(other.lower), upper: self.upper.min(other.upper) }
    }
}

/// A complete turn: its name (`3-6`), the position after it, and the margin it leaves the
/// mover (proven bounds where a budget ended the search first).
#[derive(Debug, Clone)]
pub struct Turn {
    /// Its name: the pits played, joined by `-`.
    pub name: String,
    /// The position after it.
    pub next: Position,
    /// The margin it leaves the mover.
    pub margin: Margin,
}

/// What a solver for positions of `seeds` seeds needs, known before anything is built:
/// its tables, the boards still to build, and the transposition table. Building it first
/// checks that the largest tier's build and the transposition table fit in memory.
pub struct Plan {
    game: Kalah,
    dir: PathBuf,
    endgame_seeds: u32,
    seeds: u32,
    tt_bits: u32,
}

impl Plan {
    /// The plan for positions of `seeds` seeds with `m` pits a row under `rules`: tables in
    /// `dir` up to `endgame_seeds` seeds, and (if `seeds` is above them) a transposition
    /// table of at most `2^tt_bits` entries.
    pub fn new(
        m: usize,
        rules: Rules,
        endgame_seeds: u32,
        seeds: u32,
        dir: &Path,
        tt_bits: u32,
    ) -> Result<Plan, SolverError> {
        let game = Kalah::new(m, endgame_seeds, rules).map_err(SolverError::Index)?;
        Ok(Plan { game, dir: dir.to_owned(), endgame_seeds, seeds, tt_bits })
    }

    /// The same plan with tables up to `endgame_seeds` seeds.
    pub fn with_endgame_seeds(&self, endgame_seeds: u32) -> Result<Plan, SolverError> {
        Plan::new(self.game.pits(), *self.game.rules(), endgame_seeds, self.seeds, &self.dir, self.tt_bits)
    }

    /// Checks that the largest tier's build and the transposition table each fit in the
    /// memory available now.
    pub fn check_memory(&self) -> Result<(), SolverError> {
        let Some(free) = memory::available().map(|f| f as f64) else { return Ok(()) };
        let largest = self.game.tier_size(self.endgame_seeds as u16) as f64;
        let need = largest * WORK_BYTES_PER_POSITION;
        if need > free {
            return Err(SolverError::TablesTooBig { seeds: self.endgame_seeds, need, largest, free });
        }
        // The map is lazy, but a long search touches all of it.
        let need = self.transposition_bytes() as f64;
        if need > free {
            return Err(SolverError::TranspositionTooBig { bits: self.tt_bits, need, free });
        }
        Ok(())
    }

    /// Seeds in the pits up to which the tables answer.
    pub fn endgame_seeds(&self) -> u32 {
        self.endgame_seeds
    }

    /// Boards in the tables.
    pub fn table_positions(&self) -> u64 {
        self.game.positions_up_to(self.endgame_seeds)
    }

    /// Bytes of the finished tables, about.
    pub fn table_bytes(&self) -> f64 {
        self.table_positions() as f64 * TABLE_BYTES_PER_POSITION
    }

    /// The tiers not yet built in the directory.
    fn tiers_to_build(&self) -> impl Iterator<Item = u16> + '_ {
        let tiers = self.game.tiers_up_to(self.endgame_seeds).into_iter();
        tiers.filter(|&t| !retro::store::has_tier_file(&self.dir, t))
    }

    /// Boards of the tiers not yet built in the directory.
    pub fn positions_to_build(&self) -> u64 {
        self.tiers_to_build().map(|t| self.game.tier_size(t)).sum()
    }

    /// Bytes the tiers not yet built will take on disk, about: each file its values, its
    /// header, and whole blocks of the file system (which small tiers are mostly).
    pub fn bytes_to_build(&self) -> f64 {
        self.tiers_to_build()
            .map(|t| {
                (self.game.tier_size(t) as f64 * TABLE_BYTES_PER_POSITION + 1024.0).div_euclid(4096.0) * 4096.0 + 4096.0
            })
            .sum()
    }

    /// The directory of the tables.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Seconds of one thread's work the tiers not yet built take, roughly.
    pub fn build_seconds(&self) -> f64 {
        self.tiers_to_build().map(|t| self.game.tier_size(t) as f64 / retro::Game::footprint(&self.game, t).rate).sum()
    }

    /// Whether positions of the plan's seeds need a search above the tables.
    pub fn searches(&self) -> bool {
        self.seeds > self.endgame_seeds
    }

    /// Bytes of the transposition table if there is a search (its address space; the
    /// memory is taken as the search fills it), else 0.
    pub fn transposition_bytes(&self) -> u64 {
        if self.searches() {
            TRANSPOSITION_BYTES_PER_ENTRY << self.tt_bits
        } else {
            0
        }
    }

    /// Builds (or reuses) the tables, `observer` hearing of the build, once the memory is
    /// checked ([`Plan::check_memory`]); a tier's checkpoint written every
    /// `checkpoint_every` (the build's default if `None`).
    pub fn build(self, observer: &dyn Observer, checkpoint_every: Option<Duration>) -> Result<Solver, SolverError> {
        self.check_memory()?;
        let started = Instant::now();
        // The search probes its leaves millions of times a second: its tables are held.
        let options = BuildOptions { reading: Reading::Held, checkpoint_every, ..BuildOptions::default() };
        let (tables, report) = store::build(&self.game, &self.dir, &[self.endgame_seeds as u16], observer, &options)
            .map_err(|error| SolverError::Build { dir: self.dir.clone(), error })?;
        Ok(Solver {
            game: self.game,
            tables,
            endgame_seeds: self.endgame_seeds,
            tt_bits: self.tt_bits,
            build_seconds: started.elapsed().as_secs_f64(),
            report,
        })
    }
}

/// Tables up to some number of seeds, and a search above them.
pub struct Solver {
    game: Kalah,
    tables: Tables<Kalah>,
    endgame_seeds: u32,
    tt_bits: u32,
    /// Seconds the tables took to build or load.
    pub build_seconds: f64,
    /// Tiers built and reused.
    pub report: BuildReport,
}

impl Solver {
    /// Builds (or reuses) the tables in `dir` for `m` pits up to `endgame_seeds` seeds,
    /// for positions of up to `seeds` seeds (see [`Plan`]).
    pub fn new(
        m: usize,
        rules: Rules,
        endgame_seeds: u32,
        seeds: u32,
        dir: &Path,
        tt_bits: u32,
        observer: &dyn Observer,
    ) -> Result<Solver, SolverError> {
        Plan::new(m, rules, endgame_seeds, seeds, dir, tt_bits)?.build(observer, None)
    }

    /// A solver over tables opened elsewhere (every tier up to the largest present): it
    /// answers the positions those tables hold, with no search above them.
    pub fn from_tables(game: Kalah, tables: Tables<Kalah>) -> Solver {
        let endgame_seeds = tables.tiers().copied().max().unwrap_or(0) as u32;
        let report = BuildReport { tiers_reused: tables.tiers().count(), ..Default::default() };
        Solver { game, tables, endgame_seeds, tt_bits: 0, build_seconds: 0.0, report }
    }

    /// The most seeds in the pits the tables answer without a search.
    pub fn endgame_seeds(&self) -> u32 {
        self.endgame_seeds
    }

    /// The game the tables index.
    pub fn game(&self) -> &Kalah {
        &self.game
    }

    /// The endgame tables.
    pub fn tables(&self) -> &Tables<Kalah> {
        &self.tables
    }

    /// The search for positions above the tables, if any is needed for `seeds`, on every
    /// thread of the current rayon pool.
    pub fn search(&self, seeds: u32) -> Result<Option<Search<'_>>, SolverError> {
        if seeds <= self.endgame_seeds {
            return Ok(None);
        }
        // Its fit in memory was checked before the build.
        let bytes = (TRANSPOSITION_BYTES_PER_ENTRY << self.tt_bits) as f64;
        let search = Search::new(&self.game, &self.tables, self.endgame_seeds, self.tt_bits)
            .map_err(|error| SolverError::Reserve { bytes, error })?
            .with_threads(rayon::current_num_threads());
        Ok(Some(search))
    }

    /// The final store difference for the player to move at `p`, under perfect play;
    /// [`SolverError::Spent`] where the search's budget ends first.
    pub fn margin(&self, search: Option<&Search>, p: &Position) -> Result<i32, SolverError> {
        let margin = self.margin_bounds(search, p)?;
        margin.value().ok_or_else(|| SolverError::Spent(spent(search)))
    }

    /// The margin at `p`: exact, or the bounds proven where the search's budget ends first.
    pub fn margin_bounds(&self, search: Option<&Search>, p: &Position) -> Result<Margin, SolverError> {
        if let Some(d) = p.final_difference(self.game.rules()) {
            return Ok(Margin::exact(d));
        }
        let board = p.board();
        let rest = match search {
            Some(s) if board.seeds() > self.endgame_seeds => narrowed(s, &board)?,
            _ => {
                let v = self.tables.value(&self.game, &board)?;
                super::Bounds { lower: v, upper: v }
            }
        };
        let stores = p.store_difference();
        Ok(Margin { lower: stores + i32::from(rest.lower), upper: stores + i32::from(rest.upper) })
    }

    /// Every turn's margin at `p`, the turns solved in parallel (`solved` hears of each
    /// turn as it is solved exactly), and the margin at `p` they prove together with
    /// `own`, the bounds its own search proved ([`Solver::margin_bounds`], searched first:
    /// within a budget the margin matters most, and its transposition entries then speed
    /// the turns'). The two must agree; a difference is an error, not an answer.
    pub fn turns_and_margin(
        &self,
        search: Option<&Search>,
        p: &Position,
        own: Margin,
        solved: &(dyn Fn(&Turn) + Sync),
    ) -> Result<(Margin, Vec<Turn>), SolverError> {
        let turns = self.turns(search, p, solved)?;
        let Some(by_turns) = best_of(&turns) else { return Ok((own, turns)) };
        let margin = own.meet(by_turns);
        // Bounds proven of one position cannot miss each other.
        if margin.lower > margin.upper {
            return Err(SolverError::Disagreement { margin: own.lower, best: by_turns.lower });
        }
        Ok((margin, turns))
    }

    /// The bounds on the margin at `p` that `search`'s transposition table proves now,
    /// by the entries of `p` and of the positions after each of its turns: what a long
    /// search's progress shows.
    pub fn proved(&self, search: &Search, p: &Position) -> Result<Margin, SolverError> {
        let rules = self.game.rules();
        let stored = |q: &Position| -> Result<Margin, SolverError> {
            if let Some(d) = q.final_difference(rules) {
                return Ok(Margin::exact(d));
            }
            let board = q.board();
            let seeds = board.seeds() as i16;
            let (lower, upper) = if board.seeds() <= self.endgame_seeds {
                let v = self.tables.value(&self.game, &board)?;
                (v, v)
            } else {
                search.stored_bounds(&board).unwrap_or((-seeds, seeds))
            };
            let stores = q.store_difference();
            Ok(Margin { lower: stores + i32::from(lower), upper: stores + i32::from(upper) })
        };
        let mut margin = stored(p)?;
        let mut by_turns: Option<Margin> = None;
        for (_, next) in p.turns(rules) {
            let turn = if next.to_move() == p.to_move() { stored(&next)? } else { stored(&next)?.negated() };
            by_turns = Some(
                by_turns.map_or(turn, |b| Margin { lower: b.lower.max(turn.lower), upper: b.upper.max(turn.upper) }),
            );
        }
        if let Some(b) = by_turns {
            margin = margin.meet(b);
        }
        Ok(margin)
    }

    /// Whether the mover at `p` ends at least `target` ahead under perfect play;
    /// [`SolverError::Spent`] where the search's budget ends first.
    pub fn margin_at_least(&self, search: Option<&Search>, p: &Position, target: i32) -> Result<bool, SolverError> {
        let board = p.board();
        match search {
            Some(s) if p.final_difference(self.game.rules()).is_none() && board.seeds() > self.endgame_seeds => {
                let rest = target - p.store_difference();
                let seeds = board.seeds() as i32;
                if rest > seeds {
                    return Ok(false);
                }
                if rest <= -seeds {
                    return Ok(true);
                }
                Ok(s.at_least(&board, rest as i16)?)
            }
            _ => Ok(self.margin(search, p)? >= target),
        }
    }

    /// Win, draw or loss for the mover at `p` (`W`, `D`, `L`), by at most two null-window
    /// searches (is the margin at least 1? at least 0?) instead of the exact margin.
    ///
    /// Each test is one search from `p` (on every thread of `search`): splitting it over the
    /// turns was tried and was far slower: a thread
    /// given a losing turn searches it to the end, while the single search proves the win
    /// through the best turn alone.
    pub fn outcome(&self, search: Option<&Search>, p: &Position) -> Result<char, SolverError> {
        Ok(if self.margin_at_least(search, p, 1)? {
            'W'
        } else if self.margin_at_least(search, p, 0)? {
            'D'
        } else {
            'L'
        })
    }

    /// Whether the turn from `p` to `next` leaves the mover at `p` at least `target` ahead:
    /// the next mover's margin is at least `target` (the same player), or at most
    /// `−target` (the other).
    pub fn turn_at_least(
        &self,
        search: Option<&Search>,
        p: &Position,
        next: &Position,
        target: i32,
    ) -> Result<bool, SolverError> {
        Ok(if next.to_move() == p.to_move() {
            self.margin_at_least(search, next, target)?
        } else {
            !self.margin_at_least(search, next, 1 - target)?
        })
    }

    /// Every complete turn from `p` with the margin it leaves the mover, in pit order; the
    /// searched ones side by side ([`Search::values`]), `solved` hearing of each turn as it
    /// is solved exactly; a turn the search's budget left open has the bounds proven.
    pub fn turns(
        &self,
        search: Option<&Search>,
        p: &Position,
        solved: &(dyn Fn(&Turn) + Sync),
    ) -> Result<Vec<Turn>, SolverError> {
        let turns = p.turns(self.game.rules());
        // A margin of the player to move after turn `i`, seen by the mover at `p`.
        let turn = |i: usize, m: Margin| -> Turn {
            let (pits, next) = &turns[i];
            let margin = if next.to_move() == p.to_move() { m } else { m.negated() };
            Turn { name: turn_name(pits), next: *next, margin }
        };
        let mut margins = vec![None; turns.len()];
        let mut searched = Vec::new();
        for (i, (_, next)) in turns.iter().enumerate() {
            match search {
                Some(_)
                    if next.final_difference(self.game.rules()).is_none()
                        && next.board().seeds() > self.endgame_seeds =>
                {
                    searched.push(i)
                }
                _ => {
                    let m = Margin::exact(self.margin(None, next)?);
                    solved(&turn(i, m));
                    margins[i] = Some(m);
                }
            }
        }
        if let Some(search) = search {
            let boards: Vec<_> = searched.iter().map(|&i| turns[i].1.board()).collect();
            let margin = |j: usize, lower: i16, upper: i16| {
                let stores = turns[searched[j]].1.store_difference();
                Margin { lower: stores + i32::from(lower), upper: stores + i32::from(upper) }
            };
            let rests = search.values(&boards, &|j, rest| solved(&turn(searched[j], margin(j, rest, rest))))?;
            for (j, rest) in rests.into_iter().enumerate() {
                margins[searched[j]] = Some(margin(j, rest.lower, rest.upper));
            }
        }
        Ok(margins.into_iter().enumerate().map(|(i, m)| turn(i, m.expect("every turn valued"))).collect())
    }

    /// Best play from `p` (worth `margin` to its mover), at most `max` turns, and the
    /// positions of the line, `p` first. Each turn is the first that keeps the margin, tested
    /// with one null-window search (is it worth at least the margin?), not solved exactly:
    /// the turn the search's transposition table holds as best first, then the others in pit
    /// order. (Taking the first in pit order alone cost Kalah(6,4) under standard rules 17 s
    /// more than its value: proving that a turn before the best one is worse is a search as
    /// large as the value's.) Without a search every position is in the tables, and the
    /// line takes the first turn in pit order; with one, which best turn the table holds may
    /// depend on how the threads met, so two runs on several threads may print different
    /// lines of the same margin.
    pub fn principal_line(
        &self,
        search: Option<&Search>,
        p: &Position,
        margin: i32,
        max: usize,
    ) -> Result<(Vec<String>, Vec<Position>), SolverError> {
        let mut line = Vec::new();
        let mut positions = vec![*p];
        let mut p = *p;
        let mut margin = margin;
        while line.len() < max {
            let mut chosen = None;
            let mut turns = p.turns(self.game.rules());
            if let Some(search) = search {
                let stored = self.stored_turn(search, &p);
                let shared = |pits: &[u8]| pits.iter().zip(&stored).take_while(|(a, b)| a == b).count();
                // Stable: the rest keep pit order.
                turns.sort_by_key(|(pits, _)| std::cmp::Reverse(shared(pits)));
            }
            for (pits, next) in turns {
                match self.turn_at_least(search, &p, &next, margin) {
                    Ok(true) => {
                        chosen = Some((pits, next));
                        break;
                    }
                    Ok(false) => {}
                    // The line as far as proven.
                    Err(SolverError::Spent(_)) => break,
                    Err(e) => return Err(e),
                }
            }
            let Some((pits, next)) = chosen else { break };
            line.push(turn_name(&pits));
            if next.to_move() != p.to_move() {
                margin = -margin;
            }
            p = next;
            positions.push(p);
        }
        Ok((line, positions))
    }

    /// The turn from `p` the transposition table holds as best (its pits, 1-based), as far
    /// as the table knows it: empty if it knows nothing of `p`.
    fn stored_turn(&self, search: &Search, p: &Position) -> Vec<u8> {
        let rules = self.game.rules();
        let mut pits = Vec::new();
        let mut q = *p;
        while let Some(index) = search.stored_best(&q.board()) {
            let Some((pit, sown)) = q.board().moves(rules).get(index).copied() else { break };
            pits.push(pit as u8 + 1);
            q = q.after(sown);
            if sown.turn == retro::Turn::Passes || q.final_difference(rules).is_some() {
                break;
            }
        }
        pits
    }
}

/// The value of `board` by `search` within its budget. With a deadline: MTD(f) for half
/// the time left, then, where that leaves the value open, its bounds narrowed from both
/// ends ([`Search::narrowed`]) for the rest.
fn narrowed(search: &Search, board: &Board) -> Result<super::Bounds, SearchError> {
    let Some(end) = search.deadline() else { return search.bounds(board, 0) };
    search.narrowed(board, Instant::now() + end.saturating_duration_since(Instant::now()) / 2)
}

/// The best of `turns` for their mover: bounds on the margin of the position they are
/// played from (`None` where there is no turn).
fn best_of(turns: &[Turn]) -> Option<Margin> {
    let lower = turns.iter().map(|t| t.margin.lower).max()?;
    let upper = turns.iter().map(|t| t.margin.upper).max()?;
    Some(Margin { lower, upper })
}

/// What ended `search`'s budget, as the error of an answer that had to be exact.
fn spent(search: Option<&Search>) -> SearchError {
    SearchError::Spent(search.and_then(Search::spent).unwrap_or(Stop::Asked))
}

/// The largest K whose tables (every board up to K seeds) stay within the automatic
/// budget, at most `total` (a third of it for a small instance, [`SMALL_INSTANCE`]): at
/// most [`AUTO_POSITIONS`] boards ([`LARGE_AUTO_POSITIONS`] for instances of more than
/// [`LARGE_INSTANCE`] seeds, or to leave no more than [`MOST_SEEDS_ABOVE`] seeds above
/// the tables under `rules` whose capture needs seeds opposite), and the build's working
/// memory (the largest tier's value slots, the finished tables mapped, the transposition
/// table) within half the free memory; and tables the index can number, which a game of
/// many seeds in many pits (Kalah(8,8)) is not.
pub fn auto_endgame_seeds(m: usize, total: u32, tt_bits: u32, rules: &Rules) -> u32 {
    let free = memory::available().map_or(f64::INFINITY, |f| f as f64 / 2.0);
    // Large trees: closer to the root, within the large budget.
    let floor = if total > SMALL_INSTANCE && rules.capture != Capture::Empty {
        total.saturating_sub(MOST_SEEDS_ABOVE)
    } else {
        0
    };
    let fits = |k: u32| {
        // Tables the index cannot number (Kalah(8,8)'s 128 seeds in 16 pits) do not fit.
        let Ok(game) = Kalah::new(m, k, Rules::EMPTY_CAPTURE) else { return false };
        let positions = game.positions_up_to(k);
        let need = game.tier_size(k as u16) as f64 * WORK_BYTES_PER_POSITION
            + positions as f64 * TABLE_BYTES_PER_POSITION
            + (TRANSPOSITION_BYTES_PER_ENTRY << tt_bits) as f64;
        let budget = if total > LARGE_INSTANCE || k <= floor { LARGE_AUTO_POSITIONS } else { AUTO_POSITIONS };
        positions <= budget && need <= free
    };
    let most = if total <= SMALL_INSTANCE { total / 3 } else { total };
    let mut k = 0;
    while k < most && fits(k + 1) {
        k += 1;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_transposition_table_stays_within_a_quarter_of_free_memory() {
        assert_eq!(tt_bits_within(64 << 30), DEFAULT_TT_BITS);
        assert_eq!(tt_bits_within(8 << 30), 27, "2 GiB is a quarter of 8 GiB");
        assert_eq!(tt_bits_within((8 << 30) - 1), 26);
        assert_eq!(tt_bits_within(1 << 30), 24, "256 MiB");
        assert_eq!(tt_bits_within(0), 16, "never below 1 MiB");
        let bits = default_tt_bits();
        if let Some(free) = memory::available() {
            assert!(TRANSPOSITION_BYTES_PER_ENTRY << bits <= (free / 4).max(1 << 20));
        }
    }

    /// The automatic depth of the instances docs/results.md measures (a small
    /// transposition table, so that free memory does not bind).
    #[test]
    fn automatic_tables_leave_large_trees_few_seeds_to_search() {
        let auto = |m: usize, n: u32, rules: &Rules| auto_endgame_seeds(m, 2 * m as u32 * n, 10, rules);
        for rules in [Rules::EMPTY_CAPTURE, Rules::STANDARD, Rules::BASSETT] {
            assert_eq!(auto(6, 3, &rules), 12, "small: a third of the seeds");
            assert_eq!(auto(6, 4, &rules), 17, "the budget");
            assert_eq!(auto(7, 3, &rules), 14, "the budget");
            assert_eq!(auto(6, 5, &rules), 24, "the large budget");
        }
        // Eight pits: 12 seeds within the budget, 36 seeds above them.
        assert_eq!(auto(8, 3, &Rules::EMPTY_CAPTURE), 12);
        assert_eq!(auto(8, 3, &Rules::STANDARD), 48 - MOST_SEEDS_ABOVE);
        assert_eq!(auto(8, 3, &Rules::BASSETT), 48 - MOST_SEEDS_ABOVE);
        // Never past the large budget: 17 seeds for eight pits.
        assert_eq!(auto(8, 4, &Rules::BASSETT), 17);
    }

    /// Kalah(8,8)'s 128 seeds are more than the index numbers for 16 pits: the tables
    /// chosen hold fewer, ones it numbers.
    #[test]
    fn automatic_tables_of_a_game_too_large_to_number_can_be_numbered() {
        let total = 2 * 8 * 8;
        assert!(Kalah::new(8, total, Rules::EMPTY_CAPTURE).is_err(), "the whole game cannot be numbered");
        for rules in [Rules::EMPTY_CAPTURE, Rules::STANDARD, Rules::BASSETT] {
            let k = auto_endgame_seeds(8, total, 10, &rules);
            assert!(Kalah::new(8, k, rules).is_ok(), "{k} seeds");
            assert_eq!(k, 17, "the large budget, as for Kalah(8,4)");
        }
    }
}
