"""The Django admin, for looking things up and for the few corrections no page offers.

It never writes around the services: a tournament's changes go through
:func:`~tournament.events.services.update_tournament` (rules rescore every hand; a change the stored
hands refuse is shown on the form), a prize through :func:`~tournament.money.services.save_prize`
(its checks under the tournament's lock). A format's own settings change on the app's form.
Money, rounds, seating, games and hands are read-only here: each has its page in the app, which
checks the rules, keeps the history and re-seats what follows.
"""

from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils.html import format_html

from tournament.events import services
from tournament.events.forms import TournamentForm
from tournament.models import (
    HAND_FIELDS,
    Club,
    ClubMember,
    Game,
    Hand,
    HandRevision,
    Payment,
    Payout,
    Player,
    Prize,
    Round,
    Seating,
    SeatingChange,
    SitOut,
    Table,
    Team,
    Tournament,
)
from tournament.money.forms import PrizeForm
from tournament.money.services import remove_prize, save_prize


class ReadOnly:
    """Shown, never added, changed or deleted here (the app's own page does that)."""

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


def app_link(text: str, url: str) -> str:
    return format_html('<a href="{}">{}</a>', url, text)


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    can_delete = False
    readonly_fields = ["substitute", "substitute_from"]  # set on the teams page, which re-seats

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False  # a team registers on the teams page (numbering, re-seating)


class PaymentInline(ReadOnly, admin.TabularInline):
    model = Payment
    extra = 0


class _DryRun(Exception):
    """Rolls back a trial of the change: the form learns whether the stored hands accept it."""


class TournamentAdminForm(TournamentForm):
    """The director's own form (its checks), plus a trial of the change through the service. The
    format's own settings are not here: they change on the app's form."""

    def chosen_settings(self) -> None:
        return None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.instance.pk and not self.errors:
            try:
                with transaction.atomic():
                    services.update_tournament(tournament=self.instance, changes=self.changes())
                    raise _DryRun
            except _DryRun:
                pass
            except ValidationError as error:
                self.add_error(None, error)
        return data

    def changes(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in self.Meta.fields if name in self.cleaned_data}


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentAdminForm
    list_display = ["name", "date", "venue", "preset", "format", "status"]
    list_filter = ["status", "preset", "format"]
    search_fields = ["name", "venue"]
    readonly_fields = ["status", "director_page"]

    def get_fields(self, request: Any, obj: Any = None) -> list[str]:
        return [*TournamentForm.Meta.fields, "status", "director_page"]

    @admin.display(description="In the app")
    def director_page(self, tournament: Tournament) -> str:
        return (
            app_link("Open the dashboard", reverse("director:dashboard", args=[tournament.pk])) if tournament.pk else ""
        )

    def has_add_permission(self, request: Any) -> bool:
        return False  # a tournament is made in the app, in a club its maker directs

    def save_model(self, request: Any, obj: Tournament, form: TournamentAdminForm, change: bool) -> None:
        services.update_tournament(tournament=obj, changes=form.changes(), by=request.user)


class ClubMemberInline(admin.TabularInline):
    """Who runs the club's events (see tournament.access)."""

    model = ClubMember
    extra = 1
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "time_zone", "currency"]
    search_fields = ["name"]
    inlines = [ClubMemberInline]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["__str__", "tournament", "status", "checked_in"]
    list_filter = ["tournament", "status", "checked_in"]
    readonly_fields = ["tournament", "number", "status", "registered_at"]  # the teams page withdraws (re-seats)
    inlines = [PlayerInline, PaymentInline]

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "team", "division"]
    list_filter = ["team__tournament"]
    search_fields = ["name"]
    readonly_fields = ["team", "substitute", "substitute_from"]

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(ReadOnly, admin.ModelAdmin):
    """A table's link is reissued on its game page (the old one stops at once)."""

    list_display = ["__str__", "tournament"]
    list_filter = ["tournament"]


