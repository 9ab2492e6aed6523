"""``{{ chart|chart_svg }}``: a :class:`tournament.charts.svg.Chart` drawn as SVG in the page
(``templates/charts/_chart.html`` includes it with its table of values)."""

from django import template
from django.utils.safestring import SafeString, mark_safe

from tournament.charts.svg import Chart, line_chart

register = template.Library()


@register.filter
def chart_svg(chart: Chart, size: str = "") -> SafeString:
    """The chart's ``<svg>``, ``size`` "WIDTHxHEIGHT" of its plot (default 640x300). Safe as it is:
    :func:`~tournament.charts.svg.line_chart` escapes every text it writes."""
    if size:
        width, height = (int(part) for part in size.split("x"))
        return mark_safe(line_chart(chart, width=width, height=height))  # escaped by line_chart
    return mark_safe(line_chart(chart))  # escaped by line_chart


@register.filter
def chart_rows(chart: Chart) -> list[tuple[str, list[str]]]:
    """The chart's values as a table's rows: each x label with every series' value there (whole
    numbers without a decimal point, a true minus sign, "–" where the series has no point)."""
    return [
        (label, [_value(series.values[index] if index < len(series.values) else None) for series in chart.series])
        for index, label in enumerate(chart.x_labels)
    ]


def _value(value: float | None) -> str:
    if value is None:
        return "–"
    text = str(int(value)) if float(value).is_integer() else f"{value:g}"
    return text.replace("-", "\u2212")
