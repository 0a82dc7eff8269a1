"""events: what a batch's run hands back, one record per thing that happened (batch.py).

    Opened      an input was opened: one more file
    Read        so many more bytes of an input were read (a progress display's)
    Unused      the run's retrieval URL is not used for an input's documents (they carry theirs)
    Unreadable  an input that could not be opened or read at all
    Done        a document done: its links (or their text), what of it could not be read; a
                piece of one read as it comes (``more``), then the Done that ends it
    Failed      a document of which nothing could be read
    Ended       an input read to its end (run/resume.py's)

with an input's own entries (Part, Skipped, InputError): :data:`Event`. And :data:`PartLinks`,
what the per-document pipeline gives a Task.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeAlias, TypeVar

from ..errors import InputError
from ..load.containers import Part, Skipped
from .resume import Ended

if TYPE_CHECKING:
    from ..resolve.link import Link
    from ..write.stats import Stats

__all__ = [
    "Done",
    "Event",
    "Failed",
    "Opened",
    "PartLinks",
    "Read",
    "Unreadable",
    "Unused",
    "records",
]


class Unreadable(NamedTuple):
    """An input that could not be opened or read at all."""

    name: str
    error: Exception


# What a Task makes of a document's links: the list itself (:func:`records`), or their text in
# an output format (write.FORMATS), made where the document was extracted.
T = TypeVar("T")

# What a Task's extract gives for a document (pipeline.part_links): its links as one list, or,
# for a document read as it comes, as lists handed on as they are found; what of it could not
# be read ("" when all of it was), for the second a function that says it once they are read;
# its own URL.
PartLinks: TypeAlias = (
    "tuple[list[Link], str, str | None]"
    " | tuple[Iterator[list[Link]], Callable[[], str], str | None]"
)


class Done(NamedTuple, Generic[T]):
    """One document done: its name, its links as the Task renders them, how many links, and
    what of it could not be read (None when all of it was); how many links have no base, and
    the links counted (when the Task counts them: ``--stats``)."""

    name: str
    output: T
    found: int  # how many links
    error: str | None
    no_base: int = 0
    stats: Stats | None = None
    page_url: str | None = None  # the document's own URL (a graph's source vertex)
    # a piece of a document whose links are handed on as they are found (pipeline.STREAMED):
    # more of it follows, and the Done without ``more`` ends it (and is counted a document)
    more: bool = False


class Failed(NamedTuple):
    """A document of which nothing could be read, and why."""

    name: str
    error: str


class Opened(NamedTuple):
    """An input was opened: one more file."""

    name: str


class Unused(NamedTuple):
    """The run's retrieval URL (``url=``) is not used for this input's documents: they carry
    their own (a WARC record's ``WARC-Target-URI``). Said once per input, never an error."""

    name: str
    retrieval: str  # the URL the first such document carries

    def message(self, option: str) -> str:
        """What to tell: ``option`` is how the caller gave the URL (``--url``, ``url=``)."""
        return (
            f"{self.name}: {option} not used: the records of an archive carry the URL each was "
            "retrieved from (WARC-Target-URI, RFC 1808 §3.3), which no option overrides"
        )


class Read(NamedTuple):
    """So many more bytes of an input were read (for a progress display: ``Summary.read``)."""

    size: int


Event = (
    Part | Skipped | InputError | Unreadable | Opened | Failed | Unused | Read | Ended | Done[Any]
)


def records(links: list[Link]) -> list[Link]:
    """A Task's output when the caller wants the records themselves (``iter_links``)."""
    return links
