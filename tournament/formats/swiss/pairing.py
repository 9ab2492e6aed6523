"""The Swiss (Monrad) pairing of one round, as pure code: no Django, no database, no randomness.

The caller ranks the teams (by the standings; round 1 by seed or a seeded shuffle) and says who
has met whom and who has had a bye; :func:`pair_round` pairs the round as bridge Swiss teams pair
(Monrad): 1–2, 3–4, … down the ranking, a team moving down to the next candidate when the pair
would be a rematch. The priorities, in this order (issue 26):

1. **No rematch** whenever some pairing of this round without one exists given the rounds played;
   when none exists, as few rematches as can be.
2. **The bye** (odd field) goes to the first team in this order whose sitting out keeps (1): the
   teams without a bye from the lowest-ranked up, then those that had one from the lowest-ranked
   up. So it goes to the lowest-ranked team without one unless that forces a rematch another bye
   avoids, and once every team has had a bye, to the lowest-ranked team again.
3. **Closeness**: the pairs stay as close in the ranking as (1) and (2) allow, in Monrad's own
   order: the best-ranked team still unpaired takes the nearest-ranked free team that leaves the
   rest of the round pairable under (1) and (2), then the next best-ranked team, and so on. So no
   re-pairing of two tables' four teams that keeps (1) lowers the sum over the tables of the rank
   distance between the partners, and one that ties it comes later in that order
   (tests/test_swiss_pairing.py checks this).

How: the pairs that have not met are the edges of a graph, the bye a stand-in vertex joined to
every team. A maximum matching of it (Edmonds' blossom search) tells the fewest rematches the round
needs, and a candidate pair is allowed exactly when the rest can still be paired with no more.
Decisions run in priority order: the bye first (so (2) comes before (3)), then each team in rank
order. The matching is kept from one decision to the next, so a candidate costs one augmenting-path
search, and when the nearest candidate fails one more search (the Gallai–Edmonds outer vertices)
names every partner that can still fit. A depth-first search over the ranking can take exponential
time at a dead end near the bottom; this takes milliseconds for 256 teams after 8 rounds
(bench/swiss_pairing.py). Only histories no Swiss produces (teams that met half the field, with
rematches forced) take longer: seconds at 256 teams.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class RoundPairing:
    """One round's pairing.

    ``pairs``: in table order, the best-ranked pair first; each pair is (higher-ranked team,
    lower-ranked team). ``bye``: the team sitting out with the bye (odd fields only).
    ``rematches``: how many pairs met before; 0 whenever a pairing without a rematch exists.
    """

    pairs: tuple[tuple[int, int], ...]
    bye: int | None
    rematches: int


def pair_round(
    ranked: Sequence[int], met: Collection[frozenset[int]] = (), had_bye: Collection[int] = ()
) -> RoundPairing:
    """Pair one round. ``ranked``: team ids, best first (the caller ranks by the standings; round 1
    by seed or a seeded shuffle). ``met``: pairs of ids that have played each other. ``had_bye``:
    ids that had a bye.

    The same input gives the same pairing. Pairs in ``met`` naming a team not in ``ranked`` are
    ignored. Raises ``ValueError`` when a team appears twice in ``ranked``."""
    teams = list(ranked)
    position = {team: rank for rank, team in enumerate(teams)}
    if len(position) != len(teams):
        twice = next(team for rank, team in enumerate(teams) if position[team] != rank)
        raise ValueError(f"team {twice} appears twice in the ranking")
    count = len(teams)
    if count < 2:
        return RoundPairing(pairs=(), bye=teams[0] if teams else None, rematches=0)
    forbidden: list[set[int]] = [set() for _ in teams]
    for pair in met:
        ranks = [position[team] for team in pair if team in position]
        if len(ranks) == 2:
            forbidden[ranks[0]].add(ranks[1])
            forbidden[ranks[1]].add(ranks[0])
    odd = count % 2 == 1
    if odd:
        had_bye = set(had_bye)
        # The bye as vertex ``count``: every team may take it (it is never a rematch), in the
        # order of (2): those without a bye from the bottom up, then those with one.
        without = [rank for rank in reversed(range(count)) if teams[rank] not in had_bye]
        byed = [rank for rank in reversed(range(count)) if teams[rank] in had_bye]
        bye_order = without + byed
    matcher = _Matcher(count + odd, forbidden, bye=count if odd else None)
    matcher.start(first=bye_order[0] if odd else None)
    # The fewest rematches any pairing of the round has: one for each pair the matching lacks.
    budget = (count + odd) // 2 - matcher.size
    pairs: list[tuple[int, int]] = []
    bye = None
    rematches = 0
    deciders = ([count] if odd else []) + list(range(count))
    for vertex in deciders:
        if not matcher.alive[vertex]:
            continue  # already taken as a lower-ranked partner
        candidates = bye_order if vertex == count else range(vertex + 1, count)
        partners = None  # once the nearest candidate fails: the only ones that can fit
        for candidate in candidates:
            if not matcher.alive[candidate] or (partners is not None and candidate not in partners):
                continue
            rematch = candidate in forbidden[vertex] if vertex < count else False
            if rematch and budget == 0:
                continue
            if matcher.fix(vertex, candidate, budget - rematch):
                break  # some candidate always fits: the budget counted the fewest rematches
            if budget == 0:
                # One search then rules out every candidate that cannot fit, so a team that must
                # reach far down the ranking costs one search, not one a candidate passed over.
                partners = matcher.partners_in_a_perfect_matching(vertex)
        budget -= rematch
        rematches += rematch
        if vertex == count:
            bye = teams[candidate]
        else:
            pairs.append((teams[vertex], teams[candidate]))
    return RoundPairing(pairs=tuple(pairs), bye=bye, rematches=rematches)


class _Matcher:
    """A maximum matching of the not-yet-met graph on the vertices still unpaired, kept maximum
    as pairs are fixed and their two vertices leave it."""

    def __init__(self, vertices: int, forbidden: list[set[int]], *, bye: int | None) -> None:
        self.vertices = vertices
        self.forbidden = forbidden
        self.bye = bye
        teams = range(vertices - (bye is not None))
        # Neighbours in rank order, so the searches (and so the result) are deterministic.
        self.neighbours = [[other for other in teams if other != vertex and other not in forbidden[vertex]]
                           for vertex in teams]  # fmt: skip
        if bye is not None:
            self.neighbours.append(list(teams))
            for team in teams:
                self.neighbours[team].append(bye)
        self.alive = [True] * vertices
        self.mate = [-1] * vertices
        self.size = 0
        self.remaining = vertices
        self.free = set(range(vertices))  # the live vertices the matching leaves out

    def start(self, *, first: int | None) -> None:
        """A maximum matching from the greedy Monrad pairing (the bye to ``first``), so that most
        of the decisions that follow find their pair already in it."""
        if first is not None:
            self._join(self.vertices - 1, first)
        for vertex in range(self.vertices):
            if self.mate[vertex] == -1:
                partner = next((other for other in self.neighbours[vertex]
                                if other > vertex and self.mate[other] == -1), -1)  # fmt: skip
                if partner != -1:
                    self._join(vertex, partner)
        # One search from each free vertex suffices: a vertex with no augmenting path never gains
        # one as others augment (Edmonds).
        for vertex in range(self.vertices):
            if self.mate[vertex] == -1 and len(self.free) >= 2:
                self._augment_from(vertex)

    def fix(self, vertex: int, partner: int, budget: int) -> bool:
        """Take ``vertex`` and ``partner`` out as a pair if the rest can still be paired with at
        most ``budget`` rematches (pairs outside the matching); otherwise change nothing."""
        if self.mate[vertex] == partner:
            self._remove(vertex)
            self._remove(partner)
            return True
        saved = (list(self.mate), self.size, set(self.free))
        self._remove(vertex)
        self._remove(partner)
        if self.size >= self.remaining // 2 - budget:
            return True
        self.mate, self.size, self.free = saved
        self.alive[vertex] = self.alive[partner] = True
        self.remaining += 2
        return False

    def partners_in_a_perfect_matching(self, vertex: int) -> set[int]:
        """With the matching perfect on the live vertices: the vertices ``vertex`` can be paired
        with so that the rest still has a perfect matching. Those are the vertices that some
        maximum matching of the live graph less ``vertex`` leaves out: the outer vertices of
        Edmonds' search from its mate, the one vertex left free (Gallai–Edmonds)."""
        saved = list(self.mate)
        mate = self.mate[vertex]
        self.alive[vertex] = False
        self.mate[vertex] = self.mate[mate] = -1
        outer = self._augment_through_blossoms(mate)  # the only free vertex: it cannot augment
        self.alive[vertex] = True
        self.mate = saved
        return set(outer or ())

    def _join(self, one: int, other: int) -> None:
        self.mate[one], self.mate[other] = other, one
        self.size += 1
        self.free -= {one, other}

    def _adjacent(self, one: int, other: int) -> bool:
        """Whether the two may meet this round: they have not met, or one of them is the bye."""
        return one != other and (self.bye in (one, other) or other not in self.forbidden[one])

    def _remove(self, vertex: int) -> None:
        """Drop ``vertex``; the matching stays maximum: only a path from its freed mate can
        augment the rest, so one search restores it."""
        self.alive[vertex] = False
        self.remaining -= 1
        self.free.discard(vertex)
        mate = self.mate[vertex]
        if mate == -1:
            return
        self.mate[vertex] = self.mate[mate] = -1
        self.size -= 1
        self.free.add(mate)
        if len(self.free) >= 2:  # another free vertex to reach
            self._augment_from(mate)

    def _augment_from(self, root: int) -> None:
        """Augment the matching along a path from the free vertex ``root`` if one exists."""
        if not self._augment_shortly(root):
            self._augment_through_blossoms(root)

    def _augment_shortly(self, root: int) -> bool:
        """Augment along a path of one or three edges if there is one. In a field where each team
        has met few others there always is (the two free vertices have many neighbours in common),
        and finding it costs little, where the full search would first shrink many blossoms."""
        targets = sorted(self.free - {root})
        for target in targets:
            if self._adjacent(root, target):
                self._join(root, target)
                return True
        for middle in self.neighbours[root]:
            far = self.mate[middle]
            if not self.alive[middle] or far == -1:
                continue
            for target in targets:
                if self._adjacent(far, target):
                    self.size -= 1  # the middle pair is undone; the two joins make it one more
                    self._join(root, middle)
                    self._join(far, target)
                    return True
        return False

    def _augment_through_blossoms(self, root: int) -> list[int] | None:
        """Edmonds' search from the free vertex ``root`` among the live vertices, shrinking odd
        cycles (blossoms) to their base; augments along the path if it finds one (and returns
        None), else returns the outer vertices: those an even alternating path reaches."""
        mate, alive, neighbours = self.mate, self.alive, self.neighbours
        parent = [-1] * self.vertices
        base = list(range(self.vertices))
        queued = [False] * self.vertices
        queued[root] = True
        queue = [root]
        tree = [root]  # the vertices a blossom can contain

        def common_base(one: int, other: int) -> int:
            seen = [False] * self.vertices
            while True:
                one = base[one]
                seen[one] = True
                if mate[one] == -1:
                    break
                one = parent[mate[one]]
            while True:
                other = base[other]
                if seen[other]:
                    return other
                other = parent[mate[other]]

        def mark(vertex: int, blossom_base: int, child: int, in_blossom: list[bool]) -> None:
            while base[vertex] != blossom_base:
                in_blossom[base[vertex]] = in_blossom[base[mate[vertex]]] = True
                parent[vertex] = child
                child = mate[vertex]
                vertex = parent[mate[vertex]]

        head = 0
        while head < len(queue):
            vertex = queue[head]
            head += 1
            for other in neighbours[vertex]:
                if not alive[other] or base[vertex] == base[other] or mate[vertex] == other:
                    continue
                if other == root or (mate[other] != -1 and parent[mate[other]] != -1):
                    blossom_base = common_base(vertex, other)
                    in_blossom = [False] * self.vertices
                    mark(vertex, blossom_base, other, in_blossom)
                    mark(other, blossom_base, vertex, in_blossom)
                    for each in tree:
                        if in_blossom[base[each]]:
                            base[each] = blossom_base
                            if not queued[each]:
                                queued[each] = True
                                queue.append(each)
                elif parent[other] == -1:
                    parent[other] = vertex
                    if mate[other] == -1:
                        self._flip(root, other, parent)
                        return None
                    tree += (other, mate[other])
                    queued[mate[other]] = True
                    queue.append(mate[other])
        return queue

    def _flip(self, root: int, end: int, parent: list[int]) -> None:
        self.free -= {root, end}
        while end != -1:
            previous = parent[end]
            after = self.mate[previous]
            self.mate[end], self.mate[previous] = previous, end
            end = after
        self.size += 1
