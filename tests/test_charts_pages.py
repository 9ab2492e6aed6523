"""The charts in the pages: the include (its SVG and its text alternative), the game chart on the
director's game page and the phone, standings over rounds on the public page and projector, a
league's positions by night."""

from django.template.loader import render_to_string

from tournament.charts.svg import Chart, Series


def test_the_include_draws_the_chart_and_lists_its_values_in_a_table():
    chart = Chart(
        title="Table 1 & 2",
        description="Each side's score after each hand.",
        x_labels=("H1", "H2"),
        series=(Series("Ann & Bo", (120, -30)), Series("Cy <Di>", (50.0, None))),
        x_title="Hand",
    )
    html = render_to_string("charts/_chart.html", {"chart": chart})
    assert html.count("<svg") == 1 and "style=" not in html
    hidden = html.split('<table class="visually-hidden">')[1].split("</table>")[0]
    assert "<caption>Table 1 &amp; 2</caption>" in hidden
    assert '<th scope="col">Ann &amp; Bo</th><th scope="col">Cy &lt;Di&gt;</th>' in hidden
    assert '<th scope="row">H1</th><td class="num">120</td><td class="num">50</td>' in hidden
    assert '<th scope="row">H2</th><td class="num">\u221230</td><td class="num">–</td>' in hidden
    assert "Show as a table" in html
