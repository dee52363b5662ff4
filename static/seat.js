// Seats: the round being entered is a draft that the players' phones and the scorekeeper's page fill together.
// Both follow GET /api/v1/series/<id>/draft with If-None-Match while the page is on screen (an unchanged
// draft is a 304 without a body): the round page every second, a seat every 4 s until a hand is sent, then
// every second until the save (docs/benchmarks.md, «Seats»).
(function () {
  "use strict";
  var SUIT_LETTER = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };
  var FAST_MS = 1000;  // the scorekeeper's round page, and a seat while a round is being entered
  var SEAT_IDLE_MS = 4000;  // a seat while no hand is sent yet: as often as the standings poll

  function code(card) {
    var letter = SUIT_LETTER[card.slice(-1)];
    return letter ? card.slice(0, -1) + letter : card;
  }
  function same(a, b) { return a.slice().sort().join() === b.slice().sort().join(); }

  // Follows the draft while `el` is on the page; `apply` gets each new draft and says how long to wait (ms).
  function follow(el, url, apply) {
    var etag = null, wait = FAST_MS;
    function next() { setTimeout(tick, wait); }
    function tick() {
      if (!document.contains(el)) return;  // another page was swapped in: stop
      if (document.visibilityState !== "visible") { next(); return; }
      var headers = { "Accept": "application/json" };
      if (etag) headers["If-None-Match"] = etag;
      fetch(url, { headers: headers, cache: "no-store" }).then(function (r) {
        if (r.status !== 200) return null;
        etag = r.headers.get("ETag");
        return r.json();
      }).then(function (draft) {
        if (draft && document.contains(el)) wait = apply(draft) || wait;
      }).catch(function () {}).then(next);
    }
    tick();
  }

  // -- the scorekeeper's round page: hands sent from seats appear in the grid; its own ticks go to the draft --
  function initEditor(box) {
    if (!box || box.dataset.ready) return;
    box.dataset.ready = "1";
    var form = document.getElementById("round-form");
    var players = JSON.parse(box.dataset.players || "[]");
    var seen = {}, timers = {}, applying = false;

    function inputs(i) { return form.querySelectorAll("input[name='hand-" + i + "']"); }
    function ticked(i) {
      return Array.prototype.filter.call(inputs(i), function (x) { return x.checked; }).map(function (x) { return x.value; });
    }
    function markTab(i, fromSeat) {
      var tab = form.querySelector("[data-tab='" + i + "']");
      if (!tab) return;
      var mark = tab.querySelector(".seat-mark");
      if (fromSeat && !mark) {
        mark = document.createElement("span");
        mark.className = "seat-mark";
        mark.textContent = " ✓";
        mark.title = box.dataset.fromSeat;
        mark.setAttribute("aria-label", box.dataset.fromSeat);
        tab.appendChild(mark);
      } else if (!fromSeat && mark) {
        mark.remove();
      }
    }
    players.forEach(function (p, i) { seen[p] = ticked(i); });

    follow(box, box.dataset.url, function (draft) {
      if (String(draft.round) !== box.dataset.round) return;
      var changed = null;
      Object.keys(draft.hands).forEach(function (name) {
        var i = players.indexOf(name);
        if (i < 0) return;
        var hand = draft.hands[name], codes = hand.cards.map(code);
        markTab(i, hand.by === "seat");
        if (same(seen[name] || [], codes)) return;
        seen[name] = codes;
        if (hand.by !== "seat") return;
        inputs(i).forEach(function (x) {
          x.checked = codes.indexOf(x.value) >= 0;
          if (x.checked) x.disabled = false;
        });
        var typed = form.querySelector("input[name='points-" + i + "']");
        if (typed) typed.value = "";
        changed = inputs(i)[0];
      });
      if (changed) {
        // greyed cards, tab points and the live preview follow as after a tap; this change is not sent back
        applying = true;
        changed.dispatchEvent(new Event("change", { bubbles: true }));
        applying = false;
      }
      return FAST_MS;
    });

    function send(i) {
      var body = new URLSearchParams();
      body.append("round", box.dataset.round);  // a tap that arrives after the save is not carried into the next round
      ticked(i).forEach(function (c) { body.append("card", c); });
      fetch(box.dataset.put + i, { method: "POST", body: body, headers: { "Accept": "application/json" } })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (hand) {
          if (!hand) return;
          seen[hand.player] = hand.cards.map(code);
          markTab(Number(i), false);
        }).catch(function () {});  // offline: the form still carries the grid when it is saved
    }
    form.addEventListener("submit", function () {  // the form carries the grid itself: nothing left to send
      Object.keys(timers).forEach(function (i) { clearTimeout(timers[i]); });
    });
    form.addEventListener("change", function (e) {
      var m = /^hand-(\d+)$/.exec(e.target.name || "");
      if (!m || applying) return;
      clearTimeout(timers[m[1]]);
      timers[m[1]] = setTimeout(function () { send(m[1]); }, 300);
    });
  }

  // -- a seat: its own hand as the draft holds it (the scorekeeper may tick it too), others' cards marked;
  //    a save or a confirmation anywhere refreshes its standings --
  function initSeat(seat) {
    if (!seat || seat.dataset.ready) return;
    seat.dataset.ready = "1";
    var me = seat.dataset.player;
    var form = document.getElementById("seat-form");
    var boxes = form ? form.querySelectorAll("input[name=card]") : [];
    var seen = form ? JSON.parse(form.dataset.sent || "[]") : [];  // the hand the draft holds, not unsent ticks
    follow(seat, seat.dataset.draft, function (draft) {
      if (String(draft.round) !== seat.dataset.round) {
        // a round was saved: show it to confirm, and start the next one from an empty grid (the new #seat
        // starts following the draft itself)
        seat.dataset.round = draft.round;
        if (window.htmx) window.htmx.ajax("GET", location.pathname, { target: "#seat", select: "#seat", swap: "outerHTML" });
        else window.location.reload();
        return FAST_MS;
      }
      if (draft.version !== seat.dataset.version) {
        seat.dataset.version = draft.version;
        var live = document.getElementById("seat-live");
        if (live && window.htmx) window.htmx.trigger(live, "seat-refresh");
      }
      var held = {};
      Object.keys(draft.hands).forEach(function (name) {
        if (name === me) return;
        draft.hands[name].cards.forEach(function (c) { held[code(c)] = name; });
      });
      boxes.forEach(function (x) {
        var label = x.closest("label");
        label.classList.toggle("held", !!held[x.value]);
        if (held[x.value]) label.title = held[x.value]; else label.removeAttribute("title");
      });
      var mine = draft.hands[me];
      var codes = mine ? mine.cards.map(code) : [];
      if (form && !same(seen, codes)) {
        seen = codes;
        boxes.forEach(function (x) { x.checked = codes.indexOf(x.value) >= 0; });
        var sent = document.getElementById("seat-sent");
        if (sent && mine) sent.textContent = form.dataset.inRound + " " + mine.cards.join(" ") + " = " + mine.points;
      }
      // a round is being entered once any hand is sent: then every second, so the save shows at once
      return Object.keys(draft.hands).length ? FAST_MS : SEAT_IDLE_MS;
    });
  }

  function init() {
    initEditor(document.getElementById("draft-live"));
    initSeat(document.getElementById("seat"));
  }
  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:load", init);

  // The seat's live area is not swapped while its player is writing a dispute.
  document.addEventListener("htmx:beforeSwap", function (e) {
    var t = e.detail.target;
    if (!t || t.id !== "seat-live") return;
    var note = t.querySelector("input[name=note]");
    if (t.querySelector("details[open]") || (note && note.value)) e.detail.shouldSwap = false;
  });
})();
