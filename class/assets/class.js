// Polls the server: a student's page reloads when the class moves on
// (the instructor opened the run or revealed the answers); the
// instructor's panel is replaced with the live one when it changed (a
// panel rebuilt every poll replaced the button under a click in flight).
(function () {
  var b = document.body, tick = b.getAttribute("data-tick"), panel = b.getAttribute("data-panel");
  // A student's page shown as the answer to a POST (/answer) takes the
  // address / : a reload, a phone restoring the tab or the back button
  // then asks for the page again instead of sending the answer twice.
  if (!panel && location.pathname !== "/" && window.history && history.replaceState) { history.replaceState(null, "", "/"); }
  // swap puts html in el unless el already shows it (both read back
  // through the browser's own serialiser, so markup spelled otherwise is
  // not taken for a change).
  function swap(el, html) {
    var fresh = document.createElement("div");
    fresh.innerHTML = html;
    if (fresh.innerHTML !== el.innerHTML) { el.innerHTML = fresh.innerHTML; }
  }
  function poll() {
    var url = panel ? panel : "/tick";
    fetch(url, {cache: "no-store", credentials: "same-origin"}).then(function (r) { return r.text(); }).then(function (t) {
      if (panel) { swap(document.getElementById("panel"), t); }
      else if (t.trim() !== tick) { location.replace("/"); return; }
      setTimeout(poll, 2000);
    }).catch(function () { setTimeout(poll, 4000); });
  }
  setTimeout(poll, 2000);
})();
