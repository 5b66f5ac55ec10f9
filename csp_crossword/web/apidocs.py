"""``/docs``: the web API's reference as one page drawn from the app's OpenAPI schema.

FastAPI's own pages load Swagger UI or ReDoc from a CDN, which a local server must not depend on
(it may run offline, and its content security policy allows the page's own files only). This page
is plain HTML: every route with its method, summary and body, and every request schema's fields
with their types, defaults and bounds. The machine-readable schema stays at ``/openapi.json``.
"""

from __future__ import annotations

from html import escape
from typing import Any

#: Field keywords shown as a field's bounds, in this order.
BOUND_KEYWORDS = (
    *("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"),
    *("minLength", "maxLength", "minItems", "maxItems", "maxProperties", "pattern"),
)


def docs_page(schema: dict[str, Any]) -> str:
    """The reference page of an OpenAPI ``schema``."""
    info = schema.get("info", {})
    title = f"{info.get('title', 'API')} {info.get('version', '')} web API".strip()
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>",
        '<link rel="icon" href="data:,"><link rel="stylesheet" href="/static/apidocs.css">',
        "</head><body>",
        f"<h1>{escape(title)}</h1>",
        '<p>The same schema, machine-readable: <a href="/openapi.json">/openapi.json</a>. '
        'The page itself: <a href="/">/</a>.</p>',
        "<h2>Routes</h2>",
    ]
    for path, methods in schema.get("paths", {}).items():
        for method, operation in methods.items():
            parts.append(_route(path, method, operation))
    schemas = schema.get("components", {}).get("schemas", {})
    if schemas:
        parts.append("<h2>Bodies</h2>")
        for name in sorted(schemas):
            parts.append(_schema(name, schemas[name]))
    parts.append("</body></html>")
    return "\n".join(parts)


def _route(path: str, method: str, operation: dict[str, Any]) -> str:
    # the route function's docstring when it has one, else FastAPI's summary from its name
    summary = operation.get("description", "").split("\n\n")[0] or operation.get("summary", "")
    body = operation.get("requestBody", {}).get("content", {})
    takes = ""
    for media, content in body.items():
        takes = f"<p>Body ({escape(media)}): {_type(content.get('schema', {}))}</p>"
    statuses = ", ".join(escape(code) for code in operation.get("responses", {}))
    return (
        f'<section class="route"><h3><span class="method">{escape(method.upper())}</span> '
        f"<code>{escape(path)}</code></h3><p>{_text(summary)}</p>{takes}"
        f'<p class="muted">Answers: {statuses}</p></section>'
    )


def _schema(name: str, schema: dict[str, Any]) -> str:
    rows = []
    required = set(schema.get("required", []))
    for field, spec in schema.get("properties", {}).items():
        default = f"<code>{escape(repr(spec['default']))}</code>" if "default" in spec else ""
        bounds = ", ".join(f"{key} {escape(str(spec[key]))}" for key in BOUND_KEYWORDS if key in spec)
        rows.append(
            f"<tr><td><code>{escape(field)}</code>{' *' if field in required else ''}</td>"
            f"<td>{_type(spec)}</td><td>{default}</td><td>{bounds}</td></tr>"
        )
    description = f"<p>{_text(schema['description'])}</p>" if schema.get("description") else ""
    for key in ("oneOf", "anyOf"):
        if key in schema:  # a union of bodies (a job of any kind): say which field tells them apart
            by = schema.get("discriminator", {}).get("propertyName")
            told = f", told apart by <code>{escape(by)}</code>" if by else ""
            description += f"<p>One of{told}: {', '.join(_type(option) for option in schema[key])}.</p>"
    table = ""
    if rows:
        table = (
            "<table><thead><tr><th>field (* required)</th><th>type</th><th>default</th><th>bounds</th></tr>"
            f"</thead><tbody>{''.join(rows)}</tbody></table>"
        )
    return f'<section class="schema" id="{escape(name)}"><h3>{escape(name)}</h3>{description}{table}</section>'


def _text(docstring: str) -> str:
    """A docstring as HTML: escaped, with its ``code`` spans as code."""
    parts = escape(docstring).split("``")
    return "".join(f"<code>{part}</code>" if i % 2 else part for i, part in enumerate(parts))


def _type(spec: dict[str, Any]) -> str:
    """A field's type in words, with links to the bodies it refers to."""
    if "$ref" in spec:
        name = spec["$ref"].rsplit("/", 1)[-1]
        return f'<a href="#{escape(name)}">{escape(name)}</a>'
    for key in ("anyOf", "oneOf"):
        if key in spec:
            return " | ".join(_type(option) for option in spec[key])
    kind = spec.get("type", "")
    if "enum" in spec:
        return " | ".join(f"<code>{escape(repr(value))}</code>" for value in spec["enum"])
    if "const" in spec:
        return f"<code>{escape(repr(spec['const']))}</code>"
    if kind == "array":
        return f"list of {_type(spec.get('items', {}))}"
    if kind == "object" and "additionalProperties" in spec:
        extra = spec["additionalProperties"]
        return f"object of {_type(extra) if isinstance(extra, dict) else 'any'}"
    return escape(str(kind or "any"))
