"""Discord's published OpenAPI description as a check on the fake: every route it serves must
be documented, and every JSON answer must carry the keys the spec marks required."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from .rest import Route

MAX_DEPTH = 4


def _shape(template: str) -> str:
    return re.sub(r"\{[^}]+\}", "{}", template)


class ApiSpec:
    """Loaded openapi.json: route lookup and required-key checks of response bodies."""

    def __init__(self, path: Path) -> None:
        spec = json.loads(path.read_text())
        self.schemas: dict[str, Any] = spec["components"]["schemas"]
        self.operations: dict[tuple[str, str], dict[str, Any]] = {
            (method.upper(), _shape(p)): op
            for p, item in spec["paths"].items()
            for method, op in item.items()
            if method != "parameters"
        }

    def undocumented(self, routes: list[Route]) -> list[str]:
        """Routes ("METHOD /path") the spec does not describe."""
        return [
            f"{r.method} {r.template}"
            for r in routes
            if (r.method, _shape(r.template)) not in self.operations
        ]

    def response_problems(self, method: str, template: str, status: int, body: Any) -> list[str]:
        """Required keys missing from a JSON answer, by the spec's schema for that status."""
        op = self.operations.get((method, _shape(template)))
        response = (op or {}).get("responses", {}).get(str(status))
        schema = ((response or {}).get("content") or {}).get("application/json", {}).get("schema")
        if schema is None:
            return []
        return self._check(schema, body, "$", 0)

    def _resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in schema:
            schema = self.schemas[schema["$ref"].rsplit("/", 1)[1]]
        return schema

    def _check(self, schema: dict[str, Any], value: Any, where: str, depth: int) -> list[str]:
        schema = self._resolve(schema)
        if value is None or depth > MAX_DEPTH:
            return []
        variants = schema.get("oneOf") or schema.get("anyOf")
        if variants:
            results = [self._check(v, value, where, depth) for v in variants]
            return [] if any(not r for r in results) else min(results, key=len)
        if isinstance(value, list) and "items" in schema:
            return [
                p
                for i, v in enumerate(value)
                for p in self._check(schema["items"], v, f"{where}[{i}]", depth + 1)
            ]
        if not isinstance(value, dict):
            return []
        problems = [f"{where}.{k} missing" for k in schema.get("required", []) if k not in value]
        for key, sub in (schema.get("properties") or {}).items():
            if key in value:
                problems.extend(self._check(sub, value[key], f"{where}.{key}", depth + 1))
        return problems
