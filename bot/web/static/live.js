// A live game's page follows the game: it asks whether a move was stored, and when one
// was, puts the page's new game section in place of the old one (no reload, no flicker).
(function () {
  "use strict";
  function follow(section) {
    var every = Number(section.dataset.poll) || 5000;
    function look() {
      fetch(section.dataset.live, { cache: "no-store" })
        .then(function (answer) { return answer.ok ? answer.json() : null; })
        .then(function (now) {
          if (!now || (String(now.seq) === section.dataset.seq && now.status === section.dataset.status)) {
            setTimeout(look, every);
            return;
          }
          return fetch(location.href, { cache: "no-store" })
            .then(function (answer) { return answer.text(); })
            .then(function (html) {
              var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("game");
              if (!fresh) { setTimeout(look, every); return; }
              var placed = document.importNode(fresh, true);
              section.replaceWith(placed);
              if (placed.dataset.live) { section = placed; setTimeout(look, every); }
            });
        })
        .catch(function () { setTimeout(look, every); });
    }
    setTimeout(look, every);
  }
  var section = document.getElementById("game");
  if (section && section.dataset.live) { follow(section); }
})();
