//! The integration tests of `retro`, one module per file, in one test binary: linking
//! the library and its dependencies once rather than once per file saves build time.

mod many_moves;
mod table_errors;
mod table_file;
mod toy;
