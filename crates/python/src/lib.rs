#![warn(missing_docs)]
//! `mancala_solve._native`: the tables and the solver from Python, over the library crates
//! and nothing else. A root of tables is opened once, as `solve serve` opens it
//! ([`Library`]); every answer is the report of `solve … --json` (`docs/json.md`) as Python
//! dicts and lists; every refusal is one of the package's exceptions with the message the
//! command prints (`errors.rs`). The package's Python half (`python/mancala_solve/`)
//! documents the API and reads tiers into arrays (`docs/python.md`).

mod errors;
mod progress;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use rayon::prelude::*;
use search::tree::Budget;
use std::path::PathBuf;
use std::time::Duration;
use tablebase::library::Library;
use tablebase::query::{Database, QueryError, Request};
use tablebase::registry::{self, GameEntry, GAMES};
use tablebase::report::{Outcome, ValueReport};

/// Every table directory under a root, opened once (each file's header and checksum
/// checked) and shared by every question asked of it.
#[pyclass(frozen, subclass, module = "mancala_solve._native")]
struct Tables {
    library: Library,
}

/// The parameters of one request: `params`, then `more`, each value as text.
type Pairs = Vec<(String, String)>;

#[pymethods]
impl Tables {
    /// Opens every table directory at or below `root`; a directory that fails its checks
    /// raises `TablesError`, or, with `skip_damaged`, is left out and listed in `skipped`.
    #[new]
    #[pyo3(signature = (root, skip_damaged = false))]
    fn new(py: Python<'_>, root: PathBuf, skip_damaged: bool) -> PyResult<Tables> {
        let library = py.detach(|| Library::open(&root, |_, _| {})).map_err(|e| errors::layout(py, e))?;
        match library.skipped().first() {
            Some(bad) if !skip_damaged => {
                Err(errors::TablesError::new_err(format!("opening the tables in {}: {}", bad.directory, bad.error)))
            }
            _ => Ok(Tables { library }),
        }
    }

    /// The root the tables were found under.
    #[getter]
    fn root(&self) -> String {
        self.library.root().display().to_string()
    }

