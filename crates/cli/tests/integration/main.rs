//! The command line's tests, in one binary (one link of the workspace, not one a file):
//! each module runs `solve` as a user would, for one command or concern.

mod awari_cli;
mod common;
mod help_cli;
mod input_cli;
mod json_cli;
mod kalah_cli;
mod njaka_cli;
mod resume_cli;
mod serve_api;
mod tables_cli;
mod thi_cli;
mod trias_cli;
