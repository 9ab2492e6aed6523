"""Reading a tournament export row by row (see :mod:`.export`): every value checked as the models
check it, every error naming the row and the field, for the import's checks (:mod:`.restore`)
and the formats' own (:meth:`tournament.formats.registry.EventFormat.check_import`)."""

from __future__ import annotations

import datetime
import json
from decimal import Decimal, InvalidOperation
from typing import Any, NoReturn

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from tournament.transfer.export import FORMAT, FORMATS_MISDEAL_NUMBERED

MAX_DEPTH = 12
# Far above any club's evening; they bound how long checking a hostile file can take.
LIMITS = {"teams": 2000, "tables": 1000, "rounds": 50, "games": 1000, "hands": 200, "revisions": 200,
          "payments": 200, "changes": 1000, "prizes": 200, "payouts": 4000, "seatings": 4000, "clocks": 60000,
          "matches": 5000}  # fmt: skip
CENT = Decimal("0.01")


def max_upload_bytes() -> int:
    return settings.SPADES_IMPORT_MAX_MB * 1024 * 1024


def fail(where: str, message: str, code: str = "invalid") -> NoReturn:
    raise ValidationError(f"{where}: {message}", code=code)


def parse(raw: bytes | str) -> dict[str, Any]:
    """Decode an export; :class:`ValidationError` if it is not one (or hides a NUL character
    or nests deeper than any export does)."""
    if len(raw) > max_upload_bytes():
        size = len(raw) / 1024 / 1024
        raise ValidationError(
            f"The file is {size:.1f} MB; an export is at most {settings.SPADES_IMPORT_MAX_MB} MB.", code="too_large"
        )
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ValidationError("That file is not a tournament export (it is not JSON).", code="not_json") from None
    if not isinstance(data, dict) or data.get("format") not in (FORMAT, *FORMATS_MISDEAL_NUMBERED):
        raise ValidationError(f"That file is not a tournament export of format {FORMAT}.", code="format")
    _check_text(data)
    return data


