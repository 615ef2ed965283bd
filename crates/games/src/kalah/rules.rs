//! The rule switches of Kalah and the named presets built from them
//! (`shared/rules/kalah.md`; as implemented: `docs/rules/kalah.md`).

use std::fmt;
use thiserror::Error;

/// What the last seed of a sowing does when it lands in an empty pit of the mover's row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Capture {
    /// That seed and the opposite pit's seeds (possibly none) go to the mover's store.
    Empty,
    /// As `Empty`, but only when the opposite pit holds seeds; otherwise nothing happens.
    Standard,
    /// Only the opposite pit's seeds go to the store (when it holds any); the seed stays.
    OppositeOnly,
}

/// When the game ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum End {
    /// After any move, as soon as either row is empty.
    SideEmpty,
    /// When the player to move has no legal move (his row is empty).
    NoMove,
}

/// Where the seeds still in the pits go when the game ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Leftovers {
    /// To the player whose row they are in.
    Owner,
    /// To nobody.
    None,
}

/// One combination of the switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    /// What the last seed of a sowing into an empty pit of the mover's row takes.
    pub capture: Capture,
    /// On a lap of `2m+1` seeds or more, the emptied pit is skipped.
    pub skip_origin: bool,
    /// When the game ends: an empty row after any move, or a mover with no seeds.
    pub end: End,
    /// Where the seeds left in the pits go at the end.
    pub leftovers: Leftovers,
    /// A move that leaves the opponent's row empty is illegal while another move exists.
    pub must_leave_move: bool,
}

/// Why a preset or switch value named on the command line is not one of Kalah's.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum RulesError {
    /// A preset name other than `empty-capture`, `standard` or `bassett`.
    #[error("unknown preset {0:?}: the presets are empty-capture, standard and bassett")]
    UnknownPreset(String),
    /// A rules name that is neither a preset nor the switches as [`Rules::name`] joins them.
    #[error(
        "unknown rules {0:?}: a preset (empty-capture, standard, bassett) or the switches as \
         capture-…_skip-…_end-…_leftovers-…_leave-… (e.g. capture-empty_skip-no_end-no-move_leftovers-owner_leave-no)"
    )]
    UnknownRules(String),
    /// A value a switch does not take.
    #[error("unknown value {value:?} for the {switch} switch: expected one of {expected}")]
    UnknownSwitch {
        /// The switch, e.g. `capture`.
        switch: &'static str,
        /// The value given.
        value: String,
        /// The values it takes, comma separated.
        expected: &'static str,
    },
}

impl Rules {
    /// Irving, Donkers & Uiterwijk (2000): the rules of the published results.
    pub const EMPTY_CAPTURE: Rules = Rules {
        capture: Capture::Empty,
        skip_origin: false,
        end: End::SideEmpty,
        leftovers: Leftovers::Owner,
        must_leave_move: false,
    };
    /// Most programs and apps: a capture needs seeds opposite.
    pub const STANDARD: Rules = Rules { capture: Capture::Standard, ..Rules::EMPTY_CAPTURE };
    /// Mark Bassett's 1994 description, read literally.
    pub const BASSETT: Rules = Rules {
        capture: Capture::OppositeOnly,
        skip_origin: true,
        end: End::NoMove,
        leftovers: Leftovers::None,
        must_leave_move: true,
    };
    /// The named presets with their command-line names, the published rules first.
    pub const PRESETS: [(&'static str, Rules); 3] =
        [("empty-capture", Rules::EMPTY_CAPTURE), ("standard", Rules::STANDARD), ("bassett", Rules::BASSETT)];

    /// The preset a `--rules` name stands for, letter case ignored.
    pub fn preset(name: &str) -> Result<Rules, RulesError> {
        Rules::PRESETS
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, r)| r)
            .ok_or_else(|| RulesError::UnknownPreset(crate::echo::excerpt(name)))
    }

