"""One row's INSERT or UPDATE, its SQL built once per model, database and set of columns.

``Model.save()`` builds its statement anew on every call, and on a scorekeeper's save that was
most of the cost of the three writes (the hand, its revision, the game's totals). These write
what ``save()`` would: each value is converted by its field as ``save()`` converts it (its
``pre_save``, so defaults and ``auto_now`` apply, then ``get_db_prep_save``), and the database's
constraints check every row. They send no ``pre_save``/``post_save`` signals: the app connects
none (a test checks), and a model's logic lives in its methods, not in signals.

Their parameters are named (``%(number)s``), as :func:`named_parameters` names a compiled query's:
SQLite's backend turns positional ones into its own with a regular expression over the whole
statement on every execution, named ones with one ``%`` formatting.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from django.db import DatabaseError, connections, models, router
from django.db.models import Field


def db_value(field: Field, obj: models.Model, connection, *, add: bool) -> object:
    """``obj``'s value of ``field`` as ``save()`` sends it to ``connection``'s database."""
    return field.get_db_prep_save(field.pre_save(obj, add), connection)


def insert(obj: models.Model) -> None:
    """Insert ``obj`` (unsaved, with no id) as a new row and give it its id."""
    alias = obj._state.db or router.db_for_write(type(obj))
    connection = connections[alias]
    sql, fields, returning = _insert_sql(type(obj), alias)
    with connection.cursor() as cursor:
        cursor.execute(sql, {field.attname: db_value(field, obj, connection, add=True) for field in fields})
        if returning:
            (pk,) = cursor.fetchone()
        else:
            meta = obj._meta
            pk = connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column)
    obj.pk = pk
    obj._state.adding, obj._state.db = False, alias


def update(obj: models.Model, fields: Sequence[str] | None = None) -> None:
    """Write ``fields`` (names; all but the id if None, as ``save()`` does) of ``obj``, a saved
    row; as with ``save(update_fields=...)``, a row that is gone is an error."""
    alias = obj._state.db or router.db_for_write(type(obj))
    connection = connections[alias]
    sql, columns = _update_sql(type(obj), alias, None if fields is None else tuple(fields))
    with connection.cursor() as cursor:
        values = {field.attname: db_value(field, obj, connection, add=False) for field in columns}
        cursor.execute(sql, {**values, _PK: obj.pk})
        if cursor.rowcount != 1:
            raise DatabaseError(f"{obj._meta.label} {obj.pk}: the row to update is gone")


@functools.cache
def _insert_sql(model: type[models.Model], alias: str) -> tuple[str, list[Field], bool]:
    """The INSERT of every column but the id, the fields in its parameters' order, and whether it
    returns the new id (else the backend is asked for it after)."""
    connection = connections[alias]
    quote = connection.ops.quote_name
    fields = [field for field in model._meta.concrete_fields if not field.primary_key]
    columns = ", ".join(quote(field.column) for field in fields)
    values = ", ".join(f"%({field.attname})s" for field in fields)
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({values})"
    returning = connection.features.can_return_columns_from_insert
    if returning:
        sql += " RETURNING " + quote(model._meta.pk.column)
    return sql, fields, returning


@functools.cache
def _update_sql(model: type[models.Model], alias: str, names: tuple[str, ...] | None) -> tuple[str, list[Field]]:
    """The UPDATE by id of the fields ``names`` (None: all but the id), and the fields in its
    parameters' order."""
    quote = connections[alias].ops.quote_name
    meta = model._meta
    if names is None:
        fields = [field for field in meta.concrete_fields if not field.primary_key]
    else:
        fields = [meta.get_field(name) for name in names]
    assigned = ", ".join(f"{quote(field.column)} = %({field.attname})s" for field in fields)
    sql = f"UPDATE {quote(meta.db_table)} SET {assigned} WHERE {quote(meta.pk.column)} = %({_PK})s"
    return sql, fields


_PK = "row_sql_pk"  # the updated row's id: named apart from every column


def named_parameters(sql: str, params: Sequence[object]) -> tuple[str, dict[str, object]]:
    """A compiled query's ``sql`` with its ``%s`` placeholders named ``%(p0)s``, ``%(p1)s``… and
    its ``params`` by those names (see the module's docstring for why)."""
    numbers = iter(range(len(params)))
    named = re.sub(r"%[%s]", lambda found: "%%" if found[0] == "%%" else f"%(p{next(numbers, -1)})s", sql)
    assert next(numbers, None) is None and "%(p-1)s" not in named, "one parameter for each placeholder"
    return named, {f"p{number}": param for number, param in enumerate(params)}


def bound(params: dict[str, object], given: dict[object, object]) -> dict[str, object]:
    """Named ``params`` with each stand-in that ``given`` names replaced by its value."""
    return {name: given.get(param, param) for name, param in params.items()}
