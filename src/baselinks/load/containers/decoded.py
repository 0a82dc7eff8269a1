"""decoded: a stream with one content coding removed as it is read (a URL input's body).

coding.py decodes a body held whole, with a cap on its output; this module does the same a
piece at a time, for a body fetched from a server that codes it though asked for
``identity``: nothing is decoded before a reader asks for it, so a reader's own cap (a
document read whole: 256 MiB) stops the decoding there, where aiohttp's decoding held all it
decoded (2 MB of gzip: 1.38 GB). The rules are coding.py's (:func:`~.coding.decode_coding`),
what each failure gives too: a property test holds the two equal.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Callable
from typing import Any, BinaryIO

from ...errors import InputError
from .coding import _PADDING, _PIECE, DecodeError, _looks_binary, _replay

__all__ = ["DecodedStream"]

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
