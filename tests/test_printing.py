"""Printed documents: each renders, its text (real, extractable) says what it must, and the
rule handout follows the rule set."""

import contextlib
import datetime
import functools
import io
import json
import sys
import threading
from decimal import Decimal

import pikepdf
import pytest
import segno
from django.contrib.staticfiles import finders
from django.urls import reverse
from fontTools.pens.boundsPen import BoundsPen
from fontTools.ttLib import TTFont
from PIL import Image
from pypdf import PdfReader
from reportlab.pdfbase import pdfmetrics

from scoring import HandEntry
from scoring.describe import handout
from scoring.presets import PRESETS, rules_from_json
from tests.conftest import even_hand, finish_game, make_tournament, repeats, tie_then_break
from tests.test_knockout import knockout_event, win_game
from tests.test_league import finish, make_league
from tournament.clocks.services import start_round_clock
from tournament.formats.registry import format_of
from tournament.models import HandRevision, Match, Payment, Payout, PrintJob, Prize, Tournament
from tournament.money.services import award_prizes, record_payment
from tournament.play.games import flag_dispute, resolve_dispute
from tournament.play.hands import enter_hand
from tournament.play.rounds import close_round, start_play, start_round
from tournament.printing import documents, draw, jobs, pdf
from tournament.printing.pdf import CHUNK_PAGES, SMALL_BATCH, chunk_size, render_pdf, spaced_line, text_width
from tournament.printing.sheets import blank_sheet, score_sheets
from tournament.teams.services import substitute_player

pytestmark = pytest.mark.django_db


