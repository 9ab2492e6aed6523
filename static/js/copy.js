// A button with data-copy="id" copies that field's text (a one-use link shown once) and says so.
"use strict";

document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-copy]");
  const field = button && document.getElementById(button.dataset.copy);
  if (!field) {
    return;
  }
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    button.textContent = "Copied";
  } catch {
    // No clipboard here (a plain-HTTP address): the link is selected, to copy by hand.
    button.textContent = "Selected: copy it";
  }
});
