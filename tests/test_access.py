"""Who reaches what: tournaments belong to their directors, assistants run rounds but not money
or rules, the superuser sees all; logins are throttled per address and per account."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.conftest import a_club, even_hand, finish_game, make_tournament
from tests.test_views_director import NEW
from tournament.access import ASSISTANT_PAGES, MONEY_DOCUMENTS, role_of
from tournament.clubs.services import create_club, grant
from tournament.models import ClubMember, Hand, Invitation, Payment, Round, Tournament
from tournament.play.rounds import start_play, start_round
from tournament.printing.catalog import EVENT_DOCUMENTS, ROUND_DOCUMENTS
from tournament.seasons.services import save_season
from tournament.transfer.export import export_tournament
from tournament.urls import director_patterns

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    def make(name: str):
        return django_user_model.objects.create_user(name, password="a-long-password-1", is_staff=True)

    return make


@pytest.fixture
def owned(staff, running_round):
    tournament = running_round.tournament
    owner, helper = staff("olive"), staff("hank")
    grant(club=tournament.club, user=owner, role=ClubMember.Role.DIRECTOR)
    grant(club=tournament.club, user=helper, role=ClubMember.Role.ASSISTANT)
    return tournament, owner, helper


def _as(client, user):
    client.force_login(user)
    return client


def test_a_new_tournament_belongs_to_the_club_of_the_director_who_created_it(client, staff):
    olive = staff("olive")
    club = create_club(name="Olive's club", owner=olive)
    _as(client, olive).post(reverse("director:tournament_new"), NEW)
    tournament = Tournament.objects.get(name="Spring Open")
    assert tournament.club == club
    assert role_of(olive, tournament.pk) == ClubMember.Role.OWNER
    assert client.get(reverse("director:dashboard", args=[tournament.pk])).status_code == 200


def test_another_director_gets_404_and_does_not_see_it_listed(client, staff, owned):
    tournament, _, _ = owned
    stranger = _as(client, staff("sam"))
    game = tournament.rounds.get().games.first()
    for target in (
        reverse("director:dashboard", args=[tournament.pk]),
        reverse("director:game", args=[tournament.pk, game.pk]),
        reverse("director:export_json", args=[tournament.pk]),
        reverse("director:print_document", args=[tournament.pk, "standings"]),
    ):
        assert stranger.get(target).status_code == 404, target
    assert stranger.post(reverse("director:round_close", args=[tournament.pk, 1])).status_code == 404
    assert tournament.name not in stranger.get(reverse("director:home")).content.decode()


@pytest.mark.parametrize(
    ("page", "extra"),
    [("payments", "team"), ("fees", None), ("tournament_edit", None), ("prizes", None), ("prize_add", None),
     ("prizes_award", None), ("export_json", None), ("print_document", "payouts"), ("print_document", "fee-ledger")],
)  # fmt: skip
def test_an_assistant_cannot_reach_money_or_rules(client, owned, page, extra):
    tournament, _, helper = owned
    args = [tournament.pk]
    if extra == "team":
        args.append(tournament.teams.first().pk)
    elif extra:
        args.append(extra)
    client = _as(client, helper)
    response = client.get(reverse(f"director:{page}", args=args))
    assert response.status_code == 403
    assert "assistants run rounds and hands only" in response.content.decode()
    if page == "payments":
        post = client.post(reverse("director:payments", args=args), {"kind": "refund", "amount": "5", "method": "cash"})
        assert post.status_code == 403 and not Payment.objects.exists()


def test_an_assistants_dashboard_links_only_to_the_pages_they_may_open(client, owned):
    tournament, owner, helper = owned
    director_only = [reverse(f"director:{page}", args=[tournament.pk])
                     for page in ("fees", "prizes", "tournament_edit", "export_json")]  # fmt: skip
    shared = reverse("director:teams", args=[tournament.pk])
    dashboard = reverse("director:dashboard", args=[tournament.pk])
    for user, sees_money in ((owner, True), (helper, False)):
        html = _as(client, user).get(dashboard).content.decode()
        assert f'href="{shared}"' in html
        assert [f'href="{url}"' in html for url in director_only] == [sees_money] * 4, user


def test_an_assistant_runs_rounds_and_corrects_hands(client, owned):
    tournament, _, helper = owned
    client = _as(client, helper)
    game = tournament.rounds.get().games.get(table__number=1)
    assert client.get(reverse("director:dashboard", args=[tournament.pk])).status_code == 200
    assert client.get(reverse("director:print_document", args=[tournament.pk, "standings"])).status_code == 200
    hand = {**even_hand(), "number": 1}
    response = client.post(reverse("director:game_hand", args=[tournament.pk, game.pk]), hand)
    assert response.status_code == 302
    correction = {**even_hand(8), "number": 1, "version": 1}
    client.post(reverse("director:game_hand", args=[tournament.pk, game.pk]), correction)
    stored = Hand.objects.get(game=game, number=1)
    assert stored.version == 2 and stored.revisions.last().changed_by == helper


def test_the_superuser_and_the_owner_see_everything(client, owned, director, staff):
    tournament, owner, _ = owned
    other = make_tournament(couples=2, name="Elsewhere", club=a_club("Another club"))
    listed_for_superuser = _as(client, director).get(reverse("director:home")).content.decode()
    assert tournament.name in listed_for_superuser and other.name in listed_for_superuser
    listed_for_owner = _as(client, owner).get(reverse("director:home")).content.decode()
    assert tournament.name in listed_for_owner and other.name not in listed_for_owner
    assert _as(client, owner).get(reverse("director:fees", args=[tournament.pk])).status_code == 200


def test_starting_a_round_is_open_to_an_assistant(client, staff, tournament):
    helper = staff("hank")
    grant(club=tournament.club, user=helper, role=ClubMember.Role.ASSISTANT)
    start_play(tournament=tournament)
    _as(client, helper).post(reverse("director:round_start", args=[tournament.pk, 1]))
    assert tournament.rounds.get().status == Round.Status.RUNNING


# --- login throttling ------------------------------------------------------------------------------


def _attempt(client, url: str, username: str, password: str, address: str = "10.0.0.7"):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.mark.parametrize("login", ["login", "admin:login"])
def test_five_wrong_passwords_lock_the_account_and_say_when_to_retry(client, staff, login):
    staff("olive")
    url = reverse(login)
    for _ in range(4):
        assert _attempt(client, url, "olive", "wrong").status_code == 200
    locked = _attempt(client, url, "olive", "wrong")
    assert locked.status_code == 429
    # The right password is refused too while the lock lasts, from another address as well.
    again = _attempt(client, url, "olive", "a-long-password-1", address="10.0.0.99")
    assert again.status_code == 429
    text = again.content.decode()
    assert "Try again after " in text and "(15 minutes at most)" in text and again["Retry-After"] == "900"
    assert "_auth_user_id" not in client.session


def test_one_address_guessing_many_accounts_is_locked_out(client, staff):
    staff("olive")
    url = reverse("login")
    for name in ("a", "b", "c", "d", "e"):
        _attempt(client, url, name, "wrong", address="10.0.0.8")
    assert _attempt(client, url, "olive", "a-long-password-1", address="10.0.0.8").status_code == 429
    assert _attempt(client, url, "olive", "a-long-password-1", address="10.0.0.9").status_code == 302


def test_a_good_login_after_a_few_mistakes_works(client, staff):
    staff("olive")
    url = reverse("login")
    for _ in range(3):
        _attempt(client, url, "olive", "wrong")
    assert _attempt(client, url, "olive", "a-long-password-1").status_code == 302


def test_an_imported_tournament_belongs_to_the_club_it_was_imported_into(client, staff, tournament):
    olive = staff("olive")
    club = create_club(name="Olive's club", owner=olive)
    upload = SimpleUploadedFile("t.json", json.dumps(export_tournament(tournament)).encode())
    response = _as(client, olive).post(reverse("director:import"), {"file": upload, "club": club.pk})
    assert response.status_code == 302
    imported = Tournament.objects.exclude(pk=tournament.pk).get()
    assert imported.club == club
    assert role_of(olive, imported.pk) == ClubMember.Role.OWNER
    assert role_of(olive, tournament.pk) is None


def test_a_director_of_two_clubs_sees_each_clubs_events_under_its_name(client, staff):
    olive = staff("olive")
    north, south = create_club(name="North club", owner=olive), a_club("South club")
    grant(club=south, user=olive, role=ClubMember.Role.ASSISTANT)
    make_tournament(couples=0, name="North open", club=north)
    make_tournament(couples=0, name="South open", club=south)
    make_tournament(couples=0, name="Nobody's night", club=a_club("Third club"))
    html = _as(client, olive).get(reverse("director:home")).content.decode()
    assert html.index("North club") < html.index("North open") < html.index("South club") < html.index("South open")
    assert "Nobody's night" not in html and "Third club" not in html
    new = reverse("director:tournament_new")
    assert f'href="{new}?club={north.pk}"' in html and f'href="{new}?club={south.pk}"' not in html  # assistant there
    assert reverse("director:club_roster", args=[south.pk]) in html


def test_new_tournament_from_a_clubs_section_goes_into_that_club(client, staff):
    olive = staff("olive")
    first, second = create_club(name="First club", owner=olive), create_club(name="Second club", owner=olive)
    form = _as(client, olive).get(reverse("director:tournament_new"), {"club": second.pk}).content.decode()
    assert f'<option value="{second.pk}" selected>Second club</option>' in form
    assert client.post(reverse("director:tournament_new"), NEW | {"club": second.pk}).status_code == 302
    assert Tournament.objects.get(name="Spring Open").club == second
    refused = client.post(reverse("director:tournament_new"), NEW | {"club": a_club("Not hers").pk, "name": "X"})
    assert refused.status_code == 422 and "club" in refused.context["form"].errors
    assert not Tournament.objects.filter(name="X").exists() and first.tournaments.count() == 0


def test_an_import_into_a_club_the_director_does_not_run_is_refused(client, staff, tournament):
    olive = staff("olive")
    create_club(name="Olive's club", owner=olive)
    create_club(name="Olive's other club", owner=olive)
    body = json.dumps(export_tournament(tournament)).encode()
    client = _as(client, olive)
    for club, error in ((None, "Choose the club the new tournament goes into."),
                        (tournament.club_id, "Select a valid choice")):  # fmt: skip
        upload = SimpleUploadedFile("t.json", body)
        response = client.post(reverse("director:import"), {"file": upload} | ({"club": club} if club else {}))
        assert response.status_code == 422 and error in response.content.decode()
    assert Tournament.objects.count() == 1


def test_a_restore_in_place_stays_in_its_club_and_needs_no_club_chosen(client, staff, tournament):
    olive = staff("olive")
    grant(club=tournament.club, user=olive, role=ClubMember.Role.DIRECTOR)
    create_club(name="Olive's own club", owner=olive)
    upload = SimpleUploadedFile("t.json", json.dumps(export_tournament(tournament)).encode())
    response = _as(client, olive).post(reverse("director:import"), {"file": upload, "replace": tournament.pk})
    assert response.status_code == 302
    assert Tournament.objects.get().club == a_club()


def test_an_assistant_is_not_shown_links_to_money_or_rules(client, owned):
    tournament, owner, helper = owned
    fees = reverse("director:fees", args=[tournament.pk])
    edit = reverse("director:tournament_edit", args=[tournament.pk])
    dashboard = reverse("director:dashboard", args=[tournament.pk])
    as_helper = _as(client, helper).get(dashboard).content.decode()
    assert fees not in as_helper and edit not in as_helper
    assert reverse("director:round", args=[tournament.pk, 1]) in as_helper
    as_owner = _as(client, owner).get(dashboard).content.decode()
    assert fees in as_owner and edit in as_owner


def test_an_assistant_is_not_shown_the_teams_pages_payment_buttons_or_fees_links(client, owned):
    tournament, owner, helper = owned
    team = tournament.teams.first()
    team.checked_in = False
    team.save(update_fields=["checked_in"])
    teams = reverse("director:teams", args=[tournament.pk])
    arrive = reverse("director:team_arrive", args=[tournament.pk, team.pk])
    payments = reverse("director:payments", args=[tournament.pk, team.pk])
    for user, sees_money in ((owner, True), (helper, False)):
        html = _as(client, user).get(teams).content.decode()
        assert [arrive in html, payments in html, "cash</button>" in html] == [sees_money] * 3, user
        assert reverse("director:team_edit", args=[tournament.pk, team.pk]) in html


def test_an_assistant_is_not_offered_the_money_documents_on_the_print_page(client, owned):
    tournament, owner, helper = owned
    page = reverse("director:print", args=[tournament.pk])
    money = [reverse("director:print_document", args=[tournament.pk, name]) for name in sorted(MONEY_DOCUMENTS)]
    for user, sees_money in ((owner, True), (helper, False)):
        html = _as(client, user).get(page).content.decode()
        assert [f'href="{url}"' in html for url in money] == [sees_money] * len(money), user
        assert ("Prize payout sheet" in html, "Entry fee ledger" in html) == (sees_money, sees_money)
        assert reverse("director:print_document", args=[tournament.pk, "standings"]) in html


def test_every_page_an_assistant_may_use_exists():
    assert {pattern.name for pattern in director_patterns} >= ASSISTANT_PAGES


# --- every director URL, from the URL resolver ------------------------------------------------------
#
# Each director page (URL name) is classified here by the events it is tried on; a page added
# later fails test_every_director_page_is_classified until it is. Its arguments are filled with
# real objects of club A: a progressive event with a round under way, a knockout, a league and a
# Swiss under way, a roster person, print jobs. A director of club B, the assistant of club A and a
# director of club A then try every page (and every document of each format).

# A club's people and invitations: its owner's (a director of the club gets 403 there).
OWNER_PAGES = {"club_member", "club_member_remove", "club_reset_link", "club_invite", "club_invitation_revoke"}
# A club's seasons (tournament.seasons): an assistant sees, prints and exports them, a director edits.
SEASON_PAGES = {"seasons", "season_new", "season", "season_edit", "season_csv", "season_print"}
NO_OBJECT, CLUB, SUPERUSER = "none", "club", "superuser"
ON = {
    NO_OBJECT: {"home", "tournament_new", "import", "clubs"},
    CLUB: {"club_roster", "roster_player", "roster_rename", "club", *OWNER_PAGES, *SEASON_PAGES},
    SUPERUSER: {"accounts", "account_reset_link"},  # every account: a superuser's page, 404 to anyone else
    "progressive": {
        "dashboard", "tournament_edit", "roster_search", "teams", "team_add", "team_edit", "team_status",
        "team_check_in", "team_remove", "team_arrive", "team_substitute", "payments", "fees", "seat_first",
        "round_board", "round_links", "round_start", "round_close", "round_clock", "start_clocks", "game",
        "game_hand", "game_tie", "game_reissue", "game_resolve", "standings", "prizes", "prize_add",
        "prizes_award", "prize_delete", "payout_paid", "print", "print_job", "print_job_pdf", "print_job_retry",
        "print_document", "export_standings", "export_hands", "export_json", "round", "round_swap",
        "keying", "keying_hand", "keying_discard", "flag_check",
    },
    "knockout": {
        "clock", "match", "match_swap", "match_decide", "bracket", "seeds", "match_table", "dashboard", "print",
        "print_document", "export_standings", "export_hands", "export_json", "keying",
    },
    "swiss": {
        "swiss", "swiss_swap", "swiss_missed", "swiss_standings", "dashboard", "print", "print_document",
        "export_standings", "export_hands", "export_json",
    },
    "league": {
        "league_schedule", "league_build", "league_postpone", "league_join", "league_withdraw", "league_night",
        "league_night_open", "league_table", "league_championship", "dashboard", "print", "print_document",
        "export_standings", "export_hands", "export_json",
    },
}  # fmt: skip


def _director_urls() -> dict[str, list[str]]:
    """Every URL name of the "director" namespace, as the resolver has it (formats' included
    pages too), with the names of its arguments."""
    from django.urls import URLResolver, get_resolver

    def walk(patterns, inside: bool, prefix: list[str]):
        for entry in patterns:
            here = [*prefix, *entry.pattern.converters]
            if isinstance(entry, URLResolver):
                yield from walk(entry.url_patterns, inside or entry.namespace == "director", here)
            elif inside and entry.name:
                yield entry.name, here

    return dict(walk(get_resolver().url_patterns, False, []))


def test_every_director_page_is_classified():
    pages = _director_urls()
    classified = set().union(*ON.values())
    assert set(pages) - classified == set(), "classify these pages in ON: which events to try them on"
    assert classified - set(pages) == set(), "these pages no longer exist"
    assert {"roster_player", "export_json", "print_document", "bracket", "league_table"} <= set(pages)


@pytest.fixture
def club_a(db, django_user_model):
    """Club A with everything a director page can name, its director and assistant; club B's
    director, who has an event of their own."""
    from tests.events import knockout_under_way, league_in_season, swiss_under_way
    from tournament.formats.registry import format_of
    from tournament.models import Payout, PrintJob, Prize, RosterPlayer
    from tournament.play.games import flag_dispute
    from tournament.simulation.play import SIMULATION_CLUB

    club = a_club(SIMULATION_CLUB)  # where the knockout's and the league's simulations put them
    progressive = make_tournament(club=club, name="A's progressive")
    round_ = start_play(tournament=progressive)
    start_round(round_=round_)
    game = round_.games.get(table__number=1)
    finish_game(game, hands=1)
    flag_dispute(hand=game.hands.get(number=1), note="NS say they took 8")
    prize = Prize.objects.create(tournament=progressive, place=1, amount=10)
    payout = Payout.objects.create(prize=prize, team=progressive.teams.get(number=1), amount=10)
    jobs = [
        PrintJob.objects.create(tournament=progressive, document=name, title=name, key=name, pdf=b"%PDF-1.4",
                                status=PrintJob.Status.DONE, html=[])
        for name in ("standings", "payouts")
    ]  # fmt: skip
    events = {"progressive": progressive, "knockout": knockout_under_way(), "league": league_in_season(),
              "swiss": swiss_under_way()}  # fmt: skip
    assert {event.club for event in events.values()} == {club}
    director = django_user_model.objects.create_user("dora")
    assistant = django_user_model.objects.create_user("abe")
    grant(club=club, user=director, role=ClubMember.Role.DIRECTOR)
    grant(club=club, user=assistant, role=ClubMember.Role.ASSISTANT)
    stranger = django_user_model.objects.create_user("bea")
    make_tournament(couples=2, name="B's own night", club=create_club(name="Club B", owner=stranger))
    person = RosterPlayer.objects.filter(club=club).first()
    season = save_season(club_id=club.pk, season_id=None, name="A's fall", rule="places", points_table=[3, 2, 1],
                         best_n=None, events=[progressive])  # fmt: skip
    common = {"club_id": club.pk, "person_id": person.pk, "prize_id": prize.pk, "payout_id": payout.pk,
              "member_id": club.members.get(user=assistant).pk, "user_id": assistant.pk,
              "invitation_id": Invitation.issue(club=club, role=ClubMember.Role.ASSISTANT)[0].pk,
              "season_id": season.pk}  # fmt: skip

    def objects(kind: str) -> dict:
        event = events[kind]
        match = event.matches.filter(status="playing").order_by("position", "number").first()
        current = event.rounds.exclude(status="closed").order_by("number").first()
        return common | {
            "tournament_id": event.pk,
            # a Swiss's last team arrived late (its missed rounds have a page); elsewhere any team
            "team_id": event.teams.order_by("-number" if kind == "swiss" else "number").first().pk,
            "number": current.number,
            "game_id": game.pk if kind == "progressive" else match.games.first().pk,
            "match_id": match.pk if match else None,
            "clock_id": event.clocks.first().pk if event.clocks.exists() else None,
        }

    def documents(kind: str) -> list[tuple[str, str]]:
        """Every document of the event: its name, and the query a round's needs."""
        event = events[kind]
        names = [*EVENT_DOCUMENTS, *(d.name for d in format_of(event).documents(event) if d.offered)]
        number = event.rounds.order_by("number").last().number
        return [(name, "") for name in names] + [(name, f"?round={number}") for name in ROUND_DOCUMENTS]

    cases = []  # (page, url, kwargs)
    for kind, pages in ON.items():
        # A print job's pages first: printing its document anew supersedes (deletes) the job.
        for page in sorted(pages, key=lambda name: (not name.startswith("print_job"), name)):
            needs = _director_urls()[page]
            if kind in (NO_OBJECT, CLUB, SUPERUSER):
                cases.append((page, reverse(f"director:{page}", kwargs={k: common[k] for k in needs}), {}))
                continue
            found = objects(kind)
            unknown = set(needs) - set(found) - {"name", "job_id"}
            assert not unknown, f"{page}: give the club's objects for {unknown} in club_a's objects()"
            kwargs = {k: 1 if (page, k) == ("game_resolve", "number") else found[k] for k in needs if k in found}
            if page == "print_document":
                for name, query in documents(kind):
                    cases.append((page, reverse(f"director:{page}", kwargs=kwargs | {"name": name}) + query,
                                  kwargs | {"name": name}))  # fmt: skip
            elif "job_id" in needs:
                cases += [(page, reverse(f"director:{page}", kwargs=kwargs | {"job_id": j.pk}), {"job_id": j.pk})
                          for j in jobs]  # fmt: skip
            else:
                assert None not in kwargs.values(), (page, kwargs)
                cases.append((page, reverse(f"director:{page}", kwargs=kwargs), kwargs))
    return {"club": club, "director": director, "assistant": assistant, "stranger": stranger, "cases": cases,
            "names": [e.name for e in events.values()] + [person.name, club.name]}  # fmt: skip


