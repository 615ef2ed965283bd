//! The integration tests of `games`, one module per file, in one test binary: linking
//! the library and its dependencies once rather than once per file saves build time.

mod awari_rules;
mod awari_tables;
mod draws;
mod invariants;
mod kalah_rules;
mod kalah_tables;
mod njaka_rules;
mod njaka_tables;
mod notation_fuzz;
mod oware_rules;
mod oware_tables;
mod parents_from_moves;
mod resume_inside_tier;
mod thi_engine;
mod thi_moves;
mod thi_setups;
mod thi_tables;
mod trias_rules;
mod trias_tables;
