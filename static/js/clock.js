// Counts every [data-clock] down from the seconds the page was sent (data-remaining), so a phone
// whose own clock is wrong still counts right. Paused clocks stand still. htmx swaps bring new
// elements with fresh figures; they are picked up on the next tick.
(function () {
  "use strict";
  function show(el, left) {
    if (left <= 0) {
      el.textContent = "Time: finish this hand";
      el.classList.add("clock-up");
      document.querySelectorAll("[data-time-notice]").forEach(function (notice) { notice.hidden = false; });
    } else {
      const minutes = Math.floor(left / 60);
      const seconds = String(left % 60).padStart(2, "0");
      el.textContent = minutes + ":" + seconds + (el.dataset.running ? "" : " (paused)");
    }
  }
  function tick() {
    const now = Date.now();
    document.querySelectorAll("[data-clock]").forEach(function (el) {
      if (!el.dataset.running) return;
      if (!el.clockEnd) el.clockEnd = now + Number(el.dataset.remaining) * 1000;
      show(el, Math.round((el.clockEnd - now) / 1000));
    });
  }
  setInterval(tick, 1000);
  document.addEventListener("DOMContentLoaded", tick);
})();
