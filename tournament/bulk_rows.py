"""Writing many new rows of several models in one short transaction.

``bulk_create`` converts every value of every row for the database while it runs (for a
1,000-table event, 100,000 rows and a million values: seconds of Python), and on SQLite the whole
of that runs inside the write lock. Here the conversion happens before the transaction opens
(:func:`prepare`); inside it (:func:`insert`) ids are reserved for each table, the rows' links
to one another filled in with those ids, and each table's rows sent at once (``executemany`` on
SQLite, ``COPY`` on PostgreSQL).

Rows link to each other as model instances (``Player(team=team)`` before either is saved); a
link to a row already in the database keeps its id. SQLite and PostgreSQL only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, models


@dataclass
class Prepared:
    """One model's new rows: the objects, and their values ready for the database (links to other
    new rows still the objects, at ``links``)."""

    model: type[models.Model]
    objects: Sequence[models.Model]
    columns: list[str]
    rows: list[list[Any]]
    links: list[int]


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
                row.append(field.get_db_prep_save(field.pre_save(obj, True), connection))
        rows.append(row)
    return Prepared(model, objects, [f.column for f in fields], rows, links)


def insert(tables: Sequence[Prepared]) -> None:
    """Insert each table's rows, in the order given (a table after those it links to); call inside
    a transaction. The objects get their ids."""
    quote, alias = connection.ops.quote_name, connection.alias
    with connection.cursor() as cursor:
        for table in tables:
            if not table.objects:
                continue
            ids = _reserve(cursor, table.model, len(table.objects))
            for obj, pk in zip(table.objects, ids, strict=True):
                obj.pk = pk
                obj._state.adding, obj._state.db = False, alias
            rows = [[pk, *row] for pk, row in zip(ids, table.rows, strict=True)]
            for row in rows:
                for i in table.links:
                    if row[i + 1] is not None:
                        row[i + 1] = row[i + 1].pk
            columns = ", ".join(quote(c) for c in [table.model._meta.pk.column, *table.columns])
            into = f"{quote(table.model._meta.db_table)} ({columns})"
            if connection.vendor == "postgresql":  # COPY: one stream, not a round trip a row
                with cursor.cursor.copy(f"COPY {into} FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row)
            else:
                cursor.executemany(f"INSERT INTO {into} VALUES ({', '.join(['%s'] * len(rows[0]))})", rows)


def _reserve(cursor: Any, model: type[models.Model], count: int) -> list[int]:
    """``count`` ids no other row has or will get. SQLite: after the highest ever given (the
    transaction holds the write lock, so nobody takes them meanwhile). PostgreSQL: from the
    table's sequence, as an insert would take them."""
    table, pk = model._meta.db_table, model._meta.pk.column
    if connection.vendor == "postgresql":
        cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)", [table, pk, count])
        return [row[0] for row in cursor.fetchall()]
    if connection.vendor != "sqlite":
        raise NotImplementedError(f"bulk rows on {connection.vendor}")
    cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
    found = cursor.fetchone()
    cursor.execute(f"SELECT MAX({connection.ops.quote_name(pk)}) FROM {connection.ops.quote_name(table)}")
    top = max(found[0] if found else 0, cursor.fetchone()[0] or 0)
    return list(range(top + 1, top + count + 1))
