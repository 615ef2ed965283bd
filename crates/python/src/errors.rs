//! The package's exceptions (defined in Python, `mancala_solve/errors.py`, so that each can
//! also be a `ValueError` or a `LookupError`), raised with the messages the `solve` command
//! prints.

use pyo3::prelude::*;
use pyo3::PyErr;
use tablebase::front::BuildFailed;
use tablebase::layout::LayoutError;
use tablebase::query::QueryError;

pyo3::import_exception!(mancala_solve.errors, ParameterError);
pyo3::import_exception!(mancala_solve.errors, MalformedPositionError);
pyo3::import_exception!(mancala_solve.errors, ImpossiblePositionError);
pyo3::import_exception!(mancala_solve.errors, NotBuiltError);
pyo3::import_exception!(mancala_solve.errors, TablesError);
pyo3::import_exception!(mancala_solve.errors, BuildError);

/// A refused request as its exception: a parameter named by its flag, as the command line
/// names it; a `NotBuiltError` with the command that builds the tables (`None` where no
/// command can) in `command`.
pub fn query(py: Python<'_>, error: QueryError) -> PyErr {
    let message = error.flag_message();
    match error {
        QueryError::Parameter { name, .. } => with(py, ParameterError::new_err(message), "parameter", name),
        QueryError::Malformed(_) => MalformedPositionError::new_err(message),
        QueryError::Impossible(_) => ImpossiblePositionError::new_err(message),
        QueryError::NotBuilt { command, .. } => with(py, NotBuiltError::new_err(message), "command", Some(command)),
        QueryError::BeyondIndex(_) | QueryError::NotHere => {
            with(py, NotBuiltError::new_err(message), "command", None::<String>)
        }
        QueryError::Tables(_) => TablesError::new_err(message),
    }
}

/// A root that could not be read: no tables at all is `NotBuiltError`, the rest
/// `TablesError`.
pub fn layout(py: Python<'_>, error: LayoutError) -> PyErr {
    match error {
        LayoutError::NoTables(_) => with(py, NotBuiltError::new_err(error.to_string()), "command", None::<String>),
        other => TablesError::new_err(other.to_string()),
    }
}

/// A build that failed: a bad request as any query's, a damaged table as `TablesError`, the
/// rest (memory short, a failed write) as `BuildError`.
pub fn build(py: Python<'_>, error: BuildFailed) -> PyErr {
    match error {
        BuildFailed::Request(e) => query(py, e),
        BuildFailed::Build { error: retro::store::BuildError::Table(_), .. } => TablesError::new_err(error.to_string()),
        other => BuildError::new_err(other.to_string()),
    }
}

/// `error` with the attribute `name` set to `value`.
pub fn with<'py>(py: Python<'py>, error: PyErr, name: &str, value: impl IntoPyObject<'py>) -> PyErr {
    // The attribute is a convenience: an exception that takes none is raised as it is.
    let _ = error.value(py).setattr(name, value);
    error
}
