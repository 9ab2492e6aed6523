from django.urls import include, path

from tournament.views import director, exports, games, knockout, printing, prizes, public, rounds, teams

T = "t/<int:tournament_id>/"

director_patterns = [
    path("", director.home, name="home"),
    path("t/new/", director.tournament_new, name="tournament_new"),
    path("import/", exports.import_json, name="import"),
    path(T, director.dashboard, name="dashboard"),
    path(T + "edit/", director.tournament_edit, name="tournament_edit"),
    path(T + "teams/", teams.teams, name="teams"),
    path(T + "teams/add/", teams.team_add, name="team_add"),
    path(T + "teams/<int:team_id>/edit/", teams.team_edit, name="team_edit"),
    path(T + "teams/<int:team_id>/status/", teams.team_status, name="team_status"),
    path(T + "teams/<int:team_id>/check-in/", teams.team_check_in, name="team_check_in"),
    path(T + "teams/<int:team_id>/remove/", teams.team_remove, name="team_remove"),
    path(T + "teams/<int:team_id>/substitute/", teams.team_substitute, name="team_substitute"),
    path(T + "teams/<int:team_id>/payments/", teams.payments, name="payments"),
    path(T + "fees/", teams.fees, name="fees"),
    path(T + "rounds/seat/", rounds.seat_first, name="seat_first"),
    path(T + "rounds/<int:number>/", rounds.round_detail, name="round"),
    path(T + "rounds/<int:number>/board/", rounds.round_board, name="round_board"),
    path(T + "rounds/<int:number>/swap/", rounds.round_swap, name="round_swap"),
    path(T + "rounds/<int:number>/links/", rounds.round_links, name="round_links"),
    path(T + "rounds/<int:number>/start/", rounds.round_start, name="round_start"),
    path(T + "rounds/<int:number>/close/", rounds.round_close, name="round_close"),
    path(T + "rounds/<int:number>/clock/", knockout.round_clock, name="round_clock"),
    path(T + "bracket/", knockout.bracket, name="bracket"),
    path(T + "bracket/clocks/", knockout.start_clocks, name="start_clocks"),
    path(T + "bracket/seeds/", knockout.seeds, name="seeds"),
    path(T + "bracket/matches/<int:match_id>/", knockout.match_detail, name="match"),
    path(T + "bracket/matches/<int:match_id>/decide/", knockout.match_decide, name="match_decide"),
    path(T + "bracket/matches/<int:match_id>/table/", knockout.match_table, name="match_table"),
    path(T + "clocks/<int:clock_id>/", knockout.clock_action, name="clock"),
    path(T + "games/<int:game_id>/", games.game_detail, name="game"),
    path(T + "games/<int:game_id>/hands/", games.game_hand, name="game_hand"),
    path(T + "games/<int:game_id>/tie/", games.game_tie, name="game_tie"),
    path(T + "games/<int:game_id>/reissue/", games.game_reissue, name="game_reissue"),
    path(T + "games/<int:game_id>/hands/<int:number>/resolve/", games.game_resolve, name="game_resolve"),
    path(T + "standings/", public.director_standings, name="standings"),
    path(T + "prizes/", prizes.prizes, name="prizes"),
    path(T + "prizes/add/", prizes.prize_add, name="prize_add"),
    path(T + "prizes/award/", prizes.prizes_award, name="prizes_award"),
    path(T + "prizes/<int:prize_id>/delete/", prizes.prize_delete, name="prize_delete"),
    path(T + "payouts/<int:payout_id>/paid/", prizes.payout_paid, name="payout_paid"),
    path(T + "print/", printing.documents, name="print"),
    path(T + "print/jobs/<int:job_id>/", printing.job_status, name="print_job"),
    path(T + "print/jobs/<int:job_id>/pdf/", printing.job_pdf, name="print_job_pdf"),
    path(T + "print/<slug:name>/", printing.document, name="print_document"),
    path(T + "export/standings.csv", exports.export_standings, name="export_standings"),
    path(T + "export/hands.csv", exports.export_hands, name="export_hands"),
    path(T + "export/tournament.json", exports.export_json, name="export_json"),
]

public_patterns = [
    path("s/<int:tournament_id>/", public.standings, name="standings"),
    path("s/<int:tournament_id>/projector/", public.projector, name="projector"),
    path("s/<int:tournament_id>/bracket/", knockout.public_bracket, name="bracket"),
    path("s/<int:tournament_id>/seat/", public.find_seat, name="find_seat"),
]

urlpatterns = [
    path("table/", include(("tournament.views.table_urls", "table"))),
    path("", include((director_patterns, "director"))),
    path("", include((public_patterns, "public"))),
]
