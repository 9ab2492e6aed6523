"""The countdown a page shows for a clock (``static/js/clock.js`` makes it tick), and the state of
a round's clock for the director's controls."""

from django import template
from django.utils.html import format_html

from tournament.clocks.services import RoundClock, clock_text, round_clock_state
from tournament.models import Clock, Round

register = template.Library()


@register.simple_tag
def countdown(clock: Clock | None, label: str = "") -> str:
    """A ticking ``12:34`` (or "Time: finish this hand" once it runs out); nothing without a clock.

    The page sends the seconds left, not the end time, so a phone with a wrong clock counts right.
    """
    if clock is None or not clock.started:
        return ""
    remaining = clock.remaining_seconds()
    state = "running" if clock.running else "paused"
    return format_html(
        '<span class="clock clock-{}{}" data-clock data-remaining="{}" data-running="{}" role="timer" '
        'aria-label="{}time left">{}{}</span>',
        state,
        " clock-up" if remaining <= 0 else "",
        remaining,
        "1" if clock.running else "",
        label,
        "Time: finish this hand" if remaining <= 0 else clock_text(clock),
        "" if clock.running or remaining <= 0 else " (paused)",
    )


@register.simple_tag(name="round_clock_state")
def round_clock_tag(round_: Round) -> RoundClock:
    """``{% round_clock_state round as clock %}``: see :func:`tournament.clocks.services.round_clock_state`."""
    return round_clock_state(round_)
