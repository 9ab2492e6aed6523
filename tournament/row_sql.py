"""One row's INSERT or UPDATE, its SQL built once per model, database and set of columns.

``Model.save()`` builds its statement anew on every call, and on a scorekeeper's save that was
most of the cost of the three writes (the hand, its revision, the game's totals). These write
what ``save()`` would: each value is converted by its field as ``save()`` converts it (its
``pre_save``, so defaults and ``auto_now`` apply, then ``get_db_prep_save``), and the database's
constraints check every row. They send no ``pre_save``/``post_save`` signals: the app connects
none (a test checks), and a model's logic lives in its methods, not in signals.

Their parameters are named (``%(number)s``), as :func:`named_parameters` names a compiled query's:
SQLite's backend turns positional ones into its own with a regular expression over the whole
statement on every execution, named ones with one ``%`` formatting. :func:`executed` runs every
such statement; on PostgreSQL it sends them in PostgreSQL's own form (see there).

:func:`write_together` writes a row, a new row referring to it and an update of a third, as
these would, in one statement on PostgreSQL; guarded, only while the third is as it was read.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Iterator, Mapping, Sequence

import psycopg
from django.db import DatabaseError, connections, models, router, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper
from django.db.models import Field


def db_value(field: Field, obj: models.Model, connection, *, add: bool) -> object:
    """``obj``'s value of ``field`` as ``save()`` sends it to ``connection``'s database."""
    return field.get_db_prep_save(field.pre_save(obj, add), connection)


def insert(obj: models.Model) -> None:
    """Insert ``obj`` (unsaved, with no id) as a new row and give it its id."""
    alias = obj._state.db or router.db_for_write(type(obj))
    connection = connections[alias]
    sql, fields, returning = _insert_sql(type(obj), alias)
    values = {field.attname: db_value(field, obj, connection, add=True) for field in fields}
    with executed(connection, sql, values) as cursor:
        if returning:
            (pk,) = cursor.fetchone()
        else:
            meta = obj._meta
            pk = connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column)
    obj.pk = pk
    obj._state.adding, obj._state.db = False, alias


def update(
    obj: models.Model, fields: Sequence[str] | None = None, *, unchanged: Mapping[str, object] | None = None
) -> bool:
    """Write ``fields`` (names; all but the id if None, as ``save()`` does) of ``obj``, a saved
    row; as with ``save(update_fields=...)``, a row that is gone is an error. Returns True.

    With ``unchanged`` (columns by attname, and their values as the caller read them), the row
    is written only while it holds those values (NULL matching NULL); else nothing is written
    and it returns False, as it does for a row that is gone."""
    alias = obj._state.db or router.db_for_write(type(obj))
    connection = connections[alias]
    guard = () if unchanged is None else tuple(unchanged)
    sql, columns = _update_sql(type(obj), alias, None if fields is None else tuple(fields), "", guard)
    values = {field.attname: db_value(field, obj, connection, add=False) for field in columns}
    with executed(connection, sql, {**values, **_guard_values(obj, unchanged, connection), _PK: obj.pk}) as cursor:
        if cursor.rowcount == 1:
            return True
    if unchanged is not None:
        return False
    raise DatabaseError(f"{obj._meta.label} {obj.pk}: the row to update is gone")


def write_together(
    row: models.Model,
    child: models.Model,
    other: models.Model,
    fields: Sequence[str],
    *,
    unchanged: Mapping[str, object] | None = None,
) -> bool:
    """Write ``row`` (inserted when it has no id, else every column but the id updated), then
    insert ``child`` (unsaved) with its foreign key to ``row``'s model pointing at ``row``, then
    update ``fields`` of ``other`` (a saved row): what :func:`insert` and :func:`update` would
    write one after the other, and give ``row`` and ``child`` their ids. Returns True.

    On PostgreSQL it is one statement (a data-modifying WITH), not three: a scorekeeper's save
    writes a hand, its revision and the game's totals, and each statement is a round trip to
    the server. The rows meet the same constraints, and a row to update that is gone (``row``'s
    or ``other``'s) is an error here too.

    ``unchanged`` makes it a guarded write, whole by itself: ``other``'s columns (by attname) as
    the caller read them, without a lock. The three rows are written only while ``other``'s row
    holds those values, else none of them, and it returns False: the caller's work, done on what
    it read, is out of date. On PostgreSQL the one statement locks ``other``'s row and compares
    it, and needs no transaction; elsewhere a transaction of its own (SQLite's take the write
    lock as they begin) updates ``other`` first, while it still holds them. Inside the caller's
    transaction it is a savepoint, so that a write the database refuses leaves that usable.
    """
    alias = row._state.db or router.db_for_write(type(row))
    connection = connections[alias]
    one_statement = connection.vendor == "postgresql"  # SQLite has no INSERT or UPDATE inside a WITH
    whole = unchanged is not None and (connection.in_atomic_block or not one_statement)
    with transaction.atomic(using=alias) if whole else contextlib.nullcontext():
        if one_statement:
            return _write_in_one(row, child, other, fields, unchanged, connection)
        if unchanged is not None and not update(other, fields, unchanged=unchanged):
            return False
        if row.pk is None:
            insert(row)
        else:
            update(row)
        setattr(child, _link_field(type(child), type(row)).attname, row.pk)
        insert(child)
        if unchanged is None:
            update(other, fields)
        return True


def _write_in_one(
    row: models.Model,
    child: models.Model,
    other: models.Model,
    fields: Sequence[str],
    unchanged: Mapping[str, object] | None,
    connection: BaseDatabaseWrapper,
) -> bool:
    """:func:`write_together` on PostgreSQL: one statement."""
    add = row.pk is None
    guard = () if unchanged is None else tuple(unchanged)
    sql, columns = _together_sql(type(row), add, type(child), type(other), tuple(fields), guard, connection.alias)
    parts = ((_ROW, row, add), (_CHILD, child, True), (_OTHER, other, False))
    params = {
        prefix + field.attname: db_value(field, obj, connection, add=adding)
        for (prefix, obj, adding), fields_of in zip(parts, columns, strict=True)
        for field in fields_of
    }
    params[_OTHER + _PK] = other.pk
    if not add:
        params[_ROW + _PK] = row.pk
    with executed(connection, sql, {**params, **_guard_values(other, unchanged, connection)}) as cursor:
        written = cursor.fetchone()
    if written is None:
        if unchanged is not None:
            return False
        raise DatabaseError(f"{other._meta.label} {other.pk} or {row._meta.label} {row.pk}: the row to update is gone")
    row.pk, child.pk = written
    setattr(child, _link_field(type(child), type(row)).attname, row.pk)
    for obj in (row, child):
        obj._state.adding, obj._state.db = False, connection.alias
    return True


def _guard_values(obj: models.Model, unchanged: Mapping[str, object] | None, connection) -> dict[str, object]:
    """The parameters of a guard (see :func:`_held`): ``unchanged``'s values as ``connection``
    takes them."""
    meta = obj._meta
    return {
        _GUARD + name: meta.get_field(name).get_db_prep_value(value, connection)
        for name, value in (unchanged or {}).items()
    }


@functools.cache
def _link_field(child: type[models.Model], parent: type[models.Model]) -> Field:
    """``child``'s one foreign key to ``parent``."""
    (link,) = [field for field in child._meta.concrete_fields if field.is_relation and field.related_model is parent]
    assert not link.null, "a row to update that is gone leaves this key null, which must be refused"
    return link


_ROW, _CHILD, _OTHER, _GUARD = "w_", "c_", "o_", "g_"  # each part's parameters in one write_together statement


@functools.cache
def _together_sql(
    model: type[models.Model],
    add: bool,
    child: type[models.Model],
    other: type[models.Model],
    names: tuple[str, ...],
    guard: tuple[str, ...],
    alias: str,
) -> tuple[str, tuple[list[Field], list[Field], list[Field]]]:
    """:func:`write_together`'s statement on PostgreSQL, and each row's fields in their parameters'
    order. The first part locks ``other``'s row, when it holds the ``guard`` columns' values (see
    :func:`_held`); every write hangs on that row: the row's INSERT selects from it (an UPDATE
    requires it), the child's INSERT selects from the written row, and the final UPDATE of
    ``other`` requires both and returns both new ids: no row at all when ``other`` is gone or
    changed, or ``row`` (to update) is gone.

    Under READ COMMITTED (Django's default, and this app's): a locking read that waited for
    another transaction compares the row as that one committed it, and the final UPDATE, which
    finds the row as the statement began, follows it to that same version, now locked. Every
    other part sees the database as the statement began, which is all each needs: none reads a
    row another writes. (Under REPEATABLE READ the waiting lock would fail the statement.)"""
    assert other is not model, "one statement must not write a row twice"
    quote = connections[alias].ops.quote_name
    meta = other._meta
    pk = quote(meta.pk.column)
    held = _held(other, guard, alias)
    locked = f"SELECT {pk} FROM {quote(meta.db_table)} WHERE {pk} = %({_OTHER}{_PK})s{held} FOR UPDATE"
    row_pk = quote(model._meta.pk.column)
    if add:
        written, row_fields, _ = _insert_sql(model, alias, _ROW)
        written = _from(written, "locked")
    else:
        written, row_fields = _update_sql(model, alias, None, _ROW)
        written += f" AND EXISTS (SELECT FROM locked) RETURNING {row_pk}"
    inserted, child_fields, _ = _insert_sql(child, alias, _CHILD)
    link = _link_field(child, model)
    inserted = _from(inserted.replace(f"%({_CHILD}{link.attname})s", f"written.{row_pk}"), "written")
    child_fields = [field for field in child_fields if field is not link]
    updated, other_fields = _update_sql(other, alias, names, _OTHER)
    updated += " AND EXISTS (SELECT FROM locked) AND EXISTS (SELECT FROM child)"
    ids = f"(SELECT {row_pk} FROM written), (SELECT {quote(child._meta.pk.column)} FROM child)"
    sql = f"WITH locked AS ({locked}), written AS ({written}), child AS ({inserted}) {updated} RETURNING {ids}"
    return sql, (row_fields, child_fields, other_fields)


def _from(insert_sql: str, source: str) -> str:
    """``INSERT … VALUES (…) RETURNING …`` as ``INSERT … SELECT … FROM source RETURNING …``: one
    row for each of ``source``'s rows (none or one here)."""
    head, rest = insert_sql.split(" VALUES (", 1)
    values, returning = rest.rsplit(") RETURNING ", 1)
    return f"{head} SELECT {values} FROM {source} RETURNING {returning}"


@functools.cache
def _insert_sql(model: type[models.Model], alias: str, prefix: str = "") -> tuple[str, list[Field], bool]:
    """The INSERT of every column but the id (each parameter named ``prefix`` and the field's
    attname), the fields in its parameters' order, and whether it returns the new id (else the
    backend is asked for it after)."""
    connection = connections[alias]
    quote = connection.ops.quote_name
    fields = [field for field in model._meta.concrete_fields if not field.primary_key]
    columns = ", ".join(quote(field.column) for field in fields)
    values = ", ".join(f"%({prefix}{field.attname})s" for field in fields)
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({values})"
    returning = connection.features.can_return_columns_from_insert
    if returning:
        sql += " RETURNING " + quote(model._meta.pk.column)
    return sql, fields, returning


@functools.cache
def _update_sql(
    model: type[models.Model], alias: str, names: tuple[str, ...] | None, prefix: str = "", guard: tuple[str, ...] = ()
) -> tuple[str, list[Field]]:
    """The UPDATE by id of the fields ``names`` (None: all but the id), each parameter (and the
    id's, ``_PK``) named after ``prefix``, of the row only while it holds the ``guard`` columns'
    values (see :func:`_held`), and the fields in its parameters' order."""
    quote = connections[alias].ops.quote_name
    meta = model._meta
    if names is None:
        fields = [field for field in meta.concrete_fields if not field.primary_key]
    else:
        fields = [meta.get_field(name) for name in names]
    assigned = ", ".join(f"{quote(field.column)} = %({prefix}{field.attname})s" for field in fields)
    sql = f"UPDATE {quote(meta.db_table)} SET {assigned} WHERE {quote(meta.pk.column)} = %({prefix}{_PK})s"
    return sql + _held(model, guard, alias), fields


def _held(model: type[models.Model], guard: tuple[str, ...], alias: str) -> str:
    """SQL to add to a WHERE: each ``guard`` column (by attname) holds its parameter's value,
    named ``_GUARD`` and the attname, a NULL matching a NULL."""
    connection = connections[alias]
    same = "IS NOT DISTINCT FROM" if connection.vendor == "postgresql" else "IS"  # SQLite's IS is null-safe
    quote, meta = connection.ops.quote_name, model._meta
    return "".join(f" AND {quote(meta.get_field(name).column)} {same} %({_GUARD}{name})s" for name in guard)


_PK = "row_sql_pk"  # the updated row's id: named apart from every column


@contextlib.contextmanager
def executed(connection: BaseDatabaseWrapper, sql: str, params: Mapping[str, object]) -> Iterator[CursorWrapper]:
    """A cursor that has run ``sql``, whose placeholders are named (``%(name)s``, ``%%`` for a
    literal ``%``), with ``params`` by name.

    On PostgreSQL with server-side binding (see settings) the statement goes as PostgreSQL's own
    ``$1``, ``$2``…, rewritten once per statement: psycopg reads a statement's placeholders on
    every execution, with a regular expression, and keeps what it read only for a statement
    shorter than 4,096 bytes with at most 50 parameters, which the link's query and a save's
    guarded write are not (that reading was a fifth of a save's time in its server). Where the
    connection logs its queries (debug mode, a test counting them), they go through psycopg's
    own reading, which the log needs to print them.
    """
    if not getattr(connection.features, "uses_server_side_binding", False) or connection.queries_logged:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            yield cursor
        return
    positional, names = _positional(sql)
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    # Django's own cursor (its time zone, its error wrapping), made a raw one: psycopg's
    # connection builds its cursors with its cursor_factory.
    djangos = connection.connection.cursor_factory
    connection.connection.cursor_factory = psycopg.RawCursor
    try:
        cursor = connection.cursor()
    finally:
        connection.connection.cursor_factory = djangos
    with cursor:
        cursor.execute(positional, [params[name] for name in names])
        yield cursor


@functools.lru_cache(maxsize=64)
def _positional(sql: str) -> tuple[str, tuple[str, ...]]:
    """``sql``'s named placeholders as ``$1``, ``$2``… (a name used twice, one number), and the
    names in their numbers' order."""
    names: dict[str, int] = {}

    def number(found: re.Match) -> str:
        if found[0] == "%%":
            return "%"
        assert found[1], f"a lone % in {sql!r}: a literal one is written %%"
        return f"${names.setdefault(found[1], len(names) + 1)}"

    positional = re.sub(r"%%|%\((\w+)\)s|%", number, sql)
    return positional, tuple(names)


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
