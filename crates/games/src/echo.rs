//! Echoing what a user typed in an error message, cut to a readable length: a 100 KB
//! argument should not come back whole on the terminal.

/// Characters of an input echoed before it is cut.
pub const ECHOED_CHARS: usize = 80;

/// `text` if it is short; else its first [`ECHOED_CHARS`] characters, `…` and its length.
pub fn excerpt(text: &str) -> String {
    let length = text.chars().count();
    if length <= ECHOED_CHARS {
        return text.to_owned();
    }
    let head: String = text.chars().take(ECHOED_CHARS).collect();
    format!("{head}… ({length} characters)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_input_is_echoed_whole_and_long_input_cut() {
        assert_eq!(excerpt("4,4/4 0-0 S"), "4,4/4 0-0 S");
        let long = "é".repeat(1000);
        let cut = excerpt(&long);
        assert!(cut.starts_with(&"é".repeat(ECHOED_CHARS)) && cut.ends_with("… (1000 characters)"), "{cut}");
    }
}