    /// What each directory opened holds: its game, table key, rules, the parameters that
    /// select it, the starts it answers, and its tables (as `/api/games` lists them).
    #[getter]
    fn holdings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &self.library.holdings().collect::<Vec<_>>())
    }

    /// The directories left out (with `skip_damaged`), each with why.
    #[getter]
    fn skipped<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, self.library.skipped())
    }

    /// The report of one position (or a start, by its parameters), as `solve … --json`
    /// prints it.
    #[pyo3(signature = (game, position = None, *, max_line = None, **params))]
    fn query<'py>(
        &self,
        py: Python<'py>,
        game: &str,
        position: Option<String>,
        max_line: Option<usize>,
        params: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let entry = entry(py, game)?;
        let request = request(py, pairs(params, position, max_line)?)?;
        let report = py.detach(|| self.library.query(entry, &request)).map_err(|e| errors::query(py, e))?;
        to_python(py, &report.report)
    }

    /// The reports of many positions of one game's board and rules, answered on every
    /// core; the first refused raises, with its place in `positions` as `index`.
    #[pyo3(signature = (game, positions, *, max_line = 0, **params))]
    fn query_many<'py>(
        &self,
        py: Python<'py>,
        game: &str,
        positions: Vec<String>,
        max_line: usize,
        params: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let reports = self.each(py, game, &positions, Some(max_line), params, |entry, request| {
            Ok(self.library.query(entry, request)?.report)
        })?;
        reports.iter().map(|r| to_python(py, r)).collect()
    }

    /// The value of each of `positions` for its player to move, as a report gives it;
    /// the first refused raises, with its place in `positions` as `index`.
    #[pyo3(signature = (game, positions, **params))]
    fn values<'py>(
        &self,
        py: Python<'py>,
        game: &str,
        positions: Vec<String>,
        params: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let values =
            self.each(py, game, &positions, None, params, |entry, request| self.library.value(entry, request))?;
        values.iter().map(|v| to_python(py, v)).collect()
    }

    /// The report of a position of a board and rules held, whose tier is not built, from
    /// a search above the tables within `time` seconds and `nodes` positions (either
    /// `None`: no bound): exact where it proves the value, else `value.kind == "bounds"`.
    #[pyo3(signature = (game, position = None, *, time = Some(2.0), nodes = None, max_line = None, **params))]
    #[allow(clippy::too_many_arguments)] // Python's keywords, each a bound or a parameter.
    fn search<'py>(
        &self,
        py: Python<'py>,
        game: &str,
        position: Option<String>,
        time: Option<f64>,
        nodes: Option<u64>,
        max_line: Option<usize>,
        params: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let entry = entry(py, game)?;
        let request = request(py, pairs(params, position, max_line)?)?;
        let time = match time {
            Some(t) if !(t.is_finite() && t >= 0.0) => {
                let e = QueryError::parameter("time", format!("{t} is not a number of seconds"));
                return Err(errors::query(py, e));
            }
            t => t.map(Duration::from_secs_f64),
        };
        let budget = Budget { time, nodes, ..Budget::default() };
        let answer = py.detach(|| self.library.search(entry, &request, budget)).map_err(|e| errors::query(py, e))?;
        to_python(py, &answer.report)
    }

    /// The tiers of the directory of `game` selected by `params` (those of its holding's
    /// parameters given), each by name with its positions, lowest first.
    #[pyo3(signature = (game, **params))]
    fn tiers(&self, py: Python<'_>, game: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, u64)>> {
        Ok(self.database(py, game, params)?.tiers())
    }

    /// Ranks `first..first + count` of `tier`: the kind of its values (`"score"` or
    /// `"outcome"`, `None` where none is read), each value's outcome as a signed byte (1
    /// win, 0 draw, -1 loss), its score or plies as a native 32-bit integer (0 for a draw),
    /// and, if `positions`, each position in notation.
    #[pyo3(signature = (game, tier, first, count, positions, **params))]
    #[allow(clippy::too_many_arguments, clippy::type_complexity)] // Python's signature.
    fn chunk<'py>(
        &self,
        py: Python<'py>,
        game: &str,
        tier: &str,
        first: u64,
        count: u64,
        positions: bool,
        params: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<(Option<&'static str>, Bound<'py, PyBytes>, Bound<'py, PyBytes>, Option<Vec<String>>)> {
        let database = self.database(py, game, params)?;
        let ranks = first..first.saturating_add(count);
        let chunk = py.detach(|| database.chunk(tier, ranks, positions)).map_err(|e| errors::query(py, e))?;
        let kind = chunk.values.first().map(|v| match v {
            ValueReport::Score { .. } => "score",
            _ => "outcome",
        });
        let (outcomes, amounts): (Vec<i8>, Vec<i32>) = chunk.values.iter().map(|&v| signed(v)).unzip();
        let outcomes: Vec<u8> = outcomes.iter().map(|&o| o as u8).collect();
        let amounts: Vec<u8> = amounts.iter().flat_map(|a| a.to_ne_bytes()).collect();
        Ok((kind, PyBytes::new(py, &outcomes), PyBytes::new(py, &amounts), positions.then_some(chunk.positions)))
    }
}

impl Tables {
    /// What `ask` answers of each of `positions` (with `max_line` where given), asked in
    /// parallel; the first refused raises, with its place as `index`.
    fn each<T: Send>(
        &self,
        py: Python<'_>,
        game: &str,
        positions: &[String],
        max_line: Option<usize>,
        params: Option<&Bound<'_, PyDict>>,
        ask: impl Fn(&GameEntry, &Request) -> Result<T, QueryError> + Sync,
    ) -> PyResult<Vec<T>> {
        let entry = entry(py, game)?;
        let base = pairs(params, None, max_line)?;
        let answered: Vec<Result<T, QueryError>> = py.detach(|| {
            positions
                .par_iter()
                .map(|position| {
                    let mut pairs = base.clone();
                    pairs.push(("position".to_owned(), position.clone()));
                    ask(entry, &Request::new(pairs)?)
                })
                .collect()
        });
        answered
            .into_iter()
            .enumerate()
            .map(|(index, answer)| answer.map_err(|e| errors::with(py, errors::query(py, e), "index", index)))
            .collect()
    }

