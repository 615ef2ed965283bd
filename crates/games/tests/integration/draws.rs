//! Random draws for the tests that compare a rule with a plain version of it on many
//! boards: a xorshift generator, seeded, so that every run draws the same boards.

/// Marsaglia's xorshift64.
pub struct Draws(u64);

impl Draws {
    /// A generator from a seed (not 0).
    pub fn seeded(seed: u64) -> Draws {
        Draws(seed)
    }

    /// A number in `0..bound`.
    pub fn below(&mut self, bound: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % bound
    }
}