def _check_text(data: Any) -> None:
    """No NUL character anywhere (no database column can hold one) and no deep nesting."""
    stack: list[tuple[Any, str, int]] = [(data, "the file", 0)]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            fail(where, "nested deeper than any export is", "too_deep")
        if isinstance(value, str) and "\x00" in value:
            fail(where, "contains a NUL character, which no text may hold", "nul")
        if isinstance(value, dict):
            for key, item in value.items():
                if "\x00" in key:
                    fail(where, "a key contains a NUL character", "nul")
                stack.append((item, f"{where} → {key}", depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{where} → item {i + 1}", depth + 1) for i, item in enumerate(value))


# --- reading rows -----------------------------------------------------------------------------


class Row:
    """One object of the file, read field by field; every error names the row and the field."""

    def __init__(self, value: Any, where: str) -> None:
        if not isinstance(value, dict):
            fail(where, "must be an object ({…})", "type")
        self.data, self.where = value, where

    def raw(self, key: str, optional: bool) -> Any:
        if key not in self.data:
            if optional:
                return None
            fail(self.where, f'"{key}" is missing', "missing")
        return self.data[key]

    def text(self, key: str, *, optional: bool = False) -> str:
        value = self.raw(key, optional)
        if value is None and optional:
            return ""
        if not isinstance(value, str):
            fail(self.where, f"{key} must be text", "type")
        return value

    def number(self, key: str, *, optional: bool = False, low: int = 0, high: int = 2_147_483_647) -> int | None:
        value = self.raw(key, optional)
        if value is None and optional:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            fail(self.where, f"{key} must be a whole number", "type")
        if not low <= value <= high:
            fail(self.where, f"{key} must be from {low} to {high}, not {value}", "range")
        return value

    def flag(self, key: str) -> bool:
        value = self.raw(key, False)
        if not isinstance(value, bool):
            fail(self.where, f"{key} must be true or false", "type")
        return value

    def money(self, key: str, *, optional: bool = False) -> Decimal | None:
        value = self.raw(key, optional)
        if value is None and optional:
            return None
        try:
            if isinstance(value, bool) or not isinstance(value, str | int):
                raise InvalidOperation
            amount = Decimal(value)
        except InvalidOperation:
            fail(self.where, f'{key} must be an amount such as "20.00"', "type")
        if not amount.is_finite() or abs(amount) >= Decimal("100000000"):
            fail(self.where, f"{key} must be an amount under 100,000,000, not {str(value)[:40]}", "range")
        if amount != amount.quantize(CENT):
            fail(self.where, f"{key} must be in whole cents (two decimals at most), not {value}", "cents")
        return amount.quantize(CENT)

    def when(self, key: str, *, optional: bool = False) -> datetime.datetime | None:
        value = self.raw(key, optional)
        if value is None and optional:
            return None
        try:
            moment = parse_datetime(value) if isinstance(value, str) else None
        except ValueError:
            moment = None
        if moment is None:
            fail(self.where, f"{key} must be a date and time such as 2026-11-20T19:30:00+00:00", "type")
        return timezone.make_aware(moment) if timezone.is_naive(moment) else moment

    def items(self, key: str, limit: str, *, optional: bool = False) -> list[Any]:
        """The list ``key``; with ``optional``, a missing one is empty (older exports lack it)."""
        value = self.raw(key, optional)
        if value is None and optional:
            return []
        if not isinstance(value, list):
            fail(self.where, f"{key} must be a list", "type")
        if len(value) > LIMITS[limit]:
            fail(self.where, f"more than {LIMITS[limit]} {limit}", "too_many")
        return value

    def column(self, model: type[models.Model], name: str, *, default: bool = False) -> Any:
        """The value for column ``name`` of ``model``, read as its type (null where the column
        allows it); with ``default``, a missing key is the column's default (an older export)."""
        column = model._meta.get_field(name)
        if default and name not in self.data:
            return column.get_default()
        if isinstance(column, models.BooleanField):
            return self.flag(name)
        if isinstance(column, models.IntegerField):
            small = isinstance(column, models.PositiveSmallIntegerField | models.SmallIntegerField)
            return self.number(name, optional=column.null, high=32767 if small else 2_147_483_647)
        if isinstance(column, models.DateTimeField):
            return self.when(name, optional=column.null)
        return self.text(name)

    def ref(self, key: str, known: dict[Any, Any], what: str) -> Any:
        """The record that ``key`` refers to among the file's ``known`` ones (by number or key), or
        None when it refers to none (or, in an older export, is missing)."""
        value = self.raw(key, True)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | str) or value not in known:
            fail(self.where, f"{key} is not one of the file's {what}", "reference")
        return known[value]

    def user(self, key: str, users: dict[str, Any]) -> Any:
        value = self.raw(key, True)
        if value is not None and not isinstance(value, str):
            fail(self.where, f"{key} must be a user name", "type")
        return users.get(value) if value else None


def clean(obj: models.Model, where: str) -> None:
    """The model's own field checks (choices, lengths, digits, validators), its links aside."""
    links = [f.name for f in obj._meta.concrete_fields if f.is_relation]
    try:
        obj.full_clean(exclude=links, validate_unique=False, validate_constraints=False)
    except ValidationError as error:
        name, messages = next(iter(error.message_dict.items()))
        field_name = "" if name == "__all__" else f"{name}: "
        fail(where, f"{field_name}{' '.join(messages)}", "invalid")


def settings_row(data: dict[str, Any], model: type[models.Model]) -> models.Model:
    """A format's settings (an unsaved ``model``, its link to the tournament aside) from the file's
    tournament object, each field checked as the model checks it; a field the file does not have
    (an older export) keeps its default."""
    row = Row(data, "Tournament")
    names = [f.name for f in model._meta.concrete_fields if not f.primary_key and not f.is_relation]
    settings = model(**{name: row.column(model, name, default=True) for name in names})
    clean(settings, row.where)
    return settings


def settings_values(settings: models.Model) -> dict[str, Any]:
    """A format's settings as the export writes them, beside the tournament's own fields."""
    names = [f.name for f in settings._meta.concrete_fields if not f.primary_key and not f.is_relation]
    return {name: getattr(settings, name) for name in names}
