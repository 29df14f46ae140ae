"""The people: slash commands, clicks, selects, modals and autocomplete, sent the way Discord's
client sends them and refused where Discord's client would refuse them."""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import TYPE_CHECKING, Any

from .interactions import InteractionResult, InteractionType, PendingInteraction
from .models import Attachment, Channel, Member, Message, P, Role, User
from .state import ident
from .validation import InteractionRefused, OptionType, coerce_option

if TYPE_CHECKING:
    from .gateway import Gateway
    from .state import World

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


class Driver:
    """Mixin of `LoopbackDiscord`: acts as people and reads what they would see."""

    world: World
    gateway: Gateway
    interactions: dict[int, PendingInteraction]
    by_token: dict[str, PendingInteraction]
    global_commands: dict[str, dict[str, Any]]
    guild_commands: dict[int, dict[str, dict[str, Any]]]
    ack_deadline: float
    attachment_store: dict[int, Attachment]
    url: str

    # Provided by LoopbackDiscord (declared here for the type checker).
    def record_error(self, text: str) -> None: ...
    def touch(self) -> None: ...
    async def wait_idle(self, quiet: float = 0.15, timeout: float = 10) -> None: ...

    # -- readiness ------------------------------------------------------------------------

    async def wait_ready(self, timeout: float = 10) -> None:
        """Until a bot has identified and been sent READY."""
        await asyncio.wait_for(self.gateway.ready.wait(), timeout)

    # -- reading --------------------------------------------------------------------------

    def messages(
        self, channel: Channel | int, viewer: User | Member | int | None = None
    ) -> list[Message]:
        """Messages of a channel oldest first; with a viewer, only what that person sees."""
        msgs = self.world.channel_messages(ident(channel))
        if viewer is None:
            return msgs
        uid = ident(viewer)
        return [m for m in msgs if m.visible_to(uid)]

    def last_message(
        self, channel: Channel | int, viewer: User | Member | int | None = None
    ) -> Message | None:
        msgs = self.messages(channel, viewer)
        return msgs[-1] if msgs else None

    def get_message(self, message_id: Message | int) -> Message:
        """The current version of a message (deleted ones too, with `.deleted` set)."""
        return self.world.messages[ident(message_id)]

    def dms(self, user: User | Member | int) -> list[Message]:
        """The bot's direct messages to a person, oldest first."""
        return self.world.channel_messages(self.world.dm_channel(self.world.users[ident(user)]).id)

    def threads(self, channel: Channel | int) -> list[Channel]:
        cid = ident(channel)
        return [c for c in self.world.channels.values() if c.is_thread and c.parent_id == cid]

    def commands(self, guild: Any = None) -> list[dict[str, Any]]:
        """Synced commands: global, or those of one guild."""
        if guild is None:
            return list(self.global_commands.values())
        return list(self.guild_commands.get(ident(guild), {}).values())

    # -- acting ---------------------------------------------------------------------------

    async def slash(
        self,
        user: User | Member | int,
        command: str,
        *,
        channel: Channel | int,
        options: dict[str, Any] | None = None,
        guild: Any = None,
        wait: bool = True,
        timeout: float = 10,
        forged: bool = False,
    ) -> InteractionResult:
        """Run "/cmd [group] [sub]" with options checked against the synced schema.

        ``forged``: option values go out as given, without the type, range and length checks
        Discord applies (what a modified client or a hand-made request could deliver)."""
        person, ch = self._person_in(user, channel, guild)
        if not self.world.permissions(person.id, ch) & P.USE_APPLICATION_COMMANDS:
            raise InteractionRefused(
                f"{person.name} may not use application commands in #{ch.name}"
            )
        parts = command.strip().lstrip("/").split()
        cmd = self._command(parts[0], ch)
        self._check_command_permission(cmd, person, ch)
        opts, resolved = self._build_options(
            cmd, parts[1:], options or {}, ch, focused=None, forged=forged
        )
        data = self._command_data(cmd, opts, resolved)
        it = self._new_interaction(InteractionType.APPLICATION_COMMAND, person, ch, " ".join(parts))
        return await self._run(it, data, wait=wait, timeout=timeout)

    async def autocomplete(
        self,
        user: User | Member | int,
        command: str,
        *,
        focused: str,
        value: Any = "",
        channel: Channel | int,
        options: dict[str, Any] | None = None,
        guild: Any = None,
    ) -> list[dict[str, Any]]:
        """Type `value` into the autocomplete option `focused`; the choices the bot offers."""
        person, ch = self._person_in(user, channel, guild)
        parts = command.strip().lstrip("/").split()
        cmd = self._command(parts[0], ch)
        values = {**(options or {}), focused: value}
        opts, resolved = self._build_options(cmd, parts[1:], values, ch, focused=focused)
        data = self._command_data(cmd, opts, resolved)
        it = self._new_interaction(InteractionType.AUTOCOMPLETE, person, ch, " ".join(parts))
        result = await self._run(it, data, wait=False, timeout=10)
        return list(result.choices or [])

    async def click(
        self,
        user: User | Member | int,
        message: Message | int,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        emoji: str | None = None,
        wait: bool = True,
        timeout: float = 10,
        forged: bool = False,
    ) -> InteractionResult:
        """Click a button of the current version of a message, by label, custom_id or emoji.

        ``forged``: send ``custom_id`` as a button click on the message whether or not the
        message carries it (a modified client, or a control from an old message)."""
        person, msg = self._reader_of(user, message)
        if forged:
            if custom_id is None:
                raise ValueError("a forged click needs custom_id=")
            it = self._new_interaction(
                InteractionType.MESSAGE_COMPONENT, person, self._channel(msg), custom_id, msg
            )
            data = {"custom_id": custom_id, "component_type": 2}
            return await self._run(it, data, wait=wait, timeout=timeout)
        wanted = {"label": label, "custom_id": custom_id, "emoji": emoji}
        wanted = {k: v for k, v in wanted.items() if v is not None}
        if not wanted:
            raise ValueError("click needs label=, custom_id= or emoji=")
        found = [b for b in msg.buttons if all(getattr(b, k) == v for k, v in wanted.items())]
        if not found:
            have = [b.label or b.emoji or b.custom_id for b in msg.buttons]
            raise InteractionRefused(f"no button {wanted} on message {msg.id}; it has {have}")
        if len(found) > 1:
            raise InteractionRefused(f"{len(found)} buttons match {wanted} on message {msg.id}")
        button = found[0]
        if button.disabled:
            raise InteractionRefused(f"button {button.label or button.custom_id!r} is disabled")
        if button.url or button.style in (5, 6):
            raise InteractionRefused("link and premium buttons do not send interactions")
        data = {"custom_id": button.custom_id, "component_type": 2}
        it = self._new_interaction(
            InteractionType.MESSAGE_COMPONENT,
            person,
            self._channel(msg),
            str(button.custom_id),
            msg,
        )
        return await self._run(it, data, wait=wait, timeout=timeout)

    async def select(
        self,
        user: User | Member | int,
        message: Message | int,
        values: list[Any],
        *,
        custom_id: str | None = None,
        placeholder: str | None = None,
        wait: bool = True,
        timeout: float = 10,
    ) -> InteractionResult:
        """Pick values in a select menu (option values, or users/roles/channels for those)."""
        person, msg = self._reader_of(user, message)
        found = [
            s
            for s in msg.selects
            if (custom_id is None or s.custom_id == custom_id)
            and (placeholder is None or s.placeholder == placeholder)
        ]
        if len(found) != 1:
            raise InteractionRefused(
                f"{len(found)} selects match custom_id={custom_id!r} placeholder={placeholder!r}"
            )
        menu = found[0]
        if menu.disabled:
            raise InteractionRefused(f"select {menu.custom_id!r} is disabled")
        if not menu.min_values <= len(values) <= menu.max_values:
            raise InteractionRefused(
                f"select {menu.custom_id!r} takes {menu.min_values}..{menu.max_values} values"
            )
        data: dict[str, Any] = {"custom_id": menu.custom_id, "component_type": menu.type}
        ch = self._channel(msg)
        if menu.type == 3:
            allowed = [o["value"] for o in menu.options]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise InteractionRefused(f"{bad} are not options of {menu.custom_id!r}: {allowed}")
            data["values"] = list(values)
        else:
            resolved: dict[str, dict[str, Any]] = {}
            data["values"] = [str(ident(v)) for v in values]
            for v in values:
                self._resolve(v, ch, resolved)
            data["resolved"] = resolved
        it = self._new_interaction(
            InteractionType.MESSAGE_COMPONENT, person, ch, menu.custom_id, msg
        )
        return await self._run(it, data, wait=wait, timeout=timeout)

    async def submit_modal(
        self,
        user: User | Member | int,
        result: InteractionResult,
        values: dict[str, Any],
        *,
        wait: bool = True,
        timeout: float = 10,
        forged: bool = False,
        custom_id: str | None = None,
    ) -> InteractionResult:
        """Fill and submit the modal a previous action opened; keys are custom_ids or labels.

        ``forged``: text goes out whatever its length (Discord would hold the form back), and
        under ``custom_id`` if one is given instead of the modal's own."""
        modal = result.modal
        person = self.world.users[ident(user)]
        if modal is None:
            raise InteractionRefused("that action did not open a modal")
        if person is not modal.interaction.user:
            raise InteractionRefused("only the person the modal was shown to can submit it")
        if modal.submitted:
            raise InteractionRefused("this modal was already submitted")
        remaining = dict(values)
        components = []
        for top in modal.components:
            if top.get("type") == 1:
                inner, label = top["components"][0], top["components"][0].get("label")
            elif top.get("type") == 18:
                inner, label = top["component"], top.get("label")
            else:
                continue
            key = next((k for k in (inner.get("custom_id"), label) if k in remaining), None)
            answer = remaining.pop(key) if key is not None else None
            filled = {
                "type": inner["type"],
                "custom_id": inner["custom_id"],
                "id": inner.get("id", 0),
            }
            if inner["type"] == 4:
                text = "" if answer is None else str(answer)
                if not text and inner.get("required", True):
                    raise InteractionRefused(
                        f"modal field {label or inner['custom_id']!r} is required"
                    )
                lo, hi = inner.get("min_length", 0), inner.get("max_length", 4000)
                if text and not forged and not lo <= len(text) <= hi:
                    raise InteractionRefused(f"modal field {label!r}: length not in {lo}..{hi}")
                filled["value"] = text
            else:
                filled["values"] = list(answer or [])
            components.append(
                {"type": 1, "components": [filled]}
                if top["type"] == 1
                else {"type": 18, "id": top.get("id", 0), "component": filled}
            )
        if remaining:
            raise InteractionRefused(f"the modal has no fields {sorted(remaining)}")
        modal.submitted = True
        origin = modal.interaction
        sent_id = custom_id if forged and custom_id is not None else modal.custom_id
        data = {"custom_id": sent_id, "components": components}
        it = self._new_interaction(
            InteractionType.MODAL_SUBMIT, person, origin.channel, modal.custom_id, origin.source
        )
        return await self._run(it, data, wait=wait, timeout=timeout)

    # -- plumbing -------------------------------------------------------------------------

    def _person_in(
        self, user: User | Member | int, channel: Channel | int, guild: Any
    ) -> tuple[User, Channel]:
        person = self.world.users[ident(user)]
        ch = self.world.channels[ident(channel)]
        if guild is not None and ident(guild) != ch.guild_id:
            raise InteractionRefused(f"#{ch.name} is not in guild {ident(guild)}")
        if ch.guild_id is not None and person.id not in self.world.guilds[ch.guild_id].members:
            raise InteractionRefused(f"{person.name} is not a member of that guild")
        if not self.world.can_view(person.id, ch.id):
            raise InteractionRefused(f"{person.name} cannot see #{ch.name}")
        return person, ch

    def _reader_of(self, user: User | Member | int, message: Message | int) -> tuple[User, Message]:
        """The person and the message's current version, if they may interact with it."""
        person = self.world.users[ident(user)]
        msg = self.world.messages.get(ident(message))
        if msg is None or msg.deleted:
            raise InteractionRefused(f"message {ident(message)} does not exist (any more)")
        if msg.author.id != self.world.bot_user.id:
            raise InteractionRefused("only the bot's messages carry components")
        if msg.loading:
            raise InteractionRefused("the message is still loading")
        if not msg.visible_to(person):
            raise InteractionRefused(f"{person.name} cannot see message {msg.id}")
        return person, msg

    def _channel(self, msg: Message) -> Channel:
        return self.world.channels[msg.channel_id]

    def _command(self, name: str, ch: Channel) -> dict[str, Any]:
        if ch.guild_id is not None and name in self.guild_commands.get(ch.guild_id, {}):
            return self.guild_commands[ch.guild_id][name]
        if name in self.global_commands:
            return self.global_commands[name]
        raise InteractionRefused(f"no synced command /{name} here")

    def _check_command_permission(self, cmd: dict[str, Any], person: User, ch: Channel) -> None:
        needed = cmd.get("default_member_permissions")
        if needed is None or ch.guild_id is None:
            return
        have = self.world.permissions(person.id, ch)
        if int(needed) & ~have and not have & P.ADMINISTRATOR:
            raise InteractionRefused(f"{person.name} lacks the permissions for /{cmd['name']}")

    def _command_data(
        self, cmd: dict[str, Any], opts: list[dict[str, Any]], resolved: dict[str, Any]
    ) -> dict[str, Any]:
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": cmd.get("type", 1)}
        if opts:
            data["options"] = opts
        if resolved:
            data["resolved"] = resolved
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        return data

    def _build_options(
        self,
        cmd: dict[str, Any],
        path: list[str],
        values: dict[str, Any],
        ch: Channel,
        focused: str | None,
        forged: bool = False,
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Options payload (subcommands nested) and `resolved`, refusing what Discord would."""
        top: list[dict[str, Any]] = []
        container, level, where = top, cmd.get("options") or [], f"/{cmd['name']}"
        for name in path:
            sub = next(
                (o for o in level if o["name"] == name and o["type"] in (1, 2)),
                None,
            )
            if sub is None:
                raise InteractionRefused(f"{where} has no subcommand {name!r}")
            node: dict[str, Any] = {"type": sub["type"], "name": name, "options": []}
            container.append(node)
            container, level, where = node["options"], sub.get("options") or [], f"{where} {name}"
        if any(o["type"] in (1, 2) for o in level):
            subs = [o["name"] for o in level]
            raise InteractionRefused(f"{where} needs a subcommand: one of {subs}")
        known = {o["name"] for o in level}
        if unknown := sorted(set(values) - known):
            raise InteractionRefused(f"{where} has no options {unknown}; it has {sorted(known)}")
        resolved: dict[str, dict[str, Any]] = {}
        for opt in level:
            name = opt["name"]
            if name not in values:
                if opt.get("required") and focused is None:
                    raise InteractionRefused(f"{where}: option {name!r} is required")
                continue
            entry: dict[str, Any] = {"type": opt["type"], "name": name}
            if name == focused:
                if not opt.get("autocomplete"):
                    raise InteractionRefused(f"{where}: option {name!r} has no autocomplete")
                entry.update(value=values[name], focused=True)
            elif forged:
                entry["value"] = values[name]
            else:
                entry["value"] = self._option_value(opt, values[name], ch, resolved)
            container.append(entry)
        return top, resolved

    def _option_value(
        self, opt: dict[str, Any], value: Any, ch: Channel, resolved: dict[str, dict[str, Any]]
    ) -> Any:
        otype = opt["type"]
        if otype in (OptionType.USER, OptionType.ROLE, OptionType.MENTIONABLE, OptionType.CHANNEL):
            kind = self._resolve(value, ch, resolved)
            allowed = {
                OptionType.USER: {"users"},
                OptionType.ROLE: {"roles"},
                OptionType.MENTIONABLE: {"users", "roles"},
                OptionType.CHANNEL: {"channels"},
            }[otype]
            if kind not in allowed:
                raise InteractionRefused(f"option {opt['name']!r} cannot take {value!r}")
            if otype == OptionType.CHANNEL and opt.get("channel_types"):
                target = self.world.channels[ident(value)]
                if target.type not in opt["channel_types"]:
                    raise InteractionRefused(f"option {opt['name']!r}: wrong channel type")
            return str(ident(value))
        if otype == OptionType.ATTACHMENT:
            filename, data = value
            att = self._loose_attachment(ch, filename, data)
            resolved.setdefault("attachments", {})[str(att.id)] = att.payload()
            return str(att.id)
        return coerce_option(opt, value)

    def _loose_attachment(self, ch: Channel, filename: str, data: bytes) -> Attachment:
        """An uploaded ATTACHMENT option (not part of any message)."""
        att = Attachment(self.world.snowflake(), filename, data)
        att.url = f"{self.url}/attachments/{ch.id}/{att.id}/{filename}"
        self.attachment_store[att.id] = att
        return att

    def _resolve(self, value: Any, ch: Channel, resolved: dict[str, dict[str, Any]]) -> str:
        """Put a user, role or channel into `resolved`; which kind it was."""
        vid = ident(value)
        world = self.world
        if vid in world.users and not isinstance(value, Role | Channel):
            user = world.users[vid]
            resolved.setdefault("users", {})[str(vid)] = user.payload()
            guild = world.guilds.get(ch.guild_id or 0)
            if guild is not None and vid in guild.members:
                resolved.setdefault("members", {})[str(vid)] = {
                    **guild.members[vid].payload(with_user=False),
                    "permissions": str(world.permissions(vid, ch)),
                }
            return "users"
        guild = world.guilds.get(ch.guild_id or 0)
        if guild is not None and vid in guild.roles:
            resolved.setdefault("roles", {})[str(vid)] = guild.roles[vid].payload()
            return "roles"
        if vid in world.channels:
            target = world.channels[vid]
            resolved.setdefault("channels", {})[str(vid)] = {
                **target.payload(),
                "permissions": str(world.permissions(world.bot_user.id, target)),
            }
            return "channels"
        raise InteractionRefused(f"{value!r} is no user, role or channel here")

    def _new_interaction(
        self,
        kind: int,
        person: User,
        ch: Channel,
        name: str,
        source: Message | None = None,
    ) -> PendingInteraction:
        it = PendingInteraction(
            self.world.snowflake(), secrets.token_urlsafe(48), kind, person, ch, name, source
        )
        self.interactions[it.id] = it
        self.by_token[it.token] = it
        return it

    def _payload(self, it: PendingInteraction, data: dict[str, Any]) -> dict[str, Any]:
        world, ch, person = self.world, it.channel, it.user
        payload: dict[str, Any] = {
            "id": str(it.id),
            "application_id": str(world.application_id),
            "type": it.type,
            "data": data,
            "token": it.token,
            "version": 1,
            "channel_id": str(ch.id),
            "channel": world.channel_payload(ch, person.id),
            "app_permissions": str(world.permissions(world.bot_user.id, ch)),
            "locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if ch.guild_id is not None:
            guild = world.guilds[ch.guild_id]
            payload.update(
                guild_id=str(guild.id),
                guild={"id": str(guild.id), "locale": "en-US", "features": []},
                guild_locale="en-US",
                member=world.member_payload(guild, person.id, ch),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(
                user=person.payload(),
                authorizing_integration_owners={"0": str(world.application_id)},
                context=1,
            )
        if it.source is not None:
            payload["message"] = it.source.payload()
        return payload

    async def _run(
        self, it: PendingInteraction, data: dict[str, Any], *, wait: bool, timeout: float
    ) -> InteractionResult:
        """Send INTERACTION_CREATE, wait for the initial response (3 s rule), then idleness."""
        if not self.gateway.sessions_for(it.channel.guild_id):
            raise RuntimeError(f"no bot holds the shard of server {it.channel.guild_id}")
        payload = self._payload(it, data)
        loop = asyncio.get_running_loop()
        it.created = time.monotonic()
        it.timer = loop.call_later(self.ack_deadline, self._ack_expired, it)
        self.gateway.dispatch("INTERACTION_CREATE", payload)
        await asyncio.wait_for(it.acknowledged.wait(), self.ack_deadline + 5)
        result = InteractionResult(self, it)  # type: ignore[arg-type]
        if wait:
            await self.wait_idle(timeout=timeout)
        return result

    def _ack_expired(self, it: PendingInteraction) -> None:
        if it.response_type is None:
            it.expired = True
            self.record_error(
                f"10062 Unknown interaction: {it.describe()} was not acknowledged "
                f"within {self.ack_deadline:g} s"
            )
            it.acknowledged.set()

    def acknowledge(self, it: PendingInteraction, callback_type: int) -> None:
        """The initial response arrived (called by the callback route)."""
        if it.timer is not None:
            it.timer.cancel()
        it.response_type = callback_type
        it.acknowledged.set()
        self.touch()
