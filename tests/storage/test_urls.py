"""``redact``: a database address fit to print never shows the password."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage.urls import parts, redact, server


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://qt:s3cret@db.example:5432/qt", "postgresql://qt:***@db.example:5432/qt"),
        ("postgres://qt:s3cret@127.0.0.1/qt", "postgres://qt:***@127.0.0.1/qt"),
        ("postgresql://qt:p@ss/w:rd@host/qt", "postgresql://qt:***@host/qt"),
        ("postgresql://qt@host/qt?password=s3cret&sslmode=off", None),
        ("postgresql://qt@host/qt?sslpassword=s3cret", None),
        ("postgresql://qt@127.0.0.1:5432/qt", "postgresql://qt@127.0.0.1:5432/qt"),
        ("data/quantum_table.db", "data/quantum_table.db"),
    ],
)
def test_redact_hides_every_password(url: str, shown: str | None) -> None:
    out = redact(url)
    assert "s3cret" not in out and "ss/w" not in out and "rd@" not in out
    if shown is not None:
        assert out == shown
    else:
        assert "password=***" in out and out.startswith("postgresql://qt@host/qt?")


def test_paths_and_parts() -> None:
    assert redact(Path("data") / "x.db") == str(Path("data") / "x.db")
    assert parts("postgresql://qt:pw@127.0.0.1:5999/game") == ("127.0.0.1", 5999, "qt", "game")
    assert parts("postgresql://h/x?port=6000&user=u") == ("h", 6000, "u", "x")
    assert server("postgresql://qt:pw@example.org/x") == "example.org:5432"
    # a password holding "/" cannot end up read as a host or port
    assert "12" not in server("postgresql://qt:12/x@host/db")
