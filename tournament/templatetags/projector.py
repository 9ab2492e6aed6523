"""The projector's themes in its templates: the one the address chose, and the list offered."""

from django import template
from django.template import Context

from tournament.standings.themes import THEMES, Theme, chosen_theme

register = template.Library()


@register.simple_tag(takes_context=True)
def projector_theme(context: Context) -> str:
    """The theme the page's address chose (``?theme=``), else the default."""
    return chosen_theme(context["request"].GET.get("theme"))


@register.simple_tag
def projector_themes() -> tuple[Theme, ...]:
    return THEMES
