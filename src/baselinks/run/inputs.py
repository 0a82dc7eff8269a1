"""inputs: what an input is and how it is opened, for the library, the command line and the
dataflow rows alike.

    bytes                  read from memory
    a path                 opened; a directory walked (:func:`walk`), its files in name order
    a URL (scheme://)      file:// opened as the local file; http(s):// streamed, any other
                           scheme (s3://, gs://, memory://...) through fsspec (the fsspec extra)
    a binary stream        read as it is (stdin); a terminal's until its first end of file

Nothing here follows a link: a URL input is the one document (or archive) it names, fetched
once; a redirect the server answers with is followed, as ``curl -L`` and wget do, and the URL it
ends at is the document's retrieval URL (RFC 1808 §3.3: "the URL used to retrieve the
document"), unless an archive's records carry their own.

An http(s) body is asked for as ``identity`` and never decoded by the HTTP client: a server
that codes it anyway (``Content-Encoding``) has it decoded here as it is read
(load/containers/coding.py's DecodedStream), under the caps every reader of a file applies.
aiohttp's own decoding held what it decoded (2 MB of gzip: 1.38 GB; 1 KB of brotli: 1.1 GB
before the 256 MiB cap spoke). A body that ends before its ``Content-Length``, or does not
decode, is damage said after the links of what arrived (:attr:`InputStream.stream`'s
``damage``), where it was "internal error" and the links lost.
"""

from __future__ import annotations

import io
import os
import re
import stat
import urllib.parse
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO, NamedTuple, cast

from ..base.mirror import MirroredURL
from ..errors import InputError
from ..load.containers import Skipped
from ..load.containers.decoded import DecodedStream

__all__ = [
    "LINKED_DIRECTORY",
    "InputStream",
    "Source",
    "display_name",
    "is_directory",
    "is_url",
    "label",
    "local_path",
    "open_input",
    "open_source",
    "walk",
]

# A document's bytes, a path or URL, or an open binary file (stdin, a socket's makefile()...).
Source = bytes | bytearray | memoryview | str | os.PathLike[str] | BinaryIO

# RFC 1738 §2.1's scheme, then "//": a URL, not a path. Two characters at least, so that a
# Windows path (C://x) stays a path.
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+://")
_FSSPEC_HINT = "pip install 'baselinks[fsspec]'"


def is_url(source: object) -> bool:
    """Whether ``source`` is a URL to open (``https://...``, ``file:///...``, ``s3://...``)
    rather than a path: a ``str`` starting with a scheme and ``//``."""
    return isinstance(source, str) and _URL.match(source) is not None


def display_name(name: str) -> str:
    """A file name as text that can always be written: the bytes of a name that is not UTF-8
    (which Python holds as lone surrogates, ``caf\\udce9``) are shown as ``caf\\xe9``."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        try:
            return os.fsencode(name).decode("utf-8", "backslashreplace")
        except UnicodeEncodeError:  # a surrogate that no file name's byte gives
            return name.encode("utf-8", "backslashreplace").decode("utf-8")
    return name


def local_path(path: str) -> str | None:
    """The filesystem path of a local path or ``file://`` URL; None for another scheme."""
    if "://" not in path:
        return path
    parts = urllib.parse.urlsplit(path)
    if parts.scheme not in ("", "file"):
        return None
    from urllib.request import url2pathname  # here: it imports http.client and email

    return url2pathname(parts.path)


def open_input(path: str) -> BinaryIO:
    """A local path or ``file://`` URL opened to read bytes; another scheme through fsspec (the
    fsspec extra): ``http(s)://`` as a stream (one GET, never a range request), ``s3://``,
    ``gs://``... with the scheme's own driver. Without fsspec, or without the driver, an
    :class:`~baselinks.InputError` naming the extra to install."""
    local = local_path(path)
    if local is not None:
        return open(local, "rb")
    scheme = urllib.parse.urlsplit(path).scheme.lower()
    try:
        import fsspec  # optional
    except ImportError:
        raise InputError(
            f"reading {scheme}:// needs fsspec: {_FSSPEC_HINT} (and the scheme's own driver: "
            "aiohttp for http, s3fs, gcsfs...)",
            path,
        ) from None
    # http(s): block_size 0 is fsspec's streaming file (HTTPStreamFile), read as it comes;
    # else fsspec reads a file by ranges, a request per block. Every request asks for the
    # body as it is (identity), and aiohttp decodes nothing (see the module docstring).
    options: dict[str, Any] = {}
    if scheme in ("http", "https"):
        options = {
            "block_size": 0,
            "headers": {"Accept-Encoding": "identity"},
            "client_kwargs": {"auto_decompress": False},
        }
    try:
        return fsspec.open(path, "rb", **options).open()  # type: ignore[no-any-return]
    except (ImportError, ValueError) as exc:  # no driver for the scheme (s3fs...), a bad URL
        raise InputError(f"cannot open with fsspec: {exc}; {_FSSPEC_HINT}", path) from None
    except Exception as exc:
        raise InputError(f"cannot open: {_reason(exc)}", path) from None


