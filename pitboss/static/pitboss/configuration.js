// The configuration form (templates/compliance/configuration_form.html): a side wager's paytable
// list offers the chosen wager's paytables only, at once, with no trip to the server. Each group
// of the list is labelled as the wager list names its wager (compliance/forms/configuration.py);
// a paytable of another wager, chosen before, is let go. Without a wager, every group shows.
(function () {
  "use strict";

  function narrow(wager) {
    var prefix = wager.name.slice(0, -"wager".length);
    var paytable = wager.form && wager.form.elements[prefix + "paytable"];
    if (!paytable) return;
    var chosen = wager.selectedOptions.length ? wager.selectedOptions[0].text : "";
    var groups = paytable.querySelectorAll("optgroup");
    for (var i = 0; i < groups.length; i++) {
      var shown = !wager.value || groups[i].label === chosen;
      groups[i].hidden = !shown;
      groups[i].disabled = !shown;
    }
    var picked = paytable.selectedOptions.length ? paytable.selectedOptions[0] : null;
    if (picked && picked.parentElement.disabled) paytable.value = "";
  }

  function narrowAll(root) {
    var wagers = root.querySelectorAll("select[name$='-wager']");
    for (var i = 0; i < wagers.length; i++) narrow(wagers[i]);
  }

  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches("select[name$='-wager']")) {
      narrow(event.target);
    }
  });
  document.addEventListener("DOMContentLoaded", function () { narrowAll(document); });
  document.addEventListener("htmx:afterSwap", function (event) { narrowAll(event.target); });
})();
