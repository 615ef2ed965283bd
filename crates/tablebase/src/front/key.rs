//! A table key read back: `game name=value …`, as each game's `Game::table_key` writes
//! it (`trias holes=12`, `njaka holes=12 variant=standard direction=ccw`). Every game's
//! key is read by this one reader; the game then checks that the key it would write is
//! the one read ([`super::game_of_key`]).

use std::str::FromStr;

/// A key's game and fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key<'a> {
    game: &'a str,
    fields: Vec<(&'a str, &'a str)>,
}

impl<'a> Key<'a> {
    /// Splits `key` into its game and its `name=value` fields; an error names the word
    /// that is not one.
    pub fn parse(key: &'a str) -> Result<Key<'a>, String> {
        let mut words = key.split_whitespace();
        let game = words.next().ok_or("an empty key")?;
        let fields = words
            .map(|w| w.split_once('=').ok_or_else(|| format!("field `{w}` has no `=`")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Key { game, fields })
    }

    /// The key's first word: its game's name.
    pub fn game(&self) -> &'a str {
        self.game
    }

    /// The text of field `name`.
    pub fn text(&self, name: &str) -> Result<&'a str, String> {
        self.fields.iter().find(|(n, _)| *n == name).map(|(_, v)| *v).ok_or_else(|| format!("no `{name}`"))
    }

    /// Field `name` read as a `T`.
    pub fn number<T: FromStr>(&self, name: &str) -> Result<T, String>
    where
        T::Err: std::fmt::Display,
    {
        let text = self.text(name)?;
        text.parse().map_err(|e| format!("{name} `{text}`: {e}"))
    }

    /// Field `name`, `yes` or `no`.
    pub fn yes_no(&self, name: &str) -> Result<bool, String> {
        match self.text(name)? {
            "yes" => Ok(true),
            "no" => Ok(false),
            other => Err(format!("{name} `{other}` is neither yes nor no")),
        }
    }

    /// Field `name` read by `read` (a name's value), naming what it takes otherwise.
    pub fn named<T>(&self, name: &str, read: impl Fn(&str) -> Option<T>, known: &str) -> Result<T, String> {
        let text = self.text(name)?;
        read(text).ok_or_else(|| format!("unknown {name} `{text}` ({known})"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_reads_into_its_game_and_fields() {
        let key = Key::parse("njaka holes=12 variant=standard direction=ccw").unwrap();
        assert_eq!(key.game(), "njaka");
        assert_eq!(key.number::<usize>("holes"), Ok(12));
        assert_eq!(key.text("variant"), Ok("standard"));
        assert!(key.text("pits").is_err());
        assert!(key.number::<usize>("variant").is_err());
        assert!(Key::parse("kalah pits").is_err());
        assert!(Key::parse("").is_err());
        assert_eq!(Key::parse("x a=yes b=no c=maybe").unwrap().yes_no("a"), Ok(true));
        assert!(Key::parse("x c=maybe").unwrap().yes_no("c").is_err());
    }
}
