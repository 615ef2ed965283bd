//! THI` setups: every one has one name that names it back, and its start is recognised
//! as its own, as the command and the server report and take them.

use games::thi::board::Stack;
use games::thi::{Setup, SetupError};

/// Every setup has one name, which names it back, and its start is recognised as its
/// own; one row of single counters is the first-row stacks of one.
#[test]
fn every_setup_is_named_back_and_recognised_by_its_start() {
    for size in 3..=games::thi::board::MAX_SIZE {
        let setups: Vec<Setup> = Setup::of_board(size).collect();
        assert!(setups.len() >= 3, "{size}: {setups:?}");
        for setup in setups {
            assert_eq!(Setup::named(&setup.name()), Ok(setup), "{}", setup.name());
            assert_eq!(Setup::of_start(&setup.start()), Some(setup), "{}", setup.name());
        }
        assert_eq!(Setup::Rows { size, rows: 1 }.checked(), Ok(Setup::Height { size, height: 1 }));
        assert_eq!(Setup::named(&format!("{size}x{size}-rows1")), Ok(Setup::Height { size, height: 1 }));
    }
    assert_eq!(Setup::named("TRIAS").unwrap().article_name(), Some("trias"));
    assert_eq!(Setup::named("6x6-rows2").unwrap().article_name(), Some("quadrat"));
    assert_eq!(Setup::named("4x4-height2").unwrap().article_name(), None);
    for bad in ["4x5-height1", "4x04-height1", "+4x4-height1", "4x4-height", "4x4-rows-1", "4x4", "4x4-width1", "x-"] {
        assert!(matches!(Setup::named(bad), Err(SetupError::UnknownBoard(_))), "{bad}");
    }
    assert_eq!(Setup::named("4x4-height4"), Err(SetupError::Height(4)));
    assert_eq!(Setup::named("4x4-rows3"), Err(SetupError::Rows { size: 4, rows: 3 }));
    assert_eq!(Setup::named("10x10-height1"), Err(SetupError::Size(10)));
    // Numbers past a byte are named, not taken for an unknown board.
    assert_eq!(Setup::named("3x3-height256"), Err(SetupError::Height(256)));
    assert_eq!(Setup::named("4x4-rows300"), Err(SetupError::Rows { size: 4, rows: 300 }));
    assert_eq!(Setup::named("300x300-height1"), Err(SetupError::Size(300)));
    let huge = "99999999999999999999999";
    assert_eq!(Setup::named(&format!("{huge}x{huge}-height1")), Err(SetupError::Size(usize::MAX)));
    let primus = Setup::named("primus").unwrap().start();
    let mut moved = primus.clone();
    moved.set(0, Stack::EMPTY);
    assert_eq!(Setup::of_start(&moved), None);
}
