"""run: inputs → units of work → each document's links, in input order, counted.

Open first: batch.py

    batch.py      Input, Source, Task, Done, Summary: inputs read in order, one document at a
                  time or in units for workers; a failure costs its input only, and is counted
    workers.py    units spread over processes (-j N), results in input order; signals

It runs a per-document function it is handed (api.py's pipeline): it never parses, never
resolves.
"""
