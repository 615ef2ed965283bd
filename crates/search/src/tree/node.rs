//! The search below the root: alpha-beta on proven bounds, a transposition table of
//! bounds that hold on every path, and the path for repetitions (the module comment of
//! [`super`] says why this is sound).

use super::scale::{child_window, worth_bounds, Scale};
use super::shared::Shared;
use super::{Budget, Progress, Stop};
use retro::store::ProbeError;
use retro::{Engine, Game, Move, TableValue, Tables};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Why a search below the root ended before its answer.
pub(super) enum Halt {
    /// The budget ran out, or the caller asked to stop.
    Stopped(Stop),
    /// Another thread finished the search.
    Overtaken,
    /// The other threads' bounds on the root decided the window this thread's root move
    /// was searched for.
    Superseded,
    /// A table could not be read.
    Probe(ProbeError),
}

impl From<ProbeError> for Halt {
    fn from(e: ProbeError) -> Halt {
        Halt::Probe(e)
    }
}

/// What a search of a node proved: bounds on its value, and the shallowest place on the
/// path (a ply) whose position a repetition below it met. Bounds of a node at ply `k`
/// hold on every path when `anchor >= k`; otherwise they hold on this path only.
#[derive(Debug, Clone, Copy)]
pub(super) struct Found<V> {
    pub lower: V,
    pub upper: V,
    pub anchor: usize,
}

impl<V: Copy> Found<V> {
    fn on_every_path(lower: V, upper: V) -> Found<V> {
        Found { lower, upper, anchor: usize::MAX }
    }
}

/// Where a position's value comes from without a search.
pub(super) enum Known<V> {
    /// The game is over there.
    Over(V),
    /// Its tier is built: the table's value.
    Table(V),
}

/// How a search's progress is told: on the thread that called it only.
pub(super) type Told<'a, V> = Option<&'a mut dyn FnMut(&Progress<V>)>;

/// One thread of a search: the game, its tables, what the threads share (the
/// transposition table among it), this thread's path and counts, and the budget.
pub(super) struct Searcher<'a, G: Game> {
    pub game: &'a G,
    pub tables: &'a Tables<G>,
    pub shared: &'a Shared<G::Position, G::Value>,
    /// The positions on the path from the root of the search under way, by ply: only
    /// those of tiers whose play can come back to a position.
    path: HashMap<G::Position, usize>,
    /// Move lists kept from node to node, one a ply.
    frames: Vec<Vec<Move<G::Position>>>,
    /// This thread's nodes and probes, and how many of each it has told the others.
    nodes: u64,
    probes: u64,
    told: (u64, u64),
    /// The count of nodes this thread may reach before it takes more of the budget.
    allowed: u64,
    /// Whether a node was cut off at the horizon in this thread's iteration under way.
    pub cut_off: bool,
    /// The root move this thread searches and the window on its worth, while the other
    /// threads' bounds may decide it.
    pub watched: Option<(usize, (i32, i32))>,
    pub budget: Budget<'a>,
    last_report: Instant,
    progress: Told<'a, G::Value>,
    /// The root's bounds and the horizon, for the progress reports.
    pub shown: (G::Value, G::Value, u32),
}

/// Nodes between two looks at the clock, the stop flags and the other threads.
const CHECK_EVERY: u64 = 1 << 10;
/// The least time between two progress reports.
const REPORT_EVERY: Duration = Duration::from_millis(250);