def _all_rows() -> dict[str, set[str]]:
    from django.apps import apps

    return {
        m.__name__: {repr(r) for r in m.objects.values_list()} for m in apps.get_app_config("tournament").get_models()
    }


def test_another_clubs_director_gets_404_on_every_page_export_and_roster_entry(client, club_a):
    client.force_login(club_a["stranger"])
    before = _all_rows()
    wrong = []
    for page, target, _ in club_a["cases"]:
        if page in ON[NO_OBJECT]:  # their own: nothing of club A on it
            html = client.get(target).content.decode()
            wrong += [(page, "shows", name) for name in club_a["names"] if name in html]
            continue
        for method in (client.get, client.post):
            status = method(target).status_code
            if status != 404:
                wrong.append((page, method.__name__, target, status))
    assert wrong == []
    assert _all_rows() == before  # nothing written, nothing rendered


def _assistant_may(page: str, kwargs: dict) -> bool:
    from tournament.formats.registry import all_formats
    from tournament.models import PrintJob

    listed = page in ASSISTANT_PAGES or any(page in f.assistant_pages for f in all_formats())
    document = (
        kwargs.get("name")
        or PrintJob.objects.filter(pk=kwargs.get("job_id")).values_list("document", flat=True).first()
    )
    return listed and document not in MONEY_DOCUMENTS


