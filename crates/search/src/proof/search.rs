//! df-pn on one thread, and what the threads share: the table, the counts and the
//! budget, the root's answers.

use super::table::{Entry, Table};
use super::{Budget, Goal, MoveProven, Numbers, Progress, Stop, Stored, INFINITE};
use retro::store::ProbeError;
use retro::{Engine, Game, Move, Tables, Turn, Value};
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Why a search of a node ended before its thresholds.
pub(super) enum Halt {
    /// The budget ran out, or the caller asked to stop.
    Stopped(Stop),
    /// The root's value is known: the other thread answered what was left.
    Answered,
    /// A table could not be read.
    Probe(ProbeError),
}

impl From<ProbeError> for Halt {
    fn from(e: ProbeError) -> Halt {
        Halt::Probe(e)
    }
}

/// What the threads of a proof search share.
pub(super) struct Shared<'a, P> {
    pub table: Table<P>,
    started: Instant,
    budget_nodes: Option<u64>,
    time: Option<Duration>,
    stop: Option<&'a AtomicBool>,
    nodes: AtomicU64,
    /// Nodes of the budget the threads have taken.
    taken: AtomicU64,
    /// The root's numbers for each question, as the threads last searched it.
    root: Mutex<[Numbers; 2]>,
    /// Set when the root's value is known.
    answered: AtomicBool,
    threads: usize,
}

/// Nodes between two looks at the clock, the flags and the budget.
const CHECK_EVERY: u64 = 1 << 10;
/// The least time between two progress reports.
const REPORT_EVERY: Duration = Duration::from_millis(250);

