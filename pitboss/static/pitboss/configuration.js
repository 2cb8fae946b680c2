// The configuration form (templates/compliance/configuration_form.html).
//
// - A side wager's paytable list offers the chosen wager's paytables only, at once, with no trip
//   to the server. Each group of the list is labelled as the wager list names its wager
//   (compliance/forms/configuration.py); a paytable of another wager, chosen before, is let go.
//   Without a wager, every group shows.
// - Choosing a jurisdiction reloads the form with its catalog (htmx). What is typed while that
//   reload is on its way is put back into the new form; a reload that comes back while a click
//   is under way (the pointer down on Validate, say) waits for the click to end, so the click is
//   not lost with the old form (a submit then leaves the page with what the form holds).
(function () {
  "use strict";

  var reload = null; // {sent: values when it left, typed: changed since, held: a swap waiting}

  function values(form) {
    var found = {};
    for (var i = 0; i < form.elements.length; i++) {
      var field = form.elements[i];
      if (!field.name || field.type === "submit" || field.type === "file") continue;
      if (field.type === "checkbox" || field.type === "radio") {
        found[field.name + "=" + field.value] = field.checked;
      } else if (field.multiple) {
        found[field.name] = Array.prototype.map.call(field.selectedOptions, function (o) {
          return o.value;
        }).join("\n");
      } else {
        found[field.name] = field.value;
      }
    }
    return found;
  }

  function putBack(form, typed) {
    for (var key in typed) {
      var at = key.indexOf("="); // a checkbox or radio button: name=value
      if (at > 0) {
        var box = form.querySelector(
          'input[name="' + CSS.escape(key.slice(0, at)) + '"][value="' +
            CSS.escape(key.slice(at + 1)) + '"]'
        );
        if (box) box.checked = typed[key];
        continue;
      }
      var field = form.querySelector('[name="' + CSS.escape(key) + '"]');
      if (!field) continue;
      if (field.multiple) {
        var chosen = typed[key].split("\n");
        for (var j = 0; j < field.options.length; j++) {
          field.options[j].selected = chosen.indexOf(field.options[j].value) >= 0;
        }
      } else {
        field.value = typed[key];
      }
    }
  }

  function configurationForm() {
    return document.querySelector("form.configuration");
  }

  var pressed = false; // a mouse button or finger is down: a click is under way
  var leaving = false; // the form was submitted: the page is on its way out

  document.addEventListener("pointerdown", function () { pressed = true; }, true);
  document.addEventListener(
    "pointerup",
    function () {
      pressed = false;
      var held = reload && reload.held;
      if (!held) return;
      reload.held = null;
      // after the click this pointer makes: a submit leaves the page, nothing to swap
      setTimeout(function () {
        if (!leaving) {
          htmx.swap(held.target, held.html, { swapStyle: "outerHTML" }, {
            select: "form.configuration",
          });
        }
      }, 0);
    },
    true
  );
  document.addEventListener(
    "submit",
    function (event) {
      if (event.target === configurationForm()) leaving = true;
    },
    true
  );

  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = configurationForm();
    if (form && form.contains(event.detail.elt)) {
      reload = { sent: values(form), typed: {}, held: null };
    }
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var form = configurationForm();
    if (!reload || !form) return;
    var now = values(form);
    for (var key in now) {
      if (now[key] !== reload.sent[key]) reload.typed[key] = now[key];
    }
    if (pressed) {
      // a click under way on the old form (Validate, say) would be lost with it: the new form
      // waits for the pointer to come up
      event.detail.shouldSwap = false;
      reload.held = { target: event.detail.target, html: event.detail.serverResponse };
    }
  });

  document.addEventListener("htmx:afterSettle", function () {
    var form = configurationForm();
    if (!reload || reload.held || !form) return;
    var typed = reload.typed;
    reload = null;
    putBack(form, typed);
    narrowAll(form);
  });

  ["htmx:responseError", "htmx:sendError"].forEach(function (name) {
    document.addEventListener(name, function () { reload = null; });
  });

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
