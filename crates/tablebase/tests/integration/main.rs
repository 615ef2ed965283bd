//! The tablebase crate's tests, in one binary: the library of table directories, and
//! requests of every game read and refused.

mod library;
mod requests;