    /// The rules [`Rules::name`] names: a preset, letter case ignored, or the switches
    /// joined, so that a report's `rules` can be asked for again.
    pub fn from_name(name: &str) -> Result<Rules, RulesError> {
        if let Ok(rules) = Rules::preset(name) {
            return Ok(rules);
        }
        let unknown = || RulesError::UnknownRules(crate::echo::excerpt(name));
        let parts: Vec<&str> = name.split('_').collect();
        let [capture, skip, end, leftovers, leave] = parts[..] else {
            return Err(unknown());
        };
        // `switch-value`, the value read.
        fn value<'a>(part: &'a str, switch: &str) -> Option<&'a str> {
            part.strip_prefix(switch)?.strip_prefix('-')
        }
        let yes = |part, switch| match value(part, switch) {
            Some("yes") => Ok(true),
            Some("no") => Ok(false),
            _ => Err(unknown()),
        };
        Ok(Rules {
            capture: Rules::parse_capture(value(capture, "capture").ok_or_else(unknown)?)?,
            skip_origin: yes(skip, "skip")?,
            end: Rules::parse_end(value(end, "end").ok_or_else(unknown)?)?,
            leftovers: Rules::parse_leftovers(value(leftovers, "leftovers").ok_or_else(unknown)?)?,
            must_leave_move: yes(leave, "leave")?,
        })
    }

    /// The preset's name if these switches are one, else `None`.
    pub fn preset_name(&self) -> Option<&'static str> {
        Rules::PRESETS.iter().find(|(_, r)| r == self).map(|&(n, _)| n)
    }

    /// The switches as `capture=… skip-origin=… end=… leftovers=… must-leave-move=…`:
    /// the part of a table key that names the rules.
    pub fn switches(&self) -> String {
        format!(
            "capture={} skip-origin={} end={} leftovers={} must-leave-move={}",
            self.capture.name(),
            yes_no(self.skip_origin),
            self.end.name(),
            self.leftovers.name(),
            yes_no(self.must_leave_move)
        )
    }

    /// A short name fit for a directory: the preset's, or the switches joined by `-`.
    pub fn name(&self) -> String {
        match self.preset_name() {
            Some(n) => n.to_owned(),
            None => format!(
                "capture-{}_skip-{}_end-{}_leftovers-{}_leave-{}",
                self.capture.name(),
                yes_no(self.skip_origin),
                self.end.name(),
                self.leftovers.name(),
                yes_no(self.must_leave_move)
            ),
        }
    }

    /// The capture rule of a `--capture` value: `empty`, `standard` or `opposite-only`.
    pub fn parse_capture(value: &str) -> Result<Capture, RulesError> {
        match value {
            "empty" => Ok(Capture::Empty),
            "standard" => Ok(Capture::Standard),
            "opposite-only" => Ok(Capture::OppositeOnly),
            _ => Err(RulesError::UnknownSwitch {
                switch: "capture",
                value: crate::echo::excerpt(value),
                expected: "empty, standard, opposite-only",
            }),
        }
    }

    /// The end rule of an `--end` value: `side-empty` or `no-move`.
    pub fn parse_end(value: &str) -> Result<End, RulesError> {
        match value {
            "side-empty" => Ok(End::SideEmpty),
            "no-move" => Ok(End::NoMove),
            _ => Err(RulesError::UnknownSwitch {
                switch: "end",
                value: crate::echo::excerpt(value),
                expected: "side-empty, no-move",
            }),
        }
    }

    /// The leftovers rule of a `--leftovers` value: `owner` or `none`.
    pub fn parse_leftovers(value: &str) -> Result<Leftovers, RulesError> {
        match value {
            "owner" => Ok(Leftovers::Owner),
            "none" => Ok(Leftovers::None),
            _ => Err(RulesError::UnknownSwitch {
                switch: "leftovers",
                value: crate::echo::excerpt(value),
                expected: "owner, none",
            }),
        }
    }
}

impl Capture {
    /// The switch's word, as the table key and `--capture` write it.
    pub fn name(self) -> &'static str {
        match self {
            Capture::Empty => "empty",
            Capture::Standard => "standard",
            Capture::OppositeOnly => "opposite-only",
        }
    }
}

impl End {
    /// The switch's word, as the table key and `--end` write it.
    pub fn name(self) -> &'static str {
        match self {
            End::SideEmpty => "side-empty",
            End::NoMove => "no-move",
        }
    }
}

impl Leftovers {
    /// The switch's word, as the table key and `--leftovers` write it.
    pub fn name(self) -> &'static str {
        match self {
            Leftovers::Owner => "owner",
            Leftovers::None => "none",
        }
    }
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.preset_name() {
            Some(name) => write!(f, "{name} ({})", self.switches()),
            None => write!(f, "{}", self.switches()),
        }
    }
}