impl<'a, P: Clone + Hash + Eq> Shared<'a, P> {
    pub fn new(budget: Budget<'a>, resumed: Vec<Stored<P>>) -> Shared<'a, P> {
        let table = Table::new(budget.table_entries);
        for s in resumed {
            table.store(&s.position, s.goal, Entry { numbers: s.numbers, best: s.best, work: s.work });
        }
        let open = Numbers { pn: 1, dn: 1, height: 0 };
        Shared {
            table,
            started: Instant::now(),
            budget_nodes: budget.nodes,
            time: budget.time,
            stop: budget.stop,
            nodes: AtomicU64::new(0),
            taken: AtomicU64::new(0),
            root: Mutex::new([open; 2]),
            answered: AtomicBool::new(false),
            threads: budget.threads.max(1),
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    pub fn seconds(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    fn stop_asked(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// The root's numbers for both questions.
    pub fn root(&self) -> [Numbers; 2] {
        *self.root.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records the root's numbers for `goal`, and what they imply of the other question;
    /// marks the search answered when the value is known.
    fn set_root(&self, goal: Goal, numbers: Numbers) {
        let mut root = self.root.lock().unwrap_or_else(PoisonError::into_inner);
        if root[goal as usize].is_solved() {
            return;
        }
        root[goal as usize] = numbers;
        match goal {
            Goal::Win if numbers.pn == 0 => root[1] = Numbers::proven(numbers.height),
            Goal::NotLose if numbers.dn == 0 => root[0] = Numbers::disproven(numbers.height),
            _ => {}
        }
        if super::value_of(answers_of(*root)).is_some() {
            self.answered.store(true, Ordering::Relaxed);
        }
    }

    /// The root's answers: `Some(answer)` for each question answered.
    pub fn answers(&self) -> [Option<bool>; 2] {
        answers_of(self.root())
    }

    /// The table's entries, to keep.
    pub fn stored(&self) -> Vec<Stored<P>> {
        let entries = self.table.entries();
        entries
            .into_iter()
            .map(|(position, goal, e)| Stored { position, goal, numbers: e.numbers, best: e.best, work: e.work })
            .collect()
    }
}

fn answers_of(root: [Numbers; 2]) -> [Option<bool>; 2] {
    root.map(|n| match (n.pn, n.dn) {
        (0, _) => Some(true),
        (_, 0) => Some(false),
        _ => None,
    })
}

/// One of a node's moves as its search sees it: the child's question, its numbers and
/// the shallowest ply its repetitions met.
#[derive(Debug, Clone)]
pub(super) struct Child<P> {
    pub step: Move<P>,
    pub goal: Goal,
    pub numbers: Numbers,
    pub anchor: usize,
    /// Whether the child repeats a position on the path (a draw here).
    pub repeated: bool,
}

impl<P> Child<P> {
    /// The move's numbers for the mover: the child's, swapped where the turn passes.
    pub fn link(&self) -> (u32, u32) {
        match self.step.turn {
            Turn::Keeps => (self.numbers.pn, self.numbers.dn),
            Turn::Passes => (self.numbers.dn, self.numbers.pn),
        }
    }
}

/// A node searched: its numbers, the shallowest ply its repetitions met, and its
/// children as last seen.
pub(super) struct Searched<P> {
    pub numbers: Numbers,
    pub anchor: usize,
    pub children: Vec<Child<P>>,
}

/// A node's moves as [`Thread::child`] sees them, and whether every move was decided.
pub(super) type Moves<P> = (Vec<Child<P>>, bool);

/// Sum of numbers, infinite if either is, else below infinity.
fn add(a: u32, b: u32) -> u32 {
    if a == INFINITE || b == INFINITE {
        INFINITE
    } else {
        a.saturating_add(b).min(INFINITE - 1)
    }
}

/// A node's numbers from its moves': the least proof number, the sum of the disproof
/// numbers (infinite where some move is undecided); once solved, its height, anchor and
/// proving move.
pub(super) fn combine<P>(children: &[Child<P>], decided: bool) -> (Numbers, usize, Option<u16>) {
    let pn = children.iter().map(|c| c.link().0).min().unwrap_or(INFINITE);
    let dn = if decided { children.iter().fold(0, |sum, c| add(sum, c.link().1)) } else { INFINITE };
    if pn == 0 {
        let (i, c) = children
            .iter()
            .enumerate()
            .filter(|(_, c)| c.link().0 == 0)
            .min_by_key(|(_, c)| (c.numbers.height, std::cmp::Reverse(c.anchor)))
            .expect("a move proves it");
        return (Numbers::proven(c.numbers.height.saturating_add(1)), c.anchor, Some(i as u16));
    }
    if dn == 0 {
        let height = children.iter().map(|c| c.numbers.height).max().unwrap_or(0);
        let anchor = children.iter().map(|c| c.anchor).min().unwrap_or(usize::MAX);
        return (Numbers::disproven(height.saturating_add(1)), anchor, None);
    }
    (Numbers { pn, dn, height: 0 }, usize::MAX, None)
}

/// How a search's progress is told: on one thread only.
pub(super) type Told<'a> = Option<&'a mut (dyn FnMut(&Progress) + Send)>;

/// One thread of a proof search.
pub(super) struct Thread<'a, G: Game> {
    pub game: &'a G,
    pub tables: &'a Tables<G>,
    pub shared: &'a Shared<'a, G::Position>,
    /// Positions of tiers whose play can come back, on the path, by ply.
    pub path: HashMap<G::Position, usize>,
    nodes: u64,
    told: u64,
    allowed: u64,
    /// Whether ties between moves go to the last rather than the first.
    reversed: bool,
    /// Whether the budget is ignored (the proof of a value found is being taken).
    pub unbounded: bool,
    progress: Told<'a>,
    last_report: Instant,
}

/// Nodes a thread takes from a node budget at once.
const NODES_TAKEN: u64 = 1 << 10;

impl<'a, G: Game<Value = Value>> Thread<'a, G> {
    pub fn new(
        game: &'a G,
        tables: &'a Tables<G>,
        shared: &'a Shared<'a, G::Position>,
        progress: Told<'a>,
        reversed: bool,
    ) -> Thread<'a, G> {
        Thread {
            game,
            tables,
            shared,
            path: HashMap::new(),
            nodes: 0,
            told: 0,
            allowed: 0,
            reversed,
            unbounded: false,
            progress,
            last_report: Instant::now(),
        }
    }

    /// The value of `position` where the rules end the game or a built tier holds it.
    pub fn leaf_value(&mut self, position: &G::Position) -> Result<Option<Value>, ProbeError> {
        if let Some(v) = self.game.end_decided(position) {
            return Ok(Some(v));
        }
        if self.tables.table(self.game.material_tier(position)).is_none() {
            return Ok(None);
        }
        let location = self.game.locate(position);
        Ok(Some(self.tables.probe(location.tier, location.rank)?))
    }

    /// Counts a node; stops where the budget is spent, the caller asks or the value is
    /// known; reports progress now and then.
    fn count(&mut self) -> Result<(), Halt> {
        if self.unbounded {
            return Ok(());
        }
        if self.nodes == self.allowed {
            let taken = self.take_nodes();
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
        if self.shared.stop_asked() {
            return Err(Halt::Stopped(Stop::Asked));
        }
        if self.shared.answered.load(Ordering::Relaxed) {
            return Err(Halt::Answered);
        }
        if self.shared.time.is_some_and(|most| self.shared.started.elapsed() > most) {
            return Err(Halt::Stopped(Stop::Time));
        }
        if self.progress.is_some() && self.last_report.elapsed() >= REPORT_EVERY {
            self.report();
        }
        Ok(())
    }

    /// Nodes of the budget for this thread to count (0 when spent).
    fn take_nodes(&self) -> u64 {
        let Some(most) = self.shared.budget_nodes else { return NODES_TAKEN };
        let taken = self
            .shared
            .taken
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |t| (t < most).then(|| (t + NODES_TAKEN).min(most)));
        taken.map_or(0, |t| (t + NODES_TAKEN).min(most) - t)
    }

    /// Adds this thread's nodes since it last told to the shared count.
    pub fn tell(&mut self) {
        self.shared.nodes.fetch_add(self.nodes - self.told, Ordering::Relaxed);
        self.told = self.nodes;
    }

    /// Tells the caller how the search stands.
    pub fn report(&mut self) {
        self.last_report = Instant::now();
        let progress = Progress {
            nodes: self.shared.nodes(),
            seconds: self.shared.seconds(),
            questions: self.shared.root(),
            entries: self.shared.table.len(),
        };
        if let Some(told) = self.progress.as_mut() {
            told(&progress);
        }
    }

    /// Whether play in `position`'s tier can come back to a position.
    fn cycles(&self, position: &G::Position) -> bool {
        self.game.engine(self.game.material_tier(position)) != Engine::Acyclic
    }

    /// A move of a node asking `goal`, seen before its child is searched: a leaf's
    /// answer, a repetition's (a draw), the table's, or nothing known yet.
    pub fn child(&mut self, step: Move<G::Position>, goal: Goal) -> Result<Child<G::Position>, ProbeError> {
        let goal = if step.turn == Turn::Passes { goal.flip() } else { goal };
        let mut child =
            Child { step, goal, numbers: Numbers { pn: 1, dn: 1, height: 0 }, anchor: usize::MAX, repeated: false };
        if let Some(v) = self.leaf_value(&child.step.position)? {
            let height = v.plies().unwrap_or(0);
            child.numbers = if goal.holds(v) { Numbers::proven(height) } else { Numbers::disproven(height) };
        } else if let Some(&at) = self.path.get(&child.step.position) {
            child.numbers = if goal.holds(Value::Draw) { Numbers::proven(0) } else { Numbers::disproven(0) };
            (child.anchor, child.repeated) = (at, true);
        } else if let Some(e) = self.shared.table.get(&child.step.position, goal) {
            child.numbers = e.numbers;
        }
        Ok(child)
    }

    /// The moves of `position` (not a leaf) for `goal`, each as [`Thread::child`] sees
    /// it, and whether every move was decided.
    pub fn children(&mut self, position: &G::Position, goal: Goal) -> Result<Moves<G::Position>, ProbeError> {
        let mut moves = Vec::new();
        let decided = self.game.moves_decided(position, &mut moves);
        let children = moves.into_iter().map(|m| self.child(m, goal)).collect::<Result<_, _>>()?;
        Ok((children, decided))
    }

    /// df-pn's multiple iterative deepening at `position` (not a leaf) asking `goal`, at
    /// `ply` on the path, until its numbers reach the thresholds or it is solved. Stores
    /// what holds on every path.
    pub fn mid(
        &mut self,
        position: &G::Position,
        goal: Goal,
        ply: usize,
        limits: (u32, u32),
    ) -> Result<Searched<G::Position>, Halt> {
        self.count()?;
        let before = self.nodes;
        let (mut children, decided) = self.children(position, goal)?;
        let cycles = self.cycles(position);
        if cycles {
            self.path.insert(position.clone(), ply);
        }
        let searched = self.deepen(&mut children, decided, ply, limits);
        if cycles {
            self.path.remove(position);
        }
        searched?;
        let (numbers, anchor, best) = combine(&children, decided);
        let work = (self.nodes - before).max(1);
        if !numbers.is_solved() || anchor >= ply {
            self.shared.table.store(position, goal, Entry { numbers, best, work });
        }
        Ok(Searched { numbers, anchor, children })
    }

    /// The loop of [`Thread::mid`]: the most proving move searched, with thresholds that
    /// return to the node once another move becomes the most proving.
    fn deepen(
        &mut self,
        children: &mut [Child<G::Position>],
        decided: bool,
        ply: usize,
        (mut th_pn, mut th_dn): (u32, u32),
    ) -> Result<(), Halt> {
        // A node with a move back to the path: its numbers count a repetition that other
        // paths do not meet, so it is searched past its thresholds by one before it
        // returns (Kishimoto's threshold-controlling algorithm), lest its parent and it
        // hand the search back and forth without end.
        if children.iter().any(|c| c.repeated) {
            let (numbers, _, _) = combine(children, decided);
            th_pn = th_pn.max(add(numbers.pn, 1));
            th_dn = th_dn.max(add(numbers.dn, 1));
        }
        loop {
            let (numbers, _, _) = combine(children, decided);
            // A node that cannot be disproven (a move left undecided below it) is searched
            // for its proof where its caller sets no disproof threshold, and one that
            // cannot be proven for its disproof where it sets no proof threshold.
            let stuck = numbers.pn == INFINITE && numbers.dn == INFINITE;
            let past = |n: u32, th: u32| th < INFINITE && n >= th;
            if numbers.is_solved() || stuck || past(numbers.pn, th_pn) || past(numbers.dn, th_dn) {
                return Ok(());
            }
            let (i, second) = self.most_proving(children, numbers.pn);
            let link_dn = children[i].link().1;
            // 1 + ε: a child is left once it passes the second best by a quarter, so
            // that two close siblings are not swapped at every step.
            let child_pn = th_pn.min(add(second, (second / 4).max(1)));
            let child_dn = if th_dn == INFINITE { INFINITE } else { add(th_dn - numbers.dn, link_dn) };
            let c = &children[i];
            let limits = match c.step.turn {
                Turn::Keeps => (child_pn, child_dn),
                Turn::Passes => (child_dn, child_pn),
            };
            let position = c.step.position.clone();
            let searched = self.mid(&position, c.goal, ply + 1, limits)?;
            let c = &mut children[i];
            (c.numbers, c.anchor) = (searched.numbers, searched.anchor);
        }
    }

    /// The move of least proof number (ties: the first, or the last on a reversed
    /// thread), and the second least proof number; where no move can be proven (the
    /// node's proof number `pn` is infinite), the move of least disproof number not yet
    /// disproven, and an infinite second.
    fn most_proving(&self, children: &[Child<G::Position>], pn: u32) -> (usize, u32) {
        if pn == INFINITE {
            let open = children.iter().enumerate().filter(|(_, c)| c.link().1 > 0);
            let best = open.min_by_key(|(_, c)| c.link().1).map_or(0, |(i, _)| i);
            return (best, INFINITE);
        }
        let (mut best, mut first, mut second) = (0, INFINITE, INFINITE);
        for (i, c) in children.iter().enumerate() {
            let pn = c.link().0;
            if pn < first || (pn == first && self.reversed) || i == 0 {
                if i > 0 {
                    second = first;
                }
                (best, first) = (i, pn);
            } else if pn < second {
                second = pn;
            }
        }
        (best, second)
    }

    /// Searches the root for `goal` until it is solved or the search halts: with
    /// thresholds half as large again as its numbers each time, so that the root's
    /// numbers are told as they grow.
    fn search_root(&mut self, root: &G::Position, goal: Goal) -> Result<(), Halt> {
        let grow = |n: u32| if n >= INFINITE / 2 { INFINITE } else { n + n / 2 + 1 };
        let mut numbers = self.shared.root()[goal as usize];
        loop {
            self.path.clear();
            numbers = self.mid(root, goal, 0, (grow(numbers.pn), grow(numbers.dn)))?.numbers;
            self.shared.set_root(goal, numbers);
            if numbers.is_solved() || (numbers.pn == INFINITE && numbers.dn == INFINITE) {
                return Ok(());
            }
        }
    }

    /// The questions still open, in the order this thread takes them.
    fn open_questions(&self, first: Goal) -> Vec<Goal> {
        let answers = answers_of(self.shared.root());
        [first, first.flip()].into_iter().filter(|g| answers[*g as usize].is_none()).collect()
    }

    /// Searches the open questions, `first` first, until the value is known.
    fn search_questions(&mut self, root: &G::Position, first: Goal) -> Result<(), Halt> {
        while let Some(&goal) = self.open_questions(first).first() {
            if self.shared.answered.load(Ordering::Relaxed) {
                break;
            }
            self.search_root(root, goal)?;
            let n = self.shared.root()[goal as usize];
            if n.pn == INFINITE && n.dn == INFINITE {
                // Neither way is open (undecided moves): nothing more to search.
                break;
            }
        }
        Ok(())
    }
}

/// Searches both questions at `root` on the budget's threads: why the search stopped
/// before the value was known, if it did.
pub(super) fn on_threads<G: Game<Value = Value>>(
    main: &mut Thread<'_, G>,
    root: &G::Position,
) -> Result<Option<Stop>, ProbeError> {
    let (game, tables, shared) = (main.game, main.tables, main.shared);
    let ended = std::thread::scope(|scope| {
        let helper = (shared.threads > 1).then(|| {
            std::thread::Builder::new()
                .stack_size(STACK)
                .spawn_scoped(scope, move || {
                    let mut thread = Thread::new(game, tables, shared, None, true);
                    let ended = thread.search_questions(root, Goal::NotLose);
                    thread.tell();
                    ended
                })
                .expect("a search thread starts")
        });
        let ended = on_big_stack(|| main.search_questions(root, Goal::Win));
        main.tell();
        let helper = helper.map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        [Some(ended), helper]
    });
    let mut stop = None;
    for ended in ended.into_iter().flatten() {
        match ended {
            Ok(()) | Err(Halt::Answered) => {}
            Err(Halt::Stopped(s)) => stop = Some(s),
            Err(Halt::Probe(e)) => return Err(e),
        }
    }
    Ok(stop)
}

/// Stack of a search thread: the path of a search of a cyclic game can be long.
pub(super) const STACK: usize = 1 << 28;

/// Runs `f` on a thread of [`STACK`] bytes of stack, borrowing what it needs.
pub(super) fn on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(STACK)
            .spawn_scoped(scope, f)
            .expect("a search thread starts")
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// What is proven of each move of `root` (not a leaf), from the leaves and the table.
pub(super) fn root_moves<G: Game<Value = Value>>(
    thread: &mut Thread<'_, G>,
    root: &G::Position,
) -> Result<Vec<MoveProven<G::Position>>, ProbeError> {
    thread.path.clear();
    let mut moves = Vec::new();
    thread.game.moves_decided(root, &mut moves);
    let mut out = Vec::with_capacity(moves.len());
    for step in moves {
        let wins = thread.child(step.clone(), Goal::Win)?;
        let holds = thread.child(step.clone(), Goal::NotLose)?;
        let answer = |c: &Child<G::Position>| match c.link() {
            (0, _) => Some(true),
            (_, 0) => Some(false),
            _ => None,
        };
        let (lower, upper) = match (answer(&wins), answer(&holds)) {
            (Some(true), _) => (Value::Win(0), Value::Win(0)),
            (_, Some(false)) => (Value::Loss(0), Value::Loss(0)),
            (Some(false), Some(true)) => (Value::Draw, Value::Draw),
            (Some(false), None) => (Value::Loss(0), Value::Draw),
            (None, Some(true)) => (Value::Draw, Value::Win(0)),
            (None, None) => (Value::Loss(0), Value::Win(0)),
        };
        out.push(MoveProven { step, lower, upper });
    }
    Ok(out)
}
