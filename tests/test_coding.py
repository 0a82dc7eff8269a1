"""Content-coded bodies (gzip, deflate, br, zstd): decoded and checked, damage reported, what
decoded kept, and compressed bytes never parsed as HTML."""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Callable

import brotli
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baselinks import InputError, extract_links
from baselinks.api import Summary
from baselinks.load.containers import coding

# 8,000 links, 250 KB: more than one zstd block (128 KiB), so a cut frame still decodes some
PAGE = b"<!DOCTYPE html>" + b"".join(b'<a href="/p%d">page %d</a>\n' % (i, i) for i in range(8000))
URLS = [f"http://e.example/p{i}" for i in range(8000)]


def _zstd(data: bytes) -> bytes:
    try:
        from compression import zstd  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        from backports import zstd  # type: ignore[import-not-found,no-redef,unused-ignore]
    # with the frame's checksum (not zstd's default): without it, a flipped byte may decode
    # to other bytes and nothing can tell
    return bytes(zstd.compress(data, options={zstd.CompressionParameter.checksum_flag: 1}))


ENCODERS: dict[str, Callable[[bytes], bytes]] = {
    "gzip": lambda b: gzip.compress(b, mtime=0),
    "deflate": zlib.compress,
    "br": brotli.compress,
    "zstd": _zstd,
}


def _response(coding_name: str, body: bytes) -> bytes:
    head = f"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: {coding_name}\r\n\r\n"
    return head.encode() + body


def _extract(data: bytes) -> tuple[list[str], list[InputError], Summary]:
    errors: list[InputError] = []
    summary = Summary()
    links = extract_links(
        data, url="http://e.example/", name="r", on_error=errors.append, summary=summary
    )
    return [link.url for link in links], errors, summary


def _flip(data: bytes, at: int) -> bytes:
    damaged = bytearray(data)
    damaged[at] ^= 0x55
    return bytes(damaged)


@pytest.mark.parametrize("name", ENCODERS)
def test_intact_bodies_decode(name: str) -> None:
    urls, errors, _ = _extract(_response(name, ENCODERS[name](PAGE)))
    assert urls == URLS and errors == []