impl<'a, G: Game> Searcher<'a, G>
where
    G::Value: Scale,
{
    pub fn new(
        game: &'a G,
        tables: &'a Tables<G>,
        shared: &'a Shared<G::Position, G::Value>,
        budget: Budget<'a>,
        progress: Told<'a, G::Value>,
    ) -> Searcher<'a, G> {
        Searcher {
            game,
            tables,
            shared,
            path: HashMap::new(),
            frames: Vec::new(),
            nodes: 0,
            probes: 0,
            told: (0, 0),
            allowed: if budget.nodes.is_some() { 0 } else { u64::MAX },
            cut_off: false,
            watched: None,
            budget,
            last_report: Instant::now(),
            progress,
            shown: (G::Value::LEAST, G::Value::MOST, 0),
        }
    }

    /// Seconds since the search started.
    pub fn seconds(&self) -> f64 {
        self.shared.started.elapsed().as_secs_f64()
    }

    /// Counts a node; stops when the budget is spent, the caller asks, another thread
    /// finished or decided what this one searches; reports progress now and then.
    fn count(&mut self) -> Result<(), Halt> {
        if self.nodes == self.allowed {
            let taken = self.budget.nodes.map_or(0, |most| self.shared.take_nodes(most));
            if taken == 0 {
                return Err(Halt::Stopped(Stop::Nodes));
            }
            self.allowed += taken;
        }
        self.nodes += 1;
        if !self.nodes.is_multiple_of(CHECK_EVERY) {
            return Ok(());
        }
        self.tell();
        if self.budget.stop.is_some_and(|stop| stop.load(std::sync::atomic::Ordering::Relaxed)) {
            return Err(Halt::Stopped(Stop::Asked));
        }
        if self.shared.is_finished() {
            return Err(Halt::Overtaken);
        }
        if self.budget.time.is_some_and(|most| self.shared.started.elapsed() > most) {
            return Err(Halt::Stopped(Stop::Time));
        }
        if self.watched.is_some_and(|(i, window)| self.shared.decided(i, window, G::Value::scale)) {
            return Err(Halt::Superseded);
        }
        if self.progress.is_some() && self.last_report.elapsed() >= REPORT_EVERY {
            self.report();
        }
        Ok(())
    }

    /// Tells the other threads the nodes and probes counted since the last time.
    pub fn tell(&mut self) {
        self.shared.tell(self.nodes - self.told.0, self.probes - self.told.1);
        self.told = (self.nodes, self.probes);
    }

    /// Tells the caller how the search stands, all threads' counts as far as told.
    pub fn report(&mut self) {
        self.last_report = Instant::now();
        let seconds = self.seconds();
        let (lower, upper, horizon) = self.shown;
        let nodes = self.shared.nodes();
        let Some(progress) = self.progress.as_mut() else { return };
        progress(&Progress {
            nodes,
            nodes_per_second: if seconds > 0.0 { nodes as f64 / seconds } else { 0.0 },
            lower,
            upper,
            horizon,
            probes: self.shared.probes(),
            seconds,
        });
    }

    /// The value of `position` where the game is over there or its tier is built.
    pub fn known(&mut self, position: &G::Position) -> Result<Option<Known<G::Value>>, ProbeError> {
        if let Some(v) = self.game.end_decided(position) {
            return Ok(Some(Known::Over(v)));
        }
        // The tier from the material first: a position above the tables may be past
        // what the game's index can number.
        if self.tables.table(self.game.material_tier(position)).is_none() {
            return Ok(None);
        }
        let location = self.game.locate(position);
        self.probes += 1;
        Ok(Some(Known::Table(self.tables.probe(location.tier, location.rank)?)))
    }

    /// The widest bounds of a position not over: the game's, or the value kind's.
    pub fn widest(&self, position: &G::Position) -> (G::Value, G::Value) {
        self.game.value_bounds(position).unwrap_or((G::Value::LEAST, G::Value::MOST))
    }

    /// What the transposition table proves of a position not over, within its widest
    /// bounds.
    pub fn stored(&self, position: &G::Position) -> (G::Value, G::Value, Option<u16>) {
        let (least, most) = self.widest(position);
        match self.shared.table.get(position) {
            Some(e) => (e.lower.max(least), e.upper.min(most), e.best),
            None => (least, most, None),
        }
    }

    /// Keeps bounds that hold on every path, with the move that proved the lower one;
    /// a full table takes no new position.
    pub fn store(&self, position: &G::Position, lower: G::Value, upper: G::Value, best: Option<u16>) {
        self.shared.table.store(position, lower, upper, best);
    }

    /// Keeps what bounds that lean on the path prove on every path: an upper bound
    /// below endless play's value, a lower one above it (the module comment of
    /// [`super`] proves `upper ≥ min(V, ENDLESS)` and `lower ≤ max(V, ENDLESS)` for them).
    fn store_path_free(&self, position: &G::Position, found: Found<G::Value>) {
        let endless = G::Value::ENDLESS;
        if found.upper < endless || found.lower > endless {
            let (least, most) = self.widest(position);
            let lower = if found.lower > endless { found.lower } else { least };
            let upper = if found.upper < endless { found.upper } else { most };
            self.store(position, lower, upper, None);
        }
    }

    /// Starts a search rooted at a position: nothing on the path.
    pub fn clear_path(&mut self) {
        self.path.clear();
    }

    /// Bounds on the value of `position`, at `ply` on the path, searched `left` plies
    /// deep, deciding the window (α, β): the bounds are proven; with no cut-off below,
    /// they are equal, or the upper at most α, or the lower at least β.
    pub fn node(
        &mut self,
        position: &G::Position,
        ply: usize,
        left: u32,
        window: (i32, i32),
    ) -> Result<Found<G::Value>, Halt> {
        let (alpha, beta) = window;
        match self.known(position)? {
            Some(Known::Over(v) | Known::Table(v)) => return Ok(Found::on_every_path(v, v)),
            None => {}
        }
        self.count()?;
        let (lower, upper, best) = self.stored(position);
        if lower == upper || lower.scale() >= beta || upper.scale() <= alpha {
            return Ok(Found::on_every_path(lower, upper));
        }
        let cycles = self.game.engine(self.game.material_tier(position)) != Engine::Acyclic;
        if cycles {
            if let Some(&at) = self.path.get(position) {
                let endless = G::Value::ENDLESS;
                return Ok(Found { lower: endless, upper: endless, anchor: at });
            }
        }
        if left == 0 {
            self.cut_off = true;
            return Ok(Found::on_every_path(lower, upper));
        }
        if cycles {
            self.path.insert(position.clone(), ply);
        }
        let searched = self.expand(position, ply, left, window, best);
        if cycles {
            self.path.remove(position);
        }
        let (found, best) = searched?;
        if found.anchor < ply {
            self.store_path_free(position, found);
            return Ok(found);
        }
        let (lower, upper) = (found.lower.max(lower), found.upper.min(upper));
        self.store(position, lower, upper, best);
        Ok(Found { lower, upper, anchor: found.anchor })
    }

    /// The moves of `position` searched, the stored best first, until one proves the cut:
    /// bounds from the moves searched (past a cut, the upper one the widest), and the move
    /// that proved the lower bound.
    fn expand(
        &mut self,
        position: &G::Position,
        ply: usize,
        left: u32,
        (alpha, beta): (i32, i32),
        stored_best: Option<u16>,
    ) -> Result<(Found<G::Value>, Option<u16>), Halt> {
        if self.frames.len() <= ply {
            self.frames.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.frames[ply]);
        moves.clear();
        let decided = self.game.moves_decided(position, &mut moves);
        let order = stored_best
            .filter(|&b| usize::from(b) < moves.len())
            .into_iter()
            .chain((0..moves.len() as u16).filter(|&i| Some(i) != stored_best));
        let (mut lower, mut upper) = (None::<G::Value>, None::<G::Value>);
        let (mut anchor, mut best, mut cut) = (usize::MAX, None, false);
        let mut result = Ok(());
        for i in order {
            let m = &moves[usize::from(i)];
            let floor = lower.map_or(alpha, |l| l.scale().max(alpha));
            let child = match self.node(
                &m.position,
                ply + 1,
                left - 1,
                child_window::<G::Value>((floor, beta), m.gain, m.turn),
            ) {
                Ok(child) => child,
                Err(halt) => {
                    result = Err(halt);
                    break;
                }
            };
            let (low, high) = worth_bounds((child.lower, child.upper), m.gain, m.turn);
            anchor = anchor.min(child.anchor);
            if lower.is_none_or(|l| low > l) {
                (lower, best) = (Some(low), Some(i));
            }
            upper = Some(upper.map_or(high, |u| u.max(high)));
            if low.scale() >= beta {
                cut = true;
                break;
            }
        }
        self.frames[ply] = moves;
        result?;
        let (least, most) = self.widest(position);
        let lower = lower.unwrap_or(least);
        // A move not decided legal may be, and worth anything.
        let upper = if cut || !decided { most } else { upper.unwrap_or(most) };
        Ok((Found { lower, upper, anchor }, best))
    }
}
