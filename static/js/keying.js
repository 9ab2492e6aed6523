// The keying page (tournament/keying): Enter saves a row's hand without leaving the page; the grid
// comes back from the server and the cursor goes where it says (the next row, or the box it found
// wrong). Without this script each row's form posts on its own and the page comes back the same way.
"use strict";

(function () {
  function focusIn(root) {
    const box = root.querySelector("[autofocus]");
    if (box) {
      box.focus();
      if (box.select) {
        box.select();
      }
    }
  }

  function say(text) {
    const sheet = document.getElementById("keying-sheet");
    const line = document.createElement("p");
    line.className = "message error";
    line.setAttribute("role", "alert");
    line.textContent = text;
    sheet.prepend(line);
  }

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (event.defaultPrevented || !form.matches("form[data-keying]")) {
      return;
    }
    event.preventDefault();
    if (form.dataset.sending) {
      return; // Enter pressed twice: the first is on its way
    }
    form.dataset.sending = "true";
    let response;
    try {
      response = await fetch(form.action, {
        method: "POST",
        body: new FormData(form),
        headers: { "HX-Request": "true" },
        credentials: "same-origin",
      });
    } catch (error) {
      delete form.dataset.sending;
      say("Not saved: the server did not answer. Press Enter again.");
      return;
    }
    const text = await response.text();
    if (response.status !== 200 && response.status !== 422) {
      delete form.dataset.sending;
      say(`Not saved (${response.status}): ${text.replace(/<[^>]*>/g, " ").trim().slice(0, 200)}`);
      return;
    }
    const fresh = document.createRange().createContextualFragment(text).getElementById("keying-sheet");
    document.getElementById("keying-sheet").replaceWith(fresh);
    focusIn(fresh);
  });

  // Enter on the misdeal box saves too: a select does not send its form by itself.
  document.addEventListener("keydown", (event) => {
    const field = event.target;
    if (event.key === "Enter" && field.matches("#keying-sheet select") && field.form) {
      event.preventDefault();
      field.form.requestSubmit();
    }
  });
})();