class SeatingInline(ReadOnly, admin.TabularInline):
    model = Seating
    extra = 0


@admin.register(Round)
class RoundAdmin(ReadOnly, admin.ModelAdmin):
    """Rounds start and close on the round page, which checks every table first."""

    list_display = ["__str__", "tournament", "status", "started_at", "closed_at"]
    list_filter = ["tournament", "status"]
    inlines = [SeatingInline]


@admin.register(Seating)
class SeatingAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["round", "table", "seat", "player"]
    list_filter = ["round__tournament", "round"]


@admin.register(SitOut)
class SitOutAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["round", "player"]


@admin.register(SeatingChange)
class SeatingChangeAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["round", "description", "changed_by", "changed_at"]


@admin.register(Game)
class GameAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["__str__", "status", "ns_score", "ew_score", "hands_played", "winner"]
    list_filter = ["round__tournament", "status"]
    readonly_fields = ["game_page"]

    @admin.display(description="Hands")
    def game_page(self, game: Game) -> str:
        target = reverse("director:game", args=[game.round.tournament_id, game.pk])
        return app_link("Enter and correct hands on the game page", target)


class RevisionInline(ReadOnly, admin.TabularInline):
    model = HandRevision
    extra = 0


@admin.register(Hand)
class HandAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["__str__", "misdeal", "disputed", "version"]
    list_filter = ["game__round__tournament", "disputed"]
    readonly_fields = [*HAND_FIELDS, "game", "number", "version", "entered_at", "game_page"]
    inlines = [RevisionInline]

    @admin.display(description="Correct")
    def game_page(self, hand: Hand) -> str:
        target = reverse("director:game", args=[hand.game.round.tournament_id, hand.game_id]) + f"?hand={hand.number}"
        return app_link("Correct this hand on the game page", target)


class PrizeAdminForm(PrizeForm):
    """The prize page's form (its checks), with the tournament to choose."""

    tournament = forms.ModelChoiceField(queryset=Tournament.objects.all())

    class Meta(PrizeForm.Meta):
        fields = ["tournament", *PrizeForm.Meta.fields]

    def clean(self) -> dict[str, Any]:
        if self.cleaned_data.get("tournament"):
            self.instance.tournament = self.cleaned_data["tournament"]  # the checks compare with its prizes
        elif not self.instance.tournament_id:
            return self.cleaned_data
        return super().clean()


@admin.register(Prize)
class PrizeAdmin(admin.ModelAdmin):
    form = PrizeAdminForm
    list_display = ["__str__", "tournament", "amount", "share_percent"]

    def save_model(self, request: Any, obj: Prize, form: PrizeAdminForm, change: bool) -> None:
        save_prize(prize=obj)

    def delete_model(self, request: Any, obj: Prize) -> None:
        remove_prize(prize=obj)

    def has_delete_permission(self, request: Any, obj: Prize | None = None) -> bool:
        # One at a time, through the service: a prize already paid out stays on the record.
        # (None for the list's "delete selected" action, which this leaves out.)
        return obj is not None and not obj.payouts.filter(paid_at__isnull=False).exists()


@admin.register(Payout)
class PayoutAdmin(ReadOnly, admin.ModelAdmin):
    """Payouts are worked out and paid (against a signature) on the prizes page."""

    list_display = ["__str__", "paid_at", "received_by", "method"]
    list_filter = ["prize__tournament", "method"]


@admin.register(Payment)
class PaymentAdmin(ReadOnly, admin.ModelAdmin):
    """Fees and refunds are recorded on the team's payments page (a refund never exceeds what was paid)."""

    list_display = ["__str__", "method", "recorded_at", "recorded_by"]
    list_filter = ["team__tournament", "kind", "method"]


@admin.register(HandRevision)
class HandRevisionAdmin(ReadOnly, admin.ModelAdmin):
    """The history is evidence: it can be read, never edited."""

    list_display = ["__str__", "source", "changed_by", "changed_at"]
    list_filter = ["hand__game__round__tournament", "source"]
