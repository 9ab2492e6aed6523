"""The Django admin covers every model for corrections. Hands and a game's cached totals are
read-only here: they change through the game page, which checks the rules and keeps history."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from tournament.models import (
    HAND_FIELDS,
    Game,
    Hand,
    HandRevision,
    Membership,
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


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0


class PaymentInline(admin.TabularInline):
    model = Payment
    extra = 0


class MembershipInline(admin.TabularInline):
    """Who runs the tournament besides the superuser (see tournament.access)."""

    model = Membership
    extra = 1
    autocomplete_fields = ["user"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "venue", "preset", "format", "status"]
    list_filter = ["status", "preset", "format"]
    search_fields = ["name", "venue"]
    inlines = [MembershipInline]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["__str__", "tournament", "status", "checked_in"]
    list_filter = ["tournament", "status", "checked_in"]
    inlines = [PlayerInline, PaymentInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "team", "division"]
    list_filter = ["team__tournament"]
    search_fields = ["name"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "tournament"]
    list_filter = ["tournament"]


class SeatingInline(admin.TabularInline):
    model = Seating
    extra = 0


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "tournament", "status", "started_at", "closed_at"]
    list_filter = ["tournament", "status"]
    inlines = [SeatingInline]


@admin.register(Seating)
class SeatingAdmin(admin.ModelAdmin):
    list_display = ["round", "table", "seat", "player"]
    list_filter = ["round__tournament", "round"]


@admin.register(SitOut)
class SitOutAdmin(admin.ModelAdmin):
    list_display = ["round", "player"]


@admin.register(SeatingChange)
class SeatingChangeAdmin(admin.ModelAdmin):
    list_display = ["round", "description", "changed_by", "changed_at"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "status", "ns_score", "ew_score", "hands_played", "winner"]
    list_filter = ["round__tournament", "status"]
    readonly_fields = ["ns_score", "ew_score", "ns_bags", "ew_bags", "hands_played", "status", "winner", "game_page"]

    def has_delete_permission(self, request: object, obj: object = None) -> bool:
        return False  # deleting a game would take its hands and their history with it

    @admin.display(description="Hands")
    def game_page(self, game: Game) -> str:
        target = reverse("director:game", args=[game.round.tournament_id, game.pk])
        return format_html('<a href="{}">Enter and correct hands on the game page</a>', target)


class RevisionInline(admin.TabularInline):
    model = HandRevision
    extra = 0
    can_delete = False
    readonly_fields = ["source", "changed_by", "changed_at", "before", "after"]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["__str__", "misdeal", "disputed", "version"]
    list_filter = ["game__round__tournament", "disputed"]
    readonly_fields = [*HAND_FIELDS, "game", "number", "version", "entered_at", "game_page"]
    inlines = [RevisionInline]

    @admin.display(description="Correct")
    def game_page(self, hand: Hand) -> str:
        target = reverse("director:game", args=[hand.game.round.tournament_id, hand.game_id]) + f"?hand={hand.number}"
        return format_html('<a href="{}">Correct this hand on the game page</a>', target)

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_delete_permission(self, request: object, obj: object = None) -> bool:
        return False  # a hand's history is evidence


@admin.register(Prize)
class PrizeAdmin(admin.ModelAdmin):
    list_display = ["__str__", "tournament", "amount", "share_percent"]


@admin.register(Payout)
class PayoutAdmin(admin.ModelAdmin):
    list_display = ["__str__", "paid_at", "received_by"]


@admin.register(Payment)
class PaymentAdmin(admin.ModelAdmin):
    list_display = ["__str__", "method", "recorded_at", "recorded_by"]
    list_filter = ["team__tournament", "kind", "method"]


@admin.register(HandRevision)
class HandRevisionAdmin(admin.ModelAdmin):
    """The history is evidence: it can be read, never edited."""

    list_display = ["__str__", "source", "changed_by", "changed_at"]
    list_filter = ["hand__game__round__tournament", "source"]

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_delete_permission(self, request: object, obj: object = None) -> bool:
        return False