    /// The first directory of `game` whose holding has every parameter of `params` as
    /// given.
    fn database(&self, py: Python<'_>, game: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<&dyn Database> {
        let entry = entry(py, game)?;
        let wanted = pairs(params, None, None)?;
        let text = |value: &serde_json::Value| match value {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let holds = |d: &&dyn Database| {
            let held = &d.holding().parameters;
            wanted.iter().all(|(name, value)| held.get(name).is_some_and(|v| text(v) == *value))
        };
        self.library.databases(entry).find(holds).ok_or_else(|| {
            let held: Vec<String> = self.library.databases(entry).map(|d| d.holding().parameters.to_string()).collect();
            let asked: Vec<String> = wanted.iter().map(|(n, v)| format!("{n}={v}")).collect();
            let message = format!(
                "no {} tables with {} under {} (those opened: {})",
                entry.name,
                if asked.is_empty() { "any parameters".to_owned() } else { asked.join(", ") },
                self.library.root().display(),
                if held.is_empty() { "none".to_owned() } else { held.join("; ") }
            );
            errors::with(py, errors::NotBuiltError::new_err(message), "command", None::<String>)
        })
    }
}

/// Builds under `root` the tables that answer a request of `game` (a start by its
/// parameters, or a position), or finds them built and checks them; `progress`, if
/// given, is called as `progress(tier, done, work)` as each tier is solved. Returns the
/// directory and the tables' report. Refused where the tiers still to build need more
/// memory than this machine has, unless `force`.
#[pyfunction]
#[pyo3(signature = (root, game, position = None, *, progress = None, force = false, **params))]
fn build<'py>(
    py: Python<'py>,
    root: PathBuf,
    game: &str,
    position: Option<String>,
    progress: Option<Py<PyAny>>,
    force: bool,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let entry = entry(py, game)?;
    let request = request(py, pairs(params, position, None)?)?;
    let observer = progress.map(progress::Progress::new);
    let built = py.detach(|| match &observer {
        Some(observer) => entry.build(&request, &root, observer, force),
        None => entry.build(&request, &root, &retro::solve::Silent, force),
    });
    if let Some(failure) = observer.and_then(progress::Progress::failure) {
        return Err(failure);
    }
    let built = built.map_err(|e| errors::build(py, e))?;
    let report = PyDict::new(py);
    report.set_item("directory", built.dir.display().to_string())?;
    report.set_item("tables", to_python(py, &built.tables)?)?;
    Ok(report.into_any())
}

/// The names of the games the package knows, as `Tables.query` takes them.
#[pyfunction(name = "games")]
fn game_names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name).collect()
}

/// The registry's game named `name`, or `ParameterError` naming those there are.
fn entry(py: Python<'_>, name: &str) -> PyResult<&'static GameEntry> {
    registry::game_named(name).ok_or_else(|| {
        let why = format!("unknown game `{}` (known: {})", games::echo::excerpt(name), game_names().join(", "));
        errors::query(py, QueryError::parameter("game", why))
    })
}

/// `params` as a request's parameters, each value as text (`True` and `False` as `yes`
/// and `no`, `None` left out), with `position` and `max_line` where given.
fn pairs(params: Option<&Bound<'_, PyDict>>, position: Option<String>, max_line: Option<usize>) -> PyResult<Pairs> {
    let mut pairs = Pairs::new();
    for (name, value) in params.into_iter().flat_map(|p| p.iter()) {
        if value.is_none() {
            continue;
        }
        let text = match value.extract::<bool>() {
            Ok(yes) if value.is_instance_of::<pyo3::types::PyBool>() => (if yes { "yes" } else { "no" }).to_owned(),
            _ => value.str()?.to_string(),
        };
        pairs.push((name.str()?.to_string(), text));
    }
    pairs.extend(position.map(|p| ("position".to_owned(), p)));
    pairs.extend(max_line.map(|m| ("max_line".to_owned(), m.to_string())));
    Ok(pairs)
}

/// A request of `pairs`, or the exception its refusal is.
fn request(py: Python<'_>, pairs: Pairs) -> PyResult<Request> {
    Request::new(pairs).map_err(|e| errors::query(py, e))
}

/// A value as a signed outcome (1 win, 0 draw, -1 loss) and its score or plies (0 for a
/// draw); bounds, which no table holds, as their lower end.
fn signed(value: ValueReport) -> (i8, i32) {
    let sign = |o: Outcome| match o {
        Outcome::Win => 1,
        Outcome::Draw => 0,
        Outcome::Loss => -1,
    };
    match value {
        ValueReport::Score { outcome, score } => (sign(outcome), score),
        ValueReport::Outcome { outcome, plies } => (sign(outcome), plies.map_or(0, i32::from)),
        ValueReport::Bounds { .. } => (0, 0),
    }
}

/// `value` as Python objects: objects as dicts, arrays as lists, `null` as `None`.
fn to_python<'py, T: serde::Serialize + ?Sized>(py: Python<'py>, value: &T) -> PyResult<Bound<'py, PyAny>> {
    Ok(pythonize::pythonize(py, value)?)
}

/// The module.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Tables>()?;
    module.add_function(wrap_pyfunction!(build, module)?)?;
    module.add_function(wrap_pyfunction!(game_names, module)?)?;
    Ok(())
}
