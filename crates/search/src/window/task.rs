//! One position's search as a state machine (a task), so that a thread can run several side
//! by side.
//!
//! A node's children live in memory the caches rarely hold: a transposition-table bucket
//! or a table code each, one miss of about 280 ns on the reference machine, issued
//! together. Searched recursively, a thread waits for them at every node. A task instead
//! asks for a node's children's memory (a prefetch) and yields; the thread runs another
//! task's node meanwhile and comes back to read them once they have likely arrived
//! ([`TASKS_PER_THREAD`](super::TASKS_PER_THREAD); docs/performance.md, Kalah search).
//!
//! The frames are what a recursive alpha-beta keeps on its call stack. They stay
//! allocated from node to node, so entering a node writes only its scalars.
//!
//! ```text
//!   enter ──► children's memory asked for ──► (yield) ──► open ──► next child ──┐
//!     ▲            (frame pushed)                     (ETC, order)       │      │
//!     └────────────────────────────── child not settled at once ◄────────┘      │
//!   deliver ◄── child's value (popped frame, or known at once) ◄────────────────┘
//! ```

use super::*;

/// What a task computes for its position.
#[derive(Clone, Copy)]
pub(super) enum Goal {
    /// The exact value, by MTD(f) from a first guess.
    Value { guess: i16 },
    /// A value that is at least `target` exactly when the position's value is: one
    /// null-window pass.
    AtLeast(i16),
}

/// A node being searched.
struct Frame<'t, P, T, const N: usize> {
    place: Place<T>,
    /// What the transposition table knew of the node.
    known: Entry,
    /// The window the node was entered with, after the stored bounds narrowed it.
    window: (i16, i16),
    alpha: i16,
    beta: i16,
    best: i16,
    /// The best move's index + 1, 0 if none yet.
    best_move: u16,
    /// The node's moves, `width` of them.
    moves: [Move<P>; N],
    width: usize,
    sources: [Source<'t, T>; N],
    /// Cut, or no move left to search.
    done: bool,
    /// The moves to search, in list order, `count` of them; those searched or put off in
    /// the first round marked [`TAKEN`], `next` of them.
    pending: [Pending<T>; N],
    count: u8,
    next: u8,
    /// Moves put off because another task was searching them (see `Busy`).
    deferred: [u8; N],
    later: u8,
    round: u8,
    /// The index in `pending` of the child being searched, [`NONE`] if none.
    current: u8,
    /// Whether that child is marked busy (other tasks shared the position when it was
    /// entered).
    marked: bool,
}

/// A task's frames: the nodes of its path, and more kept for reuse.
type Frames<'t, G, const N: usize> = Vec<Frame<'t, <G as Game>::Position, <G as Game>::Tier, N>>;

/// No child being searched.
const NONE: u8 = u8::MAX;

impl<P: Copy, T: Copy + Default, const N: usize> Frame<'_, P, T, N> {
    /// A frame, its moves filled with moves to `filler` until a node writes its own.
    fn blank(filler: P) -> Self {
        Frame {
            place: Place::default(),
            known: Entry { lower: 0, upper: 0, best: 0, material: 0 },
            window: (0, 0),
            alpha: 0,
            beta: 0,
            best: 0,
            best_move: 0,
            moves: [(); N].map(|()| Move { position: filler, gain: 0, turn: Turn::Passes }),
            width: 0,
            sources: [Source::Known(0); N],
            done: false,
            pending: [Pending::default(); N],
            count: 0,
            next: 0,
            deferred: [0; N],
            later: 0,
            round: 0,
            current: NONE,
            marked: false,
        }
    }
}

/// One position's search, run a node at a time.
pub(super) struct Task<'s, 't, G: Windowed, const N: usize> {
    /// The position's index among those searched together.
    pub(super) index: usize,
    position: G::Position,
    tier: usize,
    place: Place<G::Tier>,
    goal: Goal,
    /// MTD(f)'s bounds and guess.
    lower: i16,
    upper: i16,
    guess: i16,
    /// The current pass's null window is (`pass_beta` − 1, `pass_beta`).
    pass_beta: i16,
    /// Frames `..depth` are the nodes being searched; the rest are kept for reuse.
    stack: Frames<'t, G, N>,
    depth: usize,
    pub(super) worker: Worker<'s>,
}

/// What entering a node gave.
enum Entered {
    /// Its value or a bound, known at once.
    Value(i16),
    /// A frame pushed, its children's memory asked for.
    Pushed,
}

/// Where a task stands after starting an MTD(f) pass.
enum Step {
    /// The pass's root waits for memory.
    Wait,
    /// No pass needed: the position's answer.
    Solved(i16),
    /// The pass's root returned at once.
    Returned(i16),
}

