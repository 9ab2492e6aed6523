"""Clubs take over what was per tournament (issue 25), with nothing lost:

- each tournament goes into the club of its earliest director (by membership), made for that
  director as its owner ("<name>'s club"); a tournament with no director goes into the club of
  the first superuser (made the same way), else into a club named "Club" with no owner yet
  (``manage.py first_owner`` gives it one);
- each tournament's directors and assistants become members of its club, keeping the highest
  role they had in any of the club's events (the club's maker stays its owner);
- each roster person is copied into every club whose events they played, and each event's
  players link to their own club's copy; someone on the roster who played nowhere goes into the
  first superuser's club (else the first club).

The clubs keep the instance's time zone (``DJANGO_TIME_ZONE``) and "$", as every page showed
before. Going back makes each club member a member of each of the club's tournaments again
(owners as directors); roster copies stay separate people.
"""

from django.conf import settings
from django.db import migrations

RANK = {"assistant": 0, "director": 1, "owner": 2}


def forwards(apps, schema_editor):
    Club = apps.get_model("tournament", "Club")
    ClubMember = apps.get_model("tournament", "ClubMember")
    Membership = apps.get_model("tournament", "Membership")
    Player = apps.get_model("tournament", "Player")
    RosterPlayer = apps.get_model("tournament", "RosterPlayer")
    Tournament = apps.get_model("tournament", "Tournament")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    owned = {}

    def club_of(user):
        if user.pk not in owned:
            club = Club.objects.create(name=f"{user.username}'s club"[:120], time_zone=settings.TIME_ZONE, currency="$")
            ClubMember.objects.create(club=club, user=user, role="owner")
            owned[user.pk] = club
        return owned[user.pk]

    unowned = []

    def default_club():
        superuser = User.objects.filter(is_superuser=True).order_by("pk").first()
        if superuser is not None:
            return club_of(superuser)
        if not unowned:
            unowned.append(Club.objects.order_by("pk").first() or Club.objects.create(
                name="Club", time_zone=settings.TIME_ZONE, currency="$"
            ))
        return unowned[0]

    for tournament in Tournament.objects.order_by("pk"):
        first = Membership.objects.filter(tournament=tournament, role="director").order_by("pk").first()
        tournament.club = club_of(first.user) if first is not None else default_club()
        tournament.save(update_fields=["club"])

    for membership in Membership.objects.select_related("tournament").order_by("pk"):
        club_id = membership.tournament.club_id
        member = ClubMember.objects.filter(club_id=club_id, user_id=membership.user_id).first()
        if member is None:
            ClubMember.objects.create(club_id=club_id, user_id=membership.user_id, role=membership.role)
        elif RANK[membership.role] > RANK[member.role]:
            member.role = membership.role
            member.save(update_fields=["role"])

    for person in RosterPlayer.objects.order_by("pk"):
        played = Player.objects.filter(roster=person).values_list("team__tournament__club_id", flat=True)
        first, *others = sorted(set(played)) or [default_club().pk]
        person.club_id = first
        person.save(update_fields=["club"])
        for club_id in others:
            copy = RosterPlayer.objects.create(club_id=club_id, name=person.name, key=person.key, created_at=person.created_at)
            Player.objects.filter(roster=person, team__tournament__club_id=club_id).update(roster=copy)


def backwards(apps, schema_editor):
    ClubMember = apps.get_model("tournament", "ClubMember")
    Membership = apps.get_model("tournament", "Membership")
    Tournament = apps.get_model("tournament", "Tournament")
    for tournament in Tournament.objects.order_by("pk"):
        for member in ClubMember.objects.filter(club_id=tournament.club_id):
            role = "assistant" if member.role == "assistant" else "director"
            Membership.objects.create(tournament=tournament, user_id=member.user_id, role=role)


class Migration(migrations.Migration):
    dependencies = [("tournament", "0018_clubs")]

    operations = [migrations.RunPython(forwards, backwards)]
