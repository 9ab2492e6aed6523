"""The projector's colour themes: dark (the default, for a dim hall), light (a bright room or a
weak projector) and high contrast (read from the back of the room, or by weaker eyes).

A projector page is chosen in its address (``?theme=light``); the page's htmx refreshes swap the
projector's content only, so the page keeps the theme it was opened in. static/css/app.css gives
each theme its colours as custom properties on ``body.projector.theme-<name>``.
"""

from dataclasses import dataclass

DEFAULT_THEME = "dark"


@dataclass(frozen=True)
class Theme:
    name: str  # the ?theme= value and the body's class theme-<name>
    label: str


THEMES = (Theme("dark", "Dark"), Theme("light", "Light"), Theme("contrast", "High contrast"))


def chosen_theme(value: str | None) -> str:
    """The theme an address's ``theme`` parameter names; the default for none or an unknown one
    (a mistyped address still shows the projector)."""
    return value if any(theme.name == value for theme in THEMES) else DEFAULT_THEME
