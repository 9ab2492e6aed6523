"""Every page's address: the core's, then each installed format's (found through the registry,
:mod:`tournament.formats`), in the "director", "public" and "table" namespaces."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournament.clocks import views as clocks
from tournament.clubs import urls as clubs
from tournament.events import views as events
from tournament.formats.registry import all_formats
from tournament.keying import urls as keying
from tournament.matches import views as matches
from tournament.money import views as money
from tournament.operations import health
from tournament.play import views as play
from tournament.printing import views as printing
from tournament.ratings import urls as ratings
from tournament.review import urls as review
from tournament.roster import views as roster
from tournament.seasons import urls as seasons
from tournament.standings import views as standings
from tournament.teams import views as teams
from tournament.transfer import views as transfer

T = "t/<int:tournament_id>/"

director_patterns = [
    path("", events.home, name="home"),
    path("t/new/", events.tournament_new, name="tournament_new"),
    path("import/", transfer.import_json, name="import"),
    path("clubs/<int:club_id>/roster/", roster.club_roster, name="club_roster"),
    path("clubs/<int:club_id>/roster/<int:person_id>/", roster.roster_player, name="roster_player"),
    path("clubs/<int:club_id>/roster/<int:person_id>/rename/", roster.roster_rename, name="roster_rename"),
    path(T, events.dashboard, name="dashboard"),
    path(T + "edit/", events.tournament_edit, name="tournament_edit"),
    path(T + "roster/search/", roster.roster_search, name="roster_search"),
    path(T + "teams/", teams.teams, name="teams"),
    path(T + "teams/add/", teams.team_add, name="team_add"),
    path(T + "teams/<int:team_id>/edit/", teams.team_edit, name="team_edit"),
    path(T + "teams/<int:team_id>/status/", teams.team_status, name="team_status"),
    path(T + "teams/<int:team_id>/check-in/", teams.team_check_in, name="team_check_in"),
    path(T + "teams/<int:team_id>/remove/", teams.team_remove, name="team_remove"),
    path(T + "teams/<int:team_id>/arrive/", teams.team_arrive, name="team_arrive"),
    path(T + "teams/<int:team_id>/substitute/", teams.team_substitute, name="team_substitute"),
    path(T + "teams/<int:team_id>/payments/", money.payments, name="payments"),
    path(T + "fees/", money.fees, name="fees"),
    path(T + "rounds/seat/", play.seat_first, name="seat_first"),
    path(T + "rounds/<int:number>/board/", play.round_board, name="round_board"),
    path(T + "rounds/<int:number>/links/", play.round_links, name="round_links"),
    path(T + "rounds/<int:number>/start/", play.round_start, name="round_start"),
    path(T + "rounds/<int:number>/close/", play.round_close, name="round_close"),
    path(T + "rounds/<int:number>/clock/", clocks.round_clock, name="round_clock"),
    path(T + "clocks/start/", clocks.start_clocks, name="start_clocks"),
    path(T + "clocks/<int:clock_id>/", clocks.clock_action, name="clock"),
    path(T + "matches/swap/", matches.match_swap, name="match_swap"),
    path(T + "matches/<int:match_id>/", matches.match_detail, name="match"),
    path(T + "matches/<int:match_id>/decide/", matches.match_decide, name="match_decide"),
    path(T + "games/<int:game_id>/", play.game_detail, name="game"),
    path(T + "games/<int:game_id>/hands/", play.game_hand, name="game_hand"),
    path(T + "games/<int:game_id>/tie/", play.game_tie, name="game_tie"),
    path(T + "games/<int:game_id>/reissue/", play.game_reissue, name="game_reissue"),
    path(T + "games/<int:game_id>/hands/<int:number>/resolve/", play.game_resolve, name="game_resolve"),
    path(T + "standings/", standings.director_standings, name="standings"),
    path(T + "prizes/", money.prizes, name="prizes"),
    path(T + "prizes/add/", money.prize_add, name="prize_add"),
    path(T + "prizes/award/", money.prizes_award, name="prizes_award"),
    path(T + "prizes/<int:prize_id>/delete/", money.prize_delete, name="prize_delete"),
    path(T + "payouts/<int:payout_id>/paid/", money.payout_paid, name="payout_paid"),
    path(T + "print/", printing.documents, name="print"),
    path(T + "print/jobs/<int:job_id>/", printing.job_status, name="print_job"),
    path(T + "print/jobs/<int:job_id>/pdf/", printing.job_pdf, name="print_job_pdf"),
    path(T + "print/jobs/<int:job_id>/retry/", printing.job_retry, name="print_job_retry"),
    path(T + "print/<slug:name>/", printing.document, name="print_document"),
    path(T + "export/standings.csv", transfer.export_standings, name="export_standings"),
    path(T + "export/hands.csv", transfer.export_hands, name="export_hands"),
    path(T + "export/tournament.json", transfer.export_json, name="export_json"),
]

public_patterns = [
    path("s/<int:tournament_id>/", standings.standings, name="standings"),
    path("s/<int:tournament_id>/projector/", standings.projector, name="projector"),
    path("s/<int:tournament_id>/seat/", standings.find_seat, name="find_seat"),
]

# Each format's pages (the variants of a format share one module).
for pages in {id(f.urls): f.urls for f in all_formats() if f.urls is not None}.values():
    director_patterns += pages.director_patterns
    public_patterns += pages.public_patterns

# How a club's ratings work (tournament.ratings).
public_patterns += ratings.public_patterns
# A round's results checks (tournament.review).
director_patterns += review.director_patterns

# A club's pages, invitations and password reset links (tournament.clubs).
director_patterns += clubs.director_patterns
# Keying a table's paper sheet at the desk (tournament.keying).
director_patterns += keying.director_patterns
# A club's seasons and its public season and player pages (tournament.seasons).
director_patterns += seasons.director_patterns
public_patterns += seasons.public_patterns

urlpatterns = [
    path("table/", include(("tournament.play.phone_urls", "table"))),
    path("", include((director_patterns, "director"))),
    path("", include((public_patterns, "public"))),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("health/", health.everything, name="health"),
    path("health/server/", health.server, name="health_server"),
    *clubs.urlpatterns,
]
