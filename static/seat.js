// Seats: the round being entered is a draft that the players' phones and the scorekeeper's page fill together.
// Both follow GET /api/v1/series/<id>/draft with If-None-Match while the page is on screen (an unchanged
// draft is a 304 without a body): the server pushes each new draft whole (`Live` in static/app.js), and
// otherwise the round page every second while hands are missing, then every 1.5 s; a seat every 4 s until a
// hand is sent, then every second, every 1.5 s once its own is in, until the save; while a pushed stream is
// open these waits stretch to the safety net of `Live` (docs/benchmarks.md, «Seats»).
(function () {
  "use strict";
  var SUIT_LETTER = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };
  var FAST_MS = 1000;  // the scorekeeper's round page while hands are missing, a seat while a round is entered
  var SEAT_IDLE_MS = 4000;  // a seat while no hand is sent yet: as often as the standings poll
  var SENT_MS = 1500;  // a seat whose own hand is in the draft, and the round page once every hand is in

  function code(card) {
    var letter = SUIT_LETTER[card.slice(-1)];
    return letter ? card.slice(0, -1) + letter : card;
  }
  function same(a, b) { return a.slice().sort().join() === b.slice().sort().join(); }

  // Follows the draft while `el` is on the page; `apply` gets each new draft and says how long to wait (ms).
  // The handle's soon(ms) sets the wait from now (a hand just sent: the round is being entered).
  // A draft pushed whole (`Live`: the page's stream asked ?draft=1) is taken as a fetched one, with its ETag; an
  // answer on its way meanwhile is older, and dropped.
  function follow(el, url, apply) {
    var etag = null, wait = FAST_MS, taken = 0;
    function take(draft) {
      if (draft && document.contains(el)) wait = apply(draft) || wait;
    }
    var follower = Live.follow(el, function () {  // pushed changes and the pace: `Live` in static/app.js
      var headers = { "Accept": "application/json" }, asked = taken;
      if (etag) headers["If-None-Match"] = etag;
      return fetch(url, { headers: headers, cache: "no-store" }).then(function (r) {
        if (r.status !== 200 || asked !== taken) return null;
        etag = r.headers.get("ETag");
        return r.json();
      }).then(function (draft) {
        if (asked === taken) take(draft);
      }).catch(function () {});
    }, function () { return wait; }, function (draft, id) {
      taken += 1;
      etag = id || etag;
      take(draft);
    });
    follower.now();
    return { soon: function (ms) { wait = ms; follower.later(); } };
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
      // every second while hands are missing (all but the winner's); once they are in, 1.5 s (a seat that
      // sends its hand again still shows within 2 s)
      var inPlay = form.querySelectorAll("button[data-tab]").length || players.length;
      return Object.keys(draft.hands).length >= inPlay - 1 ? SENT_MS : FAST_MS;
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
  //    «Send» and «Right» / «Not right» answered in place (no whole page); a save starts the next round's grid
  //    and refreshes the live part, a confirmation anywhere refreshes it (a 304 when it shows nothing new) --
  function initSeat(seat) {
    if (!seat || seat.dataset.ready) return;
    seat.dataset.ready = "1";
    var me = seat.dataset.player;
    var form = document.getElementById("seat-form");
    var boxes = form ? form.querySelectorAll("input[name=card]") : [];
    var seen = form ? JSON.parse(form.dataset.sent || "[]") : [];  // the hand the draft holds, not unsent ticks
    var refreshing = false;

    function sentLine(text) {
      var sent = document.getElementById("seat-sent");
      if (sent) sent.textContent = text;
    }
    function alertIn(box, before, text) {  // the error of an answer (or of no answer) where the tap was
      var old = box.querySelector(":scope > .error");
      if (old) old.remove();
      if (!text) return;
      var p = document.createElement("p");
      p.className = "error";
      p.setAttribute("role", "alert");
      p.textContent = text;
      before.before(p);
    }
    function showError(text) { alertIn(form, document.getElementById("seat-sent"), text); }
    function wholeSeat() {  // what the live part cannot carry (the player left, the series ended): the seat again
      if (window.htmx) window.htmx.ajax("GET", location.pathname, { target: "#seat", select: "#seat", swap: "outerHTML" });
      else window.location.reload();
    }
    // The live part as the server has it now: `answer` is a fetch of it (a refresh, or a confirmation's answer).
    // Resolves to false when the answer was not a live part (a renewed seat's 403, a rate limit: the caller decides).
    function putLive(answer) {
      return answer.then(function (r) {
        if (r.status === 304) return true;
        if (r.status !== 200 && r.status !== 422) return false;
        return r.text().then(function (html) {
          var live = document.getElementById("seat-live");
          var box = document.createElement("div");
          box.innerHTML = html.trim();
          var fresh = box.firstElementChild;
          if (!live || !fresh || fresh.id !== "seat-live") return false;
          live.replaceWith(fresh);
          if (window.htmx) window.htmx.process(fresh);
          seat.dataset.version = fresh.dataset.version;
          if ((fresh.dataset.inPlay === "1") !== !!form) wholeSeat();
          return true;
        });
      });
    }
    function refreshLive(version) {
      var live = document.getElementById("seat-live");
      if (!live || refreshing || version === seat.dataset.version) return;
      var note = live.querySelector("input[name=note]");
      if (live.querySelector("details[open]") || (note && note.value)) {  // the player is writing a dispute
        setTimeout(function () { refreshLive(version); }, 2000);
        return;
      }
      refreshing = true;
      putLive(fetch(live.dataset.url, { cache: "no-store", headers: {
        "HX-Request": "true", "HX-Target": "seat-live", "If-None-Match": live.dataset.etag } }))
        .then(function (put) { if (put) seat.dataset.version = version; })
        .catch(function () {}).then(function () { refreshing = false; });
    }
    function newRound(n) {  // a save: this round's grid empties for the next one
      seat.dataset.round = n;
      if (!form) return;
      form.querySelector("input[name=round]").value = n;
      document.getElementById("seat-title").textContent = form.dataset.title.replace("{n}", n);
      boxes.forEach(function (x) { x.checked = false; });
      seen = [];
      showError(null);
      sentLine(form.dataset.hint);
    }

    var follower = follow(seat, seat.dataset.draft, function (draft) {
      if (String(draft.round) !== seat.dataset.round) newRound(String(draft.round));
      refreshLive(draft.version);
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
        if (mine) sentLine(form.dataset.inRound + " " + mine.cards.join(" ") + " = " + mine.points);
      }
      // a round is being entered once any hand is sent: every second, so the save shows at once; a seat whose
      // own hand is in waits a little longer (still within the 2 s a save takes to show)
      return mine ? SENT_MS : Object.keys(draft.hands).length ? FAST_MS : SEAT_IDLE_MS;
    });

    if (form) form.addEventListener("submit", function (e) {
      if (!window.fetch) return;  // the form posts itself
      e.preventDefault();
      var body = new URLSearchParams(new FormData(form));
      fetch(form.action, { method: "POST", body: body, headers: { "Accept": "application/json" } })
        .then(function (r) {
          if ((r.headers.get("Content-Type") || "").indexOf("json") < 0) return null;  // a page (403, 429)
          return r.json().then(function (hand) { return { ok: r.ok, hand: hand }; });
        }).then(function (answer) {
          if (!answer) { form.submit(); return; }  // the plain form post shows the server's page
          if (!answer.ok) { showError(answer.hand.error); return; }
          showError(null);
          seen = answer.hand.cards.map(code);
          sentLine(answer.hand.text);
          follower.soon(answer.hand.cards.length ? SENT_MS : FAST_MS);
        }).catch(function () { showError(seat.dataset.offline); });  // no answer: nothing sent, say so
    });
    seat.addEventListener("submit", function (e) {  // «Right», «Not right», «Withdraw the dispute»
      var confirmForm = e.target;
      if (!confirmForm.closest("#seat-live") || !window.fetch) return;
      e.preventDefault();
      var body = new URLSearchParams(new FormData(confirmForm));
      if (e.submitter && e.submitter.name) body.set(e.submitter.name, e.submitter.value);
      putLive(fetch(confirmForm.action, { method: "POST", body: body,
        headers: { "HX-Request": "true", "HX-Target": "seat-live" } }))
        .then(function (put) { if (!put) confirmForm.submit(); })  // the plain form post shows the server's page
        .catch(function () { alertIn(confirmForm.parentNode, confirmForm, seat.dataset.offline); });
    });
  }

  function init() {
    initEditor(document.getElementById("draft-live"));
    initSeat(document.getElementById("seat"));
  }
  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:load", init);

})();
