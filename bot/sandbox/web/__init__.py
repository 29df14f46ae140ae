"""The local sandbox: the real bot against the loopback Discord, played from a web page.

``python -m bot`` without a token runs :func:`run_sandbox`: a page on 127.0.0.1 that looks
like a Discord text channel, where anyone can act as one of a few simulated people (slash
commands, buttons, select menus, forms), and each person's ephemeral replies are shown only
while acting as them. Nothing here knows any game; it draws what the bot sends.
"""

from .app import create_app
from .run import Sandbox, run_sandbox
from .world import PEOPLE, SandboxDiscord, SandboxWorld, build_world

__all__ = [
    "PEOPLE",
    "Sandbox",
    "SandboxDiscord",
    "SandboxWorld",
    "build_world",
    "create_app",
    "run_sandbox",
]
