"""When ``ofc-fast show`` colours its cards (ofc_fast.cli.show._colour_on):
``--color`` decides, else NO_COLOR (no-color.org: only a non-empty value
disables colour), else FORCE_COLOR (force-color.org: a non-empty value forces
it, also into a pipe), else a terminal that is not ``dumb``."""
from __future__ import annotations

import io

import pytest

from ofc_fast.cli import main, show


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("mode", "env", "tty", "want"), [
    ("auto", {}, True, True),
    ("auto", {}, False, False),
    ("auto", {"TERM": "dumb"}, True, False),
    ("auto", {"NO_COLOR": "1"}, True, False),
    ("auto", {"NO_COLOR": ""}, True, True),              # empty: as if unset
    ("auto", {"NO_COLOR": "0"}, True, False),            # any non-empty value
    ("auto", {"FORCE_COLOR": "1"}, False, True),         # into a pipe
    ("auto", {"FORCE_COLOR": "1", "TERM": "dumb"}, False, True),
    ("auto", {"FORCE_COLOR": ""}, False, False),         # empty: as if unset
    ("auto", {"FORCE_COLOR": "1", "NO_COLOR": "1"}, True, False),   # NO_COLOR wins
    ("auto", {"FORCE_COLOR": "1", "NO_COLOR": ""}, False, True),
    ("always", {"NO_COLOR": "1"}, False, True),          # the option wins
    ("never", {"FORCE_COLOR": "1"}, True, False),
])
def test_colour_follows_the_option_then_no_color_then_force_color(monkeypatch, mode, env, tty,
                                                                  want):
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr("sys.stdout", _Terminal() if tty else io.StringIO())
    assert show._colour_on(mode) is want


def test_force_color_colours_show_into_a_pipe(monkeypatch, capsys):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert main(["show", "Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d"]) == 0
    assert "\x1b[" in capsys.readouterr().out
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["show", "Qs Qd 2c / 9h 9d 9c 5s 5d / 7h 7d 7c 7s 2d"]) == 0
    assert "\x1b[" not in capsys.readouterr().out
