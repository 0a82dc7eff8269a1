"""``baselinks --generate KIND``: the manual page and the shell completions, made from the
command line's own parser (arguments.py), so that they never lag behind it. As ripgrep's and
lychee's ``--generate``:

    baselinks --generate man > ~/.local/share/man/man1/baselinks.1      argparse-manpage
    baselinks --generate complete-bash > ~/.local/share/bash-completion/completions/baselinks
    baselinks --generate complete-zsh > ~/.zfunc/_baselinks            shtab
    baselinks --generate complete-fish > ~/.config/fish/completions/baselinks.fish   (here)

argparse-manpage and shtab are the ``shell`` extra; without it, one line says how to get it.
The man page gains the sections ``extract --help`` ends with (fields, exit status, examples:
its epilog, one source for both), and ``--fields A,B,C`` completes each name after the last
comma in bash, zsh and fish.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterator

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
    return str(Manpage(parser, _data=data)) + "".join(_epilog_sections(parser))


def _epilog_sections(parser: argparse.ArgumentParser) -> Iterator[str]:
    """The sections of a subcommand's epilog (``extract --help``'s "fields (...):", "exit
    status:", "examples:"), as man sections: FIELDS, EXIT STATUS, EXAMPLES; a block's heading
    is its first line, up to a colon or a parenthesis (what follows, a first paragraph).
    (argparse-manpage leaves a subcommand's epilog out.)"""
    for command in _subcommands(parser):
        for block in (command.epilog or "").split("\n\n"):
            heading, _, rest = block.partition("\n")
            match = re.fullmatch(r"([\w ]+?)(?: \((.*)\))?:(.*)", heading.strip())
            if match is None:
                continue
            yield f".SH {_roff(match[1].upper())}\n"
            lead = " ".join(part.strip() for part in match.groups("")[1:] if part.strip())
            if lead:
                yield f".PP\n{_roff(lead)}\n"
            yield from _man_block(rest.splitlines())


def _man_block(lines: list[str]) -> Iterator[str]:
    """A block of an epilog under its heading, in roff."""
    lines = [line for line in lines if line.strip()]
    items = [re.fullmatch(r"\s+(\S+(?:, \S+)*)\s{2,}(.*)", line) for line in lines]
    if all(items):
        for item in items:
            assert item is not None
            yield f".TP\n.B {_roff(item[1])}\n{_roff(item[2])}\n"
    elif all(line.strip().startswith("baselinks ") for line in lines):
        yield ".PP\n.nf\n.RS 4\n"
        yield "".join(f"{_roff(line.strip())}\n" for line in lines)
        yield ".RE\n.fi\n"
    else:
        yield f".PP\n{_roff(' '.join(line.strip() for line in lines))}\n"


def _roff(text: str) -> str:
    """Text as roff reads it: backslashes and hyphens escaped, a leading dot or quote kept."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text.startswith((".", "'")) else text


def _subcommands(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            yield from action.choices.values()


def _field_actions(parser: argparse.ArgumentParser) -> Iterator[argparse.Action]:
    """Each subcommand's ``--fields`` (a comma-separated list of the record's fields)."""
    for command in _subcommands(parser):
        yield from (action for action in command._actions if action.dest == "fields")


def _field_names() -> str:
    from ..resolve.link import CHOOSABLE

    return " ".join(CHOOSABLE)


def _shtab(parser: argparse.ArgumentParser, shell: str) -> str:
    try:
        import shtab
    except ImportError:
        raise MissingTool(f"--generate complete-{shell} needs shtab: {_EXTRA}") from None
    function = f"_{parser.prog}_fields"
    preamble = {
        # the names after the last comma, those before it kept (a,b,<Tab>)
        "bash": f"""{function}() {{
  local prefix=""
  [[ $1 == *,* ]] && prefix="${{1%,*}},"
  compgen -P "$prefix" -W "{_field_names()}" -- "${{1##*,}}"
}}""",
        "zsh": f"""{function}() {{
  _values -s , field {_field_names()}
}}""",
    }
    for action in _field_actions(parser):
        action.complete = {"bash": function, "zsh": function}  # type: ignore[attr-defined]
    return str(shtab.complete(parser, shell=shell, preamble=preamble))  # type: ignore[arg-type]


# shtab writes bash, zsh and tcsh, not fish; argcomplete's fish support needs its hook run in
# the program at every <Tab> (a Python start-up each time). Fish's `complete` lines are simple
# enough to write from the parser here: one per subcommand, one per option of each.
def _fish(parser: argparse.ArgumentParser) -> str:
    prog = parser.prog
    lines = [f"# fish completion for {prog}, made by `{prog} --generate complete-fish`"]
    # --fields A,B,C: fish's own __fish_complete_list completes the name after the last comma
    lines.append(f"function __{prog}_fields; printf '%s\\n' {_field_names()}; end")
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
            if action.dest == "fields":
                words.append(f"-f -a '(__fish_complete_list , __{prog}_fields)'")
            elif action.choices:
                words.append(f"-f -a {_quoted(' '.join(map(str, action.choices)))}")
        words.append(f"-d {_quoted(_first_sentence(action.help or ''))}")
        lines.append(" ".join(words))
    return lines


def _first_sentence(text: str) -> str:
    return text.split("; ")[0].split(" (")[0]


def _quoted(text: str) -> str:
    """A fish single-quoted string: ``\\`` and ``'`` escaped with a backslash."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