impl<'s, 't, G: Windowed, const N: usize> Task<'s, 't, G, N> {
    pub(super) fn new(
        s: &Search<'t, G, N>,
        index: usize,
        position: G::Position,
        goal: Goal,
        worker: Worker<'s>,
    ) -> Task<'s, 't, G, N> {
        let tier = s.game.material_tier(&position);
        Task {
            index,
            position,
            tier: tier.into(),
            place: s.place(&position, tier),
            goal,
            // Nothing proven before the first pass.
            lower: i16::MIN,
            upper: i16::MAX,
            guess: 0,
            pass_beta: 0,
            stack: Vec::new(),
            depth: 0,
            worker,
        }
    }

    /// Runs until a node waits for memory (`None`: resume later) or the position has its
    /// answer.
    pub(super) fn resume(&mut self, s: &Search<'t, G, N>) -> Result<Option<i16>, Halt> {
        let mut ret = if self.depth == 0 {
            match self.start(s)? {
                Step::Wait => return Ok(None),
                Step::Solved(v) => return Ok(Some(v)),
                Step::Returned(v) => Some(v),
            }
        } else {
            s.open(&mut self.stack[self.depth - 1])?;
            None
        };
        loop {
            if let Some(v) = ret.take() {
                if self.depth == 0 {
                    // A pass of MTD(f) is over.
                    self.guess = v;
                    if v < self.pass_beta {
                        self.upper = v;
                    } else {
                        self.lower = v;
                    }
                    match self.next_pass(s)? {
                        Step::Wait => return Ok(None),
                        Step::Solved(v) => return Ok(Some(v)),
                        Step::Returned(v) => {
                            ret = Some(v);
                            continue;
                        }
                    }
                }
                s.deliver(&mut self.stack[self.depth - 1], v);
            }
            let top = &mut self.stack[self.depth - 1];
            match s.next_child(top, &self.worker) {
                Some(i) => {
                    let p = top.pending[usize::from(i)];
                    let m = &top.moves[usize::from(p.index)];
                    let (alpha, beta, gain, child) = (top.alpha, top.beta, m.gain, m.position);
                    let (alpha, beta) = match m.turn {
                        Turn::Keeps => (alpha - gain, beta - gain),
                        Turn::Passes => (gain - beta, gain - alpha),
                    };
                    let frames = (&mut self.stack, &mut self.depth);
                    match s.enter(&child, p.place, (alpha, beta), &mut self.worker, frames)? {
                        Entered::Pushed => return Ok(None),
                        Entered::Value(v) => ret = Some(v),
                    }
                }
                None => {
                    self.depth -= 1;
                    let f = &self.stack[self.depth];
                    s.record(f.place.key, f.known, f.window, f.best, f.best_move);
                    ret = Some(f.best);
                }
            }
        }
    }

    /// The bounds on the position's value its passes proved so far, for a goal of its
    /// value (a null-window test's bounds are not the value's).
    pub(super) fn proven(&self) -> Option<(i16, i16)> {
        matches!(self.goal, Goal::Value { .. }).then_some((self.lower, self.upper))
    }

    /// The answer at once if the game is over or the position in the tables; else
    /// MTD(f)'s bounds set for the goal and its first pass started, unless the budget is
    /// spent.
    fn start(&mut self, s: &Search<'t, G, N>) -> Result<Step, Halt> {
        if let Some(v) = s.game.end(&self.position) {
            return Ok(Step::Solved(v));
        }
        if let Some(table) = s.table(self.tier)? {
            return Ok(Step::Solved(s.probe(table, &self.position, self.tier)?));
        }
        if s.halted() {
            return Err(Halt::Spent);
        }
        match self.goal {
            Goal::Value { guess } => {
                (self.lower, self.upper) = (self.place.least, self.place.most);
                // Bounds left by earlier searches (another task's, another position's)
                // narrow the start.
                if let Some(e) = s.transpositions.lookup(self.place.key) {
                    (self.lower, self.upper) = (self.lower.max(e.lower), self.upper.min(e.upper));
                }
                self.guess = guess.max(self.lower).min(self.upper);
            }
            Goal::AtLeast(target) => (self.lower, self.upper, self.guess) = (target - 1, target, target),
        }
        self.next_pass(s)
    }

    /// Starts MTD(f)'s next null-window pass, or ends the search once the bounds meet.
    fn next_pass(&mut self, s: &Search<'t, G, N>) -> Result<Step, Halt> {
        if self.lower >= self.upper {
            return Ok(Step::Solved(self.guess));
        }
        let beta = if self.guess == self.lower { self.guess + 1 } else { self.guess };
        self.pass_beta = beta;
        let frames = (&mut self.stack, &mut self.depth);
        Ok(match s.enter(&self.position, self.place, (beta - 1, beta), &mut self.worker, frames)? {
            Entered::Pushed => Step::Wait,
            Entered::Value(v) => Step::Returned(v),
        })
    }

