//! Builds stopped inside a tier resume from its checkpoint to tables byte for byte those
//! of an uninterrupted build, under every engine (the outcome engine with and without
//! un-moves and in parts, the acyclic one, the cyclic score one with and without
//! un-moves); a damaged or foreign checkpoint is refused and its tier starts again.

use games::awari::Awari;
use games::kalah::{Kalah, Rules};
use games::njaka::{Direction, Njaka, Variant};
use games::thi::{Bonus, RuleSet, Setup, Thi};
use retro::checkpoint::{checkpoint_file, CheckpointEvent, Stage};
use retro::kit::WithoutUnmoves;
use retro::solve::{Observer, Silent, SolveError};
use retro::store::{build, tier_file, BuildError, BuildOptions};
use retro::Game;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

/// Records what happens to checkpoints.
#[derive(Default)]
struct Events(Mutex<Vec<CheckpointEvent>>);

impl Observer for Events {
    fn checkpoint(&self, event: &CheckpointEvent) {
        self.0.lock().unwrap().push(event.clone());
    }
}

impl Events {
    fn take(&self) -> Vec<CheckpointEvent> {
        std::mem::take(&mut self.0.lock().unwrap())
    }
}

/// Every table file of `dir` (`tier-*.tbl`) and its bytes.
fn table_bytes(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tbl"))
        .map(|name| (name.clone(), std::fs::read(dir.join(&name)).unwrap()))
        .collect()
}

/// A small pseudo-random sequence (xorshift), so that each seed stops at other steps.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Builds `root` of `game` stopped again and again after a pseudo-random count of steps
/// (1 to `most`; 1 the first time), each run resuming from the last run's checkpoint, for each of three
/// seeds; the tables must equal an uninterrupted build's, byte for byte, and some run
/// must have resumed in the middle of each stage of `mids`. The tiers below the root are
/// copied from the uninterrupted build, so that the runs solve the root, the largest.
fn resumes_to_identical_tables<G: Game>(game: &G, root: G::Tier, options: BuildOptions, most: u64, mids: &[Stage]) {
    // A batch of blocks, a step of a scan, is a few blocks a thread: the threads are
    // fixed, so that the tiers below take several steps whatever the machine.
    let two_threads = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let whole = tempfile::tempdir().unwrap();
    build(game, whole.path(), &[root], &Silent, &options).unwrap();
    let expected = table_bytes(whole.path());
    let root_file = tier_file(whole.path(), root).file_name().unwrap().to_string_lossy().into_owned();
    for seed in [0x9E37_79B9_7F4A_7C15u64, 0xD1B5_4A32_D192_ED03, 0x8CB9_2BA7_2F3D_8DD7] {
        let (dir, mut state, events) = (tempfile::tempdir().unwrap(), seed, Events::default());
        for (name, bytes) in expected.iter().filter(|(name, _)| **name != root_file) {
            std::fs::write(dir.path().join(name), bytes).unwrap();
        }
        let mut resumed_mid_stage = Vec::new();
        for run in 0.. {
            assert!(run < 100_000, "the build makes no progress");
            // The first run stops at the first step, in the scan of a tier that takes several.
            let stop = if run == 0 { 1 } else { 1 + next(&mut state) % most };
            let stopping =
                BuildOptions { checkpoint_every: Some(Duration::ZERO), stop_inside: Some(stop), ..options.clone() };
            let result = two_threads.install(|| build(game, dir.path(), &[root], &events, &stopping));
            for event in events.take() {
                match event {
                    CheckpointEvent::Resumed(at) => {
                        if 0 < at.step && at.step < at.of {
                            resumed_mid_stage.push(at.stage);
                        }
                    }
                    CheckpointEvent::Written(_) => {}
                    other => panic!("seed {seed:x}, run {run}: {other:?}"),
                }
            }
            match result {
                Ok(_) => break,
                Err(BuildError::Solve(SolveError::Stopped { .. })) => {}
                Err(e) => panic!("seed {seed:x}, run {run}: {e}"),
            }
        }
        for mid in mids {
            assert!(resumed_mid_stage.contains(mid), "seed {seed:x}: no run resumed in the middle of {mid:?}");
        }
        assert_eq!(table_bytes(dir.path()), expected, "seed {seed:x}");
        let left = std::fs::read_dir(dir.path()).unwrap().flatten().map(|e| e.file_name()).collect::<Vec<_>>();
        assert!(!left.iter().any(|n| n.to_string_lossy().ends_with(".checkpoint")), "{left:?}");
    }
}

