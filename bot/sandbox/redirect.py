"""Point an unmodified discord.py at a loopback Discord (REST base and gateway URL)."""

from __future__ import annotations


def patch_discord(base_url: str) -> None:
    """Send discord.py's REST calls to `{base_url}/api/v10` and its gateway to the same host."""
    import discord.gateway
    import discord.http
    import yarl

    base = base_url.rstrip("/")
    discord.http.Route.BASE = f"{base}/api/v10"
    ws = "ws" + base[len("http") :] if base.startswith("http") else base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"{ws}/")
