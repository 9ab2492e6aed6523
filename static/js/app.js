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