/// THI` under `original` (DUO's board), and its tier 5-4: five blocks (70,928
/// positions), some levels to push, and twenty tiers below.
fn thi() -> (Thi, <Thi as Game>::Tier) {
    let setup = Setup::named("duo").unwrap();
    let game = Thi::for_setup(setup, games::thi::Rules { set: RuleSet::Original, bonus: Bonus::No }).unwrap();
    let root = game.locate(&setup.start()).tier;
    let tier = retro::order::tier_order(&game, &[root]).unwrap().into_iter().find(|t| t.to_string() == "5-4");
    (game, tier.unwrap())
}

#[test]
fn outcome_engine_resumes_inside_a_tier() {
    let (game, root) = thi();
    resumes_to_identical_tables(&game, root, BuildOptions::default(), 3, &[Stage::OutcomeScan, Stage::OutcomePush]);
}

#[test]
fn outcome_engine_in_parts_resumes_inside_a_tier() {
    let (game, root) = thi();
    let options = BuildOptions { parts: Some(3), ..BuildOptions::default() };
    resumes_to_identical_tables(&game, root, options, 3, &[Stage::OutcomeScan, Stage::OutcomePush]);
}

#[test]
fn outcome_engine_without_unmoves_resumes_inside_its_scan() {
    // Every run finds the parents again from the moves of the blocks scanned.
    let (game, root) = thi();
    let game = WithoutUnmoves(game);
    resumes_to_identical_tables(&game, root, BuildOptions::default(), 3, &[Stage::OutcomeScan, Stage::OutcomePush]);
}

#[test]
fn acyclic_engine_resumes_inside_a_tier() {
    let game = Kalah::new(4, 14, Rules::EMPTY_CAPTURE).unwrap();
    resumes_to_identical_tables(&game, 14, BuildOptions::default(), 3, &[Stage::Acyclic]);
}

#[test]
fn cyclic_engine_resumes_inside_a_tier() {
    let game = Awari::new(6, 9).unwrap();
    resumes_to_identical_tables(&game, 9, BuildOptions::default(), 3, &[Stage::CyclicScan, Stage::CyclicThreshold]);
}

#[test]
fn cyclic_engine_without_unmoves_resumes_inside_a_tier() {
    let game = Njaka::new(6, Variant::Advanced, Direction::Counterclockwise, 7).unwrap();
    // Its tiers have one threshold each: the scan is where it stops inside.
    resumes_to_identical_tables(&game, 7, BuildOptions::default(), 3, &[Stage::CyclicScan]);
}

