/* The scoring engine's second copy, for a phone that scores while the network is down.
 *
 * A port of scoring/hand.py (score_hand) and of the game's end (RuleSet.outcome and
 * scoring/game.py's Game), with no words and no validation: the server validates every hand it
 * stores and is the score of record. The rules are RuleSet.to_json()'s object; a hand is the
 * `python -m scoring` contract's "teams" list. scoring/vectors.py builds the cases that run
 * through both engines in the tests (tests/test_scoring_vectors.py,
 * tests/test_browser_scorer.py), so this copy cannot drift from the Python engine.
 *
 * Plain ES5 in the browser, no build step: window.SpadesScorer.
 */
(function (global) {
  "use strict";

  var NIL = "nil";
  var BLIND_NIL = "blind_nil";

  function isNil(rules, bid) {
    return bid === NIL || bid === BLIND_NIL || (bid === 0 && rules.nil_points !== null);
  }

  function nilValue(rules, bid) {
    return bid === BLIND_NIL ? rules.blind_nil_points : rules.nil_points;
  }

  function sideContract(rules, players) {
    return players.reduce(function (sum, p) { return isNil(rules, p.bid) ? sum : sum + p.bid; }, 0);
  }

  function count(value) {
    return typeof value === "number" ? value : 0;
  }

  /* A side of the JSON contract with its defaults; the side's infractions default to its players'. */
  function sideOf(team) {
    var players = team.players.map(function (p) {
      return { bid: p.bid, tricks: p.tricks, reneges: count(p.reneges), table_talk: count(p.table_talk) };
    });
    function total(name) {
      return name in team ? team[name] : players[0][name] + players[1][name];
    }
    return {
      players: players, score: count(team.score), bags: count(team.bags),
      reneges: total("reneges"), table_talk: total("table_talk"),
    };
  }

  /* {teams: [{points, bag_penalty, bags, score, made}, ...], game_over, winner}: score_hand's result. */
  function scoreHand(rules, teams) {
    var first = sideOf(teams[0]);
    var second = sideOf(teams[1]);
    var one, two;
    if (first.reneges || second.reneges) {
      var award = rules.reneg_points_to_opponents;
      one = scoreSide(rules, first, renegTricksGiven(rules, second), second.reneges * award);
      two = scoreSide(rules, second, renegTricksGiven(rules, first), first.reneges * award);
    } else {
      one = scoreSide(rules, first, 0, 0);
      two = scoreSide(rules, second, 0, 0);
    }
    var end = outcome(rules, [one.score, two.score]);
    return { teams: [one, two], game_over: end[0], winner: end[1] };
  }

  function renegTricksGiven(rules, side) {
    if (rules.reneg_tricks_to !== "opponents") return 0;
    var first = side.players[0], second = side.players[1];
    if (rules.contract === "player") {
      return side.players.reduce(function (sum, p) {
        return sum + Math.min(p.reneges * rules.reneg_tricks, p.tricks);
      }, 0);
    }
    return Math.min(side.reneges * rules.reneg_tricks, first.tricks + second.tricks);
  }

  function scoreSide(rules, side, received, award) {
    var first = side.players[0], second = side.players[1];
    var penalty = side.reneges * rules.reneg_tricks + side.table_talk * rules.table_talk_tricks;
    var hasNil = rules.nil_points !== null;
    var firstNil = typeof first.bid === "string" || (hasNil && first.bid === 0);
    var secondNil = typeof second.bid === "string" || (hasNil && second.bid === 0);
    var scored;
    if (rules.contract === "player" && !(firstNil && secondNil)) {
      scored = scorePlayers(rules, side.players, received);
    } else if (!firstNil && !secondNil) {
      var counted = first.tricks + second.tricks - penalty;
      scored = scoreContract(rules, first.bid + second.bid, counted > 0 ? counted : 0, received);
    } else if (firstNil && secondNil) {
      scored = scoreBothNil(rules, side.players, penalty, received);
    } else {
      scored = firstNil ? scoreWithNil(rules, first, second, penalty, received)
        : scoreWithNil(rules, second, first, penalty, received);
    }
    var points = scored[0] + award;
    var bags = scored[1] + side.bags;
    var bagPenalty = 0;
    var limit = rules.bag_limit;
    if (limit !== null && bags >= limit) {
      if (rules.bag_overflow === "carry") {
        bagPenalty = -Math.floor(bags / limit) * rules.bag_penalty;
        bags = bags % limit;
      } else {
        bagPenalty = -rules.bag_penalty;
        bags = 0;
      }
      points += bagPenalty;
    }
    return { points: points, bag_penalty: bagPenalty, bags: bags, score: side.score + points, made: scored[2] };
  }

  /* [points, bags, made] under contract "player": each bid on its own (see hand.py's _score_players). */
  function scorePlayers(rules, players, received) {
    var counted = players.map(function (p) {
      return Math.max(0, p.tricks - p.reneges * rules.reneg_tricks - p.table_talk * rules.table_talk_tricks);
    });
    var nils = players.map(function (p) { return isNil(rules, p.bid); });
    if (rules.failed_nil_tricks === "count_for_partner" && (nils[0] || nils[1])) {
      var nil = nils.indexOf(true);
      counted[1 - nil] += counted[nil];
      counted[nil] = 0;
    }
    var points = 0, bags = 0, i;
    for (i = 0; i < 2; i++) {
      if (!nils[i]) continue;
      points += scoreNil(rules, players[i]);
      if (counted[i] && rules.failed_nil_tricks === "bags") {
        points += counted[i] * rules.overtrick_points;
        bags += counted[i];
      }
    }
    var contract = sideContract(rules, players);
    if (rules.big_bid !== null && contract >= rules.big_bid) {
      var taken = (nils[0] ? 0 : counted[0]) + (nils[1] ? 0 : counted[1]);
      var whole = scoreContract(rules, contract, taken, received);
      return [points + whole[0], bags + whole[1], whole[2]];
    }
    var shares = [0, 0];
    for (i = 0; i < 2; i++) {
      if (nils[i]) continue;
      shares[i] = Math.min(received, Math.max(0, players[i].bid - counted[i]));
      received -= shares[i];
    }
    shares[nils.indexOf(false)] += received;
    var made = true;
    for (i = 0; i < 2; i++) {
      if (nils[i]) continue;
      var own = scoreContract(rules, players[i].bid, counted[i], shares[i]);
      points += own[0];
      bags += own[1];
      made = made && own[2];
    }
    return [points, bags, made];
  }

  /* [points, bags, made] for a contract and the tricks counted toward it (after penalties). */
  function scoreContract(rules, contract, counted, received) {
    var perTrick = rules.reneg_trick_points;
    var made = counted + received >= contract;
    var big = rules.big_bid !== null && contract >= rules.big_bid;
    var extra = 0, over = 0, value;
    if (made) {
      if (!big) value = 10 * contract;
      else value = rules.big_bid_bonus !== null ? 10 * contract + rules.big_bid_bonus : rules.big_bid_points;
      if (perTrick === null) {
        over = counted + received - contract;
      } else {
        over = counted > contract ? counted - contract : 0;
        extra = perTrick * (received - (contract > counted ? contract - counted : 0));
      }
      return [value + over * rules.overtrick_points + extra, over, true];
    }
    if (big && rules.big_bid_penalty !== null) value = -rules.big_bid_penalty;
    else if (rules.set_penalty === "minus_bid") value = -10 * contract;
    else value = 0;
    if (perTrick !== null) extra = perTrick * received;
    return [value + extra, 0, false];
  }

  /* [points, bags, made] for a side with one nil bidder; made: the partner's contract. */
  function scoreWithNil(rules, nil, bidder, penalty, received) {
    var points = scoreNil(rules, nil);
    var own = bidder.tricks, nilTricks = nil.tricks;
    // Penalty tricks come off the contract tricks first, then off the failed nil's tricks.
    var counted = own > penalty ? own - penalty : 0;
    var nilLeft = Math.max(0, penalty > own ? nilTricks - (penalty - own) : nilTricks);
    var failed = rules.failed_nil_tricks;
    if (nilTricks && failed === "count_for_partner") counted += nilLeft;
    var contract = scoreContract(rules, bidder.bid, counted, received);
    points += contract[0];
    var bags = contract[1];
    if (nilTricks && failed === "bags") {
      points += nilLeft * rules.overtrick_points;
      bags += nilLeft;
    }
    return [points, bags, contract[2]];
  }

  function scoreNil(rules, player) {
    var value = nilValue(rules, player.bid);
    return player.tricks === 0 ? value : -value;
  }

  /* [points, bags, made] for a side whose partners both bid nil; made: both nils made. */
  function scoreBothNil(rules, players, penalty, received) {
    var t0 = players[0].tricks, t1 = players[1].tricks;
    var bothMade = t0 === 0 && t1 === 0;
    var points, bags = 0;
    if (rules.both_nil === "separate") {
      points = scoreNil(rules, players[0]) + scoreNil(rules, players[1]);
      var tricks = Math.max(0, t0 + t1 - penalty);
      if (tricks && rules.failed_nil_tricks !== "ignored") {
        points += tricks * rules.overtrick_points;
        bags = tricks;
      }
    } else {
      var value = rules.both_nil_points;
      if (value === null) value = nilValue(rules, players[0].bid) + nilValue(rules, players[1].bid);
      if (bothMade) points = value;
      else if (rules.both_nil === "all_or_nothing") points = 0;
      else if (rules.both_nil === "team_contract" || (t0 && t1)) points = -value;
      else points = 0;
    }
    if (received) {
      // Received tricks are the side's own, beyond a contract of nothing.
      if (rules.reneg_trick_points === null) {
        points += received * rules.overtrick_points;
        bags += received;
      } else {
        points += received * rules.reneg_trick_points;
      }
    }
    return [points, bags, bothMade];
  }

  /* [over, winner] for the two sides' scores after a hand: RuleSet.outcome. */
  function outcome(rules, scores) {
    var first = scores[0], second = scores[1];
    var target = rules.target_score, floor = rules.lose_score;
    var pastTarget = target !== null && (first >= target || second >= target);
    var below = floor === null ? [false, false] : [first <= floor, second <= floor];
    if (first === second || !(pastTarget || below[0] || below[1])) return [false, null];
    if (pastTarget || (below[0] && below[1])) return [true, first > second ? 0 : 1];
    return [true, below[0] ? 1 : 0];
  }

  /* A game's state after ``played`` hands that left it at ``scores``: scoring/game.py's Game
   * (over, winner, tied: one more hand, round_complete: hands_per_round hands played). */
  function state(rules, scores, played) {
    var end = outcome(rules, scores);
    var perRound = rules.hands_per_round;
    var complete = perRound !== null && played >= perRound;
    if (!end[0] && complete && scores[0] !== scores[1]) end = [true, scores[0] > scores[1] ? 0 : 1];
    var reached = complete || (rules.target_score !== null && Math.max(scores[0], scores[1]) >= rules.target_score);
    return { over: end[0], winner: end[1], tied: reached && scores[0] === scores[1], round_complete: complete };
  }

  /* The game's state with its standing: {scores, bags, played, over, winner, tied, round_complete}. */
  function standing(rules, scores, bags, played) {
    var now = state(rules, scores, played);
    now.scores = scores;
    now.bags = bags;
    now.played = played;
    return now;
  }

  /* The game from ``start`` ({scores, bags, played}) through ``hands`` in order: each a hand's
   * "teams" (no standing: the game's is used) or {misdeal: true}, which scores nothing and is no
   * hand played. Returns the game's ``end``, its state ``after`` each hand and each hand's
   * ``results`` (null for a misdeal). A hand after the game is over throws, as Game.play raises. */
  function playGame(rules, start, hands) {
    var scores = start.scores.slice(), bags = start.bags.slice(), played = start.played;
    var after = [], results = [];
    hands.forEach(function (hand) {
      var result = null;
      if (!hand.misdeal) {
        if (state(rules, scores, played).over) throw new Error("the game is over; no more hands can be entered");
        var teams = hand.teams.map(function (team, i) {
          var side = { score: scores[i], bags: bags[i] };
          Object.keys(team).forEach(function (name) { if (!(name in side)) side[name] = team[name]; });
          return side;
        });
        result = scoreHand(rules, teams);
        scores = [result.teams[0].score, result.teams[1].score];
        bags = [result.teams[0].bags, result.teams[1].bags];
        played += 1;
      }
      after.push(standing(rules, scores, bags, played));
      results.push(result);
    });
    return { end: standing(rules, scores, bags, played), after: after, results: results };
  }

  global.SpadesScorer = { scoreHand: scoreHand, outcome: outcome, state: state, playGame: playGame, isNil: isNil };
})(window);
