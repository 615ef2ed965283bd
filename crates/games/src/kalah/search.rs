//! Weak solving: MTD(f) over alpha-beta with a shared transposition table, probing the
//! endgame tables for every board with few enough seeds in its pits.
//!
//! Values are, as in the tables, the store difference still to be gained by the player
//! to move (a [`Board`] has no stores). A move is worth its gain plus the child's value
//! when the mover keeps the turn, its gain minus the child's value when the turn passes;
//! the alpha-beta window is carried through both cases (shifted by the gain, and negated
//! and swapped when the turn passes).
//!
//! The transposition table holds, per board, the best lower and upper bounds found and
//! the best move, in two 64-bit words written with the "lockless" XOR scheme (the key
//! word is the board's hash XOR the data word), so threads share it without locks: a
//! torn entry fails its key check and is ignored. Boards are told apart by a 64-bit hash
//! of their cells; the chance that two of the at most a few billion boards a search meets
//! collide on all 64 bits, and meet in one slot, is below one in a billion.

use super::board::{Board, MoveList};
use super::Kalah;
use retro::score::ScoreTables;
use retro::store::ProbeError;
use retro::Turn;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A search that probes `tables` (built for `game`) for boards of at most `probe_seeds`
/// seeds and searches the rest.
pub struct Search<'a> {
    game: &'a Kalah,
    tables: &'a ScoreTables<Kalah>,
    probe_seeds: u32,
    slots: Vec<[AtomicU64; 2]>,
    nodes: AtomicU64,
}

/// Data word of an entry: lower bound, upper bound (each offset by 2^15), best pit + 1.
fn pack(lower: i16, upper: i16, best: u8) -> u64 {
    ((lower as i32 + 32768) as u64) | (((upper as i32 + 32768) as u64) << 16) | ((best as u64) << 32)
}

fn unpack(data: u64) -> (i16, i16, u8) {
    (((data & 0xffff) as i32 - 32768) as i16, (((data >> 16) & 0xffff) as i32 - 32768) as i16, (data >> 32) as u8)
}

fn hash(board: &Board) -> u64 {
    let mut bytes = [0u8; 16];
    bytes[..board.cells().len()].copy_from_slice(board.cells());
    let v = u128::from_le_bytes(bytes);
    // Two rounds of a 64-bit finaliser over the halves (splitmix64's constants).
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
        z ^ (z >> 31)
    };
    mix(mix(v as u64) ^ (v >> 64) as u64)
}

impl<'a> Search<'a> {
    /// A search with a transposition table of `2^table_bits` entries (16 bytes each).
    pub fn new(game: &'a Kalah, tables: &'a ScoreTables<Kalah>, probe_seeds: u32, table_bits: u32) -> Search<'a> {
        let slots = (0..1usize << table_bits).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect();
        Search { game, tables, probe_seeds, slots, nodes: AtomicU64::new(0) }
    }

    /// Boards searched (not probed) so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Relaxed)
    }

    /// The exact value of a board: the store difference still to be gained by the mover.
    pub fn value(&self, board: &Board) -> Result<i16, ProbeError> {
        // MTD(f): a sequence of null-window searches converging on the value, each
        // reusing the bounds the last ones left in the transposition table.
        let seeds = board.seeds() as i16;
        let (mut lower, mut upper) = (-seeds, seeds);
        let mut guess = 0;
        while lower < upper {
            let beta = if guess == lower { guess + 1 } else { guess };
            guess = self.alpha_beta(board, beta - 1, beta)?;
            if guess < beta {
                upper = guess;
            } else {
                lower = guess;
            }
        }
        Ok(guess)
    }

    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        &self.slots[(key as usize) & (self.slots.len() - 1)]
    }

    /// Fail-soft alpha-beta: the value if it lies strictly inside (alpha, beta), else a
    /// bound on the side it fell.
    fn alpha_beta(&self, board: &Board, mut alpha: i16, mut beta: i16) -> Result<i16, ProbeError> {
        let seeds = board.seeds();
        if seeds <= self.probe_seeds {
            let (tier, rank) = score_locate(self.game, board);
            return self.tables.probe(tier, rank);
        }
        if let Some(v) = board.outcome(self.game.rules()) {
            return Ok(v);
        }
        self.nodes.fetch_add(1, Relaxed);
        let key = hash(board);
        let slot = self.slot(key);
        let (mut lower, mut upper, mut best_pit) = (-(seeds as i16), seeds as i16, 0u8);
        let data = slot[1].load(Relaxed);
        if slot[0].load(Relaxed) ^ data == key {
            (lower, upper, best_pit) = unpack(data);
            if lower >= beta {
                return Ok(lower);
            }
            if upper <= alpha {
                return Ok(upper);
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        let mut list = MoveList::default();
        board.moves_into(self.game.rules(), &mut list);
        // Order: the stored best move, then extra turns, then the largest gains.
        let mut order: Vec<(i32, usize, super::Sown)> = list
            .iter()
            .map(|(pit, s)| {
                let key = if pit as u8 + 1 == best_pit {
                    i32::MAX
                } else {
                    (s.turn == Turn::Keeps) as i32 * 1000 + s.gain as i32 * 10 + pit as i32
                };
                (key, pit, s)
            })
            .collect();
        order.sort_unstable_by_key(|e| std::cmp::Reverse(e.0));
        let (alpha0, beta0) = (alpha, beta);
        let mut best = i16::MIN;
        let mut best_move = 0u8;
        for (_, pit, sown) in order {
            let gain = sown.gain;
            let v = match sown.turn {
                Turn::Keeps => gain + self.alpha_beta(&sown.board, alpha - gain, beta - gain)?,
                Turn::Passes => gain - self.alpha_beta(&sown.board, gain - beta, gain - alpha)?,
            };
            if v > best {
                best = v;
                best_move = pit as u8 + 1;
            }
            if best >= beta {
                break;
            }
            alpha = alpha.max(best);
        }
        // What this search proved, intersected with what the table already knew.
        if best <= alpha0 {
            upper = upper.min(best);
        } else if best >= beta0 {
            lower = lower.max(best);
        } else {
            (lower, upper) = (best, best);
        }
        let data = pack(lower, upper, best_move);
        slot[0].store(key ^ data, Relaxed);
        slot[1].store(data, Relaxed);
        Ok(best)
    }
}

fn score_locate(game: &Kalah, board: &Board) -> (u16, u64) {
    retro::score::ScoreGame::locate(game, board)
}