def _reason(exc: BaseException) -> str:
    """Why fsspec could not open a URL, in a few words: fsspec's HTTP filesystem says
    ``FileNotFoundError(url)`` for every failure, the cause beneath it (aiohttp's) says which:
    ``HTTP 404 Not Found``, ``Connection refused``."""
    for each in (exc.__cause__, exc.__context__, exc):
        status = getattr(each, "status", None)
        if isinstance(status, int):
            return f"HTTP {status} {getattr(each, 'message', '')}".rstrip()
        inner = getattr(each, "os_error", each)  # aiohttp's ClientConnectorError wraps one
        if isinstance(inner, OSError) and inner.errno:
            return os.strerror(inner.errno)
    return "not found" if isinstance(exc, FileNotFoundError) else f"{type(exc).__name__}: {exc}"


class InputStream(NamedTuple):
    """An input opened: its stream, its label, and for a URL its retrieval URL (where the
    server's redirects ended) and the HTTP headers that say how to read it. A fetched body's
    stream has a ``damage`` ("" when it came whole and decoded), known once it is read."""

    stream: BinaryIO
    label: str
    url: str | None = None
    headers: tuple[tuple[str, str], ...] = ()


def _fetched(stream: BinaryIO, url: str) -> InputStream:
    """A URL input, with the URL its documents were retrieved from: for http(s), the one the
    server's redirects ended at and its ``Content-Type`` (a charset there wins over the page's
    ``<meta>``); for a file or storage URL, the URL itself, below a saved page's own record
    of its URL (``saved from url``): a copy's place is no better than a path."""
    response = getattr(stream, "r", None)  # fsspec's HTTPStreamFile: aiohttp's response
    if response is None:
        return InputStream(stream, url, MirroredURL(url))
    final = str(getattr(response, "url", url))
    headers = getattr(response, "headers", {})
    # its Content-Type's charset is the transport's (HTML: it wins over <meta charset>)
    kind = headers.get("Content-Type")
    raw: io.RawIOBase = _Unseekable(stream, headers.get("Content-Length"))
    # RFC 9110 §8.4: the codings in the order applied: removed last first
    for coding in reversed(_codings(headers.get("Content-Encoding") or "")):
        raw = DecodedStream(cast(BinaryIO, raw), coding)
    read = _Body(raw, 1 << 16)
    return InputStream(read, url, final, (("Content-Type", kind),) if kind else ())


def _codings(value: str) -> list[str]:
    return [
        coding
        for coding in value.lower().replace(" ", "").split(",")
        if coding != "identity" and coding
    ]


class _Body(io.BufferedReader):
    """A fetched body, buffered: its ``damage`` is its raw stream's (:class:`InputStream`)."""

    @property
    def damage(self) -> str:
        return str(getattr(self.raw, "damage", ""))


class _Unseekable(io.RawIOBase):
    """fsspec's HTTP stream as what it is, a stream: it says it can seek, then refuses to
    (``ValueError: Cannot seek streaming HTTP file``), where the readers would seek back
    after sniffing; this one says it cannot, and they keep what they read instead. A body
    that breaks off (the connection closed before its ``Content-Length``: aiohttp's
    ClientPayloadError) ends the stream, said in :attr:`damage`."""

    def __init__(self, stream: BinaryIO, length: str | None = None) -> None:
        self.stream, self.position, self.ended = stream, 0, False
        self.length = int(length) if length and length.strip().isdigit() else None
        self.damage = ""
        self.arrived = b""  # what came before the body broke off, not yet read

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        # at the end, never asked again (aiohttp warns of "Multiple access to StreamReader
        # in eof state", gzip and the sniffer read past the end)
        if self.arrived:
            data, self.arrived = self.arrived[: len(buffer)], self.arrived[len(buffer) :]
        else:
            try:
                data = b"" if self.ended or self.damage else self.stream.read(len(buffer))
            except Exception as exc:  # aiohttp's, fsspec's: the connection, not the input
                if not _broken_off(exc):
                    raise
                rest = _arrived(self.stream)
                self.damage = self._short(exc, self.position + len(rest))
                data, self.arrived = rest[: len(buffer)], rest[len(buffer) :]
        self.ended = not data
        buffer[: len(data)] = data
        self.position += len(data)
        return len(data)

    def _short(self, exc: BaseException, arrived: int) -> str:
        if self.length is not None and arrived < self.length:
            return (
                f"the body ended after {arrived:,} of its {self.length:,} bytes "
                "(Content-Length): what arrived was read"
            )
        reason = " ".join(str(exc).split()) or type(exc).__name__
        return f"the body broke off after {arrived:,} bytes ({reason}): what arrived was read"

    def tell(self) -> int:
        return self.position  # bytes read, for the progress display

    def close(self) -> None:
        self.stream.close()
        super().close()


