"""A minimal discord.py bot exercising what the loopback must support (not the project's bot)."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image


def png(color: str, size: tuple[int, int] = (8, 6)) -> discord.File:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, "PNG")
    buf.seek(0)
    return discord.File(buf, filename=f"{color}.png")


class Lobby(discord.ui.View):
    """Public lobby: Join edits the message; Locked is disabled; Peek answers ephemerally."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.players: list[str] = []

    @discord.ui.button(label="Join", custom_id="lobby:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, _: discord.ui.Button[Lobby]) -> None:
        self.players.append(interaction.user.name)
        await interaction.response.edit_message(content="players: " + ", ".join(self.players))

    @discord.ui.button(label="Locked", custom_id="lobby:locked", disabled=True)
    async def locked(self, interaction: discord.Interaction, _: discord.ui.Button[Lobby]) -> None:
        await interaction.response.send_message("should never happen")

    @discord.ui.button(label="Peek", custom_id="lobby:peek", emoji="\N{EYES}")
    async def peek(self, interaction: discord.Interaction, _: discord.ui.Button[Lobby]) -> None:
        await interaction.response.send_message(
            f"your secret, {interaction.user.name}", ephemeral=True, view=Secret()
        )

    @discord.ui.select(
        custom_id="lobby:mode",
        placeholder="Mode",
        options=[
            discord.SelectOption(label="Fast", value="fast"),
            discord.SelectOption(label="Slow", value="slow"),
        ],
    )
    async def mode(
        self, interaction: discord.Interaction, select: discord.ui.Select[Lobby]
    ) -> None:
        await interaction.response.send_message(f"mode {select.values[0]}", ephemeral=True)


class Secret(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Reveal", custom_id="secret:reveal")
    async def reveal(self, interaction: discord.Interaction, _: discord.ui.Button[Secret]) -> None:
        await interaction.response.edit_message(content="revealed", view=None)


class NameForm(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[NameForm] = discord.ui.TextInput(
        label="Name", custom_id="form:name", max_length=20
    )
    motto: discord.ui.TextInput[NameForm] = discord.ui.TextInput(
        label="Motto", custom_id="form:motto", required=False
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value} ({self.motto.value})")


class Board(discord.ui.LayoutView):
    """A components-v2 message: container, text displays and a row with a button."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        roll: discord.ui.Button[Board] = discord.ui.Button(label="Roll", custom_id="board:roll")
        roll.callback = self.roll
        self.add_item(
            discord.ui.Container(
                discord.ui.TextDisplay("## Board"),
                discord.ui.TextDisplay("turn: alice"),
                discord.ui.ActionRow(roll),
            )
        )

    async def roll(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("rolled 6", ephemeral=True)


class BidForm(discord.ui.Modal, title="Bid"):
    amount: discord.ui.Label[BidForm] = discord.ui.Label(
        text="Amount", component=discord.ui.TextInput(custom_id="bid:amount", max_length=4)
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        assert isinstance(self.amount.component, discord.ui.TextInput)
        await interaction.response.send_message(f"bid {self.amount.component.value}")


qdice = app_commands.Group(name="qdice", description="Quantum dice")
admin = app_commands.Group(name="admin", description="Admin tools", parent=qdice)


@qdice.command(description="Open a lobby")
@app_commands.describe(seats="How many seats", mode="Speed", title="Lobby title")
@app_commands.choices(
    mode=[
        app_commands.Choice(name="Fast", value="fast"),
        app_commands.Choice(name="Slow", value="slow"),
    ]
)
async def start(
    interaction: discord.Interaction,
    seats: app_commands.Range[int, 2, 6],
    mode: str = "fast",
    title: app_commands.Range[str, 1, 10] = "Lobby",
) -> None:
    await interaction.response.send_message(f"{title}: {seats} seats, {mode}", view=Lobby())


@admin.command(description="Reset a player")
async def reset(
    interaction: discord.Interaction, player: discord.Member, hard: bool = False
) -> None:
    await interaction.response.send_message(f"reset {player.name} hard={hard}", ephemeral=True)


def build_bot(guild_id: int) -> commands.Bot:
    """The test bot; `guild_id` gets a guild-only command (precedence over global)."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    tree = bot.tree
    tree.add_command(qdice)
    calls: dict[str, int] = {"slow": 0}

    @tree.command(description="Answer pong")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "pong", embed=discord.Embed(title="Pong", description="latency ok")
        )

    @tree.command(name="where", description="Which copy answers", guild=discord.Object(guild_id))
    async def where_guild(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("guild copy")

    @tree.command(name="where", description="Which copy answers")
    async def where_global(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("global copy")

    @tree.command(description="An image")
    async def picture(interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="Table").set_image(url="attachment://red.png")
        await interaction.response.send_message(embed=embed, file=png("red"))

    @tree.command(description="Edit attachments")
    async def album(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("two", files=[png("red"), png("blue")])
        msg = await interaction.original_response()
        keep = msg.attachments[1]
        await msg.edit(content="swapped", attachments=[keep, png("green", (4, 4))])

    @tree.command(description="Defer then follow up")
    async def slowly(interaction: discord.Interaction, ephemeral: bool = False) -> None:
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)
        await asyncio.sleep(0.3)
        await interaction.followup.send("done thinking")
        await interaction.followup.send("and one more")

    @tree.command(description="Defer then edit the original")
    async def later(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await asyncio.sleep(0.2)
        await interaction.edit_original_response(content="edited later")

    @tree.command(description="Too slow")
    async def sleepy(interaction: discord.Interaction) -> None:
        calls["slow"] += 1
        await asyncio.sleep(3.5)
        try:
            await interaction.response.send_message("too late")
        except discord.NotFound:
            calls["slow"] += 10

    @tree.command(description="A form")
    async def form(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameForm())

    @tree.command(description="Standings")
    async def leaderboard(interaction: discord.Interaction, game: str) -> None:
        await interaction.response.send_message(f"standings for {game}")

    @leaderboard.autocomplete("game")
    async def game_choices(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        games = ["qdice", "qpoker", "quarks", "flume"]
        return [app_commands.Choice(name=g, value=g) for g in games if g.startswith(current)]

    @tree.command(description="Open a thread")
    async def discuss(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("discussion below")
        msg = await interaction.original_response()
        thread = await msg.create_thread(name="talk")
        await thread.send("first in thread")
        assert isinstance(interaction.channel, discord.TextChannel)
        side = await interaction.channel.create_thread(
            name="side", type=discord.ChannelType.public_thread
        )
        await side.send("side thread")

    @tree.command(description="Post to the channel directly")
    async def post(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.channel is not None
        sent = await interaction.channel.send(text)  # type: ignore[union-attr]
        await sent.edit(content=text + " (edited)")
        await interaction.followup.send("posted", ephemeral=True)

    @tree.command(description="A components v2 board")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=Board())

    @tree.command(description="A labelled form")
    async def bid(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(BidForm())

    @tree.command(description="DM a reminder")
    async def remind(interaction: discord.Interaction) -> None:
        await interaction.user.send("psst, your turn")
        await interaction.response.send_message("sent", ephemeral=True)

    async def setup_hook() -> None:
        await tree.sync()
        await tree.sync(guild=discord.Object(guild_id))

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    bot.calls = calls  # type: ignore[attr-defined]
    return bot
