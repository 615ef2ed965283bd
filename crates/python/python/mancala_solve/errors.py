"""The exceptions of mancala_solve, each raised with the message the `solve` command prints."""


class MancalaError(Exception):
    """Any error of this package."""


class InputError(MancalaError, ValueError):
    """A request the game cannot read: a parameter, or a position."""


class ParameterError(InputError):
    """A parameter missing, unknown or out of range (``parameter``: its name)."""

    parameter = None


class MalformedPositionError(InputError):
    """A position not written in the game's notation."""


class ImpossiblePositionError(InputError):
    """A position well written that cannot stand on this board under these rules."""


class NotBuiltError(MancalaError, LookupError):
    """The tables that would answer are not open here (``command``: the ``solve`` command
    that builds them, or ``None`` where none can)."""

    command = None


class TablesError(MancalaError, OSError):
    """A table damaged, foreign, changed since it was opened, or unreadable: its values are
    never returned."""


class BuildError(MancalaError, RuntimeError):
    """A build refused (more memory than this machine has) or failed (a write)."""
