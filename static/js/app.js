// The pages' few behaviours, kept out of the HTML so the Content-Security-Policy can forbid
// inline script (a name typed with markup in it can then never run).
"use strict";

// A form (or its submit button) with data-confirm asks before it is sent.
document.addEventListener("submit", (event) => {
  const message = (event.submitter && event.submitter.dataset.confirm) || event.target.dataset.confirm;
  if (message && !window.confirm(message)) {
    event.preventDefault();
  }
});

// A form with data-focus-after-swap="id" puts the cursor in that field once htmx has swapped in
// the answer to it (the next team's first name, after registering one).
document.addEventListener("htmx:afterSwap", (event) => {
  const source = event.detail.requestConfig && event.detail.requestConfig.elt;
  const id = source && source.dataset && source.dataset.focusAfterSwap;
  const field = id && document.getElementById(id);
  if (field) {
    field.focus();
  }
});

// A form with data-format-fields shows only the fieldsets of the chosen format (data-formats),
// and any fieldset with an error in it. Without this script every fieldset shows, labelled.
function showFormatFields(form) {
  const chosen = form.elements.format && form.elements.format.value;
  for (const group of form.querySelectorAll("fieldset[data-formats]")) {
    group.hidden = !group.dataset.formats.split(" ").includes(chosen) && !group.querySelector(".has-error");
  }
}
document.addEventListener("change", (event) => {
  const form = event.target.form;
  if (event.target.name === "format" && form && form.hasAttribute("data-format-fields")) {
    showFormatFields(form);
  }
});
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("form[data-format-fields]").forEach(showFormatFields);
});

// A new tournament's form: choosing a preset whose rule text names the final's rule set (the
// preset select's data-final-presets) fills in "Final's rule set", unless the director chose one.
// Each format with a final has its own "Final's rule set" field (its name ends in final_preset).
document.addEventListener("change", (event) => {
  const field = event.target;
  const form = field.form;
  if (!form) {
    return;
  }
  for (const final of form.querySelectorAll("[name$='final_preset']")) {
    if (field === final) {
      final.dataset.chosen = "true";
    } else if (field.name === "preset" && field.dataset.finalPresets && !final.dataset.chosen) {
      final.value = JSON.parse(field.dataset.finalPresets)[field.value] || "";
    }
  }
});

// The projector is read across a hall and never scrolled: a section marked data-fit whose long
// names wrap past the foot of the screen has its type (app.css's --fit) made smaller a step at a
// time until it fits, never below half size (the projector's pages keep a page's matches few).
function fitToScreen(root) {
  for (const section of root.querySelectorAll("[data-fit]")) {
    const bottom = () => Math.max(...[...section.children].map((child) => child.getBoundingClientRect().bottom));
    let scale = 1;
    section.style.removeProperty("--fit");
    while (bottom() > window.innerHeight && scale > 0.5) {
      scale -= 0.05;
      section.style.setProperty("--fit", scale.toFixed(2));
    }
  }
}
document.addEventListener("DOMContentLoaded", () => fitToScreen(document));
document.addEventListener("htmx:afterSwap", () => fitToScreen(document));
window.addEventListener("resize", () => fitToScreen(document));
