"""Backend options: each backend declares a frozen dataclass of typed fields.

Values come from Python (``ACOptions(restart_base=64)``), from a dict, or from the command line
as ``key=value`` text (``--backend-option restart_base=64``); text is converted by the field's
type. Unknown keys and bad values raise :class:`~csp_crossword.core.errors.InputError` naming the valid
keys, so every front end reports them the same way.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Demo:
...     workers: int | None = None
...     fast: bool = False
>>> build_options(Demo, {"workers": "4", "fast": "yes"}, "demo")
Demo(workers=4, fast=True)
>>> build_options(Demo, {"speed": "1"}, "demo")
Traceback (most recent call last):
...
csp_crossword.core.errors.InputError: backend demo has no option 'speed'; its options are: workers, fast
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, Literal, TypeVar

from ..core.errors import InputError

OptionsT = TypeVar("OptionsT")

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


@dataclasses.dataclass(frozen=True)
class NoOptions:
    """The options of a backend that has none."""


def option_names(options_class: type) -> list[str]:
    return [f.name for f in dataclasses.fields(options_class)]


def describe_options(options_class: type) -> list[str]:
    """``name: type = default`` for each option, for help texts and ``backends``."""
    hints = typing.get_type_hints(options_class)
    rows = []
    for f in dataclasses.fields(options_class):
        kind = _type_text(hints[f.name])
        rows.append(f"{f.name}: {kind} = {f.default!r}")
    return rows


def _type_text(kind: Any) -> str:
    if typing.get_origin(kind) is Literal:
        return "|".join(str(v) for v in typing.get_args(kind))
    if isinstance(kind, types.UnionType) or typing.get_origin(kind) is typing.Union:
        return " or ".join(_type_text(k) for k in typing.get_args(kind))
    return "none" if kind is type(None) else getattr(kind, "__name__", str(kind))


def _convert(kind: Any, value: Any, key: str, backend: str) -> Any:
    """``value`` (text or a Python value) as a value of ``kind``; InputError when it is not one."""
    origin = typing.get_origin(kind)
    if isinstance(kind, types.UnionType) or origin is typing.Union:
        members = typing.get_args(kind)
        if (value is None or (isinstance(value, str) and value.lower() == "none")) and type(None) in members:
            return None
        errors = []
        for member in members:
            if member is type(None):
                continue
            try:
                return _convert(member, value, key, backend)
            except InputError as error:
                errors.append(error)
        raise errors[0]
    if origin is Literal:
        allowed = typing.get_args(kind)
        if value in allowed:
            return value
        raise InputError(f"backend {backend} option {key} must be one of {', '.join(map(str, allowed))}, not {value!r}")
    if kind is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        text = str(value).strip().lower()
        if text in _TRUE | _FALSE:
            return text in _TRUE
        raise InputError(f"backend {backend} option {key} must be true or false, not {value!r}")
    if kind in (int, float):
        if isinstance(value, bool):
            raise InputError(f"backend {backend} option {key} must be a number, not {value!r}")
        try:
            number = kind(value) if not isinstance(value, float) or kind is float else _whole(value)
        except (TypeError, ValueError):
            raise InputError(
                f"backend {backend} option {key} must be {'an integer' if kind is int else 'a number'}, not {value!r}"
            ) from None
        return number
    if kind is str:
        return str(value)
    raise TypeError(f"option type {kind!r} is not supported")


def _whole(value: float) -> int:
    if not value.is_integer():
        raise ValueError(value)
    return int(value)


def build_options(options_class: type[OptionsT], values: Mapping[str, Any] | None, backend: str) -> OptionsT:
    """An instance of ``options_class`` from ``values`` (text or typed), validated."""
    values = dict(values or {})
    names = option_names(options_class)
    for key in values:
        if key not in names:
            valid = ", ".join(names) if names else "(none)"
            raise InputError(f"backend {backend} has no option {key!r}; its options are: {valid}")
    hints = typing.get_type_hints(options_class)
    converted = {key: _convert(hints[key], value, key, backend) for key, value in values.items()}
    try:
        return options_class(**converted)
    except ValueError as error:
        raise InputError(f"backend {backend}: {error}") from None


def parse_option_items(items: Iterable[str]) -> dict[str, str]:
    """``["key=value", "a=1,b=2"]`` -> ``{"key": "value", "a": "1", "b": "2"}``.

    >>> parse_option_items(["restart_base=64", "nogoods=0,value_order=window"])
    {'restart_base': '64', 'nogoods': '0', 'value_order': 'window'}
    """
    values: dict[str, str] = {}
    for item in items:
        for part in item.split(","):
            if not part.strip():
                continue
            key, sep, value = part.partition("=")
            if not sep or not key.strip():
                raise InputError(f"backend option {part!r}: write KEY=VALUE, e.g. restart_base=64")
            values[key.strip()] = value.strip()
    return values