@pytest.mark.parametrize("name", ENCODERS)
def test_a_body_cut_short_keeps_what_decoded(name: str) -> None:
    body = ENCODERS[name](PAGE)
    urls, errors, _ = _extract(_response(name, body[: len(body) * 2 // 3]))
    assert 0 < len(urls) < len(URLS)
    assert urls == URLS[: len(urls) - 1] + urls[-1:]  # the last link may be cut
    decoded = len(PAGE[: PAGE.index(urls[-1].rpartition("/")[2].encode())])
    assert len(errors) == 1
    message = errors[0].message
    assert message.startswith(f"Content-Encoding {name}: cut short: the ")
    assert int(message.split()[-5]) >= decoded  # every byte before the last link's


@pytest.mark.parametrize("name", ENCODERS)
def test_damage_mid_stream_keeps_what_decoded_before_it(name: str) -> None:
    body = ENCODERS[name](PAGE)
    urls, errors, _ = _extract(_response(name, _flip(body, len(body) * 9 // 10)))
    assert len(errors) == 1
    # "cut short" when the damage made the decoder wait for more than there is
    assert errors[0].message.startswith(
        (f"Content-Encoding {name}: damaged (", f"Content-Encoding {name}: cut short")
    )
    # The links before the damage are those of the page, in order; none is compressed junk.
    # After it, a decoder may give other bytes before its checks fail: they are kept too.
    assert urls[:2000] == URLS[:2000]


def test_a_gzip_crc_mismatch_is_reported_and_the_body_kept() -> None:
    body = gzip.compress(PAGE, mtime=0)
    damaged = body[:-8] + _flip(body[-8:], 0)  # the CRC-32 of the trailer
    urls, errors, _ = _extract(_response("gzip", damaged))
    assert urls == URLS
    assert [e.message for e in errors] == [
        "Content-Encoding gzip: damaged (Error -3 while decompressing data: incorrect data "
        f"check): the {len(PAGE)} bytes decoded were read"
    ]


def test_a_gzip_length_mismatch_is_reported() -> None:
    body = gzip.compress(PAGE, mtime=0)
    urls, errors, _ = _extract(_response("gzip", body[:-4] + _flip(body[-4:], 0)))
    assert urls == URLS
    assert "incorrect length check" in errors[0].message


@pytest.mark.parametrize("padding", [b"\r\n", b"\x00" * 20, b"\r\n\r\n\x00\x00"])
def test_padding_after_a_gzip_body_is_no_damage(padding: bytes) -> None:
    urls, errors, _ = _extract(_response("gzip", gzip.compress(PAGE) + padding))
    assert urls == URLS and errors == []


@pytest.mark.parametrize("name", ["gzip", "deflate", "zstd"])
def test_bytes_after_the_stream_are_reported(name: str) -> None:
    urls, errors, _ = _extract(_response(name, ENCODERS[name](PAGE) + b"JUNK"))
    assert urls == URLS
    assert [e.message for e in errors] == [
        f"Content-Encoding {name}: 4 bytes after the end of the compressed data: "
        f"the {len(PAGE)} bytes decoded were read"
    ]


def test_compressed_bytes_damaged_at_their_start_are_not_parsed_as_html() -> None:
    body = gzip.compress(PAGE)
    urls, errors, _ = _extract(_response("gzip", b"\x00" + body[1:]))
    assert urls == []
    assert len(errors) == 1 and "does not decode" in errors[0].message


def test_a_body_kept_decoded_under_its_coding_is_read_as_it_is() -> None:
    urls, errors, _ = _extract(_response("gzip", PAGE))
    assert urls == URLS and errors == []


def test_an_html_gz_with_trailing_zeros_is_read() -> None:
    # gzip -dc reads it (the padding of a tape or a block device); it was refused whole
    urls, errors, _ = _extract(gzip.compress(PAGE) + b"\x00" * 512)
    assert urls == URLS and errors == []


def test_an_html_gz_damaged_mid_stream_keeps_what_decoded() -> None:
    body = gzip.compress(PAGE)
    urls, errors, _ = _extract(_flip(body, len(body) * 9 // 10))
    assert urls[:2000] == URLS[:2000]
    assert len(errors) == 1 and errors[0].message.startswith(("gzip data damaged", "gzip data cut"))


def test_inflate_checks_every_member() -> None:
    two = gzip.compress(b"ab") + gzip.compress(b"cd")
    assert coding.inflate(two, 31) == coding.Body(b"abcd", "")
    assert coding.inflate(two[:-3], 31) == coding.Body(b"abcd", "cut short")
    with pytest.raises(coding.DecodeError, match="unknown compression method"):
        coding.inflate(b"\x1f\x8b\x07\x00 not deflate", 31)  # compression method 7


class _Counted(bytes):
    """Bytes that count how many bytes their slices copy."""

    copied = 0

    def __getitem__(self, key: object) -> object:  # type: ignore[override]
        item = super().__getitem__(key)  # type: ignore[index]
        if isinstance(item, bytes):
            _Counted.copied += len(item)
        return item


def test_many_empty_gzip_members_are_not_copied_one_by_one() -> None:
    # was: the rest of the data copied after each member, n members quadratic
    data = _Counted(gzip.compress(b"", mtime=0) * 5000 + gzip.compress(b"<a href=x>", mtime=0))
    _Counted.copied = 0
    assert coding.inflate(data, 31) == coding.Body(b"<a href=x>", "")
    assert _Counted.copied <= 2 * len(data)


def _failing(error: Exception) -> Callable[[], Callable[[bytes], bytes]]:
    def new() -> Callable[[bytes], bytes]:
        def feed(piece: bytes) -> bytes:
            raise error

        return feed

    return new


def test_only_the_decoders_own_error_is_damage() -> None:
    # brotli.error or ZstdError is damage, kept as a DecodeError; any other exception (a bug)
    # is not taken for damaged data (it was: every Exception was caught)
    with pytest.raises(coding.DecodeError) as caught:
        coding._pieces((_failing(ValueError("corrupt")), ValueError), b"data")
    assert (caught.value.reason, caught.value.kept) == ("corrupt", b"")
    with pytest.raises(TypeError):
        coding._pieces((_failing(TypeError("a bug")), ValueError), b"data")


# --- issue 36: a body decoded as it is read (a URL input's), by decode_coding's rules --------


def _streams() -> dict[str, bytes]:
    import gzip as gzip_module

    import brotli

    from baselinks.load.containers.coding import _zstd  # (the zstd module, as coding finds it)

    page = b"<a href=x>" * 20_000
    coded = {
        "gzip": gzip_module.compress(page) + gzip_module.compress(b"<a href=tail>"),
        "deflate": zlib.compress(page),
        "raw deflate": zlib.compress(page)[2:-4],
        "br": brotli.compress(page),
    }
    try:
        _zstd(b"")
    except InputError:
        return coded  # no zstd here: the others
    try:
        from compression import zstd  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        from backports import zstd  # type: ignore[import-not-found,no-redef,unused-ignore]
    return {**coded, "zstd": zstd.compress(page)}


_CODED = _streams()


@settings(max_examples=300)
@given(
    st.sampled_from(sorted(_CODED)),
    st.sampled_from(["whole", "cut", "flip", "after", "text", "binary"]),
    st.integers(min_value=0, max_value=1 << 30),
    st.integers(min_value=0, max_value=7),
)
def test_a_stream_decoded_as_it_is_read_gives_what_decode_coding_gives(
    name: str, damage: str, at: int, bit: int
) -> None:
    import io

    from baselinks.load.containers.decoded import DecodedStream

    data = _CODED[name]
    at %= len(data)
    body = {
        "whole": data,
        "cut": data[:at],
        "flip": data[:at] + bytes([data[at] ^ (1 << bit)]) + data[at + 1 :],
        "after": data + b"junk",
        "text": b"<a href=plain>",
        "binary": b"\x00\x01" * 300,
    }[damage]
    which = name.split()[-1]
    stream = DecodedStream(io.BytesIO(body), which)
    decoded = b"".join(iter(lambda: stream.read(65536), b""))
    expected = coding.decode_coding(body, which)
    assert decoded == expected.data
    assert bool(stream.damage) == bool(expected.problem)


def test_a_stream_decoded_as_it_is_read_decodes_no_more_than_is_asked() -> None:
    # a bomb read through it: what is decoded is what the reader asked for, and a little more
    import io

    from baselinks.load.containers.decoded import DecodedStream

    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    bomb = packer.compress(bytes(256 << 20)) + packer.flush()
    stream = DecodedStream(io.BytesIO(bomb), "gzip")
    assert len(stream.read(1 << 20)) == 1 << 20
    assert stream.decoded <= 2 << 20