def test_the_clubs_assistant_is_refused_exactly_the_pages_the_roles_keep_for_directors(client, club_a):
    client.force_login(club_a["assistant"])
    wrong = []
    for page, target, kwargs in club_a["cases"]:
        if page in ON[NO_OBJECT]:
            continue  # their home page, creating and importing events: below
        status = client.get(target).status_code
        if page in ON[SUPERUSER]:
            if (status, client.post(target).status_code) != (404, 404):
                wrong.append((page, target, status))
        elif _assistant_may(page, kwargs):
            if status in (403, 404) or status >= 500:
                wrong.append((page, target, status))
        else:
            post = client.post(target).status_code
            if (status, post) != (403, 403):
                wrong.append((page, target, status, post))
    assert wrong == []
    for page in ("tournament_new", "import"):
        assert client.get(reverse(f"director:{page}")).status_code == 403
    home = client.get(reverse("director:home")).content.decode()
    assert club_a["club"].name in home and "New tournament" not in home


def test_the_clubs_director_reaches_every_page(client, club_a):
    client.force_login(club_a["director"])
    wrong = []
    for page, target, _ in club_a["cases"]:
        status = client.get(target).status_code
        expected = 403 if page in OWNER_PAGES else 404 if page in ON[SUPERUSER] else None
        if status != expected and (expected or status in (403, 404) or status >= 500):
            wrong.append((page, target, status))
    assert wrong == []
