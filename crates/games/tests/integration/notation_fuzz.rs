//! Every position notation parser, fed random and mangled text: it must answer with a
//! position or an error, never panic; and whatever it accepts must print back the same.

use proptest::prelude::*;

/// Text near the notation's shape: characters the notations use, in random order.
fn notation_like() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just('w'),
            Just('b'),
            Just('-'),
            Just(','),
            Just('/'),
            Just(' '),
            Just('S'),
            Just('N'),
            (b'0'..=b'9').prop_map(char::from),
            any::<char>(),
        ],
        0..60,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn thi_parser_never_panics(text in notation_like()) {
        if let Ok(position) = games::thi::notation::parse(&text) {
            prop_assert_eq!(games::thi::notation::parse(&position.to_string()).unwrap(), position);
        }
    }

    #[test]
    fn kalah_parser_never_panics(text in notation_like()) {
        if let Ok(position) = games::kalah::notation::parse(&text) {
            prop_assert_eq!(games::kalah::notation::parse(&position.to_string()).unwrap(), position);
        }
    }

    #[test]
    fn kalah_parser_survives_mangled_real_positions(cut in 0usize..40, insert in any::<char>()) {
        let mut text = String::from("4,4,4,4,4,4/4,4,4,4,4,4 0-0 S");
        let at = text.char_indices().nth(cut % text.chars().count()).map_or(0, |(i, _)| i);
        text.insert(at, insert);
        let _ = games::kalah::notation::parse(&text);
        let _ = games::kalah::notation::parse(&text[..at]);
    }

    #[test]
    fn thi_parser_survives_mangled_real_positions(cut in 0usize..40, insert in any::<char>()) {
        let mut text = String::from("bbb,bbb,bbb/-,-,-/www,www,www w");
        let at = text.char_indices().nth(cut % text.chars().count()).map_or(0, |(i, _)| i);
        text.insert(at, insert);
        let _ = games::thi::notation::parse(&text);
        let _ = games::thi::notation::parse(&text[..at]);
    }
}
