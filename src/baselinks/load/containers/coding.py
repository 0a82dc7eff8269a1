"""Content codings (RFC 9110 §8.4.1): gzip, deflate, br, zstd, decoded and verified.

Each decoder is fed the body in pieces, with a cap on its output (a few kilobytes of gzip can
claim gigabytes; warcio's decoders have no cap, and its brotli decoder fails with brotli 1.2).
What each one checks, and what a failure gives:

    the data ends before the stream does       what decoded, and "cut short"
    damage inside the stream (a flipped byte)  what decoded before it, and "damaged"
    gzip's CRC-32 or length does not match     all that decoded, and "damaged"
    bytes after the end of the stream          the stream; NULs and white space are padding
                                               (``gzip -dc`` accepts them), other bytes named

A body that does not decode from its first byte is one of two things. Archives keep bodies
already decoded under their original ``Content-Encoding``, and crawlers hand over bodies their
HTTP library decoded: text is taken as it is. Bytes that look binary are compressed data
damaged at its start: nothing of them is read (never compressed bytes parsed as HTML).
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Callable
from typing import Any, BinaryIO, NamedTuple

from ...errors import InputError

__all__ = [
    "MAX_DECODED_BYTES",
    "Body",
    "DecodeError",
    "DecodedStream",
    "decode_coding",
    "inflate",
]

# A decoded body larger than this is refused with an InputError ("decompression bomb").
MAX_DECODED_BYTES = 256 * 2**20

_PIECE = 64 << 10  # compressed bytes fed to a decoder at a time
_PADDING = b"\x00\t\n\r "


class Body(NamedTuple):
    """Decoded bytes, and what went wrong ("" when the whole stream decoded and checked)."""

    data: bytes
    problem: str


class DecodeError(Exception):
    """A compressed stream damaged: what its decoder said (``reason``, the message), and what
    decoded before the damage (``kept``, empty when nothing did)."""

    def __init__(self, reason: str, kept: bytes = b"") -> None:
        super().__init__(reason)
        self.reason = reason
        self.kept = kept


def _too_large() -> InputError:
    return InputError(f"decoded body larger than {MAX_DECODED_BYTES} bytes")


def _replay(saved: Any, piece: memoryview, budget: int) -> bytes:
    """What a decoder (``saved``, copied before ``piece``) gives from ``piece`` before the
    byte it fails on: fed one byte at a time, only after a failure."""
    out: list[bytes] = []
    for index in range(len(piece)):
        try:
            out.append(saved.decompress(piece[index : index + 1], budget))
        except zlib.error:
            break
    return b"".join(out)


def _one_stream(data: bytes, start: int, wbits: int, total: int) -> tuple[list[bytes], int, str]:
    """One zlib/deflate/gzip stream from ``start``: its output, where it ended (-1: it did
    not), and what was wrong with it."""
    inflater = zlib.decompressobj(wbits)
    out: list[bytes] = []
    position = start
    size = 1024  # doubling up to _PIECE: an empty member does not cost a 64 KiB copy
    view = memoryview(data)
    while position < len(data) and not inflater.eof:
        piece = view[position : position + size]
        size = min(2 * size, _PIECE)
        saved = inflater.copy()
        try:
            chunk = inflater.decompress(piece, MAX_DECODED_BYTES + 1 - total)
        except zlib.error as exc:
            out.append(_replay(saved, piece, MAX_DECODED_BYTES + 1 - total))
            return out, -1, f"damaged ({exc})"
        total += len(chunk)
        out.append(chunk)
        if total > MAX_DECODED_BYTES or inflater.unconsumed_tail:
            raise _too_large()
        position += len(piece)
    if not inflater.eof:
        return out, -1, "cut short"
    return out, position - len(inflater.unused_data), ""


def inflate(data: bytes, wbits: int) -> Body:
    """zlib, raw deflate or gzip (every member, RFC 1952 §2.2) decoded and checked, capped at
    :data:`MAX_DECODED_BYTES`. Raises :class:`DecodeError` when nothing decodes from the first
    byte."""
    out: list[bytes] = []
    total = 0
    start = 0
    while True:
        chunks, end, problem = _one_stream(data, start, wbits, total)
        produced = sum(map(len, chunks))
        if problem.startswith("damaged") and start == 0 and not produced:
            raise DecodeError(problem)
        out += chunks
        total += produced
        if problem or end >= len(data):
            return Body(b"".join(out), problem)
        if wbits > zlib.MAX_WBITS and data.startswith(b"\x1f\x8b", end):
            start = end  # the next gzip member (no copy of the rest: n members, linear)
            continue
        rest = data[end:]
        if not rest.strip(_PADDING):
            return Body(b"".join(out), "")
        return Body(b"".join(out), f"{len(rest)} bytes after the end of the compressed data")


# A decoder that raises on damage (brotli, zstd): a fresh feed, and the exception class its
# library raises on damaged data (brotli.error, zstd.ZstdError), known only once imported.
Decoder = tuple[Callable[[], Callable[[bytes], bytes]], type[Exception]]


def _pieces(decoder: Decoder, data: bytes) -> list[bytes]:
    """``decoder``'s output, fed in pieces; after a failure, fed again from the start and one
    byte at a time through the failing piece, so that what decoded before the damage is kept.
    Raises :class:`DecodeError` with what the decoder said and that output."""
    new, damaged = decoder
    out: list[bytes] = []
    total = 0
    feed = new()
    for position in range(0, len(data), _PIECE):
        try:
            chunk = feed(data[position : position + _PIECE])
        except damaged as exc:
            replay = new()
            kept = [replay(data[:position])] if position else []
            for index in range(position, min(position + _PIECE, len(data))):
                try:
                    kept.append(replay(data[index : index + 1]))
                except damaged:  # the same failure, reached
                    break
            raise DecodeError(str(exc) or type(exc).__name__, b"".join(kept)) from None
        total += len(chunk)
        if total > MAX_DECODED_BYTES:
            raise _too_large()
        out.append(chunk)
    return out


def _streaming(decoder: Decoder, data: bytes, done: Any) -> Body:
    try:
        out = _pieces(decoder, data)
    except DecodeError as exc:
        if not exc.kept:
            raise
        return Body(exc.kept, f"damaged ({exc.reason})")
    return Body(b"".join(out), "" if done() else "cut short")


def _brotli(data: bytes) -> Body:
    import brotli  # an install requirement; imported here so plain HTML never pays for it

    decoders: list[Any] = []

    def decoder() -> Callable[[bytes], bytes]:
        decoders.append(brotli.Decompressor())
        process = decoders[-1].process
        return lambda piece: bytes(process(piece, output_buffer_limit=MAX_DECODED_BYTES + 1))

    return _streaming((decoder, brotli.error), data, lambda: decoders[-1].is_finished())


def _zstd(data: bytes) -> Body:
    try:
        from compression import zstd  # type: ignore[import-not-found,unused-ignore]  # 3.14+
    except ImportError:
        try:
            from backports import zstd  # type: ignore[import-not-found,no-redef,unused-ignore]
        except ImportError:
            raise InputError(
                "Content-Encoding zstd needs Python 3.14 or the backports.zstd package"
            ) from None
    decoders: list[Any] = []
    after: list[bytes] = []  # pieces fed after the end of the frame

    def decoder() -> Callable[[bytes], bytes]:
        decoders.append(zstd.ZstdDecompressor())
        one = decoders[-1]
        after.clear()

        def feed(piece: bytes) -> bytes:
            if one.eof:
                after.append(piece)
                return b""
            return bytes(one.decompress(piece, max_length=MAX_DECODED_BYTES + 1))

        return feed

    body = _streaming((decoder, zstd.ZstdError), data, lambda: decoders[-1].eof)
    last = decoders[-1]
    if last.eof and not body.problem:
        rest = last.unused_data + b"".join(after)
        if rest.strip(_PADDING):
            return Body(body.data, f"{len(rest)} bytes after the end of the compressed data")
    return body


def _looks_binary(data: bytes) -> bool:
    """Control characters other than white space in the first bytes: not text."""
    head = data[:512]
    return any(byte < 0x09 or 0x0E <= byte < 0x20 for byte in head)


def decode_coding(data: bytes, coding: str, field: str = "Content-Encoding") -> Body:
    """``data`` with one content coding removed (see the module's table); ``field``: the
    header that named it (``Transfer-Encoding`` lists them too), for the error."""
    if not data:
        return Body(b"", "")  # a HEAD response, a 304: nothing was coded
    try:
        if coding in ("gzip", "x-gzip"):
            return inflate(data, 16 + zlib.MAX_WBITS)
        if coding == "deflate":
            try:  # RFC 9110 §8.4.1.2 says zlib format; many servers send raw deflate
                return inflate(data, zlib.MAX_WBITS)
            except DecodeError:
                return inflate(data, -zlib.MAX_WBITS)
        if coding == "br":
            return _brotli(data)
        if coding == "zstd":
            return _zstd(data)
    except DecodeError as exc:
        if _looks_binary(data):
            return Body(b"", f"does not decode ({exc.reason}): nothing of the body is read")
        return Body(data, "")  # not encoded after all (see above)
    raise InputError(f"unknown {field} {coding!r}")


# --- a stream decoded as it is read: a body fetched with a Content-Encoding ------------------

# Decoded bytes made at a time (raw ones are read _PIECE at a time): what is held between two
# reads of the stream.
_OUT = 1 << 20


class _Inflater:
    """gzip (every member, RFC 1952 §2.2), or deflate (zlib, RFC 9110 §8.4.1.2; raw deflate,
    which many servers send, where the zlib header is not there): :class:`DecodedStream`'s
    decoder, made fed a piece at a time, never more than _OUT bytes out of one step."""

    piece = _PIECE  # raw bytes fed at a time: on damage, what they made is replayed (_replay)

    def __init__(self, coding: str) -> None:
        self.coding = coding
        self.gzip = coding in ("gzip", "x-gzip")
        self.wbits = 16 + zlib.MAX_WBITS if self.gzip else zlib.MAX_WBITS
        self.inflater = zlib.decompressobj(self.wbits)
        self.waiting = b""  # input not yet fed (the next gzip member)
        self.after = 0  # bytes after the end of the compressed data (not NULs, white space)
        self.raw_deflate_tried = self.gzip

    def needs_input(self) -> bool:
        return not self.waiting and not self.inflater.unconsumed_tail

    def finished(self) -> bool:
        return self.inflater.eof and not self.waiting

    def step(self, data: bytes) -> bytes:
        if self.inflater.eof:
            if not self.waiting:
                self._after_end(data)
                return b""
            self.inflater = zlib.decompressobj(self.wbits)  # the next member
        data = self.waiting + self.inflater.unconsumed_tail + data
        self.waiting = b""
        saved = self.inflater.copy()
        try:
            out = self.inflater.decompress(data, _OUT)
        except zlib.error as exc:  # what decoded before the damage, kept (_replay)
            raise DecodeError(str(exc), _replay(saved, memoryview(data), _OUT)) from None
        if self.inflater.eof and self.inflater.unused_data:
            rest = self.inflater.unused_data
            if self.gzip and rest.startswith(b"\x1f\x8b"):
                self.waiting = rest
            else:
                self._after_end(rest)
        return bytes(out)

    def retry_raw(self) -> bool:
        """For deflate that does not decode as zlib: once, as raw deflate."""
        if self.raw_deflate_tried:
            return False
        self.raw_deflate_tried = True
        self.wbits = -zlib.MAX_WBITS
        self.inflater = zlib.decompressobj(self.wbits)
        return True

    def _after_end(self, rest: bytes) -> None:
        self.after += len(rest.strip(_PADDING)) and len(rest)


# brotli and zstd have no copy of their state: what the piece they fail in would have made is
# lost, so their pieces are small.
_SMALL_PIECE = 1 << 10


class _Brotli:
    piece = _SMALL_PIECE

    def __init__(self, coding: str) -> None:
        import brotli  # an install requirement; imported when a body needs it

        self.coding = coding
        self.error: type[Exception] = brotli.error
        self.decoder = brotli.Decompressor()
        self.after = 0

    def needs_input(self) -> bool:
        return bool(self.decoder.can_accept_more_data())

    def finished(self) -> bool:
        return bool(self.decoder.is_finished())

    def step(self, data: bytes) -> bytes:
        if self.decoder.is_finished():
            self.after += len(data.strip(_PADDING)) and len(data)
            return b""
        return bytes(self.decoder.process(data, output_buffer_limit=_OUT))

    def retry_raw(self) -> bool:
        return False


class _Zstd:
    piece = _SMALL_PIECE

    def __init__(self, coding: str) -> None:
        try:
            from compression import zstd  # type: ignore[import-not-found,unused-ignore]  # 3.14+
        except ImportError:
            try:
                from backports import zstd  # type: ignore[import-not-found,no-redef,unused-ignore]
            except ImportError:
                raise InputError(
                    "Content-Encoding zstd needs Python 3.14 or the backports.zstd package"
                ) from None
        self.coding = coding
        self.error: type[Exception] = zstd.ZstdError
        self.decoder = zstd.ZstdDecompressor()
        self.after = 0

    def needs_input(self) -> bool:
        return bool(self.decoder.needs_input) or self.decoder.eof

    def finished(self) -> bool:
        return bool(self.decoder.eof)

    def step(self, data: bytes) -> bytes:
        if self.decoder.eof:
            self.after += len(data.strip(_PADDING)) and len(data)
            return b""
        out = bytes(self.decoder.decompress(data, max_length=_OUT))
        if self.decoder.eof:  # what came after the frame in this piece
            rest = self.decoder.unused_data
            self.after += len(rest.strip(_PADDING)) and len(rest)
        return out

    def retry_raw(self) -> bool:
        return False


_DECODERS: dict[str, Callable[[str], Any]] = {
    "gzip": _Inflater,
    "x-gzip": _Inflater,
    "deflate": _Inflater,
    "br": _Brotli,
    "zstd": _Zstd,
}


class DecodedStream(io.RawIOBase):
    """``raw`` with one content coding removed as it is read: a body fetched from a server,
    which baselinks decodes itself (asking for ``identity``, which a server may ignore) so
    that the caps of every reader hold (nothing is decoded before it is asked for: a reader
    that stops at its cap stops the decoding there). The rules are :func:`decode_coding`'s:
    what decoded before damage is kept; a body that does not decode from its first byte is
    text taken as it is, or, looking binary, nothing. :attr:`damage` says what went wrong, once
    the stream is read ("" when nothing did); a ``damage`` of ``raw``'s own comes first."""

    def __init__(self, raw: BinaryIO, coding: str, field: str = "Content-Encoding") -> None:
        super().__init__()
        self.raw = raw
        self.label = f"{field} {coding}"
        make = _DECODERS.get(coding)
        if make is None:
            raise InputError(f"unknown {field} {coding!r}")
        self.decoder = make(coding)
        self.pending = bytearray()  # decoded, not yet read
        self.first = bytearray()  # raw bytes read before any decoded: the as-is fallback
        self.decoded = 0
        self.ended = False
        self.as_is = False  # not coded after all: the raw bytes handed on
        self.problem = ""

    def readable(self) -> bool:
        return True

    @property
    def damage(self) -> str:
        own = getattr(self.raw, "damage", "")
        if own or not self.problem:
            return str(own)
        kept = f": the {self.decoded} bytes decoded were read" if self.decoded else ""
        return f"{self.label}: {self.problem}{kept}"

    def readinto(self, buffer: Any) -> int:
        while not self.pending and not self.ended:
            self._more()
        size = min(len(buffer), len(self.pending))
        buffer[:size] = self.pending[:size]
        del self.pending[:size]
        return size

    def _more(self) -> None:
        decoder = self.decoder
        if self.as_is:
            data = self.raw.read(_PIECE)
            self.pending += data
            self.ended = not data
            return
        data = self.raw.read(decoder.piece) if decoder.needs_input() else b""
        if not data and decoder.needs_input():
            self.ended = True
            if not decoder.finished() and (self.decoded or self.first):
                self.problem = "cut short"
            elif decoder.after:
                self.problem = f"{decoder.after} bytes after the end of the compressed data"
            return
        if not self.decoded:
            self.first += data
        try:
            out = decoder.step(data)
        except DecodeError as exc:
            self.pending += exc.kept
            self.decoded += len(exc.kept)
            self._failed(exc.reason)
            return
        except Exception as exc:
            if not isinstance(exc, (zlib.error, *_errors(decoder))):
                raise
            self._failed(str(exc) or type(exc).__name__)
            return
        if out:
            self.decoded += len(out)
            self.first = bytearray()
            self.pending += out

    def _failed(self, reason: str) -> None:
        if self.decoded:
            self.ended, self.problem = True, f"damaged ({reason})"
            return
        first = bytes(self.first)
        if self.decoder.retry_raw():  # deflate that is raw deflate
            try:
                out = self.decoder.step(first)
            except DecodeError:
                pass
            else:
                self.decoded += len(out)
                self.pending += out
                if out:
                    self.first = bytearray()
                return
        replayed = _replayed(self.decoder, first)  # what decoded before the failing byte
        if replayed:
            self.ended, self.problem = True, f"damaged ({reason})"
            self.decoded += len(replayed)
            self.pending += replayed
            return
        # nothing decoded from the first byte: text as it came, or binary: nothing of it
        if _looks_binary(first):
            self.ended = True
            self.problem = f"does not decode ({reason}): nothing of the body is read"
            return
        self.as_is = True
        self.pending += first


def _replayed(decoder: Any, first: bytes) -> bytes:
    """What a fresh decoder like ``decoder`` makes of ``first`` (all that was fed, nothing
    decoded from it) before the byte it fails on: fed a byte at a time, after a failure only."""
    fresh = type(decoder)(decoder.coding)
    if getattr(decoder, "wbits", None) == -zlib.MAX_WBITS:
        fresh.retry_raw()  # raw deflate, as the decoder had found it
    out: list[bytes] = []
    for index in range(len(first)):
        try:
            out.append(fresh.step(first[index : index + 1]))
            while not fresh.needs_input():
                out.append(fresh.step(b""))
        except Exception:  # the same failure, reached
            break
    return b"".join(out)


def _errors(decoder: Any) -> tuple[type[Exception], ...]:
    error = getattr(decoder, "error", None)
    return (error,) if error is not None else ()
