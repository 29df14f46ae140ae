"""Discord's shape rules for what the bot sends (messages, components, embeds, commands) and
for what a person may type into a slash command. Each checker returns readable problems;
the caller decides whether that is a 400 to the bot or a refusal to the test."""

from __future__ import annotations

import re
from typing import Any

from .models import MessageFlags


class LoopbackError(Exception):
    """Base of the fake's own exceptions."""


class InteractionRefused(LoopbackError):
    """What Discord's client would not let a person do (bad option, hidden or disabled button)."""


class OptionType:
    SUB_COMMAND = 1
    SUB_COMMAND_GROUP = 2
    STRING = 3
    INTEGER = 4
    BOOLEAN = 5
    USER = 6
    CHANNEL = 7
    ROLE = 8
    MENTIONABLE = 9
    NUMBER = 10
    ATTACHMENT = 11


COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")
MAX_SAFE_INT = 2**53


def _len(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def embed_problems(embeds: list[dict[str, Any]]) -> list[str]:
    """Discord's embed limits (per field and 6000 characters in total)."""
    problems: list[str] = []
    if len(embeds) > 10:
        problems.append(f"embeds: {len(embeds)} embeds, at most 10")
    total = 0
    for i, e in enumerate(embeds):
        if not isinstance(e, dict):
            problems.append(f"embeds[{i}]: not an object")
            continue
        limits = {
            "title": (e.get("title"), 256),
            "description": (e.get("description"), 4096),
            "footer.text": ((e.get("footer") or {}).get("text"), 2048),
            "author.name": ((e.get("author") or {}).get("name"), 256),
        }
        fields = e.get("fields") or []
        if len(fields) > 25:
            problems.append(f"embeds[{i}].fields: {len(fields)} fields, at most 25")
        for j, f in enumerate(fields):
            limits[f"fields[{j}].name"] = (f.get("name"), 256)
            limits[f"fields[{j}].value"] = (f.get("value"), 1024)
            if not f.get("name") or not f.get("value"):
                problems.append(f"embeds[{i}].fields[{j}]: name and value are required")
        for name, (value, limit) in limits.items():
            total += _len(value)
            if _len(value) > limit:
                problems.append(f"embeds[{i}].{name}: {_len(value)} characters, at most {limit}")
    if total > 6000:
        problems.append(f"embeds: {total} characters in total, at most 6000")
    return problems


def _button_problems(where: str, b: dict[str, Any]) -> list[str]:
    problems = []
    style = b.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        problems.append(f"{where}: invalid button style {style!r}")
    if style == 5:
        if not b.get("url") or b.get("custom_id"):
            problems.append(f"{where}: a link button needs url and no custom_id")
    elif style != 6 and not b.get("custom_id"):
        problems.append(f"{where}: a button needs a custom_id")
    if _len(b.get("label")) > 80:
        problems.append(f"{where}: label longer than 80 characters")
    if not b.get("label") and not b.get("emoji"):
        problems.append(f"{where}: a button needs a label or an emoji")
    return problems


def _select_problems(where: str, s: dict[str, Any]) -> list[str]:
    problems = []
    if not s.get("custom_id"):
        problems.append(f"{where}: a select needs a custom_id")
    if _len(s.get("placeholder")) > 150:
        problems.append(f"{where}: placeholder longer than 150 characters")
    lo, hi = s.get("min_values", 1), s.get("max_values", 1)
    if not (0 <= lo <= 25 and 1 <= hi <= 25 and lo <= hi):
        problems.append(f"{where}: min_values/max_values {lo}/{hi} out of range")
    if s.get("type") == 3:
        options = s.get("options") or []
        if not 1 <= len(options) <= 25:
            problems.append(f"{where}: {len(options)} options, must be 1..25")
        if hi > len(options) > 0:
            problems.append(f"{where}: max_values {hi} exceeds the {len(options)} options")
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            problems.append(f"{where}: duplicate option values")
        for k, o in enumerate(options):
            for key in ("label", "value", "description"):
                if _len(o.get(key)) > 100:
                    problems.append(f"{where}.options[{k}].{key}: longer than 100 characters")
            if not o.get("label") or not o.get("value"):
                problems.append(f"{where}.options[{k}]: label and value are required")
    return problems


def component_problems(components: list[dict[str, Any]], flags: int) -> list[str]:
    """Classic action rows (<=5 rows, <=5 buttons or one select each) or components v2."""
    problems: list[str] = []
    custom_ids: list[str] = []
    v2 = bool(flags & MessageFlags.IS_COMPONENTS_V2)
    if not v2 and len(components) > 5:
        problems.append(f"components: {len(components)} action rows, at most 5")
    for i, comp in enumerate(components):
        if not v2 and comp.get("type") != 1:
            problems.append(f"components[{i}]: top-level components must be action rows")
        _visit(f"components[{i}]", comp, False, v2, problems, custom_ids)
    dupes = {c for c in custom_ids if custom_ids.count(c) > 1}
    if dupes:
        problems.append(f"components: duplicate custom_id {sorted(dupes)}")
    return problems


def _visit(
    where: str,
    comp: dict[str, Any],
    in_row: bool,
    v2: bool,
    problems: list[str],
    custom_ids: list[str],
) -> None:
    """One component and those inside it: its problems and custom_ids added to the lists."""
    ctype = comp.get("type")
    if comp.get("custom_id") is not None:
        cid = comp["custom_id"]
        custom_ids.append(cid)
        if not isinstance(cid, str) or not 1 <= len(cid) <= 100:
            problems.append(f"{where}: custom_id must be 1..100 characters")
    if ctype == 1:
        children = comp.get("components") or []
        if not 1 <= len(children) <= 5:
            problems.append(f"{where}: an action row holds 1..5 components")
        selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
        if selects and len(children) > 1:
            problems.append(f"{where}: a select must be alone in its action row")
        for k, child in enumerate(children):
            if child.get("type") == 1:
                problems.append(f"{where}: action rows cannot nest")
            _visit(f"{where}.components[{k}]", child, True, v2, problems, custom_ids)
    elif ctype == 2:
        if not in_row:
            problems.append(f"{where}: a button must sit in an action row or a section")
        problems.extend(_button_problems(where, comp))
    elif ctype in (3, 5, 6, 7, 8):
        if not in_row:
            problems.append(f"{where}: a select must sit in an action row")
        problems.extend(_select_problems(where, comp))
    elif ctype in (9, 10, 11, 12, 13, 14, 17) and v2:
        for k, child in enumerate(comp.get("components") or []):
            _visit(f"{where}.components[{k}]", child, False, v2, problems, custom_ids)
        if isinstance(comp.get("accessory"), dict):
            _visit(f"{where}.accessory", comp["accessory"], True, v2, problems, custom_ids)
    else:
        problems.append(f"{where}: component type {ctype!r} is not allowed here")


def message_problems(payload: dict[str, Any], *, has_files: bool = False) -> list[str]:
    """A message create/edit body as Discord validates it."""
    problems: list[str] = []
    content = payload.get("content")
    flags = int(payload.get("flags") or 0)
    if content is not None and _len(content) > 2000:
        problems.append(f"content: {_len(content)} characters, at most 2000")
    embeds = payload.get("embeds") or []
    problems.extend(embed_problems(embeds))
    problems.extend(component_problems(payload.get("components") or [], flags))
    if flags & MessageFlags.IS_COMPONENTS_V2 and (content or embeds):
        problems.append("components v2 messages cannot carry content or embeds")
    return problems


def modal_problems(data: dict[str, Any]) -> list[str]:
    problems = []
    if not 1 <= _len(data.get("title")) <= 45:
        problems.append("modal title must be 1..45 characters")
    if not 1 <= _len(data.get("custom_id")) <= 100:
        problems.append("modal custom_id must be 1..100 characters")
    comps = data.get("components") or []
    if not 1 <= len(comps) <= 5:
        problems.append(f"modal has {len(comps)} components, must be 1..5")
    return problems


def command_problems(cmd: dict[str, Any]) -> list[str]:
    """An application command as Discord checks it on sync."""
    problems: list[str] = []
    name = cmd.get("name", "")
    ctype = cmd.get("type", 1)
    if not isinstance(name, str) or not COMMAND_NAME.match(name):
        problems.append(f"command {name!r}: invalid name")
    elif ctype == 1 and name != name.lower():
        problems.append(f"command {name!r}: chat input names must be lower case")
    if ctype == 1 and not 1 <= _len(cmd.get("description")) <= 100:
        problems.append(f"command {name!r}: description must be 1..100 characters")
    problems.extend(_options_problems(f"/{name}", cmd.get("options") or []))
    return problems


def _options_problems(where: str, options: list[dict[str, Any]]) -> list[str]:
    problems = []
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} options, at most 25")
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        problems.append(f"{where}: duplicate option names")
    seen_optional = False
    for o in options:
        here = f"{where} {o.get('name')}"
        if not isinstance(o.get("name"), str) or not COMMAND_NAME.match(o["name"]):
            problems.append(f"{here}: invalid option name")
        if not 1 <= _len(o.get("description")) <= 100:
            problems.append(f"{here}: description must be 1..100 characters")
        if o.get("type") in (OptionType.SUB_COMMAND, OptionType.SUB_COMMAND_GROUP):
            problems.extend(_options_problems(here, o.get("options") or []))
            continue
        if o.get("required"):
            if seen_optional:
                problems.append(f"{here}: required options must come before optional ones")
        else:
            seen_optional = True
        if len(o.get("choices") or []) > 25:
            problems.append(f"{here}: more than 25 choices")
        if o.get("choices") and o.get("autocomplete"):
            problems.append(f"{here}: choices and autocomplete are exclusive")
    return problems