def _arrived(stream: BinaryIO) -> bytes:
    """What of a body that broke off had arrived: aiohttp keeps it in its stream reader and
    raises ClientPayloadError instead of handing it over (a private method: nothing where
    another version has none)."""
    content = getattr(getattr(stream, "r", None), "content", None)
    try:
        return bytes(content._read_nowait(-1)) if content is not None else b""
    except Exception:  # another version of aiohttp: what arrived is not to be had
        return b""


def _broken_off(exc: BaseException) -> bool:
    """Whether reading a body failed for its connection: the network's errors and aiohttp's
    (a payload cut short: ClientPayloadError), known without importing aiohttp."""
    return isinstance(exc, OSError | TimeoutError | EOFError) or type(exc).__module__.startswith(
        ("aiohttp", "fsspec")
    )


def label(source: Source, name: str | None) -> str:
    """What the ``document`` field and the error lines call an input."""
    if name:
        return name
    if isinstance(source, bytes | bytearray | memoryview):
        return "-"
    if isinstance(source, str | os.PathLike):
        return display_name(os.fspath(source))
    return display_name(str(getattr(source, "name", "-")))


def open_source(source: Source, label: str, named: bool) -> InputStream | Skipped:
    """``source`` opened to read: a named path as a stream, whatever it is (a FIFO,
    ``<(zcat x.warc.gz)``, /dev/stdin); a path found in a directory walk only when it is a
    regular file (else :class:`Skipped`, saying what it is)."""
    if isinstance(source, bytes | bytearray | memoryview):
        return InputStream(io.BytesIO(bytes(source)), label)
    if is_url(source):
        assert isinstance(source, str)
        return _fetched(open_input(source), source)
    if isinstance(source, str | os.PathLike):
        kind = None if named else _special(source)
        if kind == LINKED_DIRECTORY:
            return Skipped(label, f"{kind} (not followed)")
        if kind is not None:
            return Skipped(label, f"not a regular file ({kind})")
        return InputStream(open(source, "rb"), label)
    if _on_terminal(source):
        # A terminal ends its input with Ctrl-D, once: a read then returns nothing, and the
        # next read waits for more (the sniffer, the readers and gzip read past the end:
        # three Ctrl-Ds were needed). What a person types is read whole at the first.
        return InputStream(io.BytesIO(source.read()), label)
    return InputStream(source, label)


def _on_terminal(stream: BinaryIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, OSError, ValueError):  # no isatty, closed
        return False


# What a directory walk meets in place of a symbolic link to a directory, which it does not
# follow: skipped and counted by this reason.
LINKED_DIRECTORY = "symbolic link to a directory"


def _special(path: str | os.PathLike[str]) -> str | None:
    """What a path found in a directory walk is when it is no regular file (never opened: a
    FIFO would wait for a writer forever, a device may do anything when opened), else None."""
    mode = os.stat(path).st_mode
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode) and os.path.islink(path):
        return LINKED_DIRECTORY
    for test, kind in _SPECIAL:
        if test(mode):
            return kind
    return "not a regular file"


_SPECIAL: tuple[tuple[Callable[[int], bool], str], ...] = (
    (stat.S_ISFIFO, "FIFO"),
    (stat.S_ISSOCK, "socket"),
    (stat.S_ISCHR, "character device"),
    (stat.S_ISBLK, "block device"),
    (stat.S_ISDIR, "directory"),
)


def is_directory(path: Source) -> bool:
    """Whether ``path`` names a directory (followed if a symlink); ``-`` is stdin, none."""
    if not isinstance(path, str | os.PathLike) or is_url(path) or path == "-":
        return False
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except OSError:
        return False  # reading it reports the error (too long a name...), by its name


def walk(directory: str | os.PathLike[str], unlisted: Callable[[OSError], None]) -> Iterator[str]:
    """The files under ``directory``, in name order, as the command line reads them; a folder
    that cannot be listed goes to ``unlisted`` and the walk goes on.

    A symbolic link to a directory is not followed, as ``grep -r``, ``find`` and ripgrep do not
    follow one (no loop, no page read twice, no walk out of the tree), but given in its place,
    for :func:`open_source` to skip (and the run to count)."""
    for root, dirs, files in os.walk(directory, onerror=unlisted):
        dirs.sort()
        linked = [name for name in dirs if os.path.islink(os.path.join(root, name))]
        for file in sorted(files + linked):
            yield os.path.join(root, file)
