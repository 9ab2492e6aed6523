"""Clubs take over what was per tournament (issue 25), with nothing lost:

- each tournament goes into the club of its earliest director (by membership), made for that
  director as its owner ("<name>'s club"); a tournament with no director goes into the club of
  the first superuser (made the same way), else into a club named "Club" with no owner yet
  (``manage.py first_owner`` gives the first club its owner);
- each tournament's directors and assistants become members of its club, keeping the highest
  role they had in any of the club's events (the club's maker stays its owner);
- each roster person is copied into every club whose events they played, and each event's
  players link to their own club's copy; someone on the roster who played nowhere goes where a
  tournament with no director goes.

The clubs keep the instance's time zone (``DJANGO_TIME_ZONE``) and "$", as every page showed
before. The work is done in sets (a few queries per club, not per person), so a database of
tens of thousands of players migrates in seconds. Going back makes each club member a member of
each of the club's tournaments again (owners as directors); roster copies stay separate people.
"""

from collections import defaultdict

from django.conf import settings
from django.db import migrations

RANK = {"assistant": 0, "director": 1, "owner": 2}
BATCH = 500


class Clubs:
    """The clubs the migration makes: one per director who directed first, one for the events
    with no director."""

    def __init__(self, apps):
        self.Club = apps.get_model("tournament", "Club")
        self.ClubMember = apps.get_model("tournament", "ClubMember")
        User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
        self.superuser = User.objects.filter(is_superuser=True).order_by("pk").first()
        self.owned = {}
        self.unowned = None

    def _new(self, name):
        return self.Club.objects.create(name=name[:120], time_zone=settings.TIME_ZONE, currency="$")

    def of(self, user):
        if user.pk not in self.owned:
            club = self._new(f"{user.username}'s club")
            self.ClubMember.objects.create(club=club, user=user, role="owner")
            self.owned[user.pk] = club
        return self.owned[user.pk]

    def default(self):
        """Where what has no director goes: the first superuser's club, else an owner-less one."""
        if self.superuser is not None:
            return self.of(self.superuser)
        if self.unowned is None:
            self.unowned = self._new("Club")
        return self.unowned


def forwards(apps, schema_editor):
    ClubMember = apps.get_model("tournament", "ClubMember")
    Membership = apps.get_model("tournament", "Membership")
    Player = apps.get_model("tournament", "Player")
    RosterPlayer = apps.get_model("tournament", "RosterPlayer")
    Tournament = apps.get_model("tournament", "Tournament")
    clubs = Clubs(apps)

    first_director = {}
    directors = Membership.objects.filter(role="director").select_related("user").order_by("pk")
    for membership in directors:
        first_director.setdefault(membership.tournament_id, membership.user)
    by_club = defaultdict(list)
    for tournament_id in Tournament.objects.order_by("pk").values_list("pk", flat=True):
        user = first_director.get(tournament_id)
        by_club[(clubs.of(user) if user is not None else clubs.default()).pk].append(tournament_id)
    club_of = {}
    for club_id, tournament_ids in by_club.items():
        Tournament.objects.filter(pk__in=tournament_ids).update(club_id=club_id)
        club_of.update(dict.fromkeys(tournament_ids, club_id))

    roles = {(m.club_id, m.user_id): m.role for m in ClubMember.objects.all()}  # the owners made above
    for tournament_id, user_id, role in Membership.objects.values_list("tournament_id", "user_id", "role"):
        key = (club_of[tournament_id], user_id)
        if RANK[role] > RANK.get(roles.get(key), -1):
            roles[key] = role
    owners = set(ClubMember.objects.values_list("club_id", "user_id"))
    ClubMember.objects.bulk_create(
        ClubMember(club_id=club_id, user_id=user_id, role=role)
        for (club_id, user_id), role in roles.items() if (club_id, user_id) not in owners
    )  # fmt: skip

    played = defaultdict(set)  # roster person -> the clubs whose events they played
    for person_id, tournament_id in Player.objects.filter(roster__isnull=False).values_list(
        "roster_id", "team__tournament_id"
    ).distinct():
        played[person_id].add(club_of[tournament_id])
    first = defaultdict(list)  # club -> the people whose first club it is
    copies = []
    for person in RosterPlayer.objects.order_by("pk"):
        home, *others = sorted(played[person.pk]) or [clubs.default().pk]
        first[home].append(person.pk)
        copies += [(person, club_id) for club_id in others]
    for club_id, people in first.items():
        for start in range(0, len(people), BATCH):
            RosterPlayer.objects.filter(pk__in=people[start : start + BATCH]).update(club_id=club_id)
    made = RosterPlayer.objects.bulk_create(
        RosterPlayer(club_id=club_id, name=person.name, key=person.key, created_at=person.created_at)
        for person, club_id in copies
    )
    relink = defaultdict(list)  # (person, club) -> the copy, by the club's tournaments
    for (person, club_id), copy in zip(copies, made, strict=True):
        relink[club_id].append((person.pk, copy.pk))
    for club_id, pairs in relink.items():
        tournaments = by_club[club_id]
        for person_id, copy_id in pairs:
            Player.objects.filter(roster_id=person_id, team__tournament_id__in=tournaments).update(roster_id=copy_id)


def backwards(apps, schema_editor):
    ClubMember = apps.get_model("tournament", "ClubMember")
    Membership = apps.get_model("tournament", "Membership")
    Tournament = apps.get_model("tournament", "Tournament")
    members = defaultdict(list)
    for club_id, user_id, role in ClubMember.objects.values_list("club_id", "user_id", "role"):
        members[club_id].append((user_id, "assistant" if role == "assistant" else "director"))
    Membership.objects.bulk_create(
        Membership(tournament_id=tournament_id, user_id=user_id, role=role)
        for tournament_id, club_id in Tournament.objects.values_list("pk", "club_id")
        for user_id, role in members[club_id]
    )


class Migration(migrations.Migration):
    dependencies = [("tournament", "0018_clubs")]

    operations = [migrations.RunPython(forwards, backwards)]
