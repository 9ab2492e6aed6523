/* The table page's running total while hands wait on the phone.
 *
 * static/js/scorer.js scores the waiting hands as the server will (the same vectors test both),
 * on the standing the server last sent: the totals count them, marked as not yet confirmed, and
 * the form is not offered past the game's end.
 *
 * Provides window.SpadesTable.running and .showRunning (what the files share: static/js/table.js).
 */
(function () {
  "use strict";

  function readJson(id) {
    var node = document.getElementById(id);
    try {
      return node ? JSON.parse(node.textContent) : null;
    } catch (error) {
      return null;
    }
  }

  /* A waiting hand in the scorer's terms: its two sides' "teams", or {misdeal: true}. */
  function handOf(entry) {
    var data = new URLSearchParams(entry.body);
    if (entry.misdeal || data.get("misdeal")) return { misdeal: true };
    function count(name) { return Number(data.get(name)) || 0; }
    function bid(seat) {
      var value = data.get(seat + "_bid");
      return /^\d+$/.test(value) ? Number(value) : value;
    }
    var teams = [["ns", "north", "south"], ["ew", "east", "west"]].map(function (side) {
      var team = {
        players: side.slice(1).map(function (seat) {
          return { bid: bid(seat), tricks: count(seat + "_tricks"), reneges: count(seat + "_reneges"),
            table_talk: count(seat + "_table_talk") };
        }),
      };
      // A side's count where the rules take it (side contracts); else its players' sum.
      ["reneges", "table_talk"].forEach(function (kind) {
        if (data.has(side[0] + "_" + kind)) team[kind] = count(side[0] + "_" + kind);
      });
      return team;
    });
    return { teams: teams };
  }

  /* The game with the hands waiting for it (``list``, the waiting list), or null when none waits
   * (or the page has no game): {end, count (hands counted), points (each hand's words by key),
   * over, tied}. Hands wait in order up to a refused one; a correction (a version) changes a
   * stored hand and is left out. */
  function running(list) {
    var rules = readJson("table-rules");
    var standing = readJson("table-standing");
    if (!rules || !standing || !window.SpadesScorer || standing.status === "finished") return null;
    var waiting = [];
    for (var i = 0; i < list.length && !list[i].refused; i++) {
      var values = new URLSearchParams(list[i].body);
      if (list[i].url === standing.url && !values.get("version")) waiting.push(list[i]);
    }
    if (!waiting.length) return null;
    var start = { scores: standing.scores, bags: standing.bags, played: standing.played };
    var game = { end: window.SpadesScorer.playGame(rules, start, []).end, count: 0, points: {} };
    waiting.forEach(function (entry) {
      var end = game.end;
      if (end.over) return;  // nothing is scored past the game's end
      var hand = handOf(entry);
      var result;
      try {
        result = window.SpadesScorer.playGame(rules, end, [hand]);
      } catch (error) {
        return;
      }
      game.end = result.end;
      if (hand.misdeal) return;
      game.count += 1;
      var teams = result.results[0].teams;
      game.points[entry.key] = "NS " + signed(teams[0].points) + ", EW " + signed(teams[1].points);
      // Time was called on an earlier hand: the game ends after a hand that leaves the scores apart.
      var timeUp = standing.time_up_hand;
      if (timeUp !== null && entry.number >= timeUp && game.end.scores[0] !== game.end.scores[1]) {
        game.end.over = true;
        game.end.winner = game.end.scores[0] > game.end.scores[1] ? 0 : 1;
      }
    });
    return game.count ? game : null;
  }

  function number(value) {
    return value < 0 ? "\u2212" + -value : String(value);
  }

  function signed(value) {
    return value > 0 ? "+" + value : number(value);
  }

  /* The totals, the played line and the form as the waiting hands leave the game (or the
   * server's own, once none waits). */
  function showRunning(game) {
    var totals = document.querySelector("#totals .totals");
    if (!totals) return;
    var played = document.querySelector("#totals .played");
    var scores = totals.querySelectorAll(".side strong");
    var note = document.getElementById("pending-note");
    var over = document.getElementById("pending-over");
    var tied = document.getElementById("pending-tied");
    var section = document.querySelector("#entry section.entry");
    [note, over, tied].forEach(function (node) { if (node) node.remove(); });
    if (section) section.hidden = false;
    document.querySelectorAll("#entry .message.tied").forEach(function (p) { p.hidden = false; });
    if (!game) {
      if (totals.classList.contains("pending")) {
        totals.classList.remove("pending");
        scores.forEach(function (strong) { strong.textContent = strong.dataset.confirmed; });
        if (played) played.textContent = played.dataset.confirmed;
      }
      return;
    }
    if (!totals.classList.contains("pending")) {
      totals.classList.add("pending");
      scores.forEach(function (strong) { strong.dataset.confirmed = strong.textContent; });
      if (played) played.dataset.confirmed = played.textContent;
    }
    var end = game.end;
    scores.forEach(function (strong, i) { strong.textContent = number(end.scores[i]); });
    var rules = readJson("table-rules");
    if (played) {
      played.textContent = (rules.hands_per_round ? end.played + " of " + rules.hands_per_round + " hands played"
        : "Game to " + rules.target_score + " · " + end.played + " hand" + (end.played === 1 ? "" : "s") + " played");
    }
    note = document.createElement("p");
    note.id = "pending-note";
    note.className = "muted center pending-note";
    note.textContent = "Counting " + game.count + " hand" + (game.count === 1 ? "" : "s") +
      " waiting on this phone: not yet confirmed by the server.";
    (played || totals).after(note);
    document.querySelectorAll("#entry .message.tied").forEach(function (p) { p.hidden = true; });
    var entry = document.getElementById("entry");
    if (!entry) return;
    if (end.over) {
      // No hand past the game's end: the server confirms the end when the hands arrive.
      if (section) section.hidden = true;
      over = document.createElement("p");
      over.id = "pending-over";
      over.className = "message success";
      over.setAttribute("role", "status");
      var names = totals.querySelectorAll(".side span");
      over.textContent = "Game over on this phone's count: " + names[end.winner].textContent + " win, " +
        number(end.scores[end.winner]) + " to " + number(end.scores[1 - end.winner]) +
        ". It is confirmed once the waiting hands are sent; no more hands to enter.";
      entry.insertBefore(over, entry.firstChild);
    } else if (end.tied) {
      tied = document.createElement("p");
      tied.id = "pending-tied";
      tied.className = "message warn";
      tied.setAttribute("role", "alert");
      tied.textContent = "On this phone's count the game is tied at " + number(end.scores[0]) +
        " each: play one more hand to decide it and enter it below, or call the director.";
      entry.insertBefore(tied, section || entry.firstChild);
    }
  }

  window.SpadesTable = Object.assign(window.SpadesTable || {}, { running: running, showRunning: showRunning });
})();
