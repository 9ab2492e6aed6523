"""CSV that a spreadsheet opens as data: no cell is taken for a formula.

A cell beginning with ``=``, ``+``, ``-``, ``@`` (a formula to Excel, LibreOffice and Sheets), a
tab or a carriage return (which some of them strip before looking) is written with a leading
apostrophe, which spreadsheets show as text. Numbers, negative scores included, are written as
numbers. (``defusedcsv`` does this too but lets a leading tab or carriage return through.)
"""

from __future__ import annotations

import csv
from numbers import Number
from typing import Any, TextIO

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "|", "%")


def safe_cell(value: Any) -> Any:
    """``value`` as a cell no spreadsheet evaluates."""
    if value is None or isinstance(value, Number):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


class _SafeWriter:
    def __init__(self, out: TextIO) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: Any) -> Any:
        return self._writer.writerow([safe_cell(value) for value in row])


def writer(out: TextIO) -> _SafeWriter:
    """A ``csv.writer`` whose every cell goes through :func:`safe_cell`."""
    return _SafeWriter(out)