def coerce_option(schema: dict[str, Any], value: Any) -> Any:
    """Check a scalar option value as Discord's client would; return its wire form."""
    name, otype = schema["name"], schema["type"]
    if otype == OptionType.STRING:
        if not isinstance(value, str):
            raise InteractionRefused(f"option {name!r} takes text, got {value!r}")
        lo, hi = schema.get("min_length", 0), schema.get("max_length", 6000)
        if not lo <= len(value) <= hi:
            raise InteractionRefused(f"option {name!r}: length {len(value)} not in {lo}..{hi}")
    elif otype == OptionType.INTEGER:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InteractionRefused(f"option {name!r} takes an integer, got {value!r}")
    elif otype == OptionType.NUMBER:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InteractionRefused(f"option {name!r} takes a number, got {value!r}")
    elif otype == OptionType.BOOLEAN and not isinstance(value, bool):
        raise InteractionRefused(f"option {name!r} takes true/false, got {value!r}")
    if otype in (OptionType.INTEGER, OptionType.NUMBER):
        lo = schema.get("min_value", -MAX_SAFE_INT)
        hi = schema.get("max_value", MAX_SAFE_INT)
        if not lo <= value <= hi:
            raise InteractionRefused(f"option {name!r}: {value} not in {lo}..{hi}")
    choices = schema.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        allowed = ", ".join(repr(c["value"]) for c in choices)
        raise InteractionRefused(f"option {name!r}: {value!r} is not one of {allowed}")
    return value
