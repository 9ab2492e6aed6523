from django.contrib import admin

from tournament.models import Player, Team, Tournament


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "venue", "preset", "format", "status"]
    list_filter = ["status", "preset", "format"]
    search_fields = ["name", "venue"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["__str__", "tournament", "status", "checked_in"]
    list_filter = ["tournament", "status", "checked_in"]
    inlines = [PlayerInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "team", "division"]
    search_fields = ["name"]
