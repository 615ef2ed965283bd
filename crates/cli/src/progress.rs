//! Build progress on the terminal: one bar over all positions still to solve.

use indicatif::{ProgressBar, ProgressStyle};
use retro::solve::Observer;

pub struct BuildProgress {
    bar: ProgressBar,
}

impl BuildProgress {
    /// A bar for `positions` positions; drawn on standard error when it is a terminal.
    pub fn new(positions: u64, hidden: bool) -> BuildProgress {
        let bar = if hidden { ProgressBar::hidden() } else { ProgressBar::new(positions) };
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} solving tier {msg:>5} [{bar:30}] {human_pos}/{human_len} positions, {per_sec}, eta {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        BuildProgress { bar }
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Observer for BuildProgress {
    fn tier_started(&self, tier: &str, _work: u64) {
        self.bar.set_message(tier.to_owned());
    }

    fn advanced(&self, units: u64) {
        self.bar.inc(units);
    }
}

/// A spinner with a message, for work of unknown length; hidden when `hidden`.
pub fn spinner(message: &str, hidden: bool) -> ProgressBar {
    let bar = if hidden { ProgressBar::hidden() } else { ProgressBar::new_spinner() };
    bar.set_message(message.to_owned());
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}
