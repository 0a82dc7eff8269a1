"""``baselinks --generate KIND``: the manual page and the shell completions, made from the
command line's own parser (arguments.py), so that they never lag behind it. As ripgrep's and
lychee's ``--generate``:

    baselinks --generate man > ~/.local/share/man/man1/baselinks.1      argparse-manpage
    baselinks --generate complete-bash > ~/.local/share/bash-completion/completions/baselinks
    baselinks --generate complete-zsh > ~/.zfunc/_baselinks            shtab
    baselinks --generate complete-fish > ~/.config/fish/completions/baselinks.fish   (here)

argparse-manpage and shtab are the ``shell`` extra; without it, one line says how to get it.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

__all__ = ["GENERATE", "generate"]

GENERATE = ("man", "complete-bash", "complete-zsh", "complete-fish")
_EXTRA = "pip install 'baselinks[shell]'"


class MissingTool(Exception):
    """What is generated needs a package that is not installed: the message says which."""


def generate(kind: str, parser: argparse.ArgumentParser) -> str:
    """The text of ``kind`` (one of :data:`GENERATE`) for ``parser``; :class:`MissingTool`
    when its package (the ``shell`` extra) is not installed."""
    makers: dict[str, Callable[[argparse.ArgumentParser], str]] = {
        "man": _man,
        "complete-bash": lambda parser: _shtab(parser, "bash"),
        "complete-zsh": lambda parser: _shtab(parser, "zsh"),
        "complete-fish": _fish,
    }
    return makers[kind](parser)


def _man(parser: argparse.ArgumentParser) -> str:
    try:
        from argparse_manpage.manpage import Manpage
    except ImportError:
        raise MissingTool(f"--generate man needs argparse-manpage: {_EXTRA}") from None
    from .._version import __version__

    data = {
        "project_name": "baselinks",
        "version": __version__,
        "manual_title": "baselinks manual",
        "description": "extract every link from crawled documents, resolved as RFC 1808 says",
    }
    return str(Manpage(parser, _data=data))


def _shtab(parser: argparse.ArgumentParser, shell: str) -> str:
    try:
        import shtab
    except ImportError:
        raise MissingTool(f"--generate complete-{shell} needs shtab: {_EXTRA}") from None
    return str(shtab.complete(parser, shell=shell))


# shtab writes bash, zsh and tcsh, not fish; argcomplete's fish support needs its hook run in
# the program at every <Tab> (a Python start-up each time). Fish's `complete` lines are simple
# enough to write from the parser here: one per subcommand, one per option of each.
def _fish(parser: argparse.ArgumentParser) -> str:
    prog = parser.prog
    lines = [f"# fish completion for {prog}, made by `{prog} --generate complete-fish`"]
    lines += _fish_options(prog, parser, "__fish_use_subcommand")
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
        for name, command in action.choices.items():
            lines.append(
                f"complete -c {prog} -n __fish_use_subcommand -f -a {name} "
                f"-d {_quoted(helps.get(name, ''))}"
            )
            lines += _fish_options(prog, command, f"'__fish_seen_subcommand_from {name}'")
    return "\n".join(lines) + "\n"


def _fish_options(prog: str, parser: argparse.ArgumentParser, condition: str) -> list[str]:
    lines = []
    for action in parser._actions:
        if not action.option_strings or action.help == argparse.SUPPRESS:
            continue
        words = [f"complete -c {prog} -n {condition}"]
        for option in action.option_strings:
            words.append(f"-l {option[2:]}" if option.startswith("--") else f"-s {option[1:]}")
        if action.nargs != 0:  # it takes a value: its choices, else anything (a file...)
            words.append("-r")
            if action.choices:
                words.append(f"-f -a {_quoted(' '.join(map(str, action.choices)))}")
        words.append(f"-d {_quoted(_first_sentence(action.help or ''))}")
        lines.append(" ".join(words))
    return lines


def _first_sentence(text: str) -> str:
    return text.split("; ")[0].split(" (")[0]


def _quoted(text: str) -> str:
    """A fish single-quoted string: ``\\`` and ``'`` escaped with a backslash."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
