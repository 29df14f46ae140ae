"""A throwaway PostgreSQL server for the tests and benchmarks: a real server from Debian's
``postgresql`` package, started from a fresh temporary data directory, listening on
127.0.0.1 only, and deleted afterwards. Never a mock.

As root (CI, the developers' machines) the server runs as the unprivileged ``nobody``,
since PostgreSQL refuses to run as root. ``fsync`` is off: the data is thrown away anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any, Self


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server could be started here (the reason says why)."""


def server_binaries() -> Path:
    """The folder with initdb and postgres (Debian keeps them under /usr/lib/postgresql)."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).resolve().parent
    raise PostgresUnavailable(
        "PostgreSQL's server is not installed (Debian: apt-get install postgresql)"
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


PASSWORD_HBA = """\
# Written by tests/postgres.py: the admin role keeps trust, every other role needs its password.
local all all trust
host all postgres 127.0.0.1/32 trust
host all all 127.0.0.1/32 scram-sha-256
"""


class TempPostgres:
    """``async with TempPostgres() as pg: url = await pg.create_database()``.

    ``passwords=True``: roles other than the admin must log in with their password
    (scram-sha-256), as on a real server; see :meth:`create_role`. By default every role is
    trusted.
    """

    def __init__(self, *, passwords: bool = False) -> None:
        self.passwords = passwords
        self.port = 0
        self.folder: Path | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._databases = 0
        self._user: dict[str, Any] = {}

    @property
    def admin_url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self, timeout: float = 60) -> None:
        bins = server_binaries()
        self.folder = Path(tempfile.mkdtemp(prefix="qt-postgres-"))
        data, sockets = self.folder / "data", self.folder / "run"
        data.mkdir()
        sockets.mkdir()
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            for path in (self.folder, data, sockets):
                os.chown(path, nobody.pw_uid, nobody.pw_gid)
            self._user = {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}
        env = {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
        init = subprocess.run(
            [str(bins / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8"],
            capture_output=True,
            env=env,
            check=False,
            **self._user,
        )
        if init.returncode != 0:
            raise PostgresUnavailable(f"initdb failed: {init.stderr.decode(errors='replace')}")
        if self.passwords:
            (data / "pg_hba.conf").write_text(PASSWORD_HBA)
        self.port = free_port()
        self._launch(timeout)

    def _launch(self, timeout: float) -> None:
        """Start the server on its data folder and port; wait until it listens."""
        assert self.folder is not None
        bins = server_binaries()
        data, sockets = self.folder / "data", self.folder / "run"
        env = {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
        self._process = subprocess.Popen(
            [
                str(bins / "postgres"),
                "-D", str(data),
                "-h", "127.0.0.1",
                "-p", str(self.port),
                "-k", str(sockets),
                "-c", "fsync=off",
                "-c", "synchronous_commit=off",
                "-c", "full_page_writes=off",
                "-c", "max_connections=200",
            ],
            stdout=subprocess.DEVNULL,
            stderr=open(self.folder / "server.log", "ab"),  # noqa: SIM115 - the server owns it
            env=env,
            **self._user,
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        while True:
            if self._process.poll() is not None:
                log = (self.folder / "server.log").read_text(errors="replace")
                raise PostgresUnavailable(f"postgres exited: {log[-2000:]}")
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), 0.2),
            ):
                break
            if time.monotonic() > deadline:
                self.stop()
                raise PostgresUnavailable("postgres did not start listening in time")
            time.sleep(0.05)

    def halt(self) -> None:
        """Stop the server as ``pg_ctl -m fast stop`` does (SIGINT: clients cut off, nothing
        lost), keeping its data for :meth:`resume`: a database outage."""
        assert self._process is not None and self._process.poll() is None
        self._process.send_signal(signal.SIGINT)
        self._process.wait(20)
        self._process = None

    def resume(self, timeout: float = 60) -> None:
        """Start the halted server again on the same port and data."""
        assert self._process is None
        self._launch(timeout)

    async def _admin(self) -> Any:
        import asyncpg

        for attempt in range(50):  # the server may still be finishing its start-up
            try:
                return await asyncpg.connect(self.admin_url)
            except (OSError, asyncpg.CannotConnectNowError):
                if attempt == 49:
                    raise
                await asyncio.sleep(0.1)
        raise AssertionError("unreachable")

    async def create_database(self, *, owner: str = "postgres") -> str:
        """A new empty database on the server, owned by ``owner``; its URL (as the admin)."""
        self._databases += 1
        name = f"qt_{os.getpid()}_{self._databases}"
        conn = await self._admin()
        try:
            await conn.execute(f'CREATE DATABASE "{name}" OWNER "{owner}"')
        finally:
            await conn.close()
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    async def create_role(self, name: str, password: str) -> None:
        """A login role with a password (needed with ``passwords=True``, else ignored)."""
        conn = await self._admin()
        try:
            quoted = password.replace("'", "''")
            await conn.execute(f"CREATE ROLE \"{name}\" LOGIN PASSWORD '{quoted}'")
        finally:
            await conn.close()

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(signal.SIGINT)  # fast shutdown: don't wait for clients
            try:
                self._process.wait(20)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process = None
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    async def __aenter__(self) -> Self:
        await asyncio.to_thread(self.start)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await asyncio.to_thread(self.stop)
