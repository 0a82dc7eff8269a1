"""Every exception baselinks raises on purpose derives from one root.

    BaselinksError                  the root: ``except baselinks.BaselinksError`` catches them all
     ├── URLError (ValueError)      a URL the chosen mode cannot parse or resolve (whatwg failures),
     │                              or an unknown resolution mode; the message names the input
     ├── SelectError (ValueError)   a ``select`` CSS selector that cannot be parsed
     └── InputError                 a file, archive record or MIME part that cannot be read (whole):
                                    truncated, damaged, over a size or nesting limit, not a document

Messages say where: the offending input with ``repr()``, and the file, offset or line when known.
"""

from __future__ import annotations

__all__ = [
    "BaselinksError",
    "InputError",
    "SelectError",
    "URLError",
    "describe",
    "internal",
    "raise_first",
]


class BaselinksError(Exception):
    """Root of every error baselinks raises deliberately."""


class URLError(BaselinksError, ValueError):
    """A URL could not be parsed or resolved in the requested mode.

    It is a :class:`ValueError`, so code written against ``urllib.parse`` or ada-url keeps working.
    """


class SelectError(BaselinksError, ValueError):
    """The ``select`` CSS selector could not be parsed; the message quotes it."""


class InputError(BaselinksError):
    """An input, or a part of one, could not be read completely.

    ``name`` is what the ``document`` field would say (the file, plus the WARC record's target
    URI or the MIME part); ``offset`` the byte offset in the file where the damage was met, when
    known. ``str()`` gives the one line the command line prints.
    """

    def __init__(self, message: str, name: str = "", offset: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.name = name
        self.offset = offset

    def located(self, name: str) -> InputError:
        """The same error, naming ``name`` when it had no name yet."""
        return self if self.name else InputError(self.message, name, self.offset)

    def __str__(self) -> str:
        where = self.name or "-"
        if self.offset is not None:
            where += f": offset {self.offset}"
        return f"{where}: {self.message}"


def internal(exc: BaseException) -> str:
    """The message for an exception no input should cause: a bug, reported and passed over."""
    return f"internal error (a bug in baselinks, please report it): {type(exc).__name__}: {exc}"


def describe(exc: BaseException) -> str:
    """What an exception met while reading an input says: the system's words for an OSError
    (``No such file or directory``), else that it is a bug (:func:`internal`)."""
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return internal(exc)


def raise_first(errors: list[InputError]) -> None:
    """Raise the first of ``errors``, the others attached as notes (nothing when none): how a
    stream without ``on_error`` reports its damage after its last link."""
    if errors:
        first = errors[0]
        for other in errors[1:]:
            first.add_note(str(other))
        raise first
