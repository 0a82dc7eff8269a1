"""Documents and links found in archives and messages: baselinks against a typical script.

    python benchmarks/compare_containers.py CORPUS_DIR

For each file under CORPUS_DIR/{warc,mhtml,eml,http} (index.tsv gives retrieval URLs):

* baselinks: ``iter_links(path, url=retrieval_url)``, errors collected, a Summary per kind;
* the typical script: warcio's ``ArchiveIterator`` and ``content_stream()`` (what its README
  shows) for WARC/ARC, ``email`` with ``policy.default`` for MIME, a header split for HTTP;
  each HTML payload through the lxml ``iterlinks()`` + first ``<base>`` + ``urljoin`` of
  ``compare_links.py``, the base being the record's target URI or the part's own
  Content-Location (not resolved against anything around it). Its failures are counted too.

It prints per kind: files, documents, links for both, and every file that failed and why.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import defaultdict
from email import policy
from email.parser import BytesParser
from pathlib import Path

from compare_links import lxml_links

from baselinks import InputError, Summary, iter_links

KINDS = ("warc", "mhtml", "eml", "http")


def peer_payloads(kind: str, path: Path, url: str) -> list[tuple[bytes, str]]:
    """(HTML payload, base) as a script built on warcio / email would find them."""
    found: list[tuple[bytes, str]] = []
    if kind == "warc":
        from warcio.archiveiterator import ArchiveIterator

        with open(path, "rb") as stream:
            for record in ArchiveIterator(stream, arc2warc=True):
                if record.rec_type not in ("response", "resource"):
                    continue
                headers = record.http_headers
                ctype = (
                    headers.get_header("Content-Type") if headers else record.content_type
                ) or ""
                if "html" in ctype.lower():
                    target = record.rec_headers.get_header("WARC-Target-URI") or ""
                    found.append((record.content_stream().read(), target))
    elif kind in ("mhtml", "eml"):
        message = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        for part in message.walk():
            if part.get_content_type() in ("text/html", "application/xhtml+xml"):
                body = part.get_payload(decode=True)
                location = str(part.get("content-location") or "")
                found.append((body if isinstance(body, bytes) else b"", location or url))
    else:
        data = path.read_bytes()
        head, _, body = data.partition(b"\n\n")
        if b"\r\n\r\n" in data and data.index(b"\r\n\r\n") < len(head):
            head, _, body = data.partition(b"\r\n\r\n")
        if b"html" in head.lower():
            found.append((body, url))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", type=Path)
    args = parser.parse_args()
    urls: dict[str, str] = {}
    with open(args.corpus / "index.tsv", encoding="utf-8") as index:
        for row in csv.DictReader(index, delimiter="\t"):
            urls[row["relpath"]] = row["retrieval_url"]
    columns = ["kind", "files", "baselinks documents", "links", "failed files"]
    columns += ["peer documents", "links", "failed files"]
    print("| " + " | ".join(columns) + " |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    failures: dict[str, list[str]] = defaultdict(list)
    for kind in KINDS:
        files = sorted(p for p in (args.corpus / kind).rglob("*") if p.is_file())
        summary = Summary()
        failed_files = set()
        peer_docs = peer_links = peer_failed = 0
        for path in files:
            rel = str(path.relative_to(args.corpus))
            url = urls.get(rel) or None

            errors: list[InputError] = []
            for _ in iter_links(path, url=url, name=rel, on_error=errors.append, summary=summary):
                pass
            if errors:
                failed_files.add(rel)
                failures[kind] += [f"baselinks: {error}" for error in errors]
            try:
                payloads = peer_payloads(kind, path, url or "")
            except Exception as exc:
                peer_failed += 1
                failures[kind].append(
                    f"peer: {rel}: {type(exc).__name__}: {' '.join(str(exc).split())[:100]}"
                )
                continue
            peer_docs += len(payloads)
            peer_links += sum(len(lxml_links(body, base)) for body, base in payloads)
        print(
            f"| {kind} | {len(files)} | {summary.documents:,} | {summary.links:,} | "
            f"{len(failed_files)} | {peer_docs:,} | {peer_links:,} | {peer_failed} |"
        )
    for kind, lines in failures.items():
        print(f"\n{kind}:")
        for line in lines:
            print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
