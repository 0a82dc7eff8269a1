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

import zlib
from collections.abc import Callable
from typing import Any, NamedTuple

from ...errors import InputError

__all__ = ["MAX_DECODED_BYTES", "Body", "DecodeError", "decode_coding", "inflate"]

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
