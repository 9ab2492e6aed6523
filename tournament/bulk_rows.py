"""Writing many new rows of several models in one short transaction.

``bulk_create`` converts every value of every row for the database while it runs (for a
1,000-table event, 100,000 rows and a million values: seconds of Python), and on SQLite the whole
of that runs inside the write lock. Here everything but the writing happens before the
transaction opens: the values are converted (:func:`prepare`), ids reserved for the new rows and
the rows' links to one another filled in with them (:func:`reserve`; on PostgreSQL the rows are
formatted for ``COPY`` too). Inside the transaction (:func:`insert`) each table's rows are sent
at once (``executemany`` on SQLite, ``COPY`` on PostgreSQL).

Rows link to each other as model instances (``Player(team=team)`` before either is saved); a
link to a row already in the database keeps its id, and so does a new row given one (a
tournament restored in place of the one it came from). SQLite and PostgreSQL only.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, models
from psycopg.copy import Copy, FileWriter

from tournament.row_sql import db_value


@dataclass
class Prepared:
    """One model's new rows: the objects, and their values ready for the database (links to other
    new rows still the objects, at ``links``); once reserved, the objects that were given ids
    (``new``), the first of those ids (``start``; None if none was) and the rows to write
    (``ready``, or on PostgreSQL ``copy_data``)."""

    model: type[models.Model]
    objects: Sequence[models.Model]
    columns: list[str]
    rows: list[list[Any]]
    links: list[int]
    new: list[models.Model] | None = None
    ready: list[list[Any]] | None = None
    copy_data: bytes = b""
    start: int | None = None


def prepare(model: type[models.Model], objects: Sequence[models.Model]) -> Prepared:
    """Convert ``objects``' values for the database, outside any transaction."""
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    links = [i for i, f in enumerate(fields) if f.is_relation]
    rows = []
    for obj in objects:
        row = []
        for field in fields:
            if field.is_relation:
                row.append(getattr(obj, field.name))  # the linked object: its id may not exist yet
            else:
                row.append(db_value(field, obj, connection, add=True))
        rows.append(row)
    return Prepared(model, objects, [f.column for f in fields], rows, links)


def reserve(tables: Sequence[Prepared]) -> None:
    """Give each new object of ``tables`` (in the order given, a table after those it links to)
    its id and fill in the rows' links; best called before the transaction opens. PostgreSQL's
    ids come from the tables' sequences and are final. SQLite's follow each table's highest id,
    and :func:`insert` checks under the write lock that no other writer took them meanwhile."""
    with connection.cursor() as cursor:
        for table in tables:
            if table.new is None:
                table.new = [obj for obj in table.objects if obj.pk is None]
            ids = _reserve(cursor, table.model, len(table.new)) if table.new else []
            table.start = ids[0] if ids else None
            for obj, pk in zip(table.new, ids, strict=True):
                obj.pk = pk
            for obj in table.objects:
                obj._state.adding, obj._state.db = False, connection.alias
            table.ready = [[obj.pk, *row] for obj, row in zip(table.objects, table.rows, strict=True)]
            for row in table.ready:
                for i in table.links:
                    if row[i + 1] is not None:
                        row[i + 1] = row[i + 1].pk
            if connection.vendor == "postgresql":  # formatted now, sent as it is
                table.copy_data, table.ready = _copy_data(table.ready), None


def _copy_data(rows: list[list[Any]]) -> bytes:
    """PostgreSQL: ``rows`` in COPY's text format, as ``write_row`` sends them (no query is run)."""
    data = io.BytesIO()
    with connection.connection.cursor() as fresh, Copy(fresh, binary=False, writer=FileWriter(data)) as copy:
        for row in rows:
            copy.write_row(row)
    return data.getvalue()


def insert(tables: Sequence[Prepared]) -> None:
    """Write the rows of ``tables`` (reserved by :func:`reserve`), in the order given; call inside
    a transaction."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite" and any(_taken(cursor, table) for table in tables):
            reserve(tables)  # another writer took some of the ids: again, now under the write lock
        for table in tables:
            if not table.objects:
                continue
            columns = ", ".join(quote(c) for c in [table.model._meta.pk.column, *table.columns])
            into = f"{quote(table.model._meta.db_table)} ({columns})"
            if connection.vendor == "postgresql":  # COPY: one stream, not a round trip a row
                with cursor.cursor.copy(f"COPY {into} FROM STDIN") as copy:
                    copy.write(table.copy_data)
            else:
                values = ", ".join(["%s"] * (len(table.columns) + 1))
                cursor.executemany(f"INSERT INTO {into} VALUES ({values})", table.ready)


def _reserve(cursor: Any, model: type[models.Model], count: int) -> list[int]:
    """``count`` ids for new rows of ``model``. PostgreSQL: from the table's sequence, as an
    insert would take them. SQLite: after the highest ever given."""
    table, pk = model._meta.db_table, model._meta.pk.column
    if connection.vendor == "postgresql":
        cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)", [table, pk, count])
        return [row[0] for row in cursor.fetchall()]
    if connection.vendor != "sqlite":
        raise NotImplementedError(f"bulk rows on {connection.vendor}")
    top = _highest(cursor, model)
    return list(range(top + 1, top + count + 1))


def _highest(cursor: Any, model: type[models.Model]) -> int:
    """SQLite: the highest id ``model``'s table has given (its sequence remembers deleted rows')."""
    table, pk = model._meta.db_table, model._meta.pk.column
    cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
    found = cursor.fetchone()
    cursor.execute(f"SELECT MAX({connection.ops.quote_name(pk)}) FROM {connection.ops.quote_name(table)}")
    return max(found[0] if found else 0, cursor.fetchone()[0] or 0)


def _taken(cursor: Any, table: Prepared) -> bool:
    """SQLite: whether a row has been given one of ``table``'s reserved ids since they were reserved."""
    return table.start is not None and _highest(cursor, table.model) >= table.start
