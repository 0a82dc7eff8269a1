"""cli: the ``baselinks`` command. Arguments in, the public API and the writers wired, an exit
status out; no logic of its own beyond choosing and wiring.

    app.py            main(argv=None) -> int: the extract command, progress, signals
    arguments.py      the command line's grammar: each subcommand, its options, their types
    extractoptions.py extract's --url, --root-url and --stats: their rules and the report
    urlcommands.py    resolve, parse and check: the URL engine alone
    graphcommand.py   graph and ranks: a link graph of the inputs (graph/), its vertices ranked

``main`` is the console script's entry point (``baselinks.cli:main``).
"""

from .app import main

__all__ = ["main"]
