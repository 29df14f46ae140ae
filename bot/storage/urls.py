"""Database addresses as people see them: never with a password.

Anything that prints or logs where a database is (the copy command, errors, log lines) goes
through :func:`redact`. :func:`server` and :func:`parts` read a ``postgresql://`` URL for
the error messages of ``backends.py``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final, NamedTuple
from urllib.parse import parse_qs, unquote, urlsplit

MASK: Final = "***"
_SECRET_PARAMS: Final = re.compile(r"(?i)(^|[?&])((?:ssl)?password=)[^&#]*")


def redact(target: str | Path) -> str:
    """``target`` fit to print: a URL's password (in the user part or a ``password=``
    parameter) replaced by ``***``; a file path unchanged.

    Errs on the side of hiding: everything from the first ``:`` of the user part to the last
    ``@`` of the URL is masked, so a password holding ``@`` or ``/`` does not leak.
    """
    text = str(target)
    scheme, separator, rest = text.partition("://")
    if not separator:
        return text
    if "@" in rest:
        userinfo, _, host = rest.rpartition("@")
        if ":" in userinfo:
            userinfo = userinfo.split(":", 1)[0] + ":" + MASK
        rest = f"{userinfo}@{host}"
    rest = _SECRET_PARAMS.sub(lambda m: m[1] + m[2] + MASK, rest)
    return f"{scheme}://{rest}"


class UrlParts(NamedTuple):
    host: str
    port: int
    user: str | None
    database: str | None


def parts(url: str) -> UrlParts | None:
    """Host, port, user and database name of a ``postgresql://`` URL (None when it cannot be
    read); query parameters (``?host=``) win over the address, as in asyncpg. Read from the
    redacted URL, so no part of a password can turn up as a host or a name."""
    try:
        split = urlsplit(redact(url))
        query = {k: v[-1] for k, v in parse_qs(split.query).items()}
        host = query.get("host") or split.hostname or "localhost"
        port = int(query.get("port") or split.port or 5432)
    except ValueError:
        return None
    user = query.get("user") or (unquote(split.username) if split.username else None)
    name = query.get("dbname") or query.get("database") or unquote(split.path.lstrip("/"))
    return UrlParts(host, port, user, name or None)


def server(url: str) -> str:
    """``host:port`` of a PostgreSQL URL, for messages (the redacted URL if unreadable)."""
    found = parts(url)
    if found is None:
        return redact(url)
    host = f"[{found.host}]" if ":" in found.host else found.host
    return f"{host}:{found.port}"