    /// Clears the busy marks of the children its frames were searching: the task stops.
    pub(super) fn abandon(&mut self, s: &Search<'t, G, N>) {
        for f in self.stack[..self.depth].iter().filter(|f| f.marked && f.current != NONE) {
            s.busy.leave(key(f, f.current));
        }
        self.depth = 0;
    }
}

/// The hash of pending move `i`'s child.
#[inline(always)]
fn key<P, T, const N: usize>(f: &Frame<'_, P, T, N>, i: u8) -> u64 {
    f.pending[usize::from(i)].place.key.hash
}

impl<'t, G: Windowed, const N: usize> Search<'t, G, N> {
    /// Enters a node that is not over and not in the tables with the window (`alpha`,
    /// `beta`): a bound at once if its stored bounds settle the window, else a frame
    /// pushed and its children's memory asked for.
    fn enter(
        &self,
        position: &G::Position,
        place: Place<G::Tier>,
        (alpha, beta): (i16, i16),
        worker: &mut Worker,
        (stack, depth): (&mut Frames<'t, G, N>, &mut usize),
    ) -> Result<Entered, Halt> {
        self.count_node(worker)?;
        let (known, alpha, beta) = match self.stored_window(&place, alpha, beta) {
            ControlFlow::Break(bound) => return Ok(Entered::Value(bound)),
            ControlFlow::Continue(node) => node,
        };
        if *depth == stack.len() {
            stack.push(Frame::blank(*position));
        }
        let f = &mut stack[*depth];
        *depth += 1;
        (f.place, f.known) = (place, known);
        (f.window, f.alpha, f.beta) = ((alpha, beta), alpha, beta);
        (f.done, f.current) = (false, NONE);
        (f.count, f.next, f.later, f.round) = (0, 0, 0, 0);
        f.width = self.game.moves_into(position, &mut f.moves);
        if f.width > N {
            return Err(Halt::Wide(f.width));
        }
        self.child_sources(&f.moves[..f.width], &mut f.sources, place.tier, worker)?;
        for source in &f.sources[..f.width] {
            match *source {
                Source::Known(_) => {}
                Source::Table(table, rank, _) => table.prefetch(rank),
                Source::Search(place) => self.transpositions.prefetch(place.key),
            }
        }
        Ok(Entered::Pushed)
    }

    /// A frame's children read, their memory asked for earlier: cut at once, or the
    /// moves left to search put in order ([`Search::open_children`]).
    fn open(&self, f: &mut Frame<'t, G::Position, G::Tier, N>) -> Result<(), Halt> {
        let node = (f.known.best, f.beta);
        match self.open_children(&f.moves[..f.width], &f.sources, node, &mut f.pending)? {
            Opened::Cut(best, best_move) => {
                (f.best, f.best_move) = (best, best_move);
                f.done = true;
            }
            Opened::Search(best, best_move, count) => {
                (f.best, f.best_move) = (best, best_move);
                f.alpha = f.alpha.max(best);
                f.count = count as u8;
            }
        }
        Ok(())
    }

    /// The frame's next child to search, marked busy while other tasks share the
    /// position (`None`: the frame is finished). In a first round, a move (not the first)
    /// whose child another task is searching is put off to a second round, when its value
    /// is most likely in the transposition table.
    fn next_child(&self, f: &mut Frame<'t, G::Position, G::Tier, N>, worker: &Worker) -> Option<u8> {
        if f.done {
            return None;
        }
        let company = worker.in_company();
        let i = loop {
            if f.round == 0 {
                if f.next == f.count {
                    (f.round, f.next) = (1, 0);
                    continue;
                }
                let (first, i) = (f.next == 0, next_best(&f.pending[..usize::from(f.count)]) as u8);
                f.pending[usize::from(i)].order = TAKEN;
                f.next += 1;
                if company && !first && self.busy.holds(key(f, i)) {
                    f.deferred[usize::from(f.later)] = i;
                    f.later += 1;
                    continue;
                }
                break i;
            }
            if f.next == f.later {
                return None;
            }
            f.next += 1;
            break f.deferred[usize::from(f.next) - 1];
        };
        if company {
            self.busy.enter(key(f, i));
        }
        (f.current, f.marked) = (i, company);
        Some(i)
    }

    /// A child's value (from the child's side) handed back to its frame.
    fn deliver(&self, f: &mut Frame<'t, G::Position, G::Tier, N>, child: i16) {
        let current = std::mem::replace(&mut f.current, NONE);
        debug_assert!(current != NONE, "a child being searched");
        let p = f.pending[usize::from(current)];
        if f.marked {
            self.busy.leave(p.place.key.hash);
        }
        let v = worth(&f.moves[usize::from(p.index)], child);
        if v > f.best {
            (f.best, f.best_move) = (v, u16::from(p.index) + 1);
        }
        if f.best >= f.beta {
            f.done = true;
        } else {
            f.alpha = f.alpha.max(f.best);
        }
    }
}
