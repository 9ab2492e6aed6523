/* The table page's hand form: entering a hand in few taps (a number pad for bids and tricks; the
 * fourth trick count fills in), the checks that need no server, the hand in words, and the form
 * blanked for the next hand. It sends nothing: static/js/table.js saves the hand.
 *
 * Provides window.SpadesTable.checkHand, .summary, .dirty, .nextHand, .setNumber, .passDeal and
 * .startHand (what the files share: static/js/table.js).
 */
(function () {
  "use strict";

  var SEATS = ["north", "east", "south", "west"];
  var DEALERS = ["North", "East", "South", "West"];

  // --- the hand in words -------------------------------------------------------------------------

  /* A hand's form data in words, as the waiting list shows it. */
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

  /* A hand being typed in the form: a refresh while hands wait leaves it as it is. */
  function dirty(form) {
    return SEATS.some(function (s) {
      return form.elements[s + "_bid"].value || form.elements[s + "_tricks"].value !== "";
    });
  }

  // --- checking the hand before it goes ------------------------------------------------------------

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

  // --- the next hand -----------------------------------------------------------------------------

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

  // --- few taps: a number pad for bids and tricks; the fourth trick count fills in ---------------

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

  window.SpadesTable = Object.assign(window.SpadesTable || {}, {
    checkHand: checkHand, summary: summary, dirty: dirty, nextHand: nextHand, setNumber: setNumber,
    passDeal: passDeal, startHand: startHand,
  });
})();
