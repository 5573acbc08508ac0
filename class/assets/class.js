// Polls the server: a student's page reloads when the class moves on
// (the instructor opened the run or revealed the answers); the
// instructor's panel is replaced with the live one.
(function () {
  var b = document.body, tick = b.getAttribute("data-tick"), panel = b.getAttribute("data-panel");
  function poll() {
    var url = panel ? panel : "/tick";
    fetch(url, {cache: "no-store", credentials: "same-origin"}).then(function (r) { return r.text(); }).then(function (t) {
      if (panel) { document.getElementById("panel").innerHTML = t; }
      else if (t.trim() !== tick) { location.replace("/"); return; }
      setTimeout(poll, 2000);
    }).catch(function () { setTimeout(poll, 4000); });
  }
  setTimeout(poll, 2000);
})();