/// A directory holding Awari's tables below 9 stones and the checkpoint a build stopped
/// inside tier 9 left, and the tables of an uninterrupted build.
fn stopped_awari(m: usize) -> (Awari, tempfile::TempDir, BTreeMap<String, Vec<u8>>) {
    let game = Awari::new(m, 9).unwrap();
    let whole = tempfile::tempdir().unwrap();
    build(&game, whole.path(), &[9], &Silent, &BuildOptions::default()).unwrap();
    let expected = table_bytes(whole.path());
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in expected.iter().filter(|(name, _)| *name != "tier-9.tbl") {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    let stopping = BuildOptions { checkpoint_every: Some(Duration::ZERO), stop_inside: Some(2), ..Default::default() };
    let stopped = build(&game, dir.path(), &[9], &Silent, &stopping);
    assert!(matches!(stopped, Err(BuildError::Solve(SolveError::Stopped { .. }))), "{:?}", stopped.err());
    assert!(checkpoint_file(dir.path(), 9).exists());
    (game, dir, expected)
}

/// The build after a checkpoint was damaged by `damage`: it is refused with a reason
/// containing `why`, and the tier is solved again from its start to the same tables.
fn refused_and_restarted(damage: impl Fn(&Path), why: &str) {
    let (game, dir, expected) = stopped_awari(6);
    let path = checkpoint_file(dir.path(), 9);
    damage(&path);
    let events = Events::default();
    build(&game, dir.path(), &[9], &events, &BuildOptions::default()).unwrap();
    match &events.take()[..] {
        [CheckpointEvent::Refused(said)] => assert!(said.contains(why), "{said}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(table_bytes(dir.path()), expected);
    assert!(!path.exists());
}

#[test]
fn a_checkpoint_with_a_flipped_byte_is_refused() {
    let flip = |at: fn(u64) -> u64| {
        move |path: &Path| {
            let mut bytes = std::fs::read(path).unwrap();
            let at = at(bytes.len() as u64) as usize;
            bytes[at] ^= 0x10;
            std::fs::write(path, bytes).unwrap();
        }
    };
    refused_and_restarted(flip(|len| len - 1), "body checksum mismatch");
    refused_and_restarted(flip(|_| 20), "header checksum mismatch");
    refused_and_restarted(flip(|_| 3), "bad magic number");
}

#[test]
fn a_truncated_checkpoint_is_refused() {
    let truncate = |path: &Path| {
        let len = std::fs::metadata(path).unwrap().len();
        std::fs::OpenOptions::new().write(true).open(path).unwrap().set_len(len - 100).unwrap();
    };
    refused_and_restarted(truncate, "truncated");
    refused_and_restarted(|path: &Path| std::fs::write(path, b"").unwrap(), "an empty file");
}

#[test]
fn a_checkpoint_of_other_rules_is_refused() {
    // Awari on five pits a side: its tier 9 under the same name, another game key.
    let (_, other, _) = stopped_awari(5);
    let foreign = std::fs::read(checkpoint_file(other.path(), 9)).unwrap();
    refused_and_restarted(|path: &Path| std::fs::write(path, &foreign).unwrap(), "built for game and rules");
}

/// Times observed checkpoints: when each was written, from the tier's start.
struct Timed {
    started: Mutex<Option<std::time::Instant>>,
    written: Mutex<Vec<f64>>,
    resumed: Mutex<Option<f64>>,
}

impl Observer for Timed {
    fn tier_started(&self, _tier: &str, _work: u64) {
        *self.started.lock().unwrap() = Some(std::time::Instant::now());
    }
    fn checkpoint(&self, event: &CheckpointEvent) {
        let at = self.started.lock().unwrap().unwrap().elapsed().as_secs_f64();
        match event {
            CheckpointEvent::Written(_) => self.written.lock().unwrap().push(at),
            CheckpointEvent::Resumed(_) => *self.resumed.lock().unwrap() = Some(at),
            other => panic!("{other:?}"),
        }
    }
}

/// What a checkpoint costs on Kalah's 6-pit tier of 20 seeds (84.7 million positions, a
/// byte each): the tier solved without checkpoints, then with one at every step, then
/// stopped halfway and resumed (docs/performance.md). Minutes: run it alone, with
/// `--ignored --nocapture`.
#[test]
#[ignore]
fn checkpoint_cost_on_kalah_six_pits_twenty_seeds() {
    let game = Kalah::new(6, 20, Rules::EMPTY_CAPTURE).unwrap();
    let dir = tempfile::tempdir().unwrap();
    build(&game, dir.path(), &[19], &Silent, &BuildOptions::default()).unwrap();
    let tier = tier_file(dir.path(), 20);
    let timed = || Timed { started: Mutex::new(None), written: Mutex::new(Vec::new()), resumed: Mutex::new(None) };
    let run = |options: BuildOptions, observer: &Timed| {
        let _ = std::fs::remove_file(&tier);
        let started = std::time::Instant::now();
        let result = build(&game, dir.path(), &[20], observer, &options);
        (started.elapsed().as_secs_f64(), result.is_ok())
    };
    let none = BuildOptions { checkpoint_every: Some(Duration::MAX), ..BuildOptions::default() };
    let every = BuildOptions { checkpoint_every: Some(Duration::ZERO), ..BuildOptions::default() };
    let (plain, _) = run(none.clone(), &timed());
    let observed = timed();
    let (with, _) = run(every.clone(), &observed);
    let count = observed.written.lock().unwrap().len();
    eprintln!("tier 20: {plain:.1} s without checkpoints, {with:.1} s with {count}");
    eprintln!("a checkpoint: {:.3} s", (with - plain) / count as f64);
    let stopped = timed();
    let (until, finished) = run(BuildOptions { stop_inside: Some(count as u64 / 2), ..every.clone() }, &stopped);
    assert!(!finished);
    let bytes = std::fs::metadata(checkpoint_file(dir.path(), 20)).unwrap().len();
    eprintln!("a checkpoint file: {bytes} bytes");
    let resumed = timed();
    let (rest, finished) = run(none, &resumed);
    assert!(finished);
    let at = resumed.resumed.lock().unwrap().unwrap();
    eprintln!("stopped halfway after {until:.1} s; resumed in {at:.2} s, finished in {rest:.1} s");
}
