/* The scorekeeper's table page: hands that wait on the phone while the network is down.
 *
 * Saving a hand gives it a key made here (one per attempt) and puts it on this table link's
 * waiting list in localStorage, then sends the list in order. The server stores a key once, so a
 * hand sent twice (its answer was lost, two tabs, a reload while sending) is stored once. A hand
 * the server refuses stops the list there until the scorekeeper fixes or drops it; later hands
 * keep waiting. No framework: htmx does the rest of the page.
 *
 * The page's files share one object, window.SpadesTable, and nothing else. They load in this
 * order (templates/table/_phone_app.html, deferred), each adding to it what it provides:
 *   static/js/scorer.js         window.SpadesScorer, the scoring engine (not part of SpadesTable)
 *   static/js/table-running.js  running, showRunning: the totals counting the hands that wait
 *   static/js/table-form.js     checkHand, summary, dirty, nextHand, setNumber, passDeal,
 *                               startHand: the hand form (few taps, checks, the next hand)
 *   static/js/table.js          this file: the waiting list, saving, the server's answers, the
 *                               status line and the start; it provides nothing
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

  // From static/js/table-form.js and static/js/table-running.js, loaded before this file.
  var shared = window.SpadesTable;
  var checkHand = shared.checkHand, summary = shared.summary, dirty = shared.dirty, nextHand = shared.nextHand;
  var setNumber = shared.setNumber, passDeal = shared.passDeal, startHand = shared.startHand;
  var running = shared.running, showRunning = shared.showRunning;

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
    // When the scorekeeper saved it, by the phone's clock: a hand sent later from the waiting list
    // keeps this time, so the director's checks see when it was entered, not when it was sent.
    data.set("keyed_at", String(Date.now()));
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
      var counted = running(load());
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
    showRunning(running(load()));
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
