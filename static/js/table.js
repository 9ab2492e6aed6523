/* The scorekeeper's table page: hands that wait on the phone while the network is down, and
 * entering a hand in few taps.
 *
 * Saving a hand gives it a key made here (one per attempt) and puts it on this table link's
 * waiting list in localStorage, then sends the list in order. The server stores a key once, so a
 * hand sent twice (its answer was lost, two tabs, a reload while sending) is stored once. A hand
 * the server refuses stops the list there until the scorekeeper fixes or drops it; later hands
 * keep waiting. No framework: htmx does the rest of the page.
 */
(function () {
  "use strict";

  var app = document.getElementById("table-app");
  if (!app) return;
  var TOKEN = app.dataset.token;
  var REPORT_URL = app.dataset.reportUrl;
  var STORE = "spades.waiting." + TOKEN;
  var SEND_TIMEOUT_MS = 5000;
  var RETRY_EVERY_MS = 4000;
  var REPORT_EVERY_MS = 30000;
  var SEATS = ["north", "east", "south", "west"];
  var DEALERS = ["North", "East", "South", "West"];

  // --- the waiting list ------------------------------------------------------------------------

  var kept = null;  // the list in memory only, where the browser refuses storage (private mode, full)

  function load() {
    try {
      if (kept === null) return JSON.parse(localStorage.getItem(STORE) || "[]");
    } catch (error) {
      kept = [];
    }
    return JSON.parse(JSON.stringify(kept));
  }

  function store(list) {
    try {
      if (kept === null) return localStorage.setItem(STORE, JSON.stringify(list));
    } catch (error) {
      // Still sent while the page stays open; it cannot survive a reload.
    }
    kept = JSON.parse(JSON.stringify(list));
  }

  function newKey() {
    // crypto.randomUUID needs a secure context; getRandomValues works on a plain-HTTP venue too.
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  var sending = false;
  var online = navigator.onLine;
  var sent = [];  // numbers sent since the page loaded, shown as "sent" beside the list

  function send(entry) {
    var controller = new AbortController();
    var timer = setTimeout(function () { controller.abort(); }, SEND_TIMEOUT_MS);
    // A hand goes to the round it was entered in; a round closed meanwhile refuses it (410).
    return fetch(entry.url, {
      method: "POST",
      body: entry.body,
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-CSRFToken": csrfToken(),
        "HX-Request": "true",
        // This page blanks the form for the next hand itself (nextHand): a saved hand that leaves
        // the game playing is answered with the notice, the totals and the new row only.
        "X-Next-Hand": "client",
      },
      credentials: "same-origin",
      signal: controller.signal,
    }).finally(function () { clearTimeout(timer); });
  }

  /* Send the waiting hands in order, one at a time, until the list is empty, the network fails
   * (they wait for the next try), or the server refuses one (the list stops there). */
  function flush() {
    var list = load();
    if (sending || !list.length || list[0].refused) {
      render();
      return Promise.resolve();
    }
    sending = true;
    var entry = list[0];
    render();
    return send(entry).then(function (response) {
      return response.text().then(function (html) { answered(entry, response.status, html); });
    }, function () {
      online = false;
    }).finally(function () {
      sending = false;
      render();
      var rest = load();
      if (online && rest.length && !rest[0].refused) flush();
    });
  }

  function answered(entry, status, html) {
    online = true;
    var list = load();
    if (!list.length || list[0].key !== entry.key) return;  // dropped meanwhile
    if (status === 200) {
      var head = list.shift();
      store(list);
      if (head.waited) sent = sent.concat([head.number]).slice(-6);
      if (!list.length || !list[0].refused) showPanel(html, { quiet: list.length > 0, scroll: true, misdeal: head.misdeal });
      return;
    }
    if (status === 409 || status === 422) {
      // Refused: the panel shows why. Hands behind it wait until it is fixed or dropped; alone,
      // it leaves the list (the form, or the stored hand beside it, holds it now).
      entry.refused = status === 409 ? "conflict" : "invalid";
      if (list.length > 1) list[0] = entry;
      else list.shift();
      store(list);
      showPanel(html, { refused: entry });
      return;
    }
    if (status === 403 || status === 404 || status === 410) {
      list[0].refused = status === 403 ? "reload" : "closed";
      store(list);
      return;
    }
    // 5xx and anything else: the server is in trouble; the hand waits and is tried again.
  }

  // --- saving a hand -----------------------------------------------------------------------------

  function handForm(form) {
    return form && form.hasAttribute("data-hand");
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!handForm(form)) return;
    // Taken over from htmx: the hand goes through the waiting list, sent or not.
    event.preventDefault();
    event.stopImmediatePropagation();
    var question = form.getAttribute("hx-confirm");
    if (question && !window.confirm(question)) return;
    var misdeal = form.id !== "hand-form";
    if (!misdeal && !checkHand(form)) return;
    var data = new URLSearchParams(new FormData(form));
    data.delete("csrfmiddlewaretoken");
    var entry = {
      key: newKey(), url: form.getAttribute("action"), number: Number(data.get("number")), misdeal: misdeal,
      values: summary(data),
    };
    data.set("entry_key", entry.key);
    entry.body = data.toString();
    var list = load().filter(function (waiting) {
      // This attempt replaces a refused one of the same hand.
      return !(waiting.refused && waiting.number === entry.number && waiting.url === entry.url);
    });
    var queued = list.length > 0;
    list.push(entry);
    store(list);
    if (queued || !online) {
      advance(entry);  // the list is waiting already: the next hand can be entered at once
      flush();
      return;
    }
    var button = document.querySelector("#hand-form button[type=submit]");
    if (button) button.disabled = true;
    flush().then(function () {
      if (button) button.disabled = false;
      if (load().some(function (waiting) { return waiting.key === entry.key && !waiting.refused; })) advance(entry);
    });
  }, true);

  function summary(data) {
    if (data.get("misdeal")) return "misdeal";
    var bids = SEATS.map(function (s) { return s[0].toUpperCase() + " " + label(data.get(s + "_bid")); });
    var tricks = SEATS.map(function (s) { return s[0].toUpperCase() + " " + data.get(s + "_tricks"); });
    return "bids " + bids.join(" · ") + "; tricks " + tricks.join(" · ");
  }

  /* A bid as the form names it (the rules name the blind nil: "blind nil" or "double nil"). */
  function label(bid) {
    var option = document.querySelector('#hand-form option[value="' + bid + '"]');
    return option ? option.textContent.trim().toLowerCase() : bid;
  }

  /* The checks that need no server: every bid chosen, every trick count given, 13 in all. */
  function checkHand(form) {
    var ok = true;
    var total = SEATS.reduce(function (sum, s) { return sum + (Number(form.elements[s + "_tricks"].value) || 0); }, 0);
    // Past 13 already: the count that is wrong is the total, not a seat still to fill in.
    var over = total > 13;
    SEATS.forEach(function (seat) {
      var title = seat[0].toUpperCase() + seat.slice(1);
      var bid = form.elements[seat + "_bid"];
      var tricks = form.elements[seat + "_tricks"];
      if (bid && !bid.value) ok = fieldError(bid, "Enter " + title + "'s bid.") && ok;
      if (!over && tricks && tricks.value === "") {
        ok = fieldError(tricks, "Enter " + title + "'s number of tricks.") && ok;
      }
    });
    var all = SEATS.every(function (s) { return form.elements[s + "_tricks"].value !== ""; });
    if (over || (ok && all && total !== 13)) {
      ok = fieldError(form.elements.west_tricks, "The tricks add up to " + total + "; they must make 13.") && ok;
    }
    if (!ok) {
      var first = form.querySelector("[aria-invalid=true]");
      if (first) activate(first);
    }
    return ok;
  }

  function fieldError(field, message) {
    clearError(field);
    var p = document.createElement("p");
    p.className = "error";
    p.dataset.for = field.name;
    p.textContent = message;
    field.setAttribute("aria-invalid", "true");
    // In the full-width list above the seats (as the server puts its own), not in a seat's column.
    field.form.querySelector(".field-errors").appendChild(p);
    return false;
  }

  /* An error goes as soon as its field changes; the live preview checks the hand again. */
  function clearError(field) {
    field.removeAttribute("aria-invalid");
    var form = field.form;
    if (!form) return;
    form.querySelectorAll('p.error[data-for="' + field.name + '"]').forEach(function (p) { p.remove(); });
    var general = form.querySelector(".message.error");
    if (general) general.remove();
  }

  ["input", "change"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      var field = event.target;
      if (!field.form || field.form.id !== "hand-form") return;
      if (event.isTrusted) delete field.dataset.auto;  // typed by a person: no longer filled in
      clearError(field);
      var cell = field.closest(".cell-wrap");
      if (cell) cell.querySelector(".cell").textContent = shown(field);
    });
  });

  function markWaited(entry) {
    var list = load();
    list.forEach(function (waiting) { if (waiting.key === entry.key) waiting.waited = true; });
    store(list);
    entry.waited = true;
  }

  /* The hand went on the waiting list: the form moves on to the next hand here and now. */
  function advance(entry) {
    markWaited(entry);
    nextHand(entry.number, entry.misdeal);
  }

  /* The form, showing hand ``number`` just saved or waiting, is blanked for the hand after it:
   * after a misdeal, the same hand dealt again by the same dealer. */
  function nextHand(number, misdeal) {
    var form = document.getElementById("hand-form");
    if (!form || Number(form.elements.number.value) !== number) return;
    setNumber(form, misdeal ? number : number + 1, !misdeal);
    SEATS.forEach(function (seat) {
      setValue(form.elements[seat + "_bid"], "");
      setValue(form.elements[seat + "_tricks"], "");
    });
    form.querySelectorAll('input[name$="_reneges"], input[name$="_table_talk"]').forEach(function (input) {
      input.value = "0";
    });
    if (form.elements.confirmed_by) form.elements.confirmed_by.value = "";
    if (form.elements.version) form.elements.version.value = "";
    if (form.elements.deal) form.elements.deal.value = "";
    form.querySelectorAll("p.error, .message.error").forEach(function (p) { p.remove(); });
    var section = form.closest(".entry") || document;
    section.querySelectorAll("details.penalties, details.misdeal").forEach(function (d) { d.open = false; });
    var initials = document.getElementById("misdeal-initials");
    if (initials) initials.value = "";
    var preview = document.getElementById("preview");
    if (preview) preview.innerHTML = '<p class="muted preview-wait">The score appears here as you enter the hand.</p>';
    startHand(form);
  }

  /* Show the form as hand ``number``; ``nextDealer`` when the hand before was dealt and played. */
  function setNumber(form, number, nextDealer) {
    form.elements.number.value = number;
    var section = form.closest(".entry") || document;
    var title = section.querySelector("h2");
    if (title && title.firstChild && title.firstChild.nodeType === Node.TEXT_NODE) {
      title.firstChild.textContent = "Hand " + number + " ";
    }
    var save = form.querySelector("button[type=submit]");
    if (save) save.textContent = "Save hand " + number;
    section.querySelectorAll("form input[name=number]").forEach(function (input) { input.value = number; });
    section.querySelectorAll("form[hx-confirm]").forEach(function (other) {
      other.setAttribute("hx-confirm", other.getAttribute("hx-confirm").replace(/hand \d+/, "hand " + number));
    });
    // The first dealer may change only before hand 1.
    if (number > 1) section.querySelectorAll(".first-dealer").forEach(function (f) { f.remove(); });
    if (nextDealer) passDeal(section, 1);
  }

  /* The deal passes to the left ``times`` times: "dealer: North" becomes "dealer: East" once. */
  function passDeal(where, times) {
    var dealer = where.querySelector(".entry [data-dealer], [data-dealer]");
    if (!dealer || !times) return;
    var seat = dealer.textContent.trim().split(" ").pop();
    dealer.textContent = "dealer: " + DEALERS[(DEALERS.indexOf(seat) + times) % 4];
  }

  /* A waiting hand the server lists already (stored, but its answer was lost before a reload): it
   * waits no more, so it is never sent again nor listed twice. */
  function forgetStored() {
    var stored = {};
    document.querySelectorAll("#hand-list > li[data-key]").forEach(function (row) { stored[row.dataset.key] = true; });
    var list = load();
    var left = list.filter(function (entry) { return !stored[entry.key]; });
    if (left.length === list.length) return;
    list.forEach(function (entry) { if (stored[entry.key]) sent = sent.concat([entry.number]).slice(-6); });
    store(left);
  }

  /* After a refresh from the server, the form follows the hands still waiting here. */
  function followWaiting() {
    var form = document.getElementById("hand-form");
    if (!form || form.elements.version.value) return;
    var list = load().filter(function (entry) { return entry.url === form.getAttribute("action"); });
    if (!list.length) return;
    var last = list[list.length - 1];
    if (list[0].refused === "invalid") return;  // the server's form shows the refused hand to fix
    var number = Number(form.elements.number.value);
    var next = last.misdeal ? last.number : last.number + 1;  // a misdealt hand is dealt again
    if (number >= next) return;
    // Each waiting hand played (not misdealt) passes the deal on once.
    var dealt = list.filter(function (e) { return e.number >= number && !e.misdeal; }).length;
    setNumber(form, next, false);
    passDeal(document, dealt);
  }

  // --- swapping the server's answer in -----------------------------------------------------------

  function dirty(form) {
    return SEATS.some(function (s) {
      return form.elements[s + "_bid"].value || form.elements[s + "_tricks"].value !== "";
    });
  }

  function showPanel(html, options) {
    var panel = document.getElementById("panel");
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("panel");
    var form = document.getElementById("hand-form");
    var keepForm = options.quiet && form && dirty(form);
    var saved = doc.getElementById("saved");
    if (panel && saved && window.htmx) {
      // A new hand saved, the game goes on: the totals and the row come out of band, the notice
      // goes above the form, and the form moves on here (unless it has moved on already).
      window.htmx.swap("#entry", html, { swapStyle: "none" });
      if (keepForm) return;
      var entry = document.getElementById("entry");
      entry.querySelectorAll(".message.success").forEach(function (p) { p.remove(); });
      var notice = document.importNode(saved, true);
      notice.removeAttribute("id");
      entry.insertBefore(notice, entry.firstChild);
      nextHand(Number(saved.dataset.number), options.misdeal);
      settle(panel, null, options.scroll);
      return;
    }
    if (panel && !fresh && doc.getElementById("entry") && window.htmx) {
      // A saved hand answers with the next form (#entry) and, out of band, the totals and the
      // rows that changed; a refused one with its form alone. A form being typed stays as it is.
      window.htmx.swap("#entry", html, { swapStyle: keepForm ? "none" : "outerHTML" });
      if (!keepForm) settle(document.getElementById("panel"), options.refused, options.scroll);
      return;
    }
    if (!panel || !fresh) return;
    if (keepForm) {
      // Hands still wait and one is being typed: refresh the scores around the form only.
      [".totals", ".played", ".hand-list"].forEach(function (selector) {
        var mine = panel.querySelector(selector);
        var theirs = fresh.querySelector(selector);
        if (mine && theirs) mine.replaceWith(document.importNode(theirs, true));
      });
      return;
    }
    var node = document.importNode(fresh, true);
    panel.replaceWith(node);
    if (window.htmx) window.htmx.process(node);
    settle(node, options.refused, options.scroll);
  }

  function settle(panel, refused, scroll) {
    forgetStored();
    followWaiting();
    var form = document.getElementById("hand-form");
    if (refused && refused.refused === "conflict") showMine(panel, refused);
    render();
    if (form) startHand(form, scroll && !refused);
  }

  /* A waiting hand the server refused because another phone entered that hand: theirs beside ours. */
  function showMine(panel, entry) {
    var stored = panel.querySelector(".stored");
    if (!stored) return;
    var mine = document.createElement("div");
    mine.className = "card mine";
    mine.innerHTML = "<strong></strong> <span></span>" +
      '<p class="muted">Keep the stored hand and send the hands after it, or call the director.</p>' +
      '<button type="button" class="danger" data-drop>Drop mine, keep the stored hand</button>';
    mine.querySelector("strong").textContent = "Entered on this phone for hand " + entry.number + ":";
    mine.querySelector("span").textContent = entry.values;
    stored.after(mine);
  }

  document.addEventListener("click", function (event) {
    if (!event.target.closest("[data-drop]")) return;
    var list = load();
    if (list.length && list[0].refused) list.shift();
    store(list);
    var mine = document.querySelector(".card.mine");
    if (mine) mine.remove();
    followWaiting();
    flush();
  });

  // --- the status line: offline, waiting, sent ---------------------------------------------------

  function render() {
    var box = document.getElementById("phone-status");
    if (!box) return;
    // A hand sent at once is not "waiting" until that send fails.
    var list = load().filter(function (entry) { return entry.waited || entry.refused; });
    var parts = [];
    if (!online) {
      parts.push('<p class="message warn offline" role="status">No network: the server cannot be reached from this ' +
        "phone just now. Hands you save stay on it and are sent when the network is back.</p>");
    }
    if (list.length) {
      var head = list[0];
      var words;
      if (head.refused === "closed") {
        words = "This table link no longer takes hands (its round closed or the link was reissued). " +
          "Show the hands below to the director.";
      } else if (head.refused === "reload") {
        words = "The server asks for this page to be reloaded; the hands stay on this phone.";
      } else if (head.refused) {
        words = "Hand " + head.number + " was not accepted: see why below. The hands after it wait.";
      } else if (sending) {
        words = "Sending hand " + head.number + "… (" + list.length + " waiting)";
      } else {
        words = "Saved on this phone — will send when the network is back (" + list.length + " waiting)";
      }
      parts.push('<p class="message ' + (head.refused ? "error" : "warn") + '" role="status" id="waiting-words"></p>');
      parts.push('<ol class="waiting-list">' + list.map(function () { return "<li></li>"; }).join("") + "</ol>");
      box.innerHTML = parts.join("");
      box.querySelector("#waiting-words").textContent = words;
      var counted = running();
      box.querySelectorAll(".waiting-list li").forEach(function (li, i) {
        var points = counted && counted.points[list[i].key];
        li.textContent = "Hand " + list[i].number + ": " + list[i].values +
          (list[i].refused ? " — not accepted" : " — waiting") + (points ? " · " + points : "");
      });
    } else {
      box.innerHTML = parts.join("");
    }
    if (sent.length) {
      var done = document.createElement("p");
      done.className = "muted sent";
      done.textContent = sent.map(function (n) { return "Hand " + n + " sent"; }).join(" · ");
      box.appendChild(done);
    }
    box.hidden = !box.childNodes.length;
    showRunning(running());
  }

  // --- the running total while hands wait --------------------------------------------------------
  // static/js/scorer.js scores the waiting hands as the server will (the same vectors test both),
  // on the standing the server last sent: the totals count them, marked as not yet confirmed, and
  // the form is not offered past the game's end.

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

  /* The game with the hands waiting for it, or null when none waits (or the page has no game):
   * {end, count (hands counted), points (each hand's words by key), over, tied}. Hands wait in
   * order up to a refused one; a correction (a version) changes a stored hand and is left out. */
  function running() {
    var rules = readJson("table-rules");
    var standing = readJson("table-standing");
    if (!rules || !standing || !window.SpadesScorer || standing.status === "finished") return null;
    var waiting = [];
    var list = load();
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

  window.addEventListener("online", function () { online = true; flush(); });
  window.addEventListener("offline", function () { online = false; render(); });
  setInterval(function () { if (load().length) flush(); }, RETRY_EVERY_MS);

  // --- the live preview offline, and the report every half minute ------------------------------

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.target.id === "preview" && !navigator.onLine) {
      event.preventDefault();
      event.target.innerHTML = '<p class="muted preview-wait">Score shown when online.</p>';
    }
  });
  ["htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (event.target.id === "preview") {
        online = false;
        event.target.innerHTML = '<p class="muted preview-wait">Score shown when online.</p>';
        render();
      }
    });
  });
  // After the settle, not the swap: htmx gives a swapped-in element the attributes of the one it
  // replaces until it settles (so an enhanced form's "padded" looked done), then takes them back.
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.target && event.detail.target.id;
    if (event.target.id === "panel" || target === "panel" || target === "entry") {
      settle(document.getElementById("panel"));
    }
  });

  function report() {
    if (!REPORT_URL) return;
    var data = new URLSearchParams({ waiting: String(load().length) });
    fetch(REPORT_URL, {
      method: "POST", body: data, credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": csrfToken() },
    }).then(function () { online = true; render(); }, function () {});
  }
  setInterval(report, REPORT_EVERY_MS);

  // --- few taps: a number pad for bids and tricks; the fourth trick count fills in -------------

  var ORDER = ["north_bid", "east_bid", "south_bid", "west_bid", "north_tricks", "east_tricks", "south_tricks", "west_tricks"];
  var active = null;

  function setValue(field, value) {
    if (!field) return;
    field.value = value;
    delete field.dataset.auto;
    var cell = field.closest(".cell-wrap");
    if (cell) cell.querySelector(".cell").textContent = shown(field);
  }

  function shown(field) {
    if (field.tagName === "SELECT") {
      var option = field.options[field.selectedIndex];
      return field.value && option ? option.text : "–";
    }
    return field.value === "" ? "–" : field.value;
  }

  function enhance(form) {
    if (form.dataset.pad) return;
    form.dataset.pad = "1";
    form.classList.add("padded");
    ORDER.forEach(function (name) {
      var field = form.elements[name];
      if (!field) return;
      var wrap = document.createElement("span");
      wrap.className = "cell-wrap";
      field.parentNode.insertBefore(wrap, field);
      wrap.appendChild(field);
      var cell = document.createElement("button");
      cell.type = "button";
      cell.className = "cell";
      cell.setAttribute("aria-label", field.closest("fieldset").querySelector("legend").textContent.trim() + " " +
        (name.endsWith("bid") ? "bid" : "tricks"));
      cell.textContent = shown(field);
      wrap.appendChild(cell);
      field.tabIndex = -1;
      field.setAttribute("aria-hidden", "true");
      cell.addEventListener("click", function () { activate(field); });
      var title = form.querySelector('label[for="' + field.id + '"]');
      if (title) title.addEventListener("click", function (event) { event.preventDefault(); activate(field); });
    });
    var pad = document.createElement("div");
    pad.className = "pad";
    pad.setAttribute("role", "group");
    pad.setAttribute("aria-label", "Number pad");
    var keys = [];
    for (var n = 0; n <= 13; n++) keys.push([String(n), String(n)]);
    var bid = form.elements.north_bid;
    Array.prototype.forEach.call(bid.options, function (option) {
      if (option.value && !/^\d+$/.test(option.value)) keys.push([option.value, option.text]);
    });
    keys.forEach(function (key) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "key";
      button.dataset.value = key[0];
      button.textContent = key[1];
      button.addEventListener("click", function () { press(form, key[0]); });
      pad.appendChild(button);
    });
    form.querySelector(".seats").after(pad);
    form.addEventListener("input", function (event) { autofill(form, event.target); });
    form.addEventListener("change", function (event) { autofill(form, event.target); });
    var first = ORDER.map(function (n) { return form.elements[n]; }).find(function (f) { return f.getAttribute("aria-invalid"); });
    activate(first || form.elements.north_bid, true);
  }

  function activate(field, quiet) {
    var form = field.form;
    form.querySelectorAll(".cell.active").forEach(function (c) { c.classList.remove("active"); });
    active = field;
    var cell = field.closest(".cell-wrap");
    if (cell) cell.querySelector(".cell").classList.add("active");
    var bidding = field.tagName === "SELECT";
    var allowed = {};
    if (bidding) Array.prototype.forEach.call(field.options, function (o) { if (o.value) allowed[o.value] = true; });
    form.querySelectorAll(".pad .key").forEach(function (key) {
      var value = key.dataset.value;
      key.disabled = bidding ? !allowed[value] : !/^\d+$/.test(value);
    });
    var pad = form.querySelector(".pad");
    if (pad) pad.dataset.for = field.name;
    if (!quiet && cell) cell.querySelector(".cell").focus({ preventScroll: true });
  }

  function press(form, value) {
    if (!active || active.form !== form) return;
    var field = active;
    field.value = value;
    delete field.dataset.auto;
    field.closest(".cell-wrap").querySelector(".cell").textContent = shown(field);
    field.dispatchEvent(new Event("input", { bubbles: true }));
    field.dispatchEvent(new Event("change", { bubbles: true }));
    var next = ORDER.slice(ORDER.indexOf(field.name) + 1).map(function (n) { return form.elements[n]; })
      .find(function (f) { return f.value === "" || f.dataset.auto; });
    if (next && !(next.dataset.auto && filled(form) === 4)) activate(next);
    else clearActive(form);
  }

  function clearActive(form) {
    form.querySelectorAll(".cell.active").forEach(function (c) { c.classList.remove("active"); });
    active = null;
    form.querySelectorAll(".pad .key").forEach(function (key) { key.disabled = true; });
  }

  function filled(form) {
    return SEATS.filter(function (s) { return form.elements[s + "_tricks"].value !== ""; }).length;
  }

  /* Three trick counts given: the fourth is 13 minus them, until someone types it themselves. */
  function autofill(form, changed) {
    if (!/_tricks$/.test(changed.name || "") || changed.dataset.auto) return;
    var fields = SEATS.map(function (s) { return form.elements[s + "_tricks"]; });
    var typed = fields.filter(function (f) { return f.value !== "" && !f.dataset.auto; });
    var rest = fields.filter(function (f) { return typed.indexOf(f) < 0; });
    if (typed.length !== 3 || rest.length !== 1) return;
    var sum = typed.reduce(function (total, f) { return total + Number(f.value); }, 0);
    var fourth = rest[0];
    fourth.value = sum <= 13 ? String(13 - sum) : "";
    fourth.dataset.auto = sum <= 13 ? "1" : "";
    if (!fourth.dataset.auto) delete fourth.dataset.auto;
    var cell = fourth.closest(".cell-wrap");
    if (cell) cell.querySelector(".cell").textContent = shown(fourth);
    clearError(fourth);
    fourth.dispatchEvent(new Event("change", { bubbles: true }));
  }

  /* A new hand: the pad starts at North's bid, and the page scrolls to it after a save. */
  function startHand(form, scroll) {
    enhance(form);
    ORDER.forEach(function (name) {
      var field = form.elements[name];
      var cell = field && field.closest(".cell-wrap");
      if (cell) cell.querySelector(".cell").textContent = shown(field);
    });
    if (form.elements.version.value) return;
    activate(form.elements.north_bid, true);
    var section = form.closest(".entry") || form;
    var save = form.querySelector("button[type=submit]");
    if (!scroll && save && save.getBoundingClientRect().bottom <= window.innerHeight) return;
    // The saved notice moves down beside the next hand, which comes to the top with Save in reach.
    var notice = document.querySelector("#panel > .message.success, #entry > .message.success");
    if (notice && scroll) section.insertBefore(notice, section.firstChild);
    section.scrollIntoView({ block: "start" });
  }

  // --- start -------------------------------------------------------------------------------------

  var form = document.getElementById("hand-form");
  store(load().map(function (entry) { entry.waited = true; return entry; }));
  forgetStored();
  followWaiting();
  if (form) startHand(form, false);
  render();
  flush();
  report();
  if ("serviceWorker" in navigator && window.isSecureContext && app.dataset.worker) {
    navigator.serviceWorker.register(app.dataset.worker, { scope: app.dataset.scope }).catch(function () {});
    if (!navigator.serviceWorker.controller) {
      // The worker never saw this page load (the first visit): it fetches the page and keeps it.
      navigator.serviceWorker.ready.then(function (registration) {
        registration.active.postMessage({ keep: location.href });
      });
    }
  } else {
    // Plain HTTP (a venue's network): no worker reopens the page offline, so it must stay open.
    var keepOpen = document.getElementById("keep-open");
    if (keepOpen) keepOpen.hidden = false;
  }
})();
