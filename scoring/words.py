"""Numbers and lists written for people, the one way the app writes them.

Every negative number a person reads has a true minus sign (U+2212): a hyphen-minus ("-70")
reads as a dash beside an en dash ("360–-120") and breaks at line ends; the minus sign does
neither. Machine-readable outputs (CSV, JSON fields) keep plain numbers and never come here.
"""

from collections.abc import Sequence

MINUS = "\u2212"


def number(value: int) -> str:
    """``value`` as a score is written: "70", "0", "−70"."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def signed(value: int, *, zero: str = "0") -> str:
    """A change in points, its sign always written: "+70", "−70", and ``zero`` for none."""
    return f"+{value}" if value > 0 else number(value) if value else zero


def listed(items: Sequence[str], conjunction: str = "and") -> str:
    """``items`` as a list in a sentence: "a", "a or b", "a, b or c"."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def quantity(n: int, noun: str) -> str:
    """``n`` of ``noun``, plural when not one: "1 trick", "3 tricks"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
