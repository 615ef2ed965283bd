//! Every table directory under a root, opened once and shared read-only by every
//! request: what `solve serve` answers from, and the Python package's `Tables`.

use crate::layout::{self, LayoutError};
use crate::query::{Answer, Database, Holding, QueryError, Request};
use crate::registry::{self, GameEntry};
use crate::report::ValueReport;
use search::tree::Budget;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// A table directory that could not be opened, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Skipped {
    /// The directory.
    pub directory: String,
    /// What is wrong with it.
    pub error: String,
}

/// Every table directory found under a root, open for queries.
pub struct Library {
    root: PathBuf,
    databases: Vec<Box<dyn Database>>,
    skipped: Vec<Skipped>,
}

impl Library {
    /// Opens every table directory at or below `root`. A directory whose tables fail their
    /// checks, or renamed within a game's directory ([`registry::misplaced`]), is left out
    /// and listed in [`Library::skipped`]; no table at all is an error. Directories of one
    /// key are all kept (they may hold different tiers); a request is answered by the
    /// first that holds what it asks, the one where the game's commands keep them first.
    pub fn open(root: &Path, mut opened: impl FnMut(&Path, Result<&Holding, &str>)) -> Result<Library, LayoutError> {
        let mut databases = Vec::new();
        let mut skipped = Vec::new();
        let mut found: Vec<_> =
            layout::table_dirs(root)?.into_iter().map(|dir| (layout::read_directory(&dir), dir)).collect();
        found.sort_by_cached_key(|(read, dir)| {
            let home =
                read.as_ref().ok().and_then(|d| registry::game_of_key(&d.key).ok()?.directory(&d.key, root).ok());
            home.as_deref() != Some(dir.as_path())
        });
        for (read, dir) in found {
            let result = read.map_err(|e| e.to_string()).and_then(|d| {
                if let Some(belongs) = registry::misplaced(&d.key, &d.dir) {
                    return Err(format!(
                        "holds the tables of `{}`, which belong in {}: a renamed directory is not served, since \
                         the command that builds the tables it is named for would look there",
                        d.key,
                        belongs.display()
                    ));
                }
                registry::game_of_key(&d.key)
                    .and_then(|game| game.open(&d.key, &d.dir, &d.tiers))
                    .map_err(|e| e.to_string())
            });
            match result {
                Ok(database) => {
                    opened(&dir, Ok(database.holding()));
                    databases.push(database);
                }
                Err(error) => {
                    opened(&dir, Err(&error));
                    skipped.push(Skipped { directory: dir.display().to_string(), error });
                }
            }
        }
        Ok(Library { root: root.to_owned(), databases, skipped })
    }

    /// The root the tables were found under.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// What every opened directory holds.
    pub fn holdings(&self) -> impl Iterator<Item = &Holding> {
        self.databases.iter().map(|d| d.holding())
    }

    /// The directories left out.
    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    /// The answer to `request` about `game`: from the first of its databases that holds
    /// the board and rules asked for; [`QueryError::NotBuilt`] with the command that builds
    /// them if none does.
    pub fn query(&self, game: &GameEntry, request: &Request) -> Result<Answer, QueryError> {
        self.first(game, request, |database| database.query(request))
    }

    /// The value of the position `request` asks of, for its player to move, as
    /// [`Library::query`]'s report gives it, without the rest of the report.
    pub fn value(&self, game: &GameEntry, request: &Request) -> Result<ValueReport, QueryError> {
        self.first(game, request, |database| database.value(request))
    }

    /// What `ask` answers of the first database of `game` that holds the board and rules
    /// `request` asks of; [`QueryError::NotBuilt`] with the command that builds them if
    /// none does.
    fn first<T>(
        &self,
        game: &GameEntry,
        request: &Request,
        ask: impl Fn(&dyn Database) -> Result<T, QueryError>,
    ) -> Result<T, QueryError> {
        // A bad parameter is the request's fault wherever the tables are.
        request.max_line()?;
        for database in self.databases(game) {
            match ask(database) {
                Err(QueryError::NotHere) => continue,
                answer => return answer,
            }
        }
        Err(self.not_built(game, request)?)
    }

    /// Whether some directory holds the board and rules `request` asks of, though not its
    /// position's tier: a search above it answers ([`Library::search`]).
    pub fn above(&self, game: &GameEntry, request: &Request) -> bool {
        self.databases(game).any(|d| d.above(request))
    }

    /// The answer to `request` about `game` by a search within `budget` above the first
    /// directory it is [`Library::above`]; [`QueryError::NotBuilt`] if there is none.
    pub fn search(&self, game: &GameEntry, request: &Request, budget: Budget<'_>) -> Result<Answer, QueryError> {
        match self.databases(game).find(|d| d.above(request)) {
            Some(database) => database.search(request, budget),
            None => Err(self.not_built(game, request)?),
        }
    }

    /// The databases of `game`, in the order they answer.
    pub fn databases<'a>(&'a self, game: &'a GameEntry) -> impl Iterator<Item = &'a dyn Database> + 'a {
        self.databases.iter().map(|d| d.as_ref()).filter(|d| d.holding().game == game.name)
    }

    /// What to say of `request` when no directory holds its tables: the command that
    /// builds them, and what was left out where it writes them.
    fn not_built(&self, game: &GameEntry, request: &Request) -> Result<QueryError, QueryError> {
        // The directory the command writes, if it failed its checks, may hold what was
        // asked: the command alone would then stop at the damaged file.
        let build = game.command(request, &self.root)?;
        let left_out = self
            .skipped
            .iter()
            .filter(|s| Path::new(&s.directory) == build.dir)
            .map(|s| format!("{}: {}", s.directory, s.error))
            .collect();
        Ok(QueryError::NotBuilt {
            what: format!("the {} tables this request needs", game.name),
            command: format!("{}{}", build.command, registry::out_flag(&self.root)),
            note: build.note,
            left_out,
        })
    }
}
