"""Exceptions raised by smatchpp."""

from __future__ import annotations

__all__ = ["SmatchppError", "ReadError", "InputMismatchError", "UsageError", "SmatchppWarning"]


class SmatchppError(Exception):
    """Base class of all smatchpp errors."""


class ReadError(SmatchppError):
    """A graph could not be read; names the file, line and 0-based graph index."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None,
                 index: int | None = None) -> None:
        self.message = message
        self.path = path
        self.line = line
        self.index = index
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.path or '<input>'}:{self.line if self.line is not None else '?'}"
        graph = f" graph {self.index}:" if self.index is not None else ""
        return f"{where}:{graph} {self.message}"


class InputMismatchError(SmatchppError):
    """The two inputs do not hold the same number of graphs."""


class UsageError(SmatchppError):
    """A bad option value, a missing optional dependency, or an unusable output path."""


class SmatchppWarning(UserWarning):
    """Something the user should know that does not stop the run (the command line prints
    it as ``smatchpp: warning: ...``)."""
