"""Outputs that cannot be turned against their reader, and free text that cannot break a page:
formula-safe CSV, disputes through forms (a NUL byte is a clear error on either database), and
PDFs that read only the app's own files."""

import csv
import io

import pytest
from django.conf import settings
from django.urls import reverse
from pypdf import PdfReader

from scoring import HandEntry
from tests.conftest import even_hand
from tournament.models import Hand, HandRevision, Player
from tournament.play.games import flag_dispute
from tournament.play.hands import enter_hand
from tournament.printing.fetch import AppFilesOnly, static_file
from tournament.printing.pdf import html_to_pdf
from tournament.transfer.csvsafe import writer

pytestmark = pytest.mark.django_db

FORMULAS = ["=1+2", "+1", "-2+3", "@SUM(A1)", "\t=cmd", "\r=cmd", '=HYPERLINK("http://x","y")']


@pytest.mark.parametrize("text", FORMULAS)
def test_a_cell_that_would_be_a_formula_is_written_as_text(text):
    out = io.StringIO()
    writer(out).writerow([text, -40, "Ada", "plain - dash"])
    (row,) = csv.reader(io.StringIO(out.getvalue()))
    assert row == ["'" + text, "-40", "Ada", "plain - dash"]


@pytest.mark.parametrize("text", FORMULAS)
def test_names_beginning_with_a_formula_sign_export_as_text(director_client, finished_round, text):
    tournament = finished_round.tournament
    Player.objects.filter(pk=Player.objects.filter(team__tournament=tournament).first().pk).update(name=text)
    for export in ("export_standings", "export_hands"):
        body = director_client.get(reverse(f"director:{export}", args=[tournament.pk])).content.decode()
        cells = [cell for row in csv.reader(io.StringIO(body)) for cell in row]
        assert "'" + text in cells, export
        assert not any(cell.startswith(("=", "+", "@", "\t", "\r")) for cell in cells), export
        assert not any(cell.startswith("-") and not cell.lstrip("-").isdigit() for cell in cells), export


# --- disputes and resolutions through forms --------------------------------------------------------


@pytest.fixture
def entered(running_round):
    game = running_round.games.get(table__number=1)
    enter_hand(game=game, number=1, entry=HandEntry.from_fields(even_hand()), source=HandRevision.Source.TABLE)
    return game


def test_a_nul_byte_in_a_dispute_note_is_a_clear_error_not_a_500(client, entered):
    target = reverse("table:dispute", args=[entered.table.token, entered.round.number, 1])
    response = client.post(target, {"note": "EW say\x00 7"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    assert "Null characters are not allowed" in response.content.decode()
    assert not Hand.objects.get(game=entered).disputed


def test_an_overlong_dispute_note_is_refused_and_a_good_one_is_kept(client, entered):
    target = reverse("table:dispute", args=[entered.table.token, entered.round.number, 1])
    assert client.post(target, {"note": "x" * 301}, HTTP_HX_REQUEST="true").status_code == 422
    assert client.post(target, {"note": "EW say 7"}, HTTP_HX_REQUEST="true").status_code == 200
    assert Hand.objects.get(game=entered).dispute_note == "EW say 7"


def test_a_dispute_note_with_markup_shows_as_text_in_the_hands_row(client, entered):
    target = reverse("table:dispute", args=[entered.table.token, entered.round.number, 1])
    note = '<img src=x onerror="alert(1)"> & EW say 7'
    html = client.post(target, {"note": note}, HTTP_HX_REQUEST="true").content.decode()
    assert "Disputed: &lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; EW say 7</span>" in html
    assert "<img" not in html and 'class="disputed"' in html


def test_a_hands_dispute_form_carries_the_csrf_field_only_on_a_page_loaded_without_htmx(client, entered):
    page = reverse("table:page", args=[entered.table.token])
    field = 'name="csrfmiddlewaretoken"'
    loaded = client.get(page).content.decode()
    dispute = loaded[loaded.index('id="hand-1"') :]
    assert field in dispute[: dispute.index("</li>")]
    swapped = client.get(page, HTTP_HX_REQUEST="true").content.decode()
    row = swapped[swapped.index('id="hand-1"') :]
    assert field not in row[: row.index("</li>")] and "Flag hand 1</button>" in row


def test_a_nul_byte_in_a_resolution_leaves_the_dispute_open_with_a_message(director_client, entered):
    flag_dispute(hand=entered.hands.get(), note="EW say 7")
    target = reverse("director:game_resolve", args=[entered.round.tournament_id, entered.pk, 1])
    response = director_client.post(target, {"resolution": "re\x00counted"}, follow=True)
    assert response.status_code == 200
    assert "Null characters are not allowed" in response.content.decode()
    assert Hand.objects.get(game=entered).disputed
    director_client.post(target, {"resolution": "recounted"})
    assert Hand.objects.get(game=entered).dispute_resolution == "recounted"


def test_a_nul_byte_in_the_login_form_is_refused_not_a_500(client):
    response = client.post(reverse("login"), {"username": "dee\x00", "password": "x"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


# --- PDFs read only the app's files ----------------------------------------------------------------


def _attachments(html: str) -> dict:
    return PdfReader(io.BytesIO(html_to_pdf(html))).attachments


def test_a_pdf_cannot_embed_a_file_from_the_server_but_may_use_static_files_and_data_urls():
    secret = settings.BASE_DIR / "tournament" / "settings.py"
    html = (
        f'<html><head><link rel="attachment" href="file://{secret}">'
        '<link rel="attachment" href="tournament/settings.py">'
        '<link rel="attachment" href="http://127.0.0.1:9/x">'
        '<link rel="attachment" href="static/css/app.css">'
        '<link rel="attachment" href="data:text/plain,kept"></head><body>x</body></html>'
    )
    attached = _attachments(html)
    assert sorted(attached) == ["app.css", "attachment.bin"]
    assert attached["attachment.bin"] == [b"kept"]
    assert b"SECRET_KEY" not in b"".join(b"".join(parts) for parts in attached.values())


def test_the_app_files_fetcher_allows_static_files_and_data_urls_only():
    app_css = settings.BASE_DIR / "static" / "css" / "app.css"
    assert static_file(app_css.as_uri()) == app_css
    assert static_file((settings.BASE_DIR / "static" / "css" / "app.css").as_uri() + "?v=1") == app_css
    assert static_file("file:///static/css/app.css") == app_css
    for refused in ("file:///etc/passwd", (settings.BASE_DIR / "db.sqlite3").as_uri(),
                    (settings.BASE_DIR / "static" / ".." / "tournament" / "settings.py").as_uri(),
                    "https://example.org/x.png", "ftp://example.org/x"):  # fmt: skip
        with pytest.raises(ValueError, match="only the app's static files"):
            AppFilesOnly().fetch(refused)
    assert AppFilesOnly().fetch("data:text/plain,hi").read() == b"hi"


def test_printed_documents_still_render_with_the_restricted_fetcher(director_client, finished_round):
    response = director_client.get(reverse("director:print_document", args=[finished_round.tournament_id, "standings"]))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
