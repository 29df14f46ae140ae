"""Loopback Discord: a fake Discord (REST + gateway) on 127.0.0.1 for an unmodified discord.py bot.

Generic: imports nothing from the rest of `bot/`, so a browser sandbox can reuse it.

Usage::

    from bot.sandbox.loopback import LoopbackDiscord, InteractionRefused
    from bot.sandbox.loopback.testing import run_bot_against, stop_bot

    async with LoopbackDiscord(spec=Path(".../openapi.json")) as fake:  # spec optional
        guild = fake.add_guild("Table")               # @everyone id == guild id, owner, #general
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        role = fake.add_role(guild, "mods", permissions=P.MANAGE_MESSAGES)
        fake.add_member(guild, alice); fake.add_member(guild, bob, roles=[role])
        ch = fake.add_channel(guild, "games")         # live CHANNEL_CREATE once a bot is connected
        fake.set_permissions(ch, guild.everyone, deny=P.VIEW_CHANNEL)   # overwrites
        task = await run_bot_against(fake, bot)       # patch_discord + bot.start(fake.token) + ready
        res = await fake.slash(alice, "qdice start", channel=ch, options={"seats": 3})
        res.type, res.message, res.followups, res.modal, res.choices, res.interaction
        await fake.click(bob, res.message, label="Join")        # or custom_id= / emoji=
        await fake.select(alice, msg, ["opt"], custom_id="pick")  # or placeholder=
        await fake.submit_modal(alice, res_with_modal, {"field custom_id or label": "text"})
        await fake.autocomplete(alice, "leaderboard", focused="game", value="q", channel=ch)
        fake.messages(ch, viewer=bob); fake.last_message(ch, viewer=alice); fake.get_message(id)
        fake.dms(alice); fake.threads(ch); fake.commands(guild=None)
        msg.text(), msg.buttons, msg.selects, msg.attachments[0].data, msg.image(), msg.ephemeral,
        msg.visible_to(bob), msg.edits, msg.deleted         # messages are live (edited in place)
        fake.requests (method, path, status, query); fake.errors; fake.gateway.events
        with fake.expect_errors("10062"): ...          # violations a rules test expects (regexes)
        fake.faults.rate_limit("POST", r"/callback$", retry_after=0.3, count=1, global_=False)
        fake.faults.server_error("PATCH", r"/messages/", status=500)
        await fake.drop_gateway("resume" | "reconnect" | "invalid_session", wait=True)
        await fake.wait_connected(); await fake.wait_ready(); fake.commands_synced (Event)
        await fake.wait_idle(quiet=0.15, timeout=10); fake.assert_no_errors()
        fake.ack_deadline = 3.0; fake.token_lifetime = 900.0   # Discord's timings, adjustable
        await stop_bot(bot, task)

    # Discord's limits across processes (constructor arguments, defaults shown; None: off)
    LoopbackDiscord(shards=1, max_concurrency=1, identify_window=5.0, resume_window=60.0,
                    heartbeat_timeout=1.5, global_rate_limit=50)
    fake.gateway.identifies (IdentifyRecord: shard, at, accepted, session_id)
    fake.gateway.invalid_sessions; fake.gateway.rate_limited_identifies
    fake.gateway.ready_times()   # {(shard_id, shard_count): [monotonic READY times]}
    fake.gateway.shards          # {(shard_id, shard_count): [sessions, each gets every event]}
    fake.gateway.expired; fake.gateway.zombies; fake.rest.global_429s

Discord rules enforced (answered as Discord does and recorded in `fake.errors`): initial
response within 3 s (10062), one initial response (40060), callback types allowed per
interaction type, followup token lifetime (15 min), message/embed/component/modal limits,
command schema on sync, bot channel permissions, unknown routes (404) and auth, and
(with `spec=`) the keys Discord's OpenAPI spec requires in every JSON answer. Across processes,
as on Discord: one IDENTIFY per 5 s per ``shard_id % max_concurrency`` bucket (op 9 for one
more), every session of a shard gets its events (interactions included), lost sessions end
after the resume window, silent connections are closed (4009), and at most 50 REST requests
per second per bot token (429 global; interaction callbacks and webhooks exempt). The driver
refuses (raises `InteractionRefused`) what Discord's client would not allow: hidden or
ephemeral messages of someone else, disabled/missing components, bad slash options.
"""

from .faults import Faults
from .interactions import CallbackType, InteractionResult, InteractionType, Modal
from .models import Attachment, Button, Channel, Guild, Member, Message, P, Role, Select, User
from .server import LoopbackDiscord, RequestRecord
from .validation import InteractionRefused, LoopbackError

__all__ = [
    "Attachment",
    "Button",
    "CallbackType",
    "Channel",
    "Faults",
    "Guild",
    "InteractionRefused",
    "InteractionResult",
    "InteractionType",
    "LoopbackDiscord",
    "LoopbackError",
    "Member",
    "Message",
    "Modal",
    "P",
    "RequestRecord",
    "Role",
    "Select",
    "User",
]
