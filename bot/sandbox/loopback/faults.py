"""Injected REST failures: rate limits and server errors, so tests see the bot cope with them."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass
class Fault:
    method: str
    pattern: re.Pattern[str]
    status: int
    remaining: int
    retry_after: float = 0.0
    global_: bool = False

    def matches(self, method: str, path: str) -> bool:
        return (
            self.remaining > 0
            and self.method in ("*", method.upper())
            and self.pattern.search(path) is not None
        )


class Faults:
    """Armed faults, each answering the next `count` matching requests (path after /api/v10)."""

    def __init__(self) -> None:
        self.armed: list[Fault] = []
        self.fired: list[tuple[str, str, int]] = []

    def rate_limit(
        self,
        method: str,
        path_regex: str,
        retry_after: float = 0.3,
        count: int = 1,
        global_: bool = False,
    ) -> Fault:
        """Answer 429 with a JSON retry_after (and the Via header discord.py insists on)."""
        fault = Fault(method.upper(), re.compile(path_regex), 429, count, retry_after, global_)
        self.armed.append(fault)
        return fault

    def server_error(
        self, method: str, path_regex: str, status: int = 500, count: int = 1
    ) -> Fault:
        """Answer a 5xx; discord.py retries 500/502/504 after a second, raises on 503."""
        fault = Fault(method.upper(), re.compile(path_regex), status, count)
        self.armed.append(fault)
        return fault

    def take(self, method: str, path: str) -> Fault | None:
        """The first armed fault for this request, consuming one of its uses."""
        for fault in self.armed:
            if fault.matches(method, path):
                fault.remaining -= 1
                self.fired.append((method, path, fault.status))
                return fault
        return None

    def clear(self) -> None:
        self.armed.clear()

    @property
    def pending(self) -> int:
        """How many armed uses have not fired yet."""
        return sum(f.remaining for f in self.armed)