def pages_text(data: bytes) -> list[str]:
    return [" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(data)).pages]


def produce(tournament, document) -> bytes:
    job = jobs.produce(tournament, document)
    assert job.status == PrintJob.Status.DONE, job.error
    return bytes(job.pdf)


def handout_text(rules) -> str:
    return " ".join(
        " ".join([s.title, *s.paragraphs, *(" ".join(r) for r in s.table), *(e.situation for e in s.examples)])
        for s in handout(rules)
    )


# --- the rule handout -----------------------------------------------------------------------------


def test_league_handout_states_nil_60_and_the_six_bag_limit():
    text = handout_text(PRESETS["league-300"].rules)
    assert "A nil that takes no trick wins 60" in text
    assert "Each time a side's bags reach 6 it loses 60 points" in text
    assert "big joker, little joker, two of spades" in text
    assert "Each side must bid at least 4 tricks together" in text


def test_friendly_handout_says_a_set_side_scores_nothing_and_the_lowest_club_leads():
    text = handout_text(PRESETS["friendly"].rules)
    assert "falls short is set and scores nothing for the hand" in text
    assert "everyone plays their lowest club" in text
    assert "A side whose two bids add up to 10 or more is scored as one side contract, which scores 200" in text


@pytest.mark.parametrize(
    ("change", "before", "after"),
    [
        ({"nil_points": 50}, "wins 100 for the side", "wins 50 for the side"),
        ({"bag_limit": 7, "bag_penalty": 70}, "bags reach 10 it loses 100", "bags reach 7 it loses 70"),
        ({"target_score": 400}, "first side to reach 500", "first side to reach 400"),
        ({"blind_nil_points": None}, "A blind nil", None),
    ],
)
def test_changing_a_rule_changes_the_handout(change, before, after):
    base = PRESETS["progressive-500"].rules
    assert before in handout_text(base)
    changed = handout_text(rules_from_json({"preset": "progressive-500", **change}))
    assert before not in changed
    assert after is None or after in changed


@pytest.mark.parametrize(
    ("preset", "situation", "points"),
    [
        ("progressive-500", "Your side bids 5 and takes 7", 52),
        ("progressive-500", "Your side has 9 bags, bids 4 and takes 6", 42 - 100),
        ("league-300", "North bids nil and takes none; South bids 4 and takes 4", 60 + 40),
        ("league-300", "North bids nil but takes 1; South bids 4 and takes 4", -60 + 40),
        ("league-300", "Your side bids 5, takes 7, and North reneges once", -50),
        ("friendly", "Your side bids 6 and takes 4", 0),
        ("friendly", "Your side bids 10 and takes 10", 200),
        ("progressive", "Your side bids 6 and takes 4", -60),
    ],
)
def test_worked_examples_show_what_the_rules_score(preset, situation, points):
    examples = {e.situation: e for section in handout(PRESETS[preset].rules) for e in section.examples}
    assert examples[situation].points == points


def test_the_printed_handout_is_real_text_on_at_most_two_pages(db):
    tournament = make_tournament(couples=4, preset="league-300", split=False)
    text = pages_text(produce(tournament, documents.rule_handout(tournament)))
    assert len(text) <= 2
    assert "A nil that takes no trick wins 60" in " ".join(text)
    assert "Our reading: partners stay together all evening" in " ".join(text)  # 004 has no such evening


# --- round documents --------------------------------------------------------------------------------


def test_score_sheets_a_page_per_table_with_names_rules_and_round(running_round, tournament):
    finish_game(running_round.games.get(table__number=1), hands=2)
    pages = pages_text(produce(tournament, score_sheets(running_round)))
    assert len(pages) == 4
    assert "Table 1 round 1" in pages[0] and "Ada" in pages[0] and "Cleo" in pages[0]
    assert "4 hands a round" in pages[0] and "Scan to enter scores" in pages[0]
    assert "Table 4" in pages[3] and "Mia" in pages[3]
    assert "61 0 61" in pages[0] or "61" in pages[0]  # the hands entered so far are filled in


def test_score_sheets_are_titled_by_what_is_played_round_night_or_the_knockouts_stages(running_round, tournament):
    assert score_sheets(running_round).title == "Score sheets, round 1"
    knockout = knockout_event(teams=4)
    assert score_sheets(knockout.rounds.get()).title == "Score sheets, semi-finals"
    for semi_final in knockout.matches.filter(stage=Match.Stage.WINNERS):
        win_game(semi_final)
    assert score_sheets(knockout.rounds.get()).title == "Score sheets, semi-finals and final"
    season = make_league()
    night = format_of(season).start(tournament=season)
    assert score_sheets(night).title == "Score sheets, night 1"


def test_a_closed_rounds_score_sheets_say_so_instead_of_inviting_a_scan(finished_round, tournament):
    close_round(round_=finished_round)
    finished_round.refresh_from_db()
    data = produce(tournament, score_sheets(finished_round))
    pages = pages_text(data)
    assert all("Round closed: scores are final" in page and "Scan to enter" not in page for page in pages)
    assert not any(page.images for page in PdfReader(io.BytesIO(data)).pages)  # no QR code


def test_closed_score_sheets_say_what_was_played_a_league_night_or_a_knockout_match(db):
    season = make_league(2, championship_teams=0)
    night = start_play(tournament=season)
    start_round(round_=night)
    (played,) = season.matches.all()
    finish(played, winner=played.home, home_points=300, away_points=100)
    close_round(round_=night)
    night.refresh_from_db()
    (page,) = pages_text(produce(season, score_sheets(night)))
    assert "Night closed: scores are final" in page and "Round closed" not in page
    knockout = knockout_event(teams=2)
    win_game(knockout.matches.get())  # the final: the knockout is over and its round closed
    (page,) = pages_text(produce(knockout, score_sheets(knockout.rounds.get())))
    assert "Match over: scores are final" in page and "Round closed" not in page


def test_a_game_ended_on_time_says_so_on_its_score_sheet(db):
    tournament = make_tournament(couples=2, preset="friendly", split=False, rule_overrides={"time_limit_minutes": 20})
    game = start_play(tournament=tournament).games.get()
    start_round(round_=game.round)
    start_round_clock(round_=game.round)
    enter = functools.partial(enter_hand, game=game, source=HandRevision.Source.TABLE)
    enter(number=1, entry=HandEntry.from_fields(even_hand(7)))
    enter(number=2, entry=HandEntry.misdealt("no_spades"))
    game.refresh_from_db()
    game.clock.started_at -= datetime.timedelta(minutes=21)  # the 20 minutes are up as hand 2 is dealt again
    game.clock.save()
    enter(number=2, entry=HandEntry.from_fields(even_hand(8)))
    (page,) = pages_text(produce(tournament, score_sheets(game.round)))
    assert "Won by North–South (Ada & Ben), 123 to 90; ended on time after hand 2" in page


def test_score_sheet_html_carries_each_tables_qr_code(running_round, settings):
    settings.SPADES_BASE_URL = "http://10.0.0.5:8000"
    document = score_sheets(running_round)
    sheets = document.contexts[0]["sheets"]
    game = running_round.games.get(table__number=2)
    url = f"http://10.0.0.5:8000/table/{game.table.token}/"
    assert sheets[1]["url"] == url
    page = PdfReader(io.BytesIO(render_pdf(document.template, document.contexts[0]))).pages[1]
    (printed,) = [qr_modules(image.image) for image in page.images]
    assert printed == [list(row) for row in segno.make(url, error="m").matrix]


def qr_modules(image: Image.Image) -> list[list[bool]]:
    """The dark modules of a QR code printed as an image of a pixel a module, inside a border of 2."""
    grey = image.convert("L")
    size = grey.width - 4
    return [[grey.getpixel((x + 2, y + 2)) < 128 for x in range(size)] for y in range(size)]


def test_a_score_sheet_records_every_penalty_misdeal_and_dispute(db):
    tournament = make_tournament(couples=2, preset="friendly", split=False)
    game = start_play(tournament=tournament).games.get()
    start_round(round_=game.round)
    enter = functools.partial(enter_hand, game=game, source=HandRevision.Source.TABLE)
    enter(number=1, entry=HandEntry.from_fields({**even_hand(7), "ns_reneges": 1, "north_reneges": 1}))
    enter(number=2, entry=HandEntry.misdealt("no_spades"))
    enter(number=2, entry=HandEntry.from_fields({**even_hand(6), "ew_table_talk": 2, "west_table_talk": 2}))
    enter(number=3, entry=HandEntry.from_fields(even_hand(8)))
    flag_dispute(hand=game.hand_numbered(2), note="EW say they took 7")
    resolve_dispute(hand=game.hand_numbered(2), resolution="Counted again: 6 stands")
    flag_dispute(hand=game.hand_numbered(3), note="Who led?")
    data = produce(tournament, score_sheets(game.round))
    text = pages_text(data)[0]
    # 002 scores each player's own bid: a penalty is its player's
    assert "Reneg (hand and player)" in text and "Hand 1: North, reneg" in text
    assert "Table talk (hand and player)" in text and "Hand 2: West, table talk ×2" in text
    assert "Misdeal: A player was dealt no spades" in text  # across the misdealt hand's row
    assert "Hand 2: A player was dealt no spades" in text  # and in the misdeals box: hand 2 was dealt again
    assert "Hand 2: EW say they took 7 — settled: Counted again: 6 stands" in text
    assert "Hand 3: Who led? — not settled yet" in text


def test_a_long_game_still_prints_on_one_page(db):
    tournament = make_tournament(couples=2, preset="classic", split=False, paper_size="letter")
    game = start_play(tournament=tournament).games.get()
    start_round(round_=game.round)
    for deal in range(1, 31):  # hand 1, misdealt 29 times
        entry = HandEntry.from_fields(even_hand(7)) if deal == 30 else HandEntry.misdealt("no_spades")
        enter_hand(game=game, number=1, entry=entry, source=HandRevision.Source.TABLE)
    for deal in (3, 7, 30):
        note = f"Deal {deal} was argued over at length: " + "who led which card to which trick, " * 5
        flag_dispute(hand=game.hands.get(number=1, deal=deal), note=note)
    data = produce(tournament, score_sheets(game.round))
    (page,) = pages_text(data)
    assert page.count("Misdeal: A player was dealt no spades") == 29 and "North–South" in page
    assert page.count(": A player was dealt no spades") == 58  # in the rows and in the misdeals box
    assert page.count("to which trick, who led") == 12 and page.count("not settled yet") == 3


def test_the_sheets_write_dates_and_times_as_the_pages_do(tournament):
    payment = record_payment(team=tournament.teams.get(number=1), amount=Decimal("20.00"), kind="payment",
                                      method="cash")  # fmt: skip
    Payment.objects.filter(pk=payment.pk).update(
        recorded_at=datetime.datetime(2026, 11, 20, 19, 5, tzinfo=datetime.UTC)
    )
    standings = " ".join(pages_text(produce(tournament, documents.standings(tournament))))
    assert "Fri Nov 20, 2026 · " in standings and "2026-11-20" not in standings
    ledger = " ".join(pages_text(produce(tournament, documents.fee_ledger(tournament))))
    assert "Fri Nov 20, 19:05 1. Ada & Ben" in ledger


@pytest.mark.parametrize(("paper", "size"), [("letter", (612, 792)), ("A4", (595, 842))])
def test_every_score_sheet_has_the_grid_drawn_once_under_it(finished_round, tournament, paper, size):
    tournament.paper_size = paper
    tournament.save()
    data = produce(tournament, score_sheets(finished_round))
    pages = PdfReader(io.BytesIO(data)).pages
    assert len(pages) == 4
    for page, text in zip(pages, pages_text(data), strict=True):
        assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == size
        assert "N bid S bid N took S took Points Bags Total" in text and "Disputes" in text
    forms = [[xobject.idnum for xobject in page["/Resources"]["/XObject"].values()
              if xobject["/Subtype"] == "/Form"] for page in pages]  # fmt: skip
    assert all(len(form) == 1 for form in forms) and len({form[0] for form in forms}) == 1  # one, kept once


def test_score_sheets_in_several_chunks_number_their_pages_through(tournament):
    round_ = start_play(tournament=make_tournament(couples=30))
    document = score_sheets(round_)
    assert len(document.contexts) == 2
    last = document.contexts[-1]["sheets"][-1]
    assert last["folio"] == "page 15 of 15" and last["table"] == 15


def test_chunks_joined_into_one_pdf_give_different_fonts_different_names(db):
    tournament = make_tournament(couples=30, split=False)
    round_ = start_play(tournament=tournament)
    player = round_.seatings.filter(table__number=15).first().player
    substitute_player(player=player, substitute="Øyvind Ærø", from_round=1)  # letters only the second chunk has
    document = score_sheets(round_)
    assert len(document.contexts) == 2 and not any(context["laid_out"] for context in document.contexts)
    data = produce(tournament, document)
    assert "Øyvind Ærø" in pages_text(data)[-1]
    files = embedded_fonts(data)
    assert all(len(contents) == 1 for contents in files.values())  # a name, one font
    assert len([name for name in files if name.endswith("+DejaVuSans")]) == 2  # each chunk's own


def embedded_fonts(data: bytes) -> dict[str, set[bytes]]:
    """Each font name in ``data``, wherever the font is used (a page, a background's form), with the
    font files embedded under it (a Type 0 font's through its descendant)."""
    found: dict[str, set[bytes]] = {}
    with pikepdf.open(io.BytesIO(data)) as source:
        for font in source.objects:
            if not isinstance(font, pikepdf.Dictionary) or font.get("/Type") != "/Font":
                continue
            described = font.DescendantFonts[0] if font.get("/Subtype") == "/Type0" else font
            if "/FontDescriptor" in described:
                found.setdefault(str(font.BaseFont), set()).add(described.FontDescriptor.FontFile2.read_bytes())
    return found


APP_FONT_PAGE = """<html><head><style>@font-face { font-family: "Spades Sans"; src: url(static/fonts/DejaVuSans.ttf) }
body { font-family: "Spades Sans" }</style></head><body><p>%s</p></body></html>"""


def test_laid_out_chunks_joined_into_one_pdf_give_their_different_fonts_different_names(db):
    data = pdf.pdf_from_chunks([APP_FONT_PAGE % "Alpha beta", APP_FONT_PAGE % "Zygote QUIXOTIC wumpus"])
    assert pages_text(data) == ["Alpha beta", "Zygote QUIXOTIC wumpus"]
    fonts = embedded_fonts(data)
    assert all(len(files) == 1 for files in fonts.values())  # a name, one font
    assert len([name for name in fonts if name.endswith("+Spades-Sans")]) == 2  # each chunk's own letters


def test_chunks_with_the_same_letters_share_their_font_name(db):
    fonts = embedded_fonts(pdf.pdf_from_chunks([APP_FONT_PAGE % "Alpha beta", APP_FONT_PAGE % "beta Alpha"]))
    assert len([name for name in fonts if name.endswith("+Spades-Sans")]) == 1


@pytest.mark.parametrize(("pages", "chunks"), [(1, 1), (12, 1), (13, 2), (200, 2), (201, 3), (1000, 10)])
def test_a_large_document_is_cut_into_chunks_of_at_most_a_hundred_pages(pages, chunks):
    size = chunk_size(pages)
    assert -(-pages // size) == chunks and size <= max(CHUNK_PAGES, SMALL_BATCH)


def test_a_spaced_line_puts_each_text_where_it_is_asked_for():
    texts = [(0.0, "1"), (15.2, "Nil"), (27.4, "Blind\u200anil"), (40.0, "-120"), (41.0, "7")]
    line = spaced_line(texts, 8.5)
    em = 8.5 * 25.4 / 72
    for x, text in texts[:4]:
        start = line.index(text)
        assert abs(text_width(line[:start], 8.5) - x) <= em / 20
    assert text_width(line[: line.index("7", line.index("-120") + 4)], 8.5) > 41.0  # overlapping: after it


def text_positions(data: bytes) -> dict[str, tuple[float, float]]:
    """Where each run of text on the first page starts (points from the bottom left)."""
    found: dict[str, tuple[float, float]] = {}

    def visit(text, cm, tm, font, size):
        x, y = tm[4] * cm[0] + tm[5] * cm[2] + cm[4], tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        found.setdefault(" ".join(text.split()), (x, y))

    PdfReader(io.BytesIO(data)).pages[0].extract_text(visitor_text=visit)
    return found


def test_a_drawn_sheet_puts_its_text_where_the_laid_out_sheet_has_it(db, monkeypatch):
    tournament = make_tournament(couples=2, preset="friendly", split=False)
    game = start_play(tournament=tournament).games.get()
    start_round(round_=game.round)
    enter_hand(game=game, number=1, entry=HandEntry.from_fields({**even_hand(7), "ns_reneges": 1, "north_reneges": 1}),
                        source=HandRevision.Source.TABLE)  # fmt: skip
    flag_dispute(hand=game.hands.get(number=1), note="Who led?")
    drawn = score_sheets(game.round)
    monkeypatch.setattr(draw, "can_set", lambda texts: False)
    laid_out = score_sheets(game.round)
    assert drawn.contexts[0]["overlay"] and not drawn.contexts[0]["laid_out"]
    assert laid_out.contexts[0]["laid_out"] and not laid_out.contexts[0]["overlay"]
    expected = text_positions(render_pdf(laid_out.template, laid_out.contexts[0]))
    found = text_positions(render_pdf(drawn.template, drawn.contexts[0]))
    texts = ["Table 1", "round 1 · first deal: East", "Ada", "Ben", "Cleo", "Dan", "Hand 1: North, reneg",
             "Hand 1: Who led? — not settled yet", "page 1 of 1"]  # fmt: skip
    for text in texts:
        assert found[text] == pytest.approx(expected[text], abs=0.6), text  # within 0.2 mm


@pytest.mark.parametrize("name", ["Zoe\u0308 Quinn", "Quinn \u0633\u0627\u0631\u0629", "Quinn \u05e9\u05e8\u05d4"])
def test_a_name_the_drawing_cannot_set_is_laid_out_by_weasyprint(running_round, tournament, name):
    ada = tournament.teams.get(number=1).players.get(name="Ada")
    substitute_player(player=ada, substitute=name, from_round=1)  # a combining mark, Arabic, Hebrew
    document = score_sheets(running_round)
    assert [sheet["table"] for sheet in document.contexts[0]["laid_out"]] == [1]
    assert [page["n"] for page in document.contexts[0]["overlay"]["pages"]] == [2, 3, 4]
    data = produce(tournament, document)
    pages = pages_text(data)
    assert len(pages) == 4 and "Table 1" in pages[0] and "Quinn" in pages[0] and "Table 2" in pages[1]
    assert "N bid S bid N took" in pages[0]  # the laid-out page has its background under it too


def test_two_threads_drawing_at_once_embed_the_same_font_as_one_alone(db, monkeypatch):
    face = draw.font()
    letters = "".join(sorted(face.characters - {" "}))  # accents too: glyphs made of others, read from the file
    items = [draw.text("top", n / 6, 5, "body", (10, letters[n : n + 60])) for n in range(0, len(letters), 60)]

    def drawn() -> bytes:
        return draw.draw_pages([((595, 842), items, {"top": (0, 0)})], {"body": draw.Style(size=10)})

    alone = embedded_fonts(drawn())
    # Each subsetting waits (a while at most) for the other thread's, so that without the lock the
    # two run together, and tiny time slices switch between them often.
    subsetting = pdfmetrics.getFont(face.name).face
    cut, meet, inside, most = subsetting.makeSubset, threading.Barrier(2), [], []

    def together(subset):
        with contextlib.suppress(threading.BrokenBarrierError):  # broken: the other thread waits for the lock
            meet.wait(timeout=1)
        inside.append(subset)
        most.append(len(inside))
        try:
            return cut(subset)
        finally:
            inside.remove(subset)

    def draw_into(results: list) -> None:
        try:
            results.append(embedded_fonts(drawn()) == alone)
        except Exception as error:  # a broken subset can fail the drawing itself (an IndexError)
            results.append(error)

    monkeypatch.setattr(subsetting, "makeSubset", together)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for _ in range(repeats(6)):
            results: list = []
            threads = [threading.Thread(target=draw_into, args=(results,)) for _ in range(2)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert results == [True, True]
    finally:
        sys.setswitchinterval(interval)
    assert max(most) == 1  # one subsetting at a time


def test_a_drawn_sheet_embeds_only_the_glyphs_it_uses_and_its_text_can_be_copied(db):
    tournament = make_tournament(couples=2, preset="friendly", split=False)
    game = start_play(tournament=tournament).games.get()
    start_round(round_=game.round)
    substitute_player(player=tournament.teams.get(number=1).players.get(name="Ada"), substitute="José Muñoz",
                      from_round=1)  # fmt: skip
    document = score_sheets(game.round)
    assert document.contexts[0]["overlay"] and not document.contexts[0]["laid_out"]  # drawn, not laid out
    data = produce(tournament, document)
    assert "José Muñoz" in pages_text(data)[0]
    fonts = [font.get_object() for font in PdfReader(io.BytesIO(data)).pages[0]["/Resources"]["/Font"].values()]
    (drawn,) = [font for font in fonts if str(font["/BaseFont"]).endswith("+DejaVuSans")]  # the page's own text
    embedded = TTFont(io.BytesIO(drawn["/FontDescriptor"]["/FontFile2"].get_data()))
    whole = TTFont(finders.find(draw.FONT_FILES["regular"]))
    glyphs = embedded.getGlyphSet()
    outlined = [name for name in embedded.getGlyphOrder() if _has_outline(glyphs, name)]
    assert 20 < len(outlined) < len(whole.getGlyphOrder()) / 4  # the page's letters, not the font's


def _has_outline(glyphs, name) -> bool:
    pen = BoundsPen(glyphs)
    glyphs[name].draw(pen)
    return pen.bounds is not None


def layered_page(pages: str, drawn: list[dict] | None = None) -> str:
    """A document of ``pages`` (HTML) carrying ``drawn`` pages (the overlay's) to be drawn."""
    overlay = draw.overlay({"body": draw.Style(size=10)}, drawn) if drawn is not None else None
    script = f'<script id="pdf-overlay" type="application/json">{json.dumps(overlay)}</script>' if overlay else ""
    return f"""<html><head><style>section {{ page-break-after: always }}</style></head>
<body>{script}{pages}</body></html>"""


BACKGROUND_PAGE = '<section id="background-sheet">Grid<span id="slot-sheet-top"></span></section>'
TABLE_2 = [{"over": "sheet", "n": 2, "items": [draw.text("top", 10, 5, "body", (0, "Table 2"))]}]


def test_laid_out_and_drawn_pages_are_put_over_their_background_in_order(db):
    data = pdf.html_to_pdf(layered_page(BACKGROUND_PAGE + '<section id="over-sheet-1">Table 1</section>', TABLE_2))
    assert pages_text(data) == ["Grid Table 1", "Grid Table 2"]


@pytest.mark.parametrize(("pages", "drawn"), [
    ('<section id="over-sheet-1">Table 1</section>', TABLE_2),  # no background at all
    ('<section id="over-sheet-1">Table 1</section>', None),
    (BACKGROUND_PAGE.replace("sheet", "slip") + '<section id="over-sheet-1">Table 1</section>', None),  # another one
])  # fmt: skip
def test_pages_over_a_background_the_document_lacks_stop_the_print_with_a_clear_error(db, pages, drawn):
    with pytest.raises(ValueError, match=r"over the background 'sheet', but none of its pages is that background"):
        pdf.html_to_pdf(layered_page(pages, drawn))


def test_every_pdf_opened_to_lay_pages_over_a_background_or_join_parts_is_closed(db, monkeypatch):
    opened, closed = [], []

    def recorded(make):
        return lambda *args, **kwargs: opened.append(make(*args, **kwargs)) or opened[-1]

    monkeypatch.setattr(pikepdf, "open", recorded(pikepdf.open))
    monkeypatch.setattr(pikepdf, "new", recorded(pikepdf.new))
    monkeypatch.setattr(pikepdf.Pdf, "close", lambda self, close=pikepdf.Pdf.close: closed.append(self) or close(self))
    part = pdf.html_to_pdf(layered_page(BACKGROUND_PAGE + '<section id="over-sheet-1">Table 1</section>', TABLE_2))
    assert len(pages_text(pdf.join_pdfs([part, part]))) == 4
    assert len(opened) == 3 + 3  # laying over: the laid-out, the drawn, the result; joining: the result, 2 parts
    assert {id(p) for p in closed} >= {id(p) for p in opened}


def test_a_substitute_is_named_on_the_sheet_and_gets_the_slip(running_round, tournament):
    ada = tournament.teams.get(number=1).players.get(name="Ada")
    substitute_player(player=ada, substitute="Zoë Quinn", from_round=1)
    sheet = pages_text(produce(tournament, score_sheets(running_round)))[0]
    assert "Zoë Quinn" in sheet and "Ada" not in sheet
    slips = " ".join(pages_text(produce(tournament, documents.movement_slips(running_round))))
    assert "Zoë Quinn" in slips


def test_blank_sheet_has_no_names_and_no_link(tournament):
    pages = pages_text(produce(tournament, blank_sheet(tournament)))
    assert len(pages) == 1 and "Table ____" in pages[0] and "Scan" not in pages[0]


def test_movement_slips_tell_each_player_their_table_and_seat(finished_round, tournament):
    following = close_round(round_=finished_round)
    text = " ".join(pages_text(produce(tournament, documents.movement_slips(following))))
    assert "Ada Round 2" not in text  # the name and the place are apart on the strip
    assert "Round 2: table 1, North" in text and "Round 2: table 4, South" in text
    assert documents.movement_slips(following).title == "Movement slips, round 2"


@pytest.mark.parametrize(("rounds", "last"), [(2, False), (1, True)])
def test_a_sit_out_slip_says_come_back_next_round_only_when_there_is_one(db, rounds, last):
    tournament = make_tournament(couples=5, rounds_planned=rounds)
    round_ = start_play(tournament=tournament)
    text = " ".join(pages_text(produce(tournament, documents.movement_slips(round_))))
    assert "Round 1: sitting out" in text
    assert ("next round" in text) is not last
    assert ("the last round: no more play for you tonight" in text) is last


def test_a_league_nights_movement_slips_speak_of_the_night(db):
    season = make_league(4)
    night = format_of(season).start(tournament=season)
    document = documents.movement_slips(night)
    assert document.title == "Movement slips, night 1"
    text = " ".join(pages_text(produce(season, document)))
    assert "Night 1: table 1, North" in text and "round" not in text.lower()


def test_table_tents_show_the_number_large(running_round, tournament):
    pages = pages_text(produce(tournament, documents.table_tents(tournament)))
    assert len(pages) == 4 and "Table 3" in pages[2]


def test_table_tents_are_printed_once_for_the_whole_event(finished_round, tournament, settings):
    settings.SPADES_BASE_URL = "http://10.0.0.5:8000"
    before = documents.table_tents(tournament).contexts[0]["tents"]
    close_round(round_=finished_round)
    after = documents.table_tents(tournament).contexts[0]["tents"]
    assert after == before and "round" not in documents.table_tents(tournament).title.lower()
    table = tournament.tables.get(number=3)
    assert before[2]["url"] == f"http://10.0.0.5:8000/table/{table.token}/"


def test_tents_for_many_tables_print_in_chunks_with_progress_and_the_worker_draws_their_qr_codes(director_client):
    tournament = make_tournament(couples=30)
    start_play(tournament=tournament)
    document = documents.table_tents(tournament)
    assert [len(context["tents"]) for context in document.contexts] == [8, 7]
    html = "".join(pdf.render_html_chunks(document.template, document.contexts))
    assert "<svg" not in html and html.count('src="qr:http') == 15  # no QR code made in the request
    response = director_client.get(reverse("director:print_document", args=[tournament.pk, "table-tents"]))
    job = PrintJob.objects.get()
    assert job.status == PrintJob.Status.DONE and job.chunks_done == job.chunks_total == 2
    pages = pages_text(response.content)
    assert len(pages) == 15 and all(f"Table {n} " in page + " " for n, page in enumerate(pages, start=1))
    with pikepdf.open(io.BytesIO(response.content)) as document:
        codes = [o for o in document.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
    assert len(codes) == 15  # a QR code a table


def test_movement_slips_of_a_large_event_print_in_parts_every_slip_once_sit_outs_last(db, monkeypatch):
    monkeypatch.setattr(pdf, "CHUNK_ITEMS", 8)
    tournament = make_tournament(couples=9)
    round_ = start_play(tournament=tournament)
    document = documents.movement_slips(round_)
    assert [len(context["slips"]) for context in document.contexts] == [6, 6, 6]
    pages = pages_text(produce(tournament, document))
    text = " ".join(pages)
    assert text.count("Cut along the dashed lines") == 1
    assert text.count("Round 1: table") == 16 and text.count("Round 1: sitting out") == 2
    assert text.rindex("Round 1: table") < text.index("Round 1: sitting out")
    assert "part 1 of 3, page 1 of 1" in pages[0] and "part 3 of 3, page 1 of 1" in pages[-1]


def test_standings_of_a_large_event_print_in_parts_heading_first_tiebreak_last(db, monkeypatch):
    monkeypatch.setattr(pdf, "CHUNK_ITEMS", 3)
    tournament = make_tournament(couples=8)
    document = documents.standings(tournament)
    assert [len(context["rows"]) for context in document.contexts] == [3, 3, 3, 3, 2, 2]
    pages = pages_text(produce(tournament, document))
    text = " ".join(pages)
    assert text.count(f"{tournament.name}: standings") == 1 and pages[0].startswith(f"{tournament.name}: standings")
    tiebreak = " ".join(document.contexts[-1]["tiebreak"].split()[:4])
    assert text.count(tiebreak) == 1 and tiebreak in pages[-1]
    assert all(row.name in text for context in document.contexts for row in context["rows"])


def test_a_document_in_one_part_numbers_its_pages_without_parts(finished_round, tournament):
    pages = pages_text(produce(tournament, documents.standings(tournament)))
    assert len(documents.standings(tournament).contexts) == 1 and "page 1 of 1" in pages[0] and "part" not in pages[0]


@pytest.mark.parametrize(
    ("items", "most", "sizes"),
    [(0, 5, [0]), (5, 5, [5]), (6, 5, [3, 3]), (250, 100, [84, 83, 83]), (16, 3, [3, 3, 3, 3, 2, 2])],
)
def test_items_split_into_even_chunks_of_at_most_the_limit(items, most, sizes):
    assert [len(chunk) for chunk in pdf.split(list(range(items)), most)] == sizes


# --- tournament documents --------------------------------------------------------------------------


def test_standings_sheet_explains_the_tiebreak(finished_round, tournament):
    text = " ".join(pages_text(produce(tournament, documents.standings(tournament))))
    assert "Ada" in text and "244" in text and "Ranked by total points; then by rounds won" in text


def test_standings_sheet_explains_a_sit_out_credit_and_a_tie_broken_by_an_extra_hand(db):
    tournament = make_tournament(couples=5)
    round_ = start_play(tournament=tournament)
    start_round(round_=round_)
    tie_then_break(round_.games.get(table__number=1))
    finish_game(round_.games.get(table__number=2))
    text = " ".join(pages_text(produce(tournament, documents.standings(tournament))))
    assert "242\u2020" in text and "242*" in text  # the tied table's players, and Iris and Jack sitting out
    assert "\u2020 Round 1: tie broken by hand 5, not counted" in text
    assert "* Round 1: sat out: +242, average" in text
    assert "A player sitting out a round is credited with the round's average side score" in text


def test_standings_sheet_writes_a_lost_total_with_the_minus_sign_its_rounds_use(running_round, tournament):
    for game in running_round.games.all():
        finish_game(game, ns_tricks=4)  # North–South set every hand: 4 × −60
    text = " ".join(pages_text(produce(tournament, documents.standings(tournament))))
    assert text.count("−240") >= 16 and "-240" not in text  # each North–South player's round and total


def test_payout_sheet_lists_winners_amounts_and_a_signature_line(finished_round, tournament):
    close_round(round_=finished_round)
    Prize.objects.create(tournament=tournament, place=1, amount="40")
    tournament.status = Tournament.Status.FINISHED
    tournament.save()
    award_prizes(tournament=tournament)
    text = " ".join(pages_text(produce(tournament, documents.payout_sheet(tournament))))
    assert "1st place" in text and "$5.00" in text and "$40.00" in text and "Signature" in text
    assert Payout.objects.count() == 8  # all eight North–South players are level on 244 and share it


def test_fee_ledger_lists_what_each_team_paid_and_owes(tournament):
    record_payment(team=tournament.teams.get(number=1), amount=Decimal("20.00"), kind="payment", method="cash")
    text = " ".join(pages_text(produce(tournament, documents.fee_ledger(tournament))))
    assert "Ada & Ben" in text and "$20.00" in text and "$140.00" in text


@pytest.mark.parametrize(("paper", "size"), [("letter", (612, 792)), ("A4", (595, 842))])
def test_paper_size_follows_the_tournament(tournament, paper, size):
    tournament.paper_size = paper
    data = render_pdf("print/standings.html", documents.standings(tournament).contexts[0] | {"paper": paper})
    box = PdfReader(io.BytesIO(data)).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == size


# --- caching, progress, views -------------------------------------------------------------------------


def test_an_unchanged_document_is_served_again_without_rendering(running_round, tournament):
    first = jobs.produce(tournament, score_sheets(running_round))
    again = jobs.produce(tournament, score_sheets(running_round))
    assert again.pk == first.pk and PrintJob.objects.count() == 1
    finish_game(running_round.games.first(), hands=1)
    changed = jobs.produce(tournament, score_sheets(running_round))
    assert changed.pk != first.pk


def test_a_large_batch_is_rendered_in_parts_that_report_progress_and_served_whole(director_client):
    tournament = make_tournament(couples=30)
    round_ = start_play(tournament=tournament)
    url = reverse("director:print_document", args=[tournament.pk, "score-sheets"]) + "?round=1"
    response = director_client.get(url)  # the tests' task backend renders as the job is queued
    job = PrintJob.objects.get()
    assert job.status == PrintJob.Status.DONE and job.chunks_done == job.chunks_total == 2
    assert len(pages_text(response.content)) == len(round_.games.all())


def test_print_views_are_for_directors_only(client, tournament):
    for url in (reverse("director:print", args=[tournament.pk]),
                reverse("director:print_document", args=[tournament.pk, "rules"])):  # fmt: skip
        assert client.get(url).status_code == 302


def test_a_finished_rounds_documents_stay_on_the_print_tab(director_client, finished_round, tournament):
    close_round(round_=finished_round)
    page = director_client.get(reverse("director:print", args=[tournament.pk])).content.decode()
    finished = page[page.index("Finished rounds") :]
    sheets = reverse("director:print_document", args=[tournament.pk, "score-sheets"]) + "?round=1"
    slips = reverse("director:print_document", args=[tournament.pk, "movement-slips"]) + "?round=1"
    assert f'href="{sheets}"' in finished and f'href="{slips}"' in finished
    assert "Round 2" in page[: page.index("Finished rounds")]  # the next round, still to play
    record = pages_text(director_client.get(sheets).content)
    assert len(record) == 4 and "Table 1 round 1" in record[0] and "244" in record[0]


def test_print_page_and_a_small_document_open_at_once(director_client, running_round, tournament):
    assert b"Score sheets" in director_client.get(reverse("director:print", args=[tournament.pk])).content
    response = director_client.get(reverse("director:print_document", args=[tournament.pk, "rules"]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    missing = director_client.get(reverse("director:print_document", args=[tournament.pk, "score-sheets"]) + "?round=9")
    assert missing.status_code == 404
    assert director_client.get(reverse("director:print_document", args=[tournament.pk, "nonsense"])).status_code == 404


def test_a_name_with_quotes_prints_as_typed_in_the_footer(db):
    tournament = make_tournament(couples=2, name='Joe\'s "Big" Night')
    text = pages_text(produce(tournament, documents.standings(tournament)))[0]
    assert 'Joe\'s "Big" Night · Standings' in text


# --- a final and a championship under their own rule set ------------------------------------------


def _part_pages(text: list[str], heading: str) -> str:
    return " ".join(page for page in text if heading in page)


@pytest.mark.parametrize(("final", "headings"), [
    ("championship-500", ["Club night: rules of play", "The final: rules of play"]),
    ("league-300", ["Club night: rules of play"]),  # the same rules as the rest: nothing more to print
    ("", ["Club night: rules of play"]),
])  # fmt: skip
def test_a_knockouts_handout_prints_the_finals_own_rules_after_the_events(final, headings):
    tournament = knockout_event(teams=2, final_preset=final)
    document = documents.rule_handout(tournament)
    parts = document.contexts[0]["parts"]
    assert [part["heading"] for part in parts] == headings
    if final == "championship-500":
        assert parts[1]["sections"] == handout(PRESETS[final].rules, readings=PRESETS[final].readings)
        text = pages_text(produce(tournament, document))
        first, own = _part_pages(text, headings[0]), _part_pages(text, headings[1])
        assert own and headings[1] not in first  # the final's rules start a page of their own
        assert "League championship game to 500" in own and "The final is played under its own rule set" in own
        assert "Game to 500" in own and "nil 100" in own and "10 bags cost 100" in own and "Game to 300" not in own


def _league_in_its_championship(tournament: Tournament | None = None) -> Tournament:
    """A league of two (Ada & Ben win both nights) whose championship final, under
    championship-500, has started."""
    from tests.test_league import play_nights_won_by_team_1
    from tournament.formats.league.services import build_schedule, start_championship

    tournament = tournament or make_league(2, legs=2, championship_teams=2, final_preset="championship-500")
    build_schedule(tournament=tournament)
    play_nights_won_by_team_1(tournament, nights=(1, 2))
    assert documents.rule_handout(tournament).contexts[0]["parts"][1]["heading"] == (
        "The championship final: rules of play"
    )
    start_championship(tournament=tournament)
    tournament.refresh_from_db()
    return tournament


def test_a_leagues_print_tab_offers_the_championships_rules_then_its_bracket_and_sheets_once_it_starts(
    director_client,
):
    tournament = make_league(2, legs=2, championship_teams=2, final_preset="championship-500")
    url = reverse("director:print", args=[tournament.pk])

    def link(name: str) -> str:
        return f'href="{reverse("director:print_document", args=[tournament.pk, name])}"'

    page = director_client.get(url).content.decode()
    assert link("championship-rules") in page and link("bracket") not in page
    assert "bracket and match score sheets print here once it starts" in page
    assert director_client.get(reverse("director:print_document", args=[tournament.pk, "bracket"])).status_code == 404
    _league_in_its_championship(tournament)
    page = director_client.get(url).content.decode()
    for name, title in (("bracket", "Championship bracket"), ("match-sheets", "Championship match score sheets"),
                        ("championship-rules", "Championship rules")):  # fmt: skip
        assert f"{link(name)}>{title}</a>" in page

    def printed(name: str) -> list[str]:
        return pages_text(director_client.get(reverse("director:print_document", args=[tournament.pk, name])).content)

    bracket = printed("bracket")
    assert "Ada & Ben" in bracket[0] and "Cleo & Dan" in bracket[0]
    assert "Final" in printed("match-sheets")[0]
    rules = " ".join(printed("championship-rules"))
    assert "The championship: rules of play" in rules and "the top 2 of the league table play the championship" in rules
    assert "League championship game to 500" in rules and "10 bags cost 100" in rules


def test_the_league_table_pdf_names_the_champion_once_the_championship_is_decided():
    tournament = _league_in_its_championship()
    from tournament.formats.league.documents import league_table

    assert "Champion" not in " ".join(pages_text(produce(tournament, league_table(tournament))))
    final = Match.objects.get(tournament=tournament, stage=Match.Stage.FINAL)
    finish(final, winner=final.away, home_points=200, away_points=500)
    text = " ".join(pages_text(produce(tournament, league_table(tournament))))
    assert "Champion: Cleo & Dan" in text and "1st: Cleo & Dan · 2nd: Ada & Ben" in text
    assert "its final played under League championship game to 500" in text
