// The replay player: previous and next, the slider and play move through the steps
// without reloading (the links and the form do the same without JavaScript).
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) { return; }
  var words = document.getElementById("words").dataset;
  var last = Number(root.dataset.last);
  var current = Number(root.dataset.step);
  var steps = null;
  var timer = null;
  var play = document.getElementById("play");
  var slider = document.getElementById("step");
  var go = document.getElementById("go");

  function swapLink(id, number) {
    var old = document.getElementById(id);
    var wanted = number >= 0 && number <= last;
    var made = document.createElement(wanted ? "a" : "span");
    made.id = id;
    made.className = wanted ? "button" : "button disabled";
    made.textContent = old.textContent;
    if (wanted) {
      made.href = "?step=" + number;
      made.addEventListener("click", function (event) { event.preventDefault(); stop(); show(number); });
    }
    old.replaceWith(made);
  }

  function show(number) {
    var step = steps[number];
    current = number;
    root.dataset.step = String(number);
    document.getElementById("picture").src = step.picture;
    document.getElementById("picture").alt = step.title;
    document.getElementById("step-title").textContent = step.title;
    document.getElementById("story").innerHTML = step.story;
    document.getElementById("summary").innerHTML = step.summary;
    document.getElementById("link").href = "?step=" + number;
    slider.value = String(number);
    swapLink("previous", number - 1);
    swapLink("next", number + 1);
    history.replaceState(null, "", "?step=" + number);
    preload(number + 1);
  }

  function preload(number) {
    if (number <= last) { new Image().src = steps[number].picture; }
  }

  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    play.textContent = words.play;
  }

  function start() {
    if (current >= last) { show(0); }
    play.textContent = words.pause;
    timer = setInterval(function () {
      if (current >= last) { stop(); return; }
      show(current + 1);
    }, 1200);
  }

  fetch(root.dataset.steps)
    .then(function (answer) { return answer.json(); })
    .then(function (loaded) {
      steps = loaded;
      play.hidden = false;
      go.hidden = true;
      slider.addEventListener("input", function () { stop(); show(Number(slider.value)); });
      play.addEventListener("click", function () { if (timer === null) { start(); } else { stop(); } });
      swapLink("previous", current - 1);
      swapLink("next", current + 1);
      preload(current + 1);
    });
})();
