// Live: how a page that follows a series (the standings, the round page's draft, a seat) learns of changes.
// Where the server pushes (an element with data-events: the events server, companion/ops/servers/events.py),
// one stream per page says "changed" the moment a write is stored (a reader's standings and the draft come
// whole instead: `standings` below, and a follower's `take`), and every follower asks at once, or, if
// it asked less than its own pace ago, when that pace is up: a burst of changes (three hands, then the
// confirmations) costs each phone at most what polling did, and a quiet table nothing. Whenever the stream
// opens (again) every follower asks once: what changed while it was closed or opening. While it is open the
// followers poll only as a safety net (SAFETY_MS: a lost datagram); without one (none offered, or broken: the
// browser opens it again by itself) they poll at their own pace, as before. The server pings the stream every
// few seconds (the ping's data: seconds until the next); a stream that stays silent for 2.5 pings is dead
// though it looks open (a phone's Wi-Fi dropped without the connection being closed): it is opened again.
// Followers: the standings (#live, htmx's "live" trigger, every 4 s without a stream) and static/seat.js's
// draft (`Live.follow`).
(function () {
  "use strict";
  var STANDINGS_MS = 4000;  // the standings' pace
  var SAFETY_MS = 120000;  // any follower's pace while the stream is open, on average: each wait is drawn from
  // half to one and a half of it, so phones that opened (or whose streams reopened) in the same minute do not
  // keep polling in the same minute every two minutes after (docs/benchmarks.md, «The safety net's waves»)
  var QUIET_PINGS = 2.5;  // pings missed before a silent stream is taken for dead
  var source = null, sourceUrl = null, open = false, watchdog = null;
  var followers = [];  // {el, pushed, later, check}: dropped once el has left the page

  function each(what) {
    followers = followers.filter(function (f) { return document.contains(f.el); });
    followers.forEach(function (f) { f[what](); });
  }
  function changed() {
    if (document.visibilityState === "visible") each("pushed");  // a hidden page asks when it is shown again
  }
  function state(now) {  // <html data-pushed="open"> while the stream is open (and for tests)
    open = now;
    if (now) document.documentElement.setAttribute("data-pushed", "open");
    else document.documentElement.removeAttribute("data-pushed");
  }
  function connect() {
    var el = document.querySelector("[data-events]");
    var url = el ? el.dataset.events : null;
    if (url && url.charAt(0) === ":") url = location.protocol + "//" + location.hostname + url;  // ":<port>/events/…"
    if (url === sourceUrl) return;
    if (source) source.close();
    clearTimeout(watchdog);
    source = null; sourceUrl = url;
    state(false);
    if (!url || !window.EventSource) return;
    source = new EventSource(url);
    source.onopen = function () {
      state(true);
      each("check");  // what changed while it was closed or opening; the polls then stretch to the safety net
    };
    source.onmessage = changed;
    source.addEventListener("standings", function (e) { standings(e.data); });
    source.addEventListener("draft", function (e) {  // the draft whole: its followers take it without asking
      var draft;
      try { draft = JSON.parse(e.data); } catch (err) { return; }
      followers.forEach(function (f) { if (f.take && document.contains(f.el)) f.take(draft, e.lastEventId); });
    });
    source.addEventListener("ping", function (e) {  // alive; the next ping within e.data seconds
      var seconds = Math.min(Math.max(parseFloat(e.data) || 15, 0.2), 60);
      clearTimeout(watchdog);
      watchdog = setTimeout(function () {  // silent too long: dead though it looks open
        sourceUrl = null;
        if (open) { state(false); changed(); }  // the followers go back to their own pace meanwhile
        connect();
      }, seconds * QUIET_PINGS * 1000);
    });
    source.onerror = function () {
      clearTimeout(watchdog);  // the browser opens it again by itself
      if (!open) return;
      state(false);  // the followers go back to their own pace until it opens again
      changed();
    };
  }

  // A reader's standings pushed whole (the page's stream asked ?live=<language>): swapped in as a poll's answer
  // would be, without asking; only a newer version than the one on screen (a poll's answer may have passed it).
  function standings(html) {
    var now = document.getElementById("live");
    var made = document.createElement("template");
    made.innerHTML = html;
    var next = made.content.firstElementChild;
    if (!now || !next || next.id !== "live" || !newer(next.dataset.version, now.dataset.version)) return;
    htmx.swap(now, html, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 20 });
  }
  function newer(a, b) {  // versions "12" or "12.3" (a series' version, then its confirmations)
    var x = String(a || "").split(".").map(Number), y = String(b || "").split(".").map(Number);
    return (x[0] || 0) !== (y[0] || 0) ? (x[0] || 0) > (y[0] || 0) : (x[1] || 0) > (y[1] || 0);
  }

  // ask() (may return a promise) now and then every pace() ms, stretched to SAFETY_MS while the stream is
  // open, as long as el is on the page; a pushed change asks at once or when pace() is up since the last ask.
  // The handle: now() asks at once, later() waits pace() again from now. One ask at a time: a change pushed
  // while one is on its way is asked about when it is back (an older answer never lands after a newer one).
  // check() (the stream opened) asks at once without counting as an ask for the pace: a change pushed right
  // after it is asked about at once too. take(data, etag), if given, gets the draft pushed whole (the stream's
  // `draft` event) instead of an ask.
  function follow(el, ask, pace, take) {
    var timer = null, last = 0, asking = false, again = false;
    function later() {
      clearTimeout(timer);
      if (document.contains(el)) timer = setTimeout(run, open ? Math.max(pace(), SAFETY_MS * (0.5 + Math.random())) : pace());
    }
    function pushed() {
      clearTimeout(timer);
      if (asking) { again = true; return; }
      timer = setTimeout(run, Math.max(0, last + pace() - Date.now()));
    }
    function done() {
      asking = false;
      if (again) { again = false; pushed(); } else later();
    }
    function run(check) {
      clearTimeout(timer);
      if (!document.contains(el)) return;  // another page was swapped in: stop
      if (document.visibilityState !== "visible") { later(); return; }
      if (asking) { again = true; return; }
      asking = true;
      if (check !== true) last = Date.now();
      Promise.resolve(ask()).then(done, done);
    }
    followers.push({ el: el, later: later, pushed: pushed, check: function () { run(true); }, take: take });
    return { now: run, later: function () { if (!asking) later(); } };
  }
  window.Live = { follow: follow };

  // the standings: htmx asks (hx-trigger="live") when told, never by itself; the follower belongs to the
  // element around #live, which a swap of #live (outerHTML) keeps
  function init() {
    connect();
    var live = document.getElementById("live");
    var around = live && live.parentElement;
    if (!around || around.dataset.followed) return;
    around.dataset.followed = "1";
    follow(around, function () {
      var now = document.getElementById("live");
      if (now) htmx.trigger(now, "live");
    }, function () { return STANDINGS_MS; }).later();
  }
  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:afterSettle", init);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") changed();
  });
})();

// Small upgrades on top of pages that work without JavaScript.
(function () {
  "use strict";

  // -- round entry: tabs per player, greyed cards, moving on after the finishing card --
  function initRound(form) {
    if (!form || form.dataset.ready) return;
    form.dataset.ready = "1";
    var tabs = form.querySelectorAll("[data-tab]");
    var panels = form.querySelectorAll("[data-panel]");

    function winner() {
      var w = form.querySelector("input[name=winner]:checked");
      return w ? w.value : null;
    }
    function show(i) {
      var key = String(i) === winner() ? "finish" : "p" + i;
      panels.forEach(function (p) { p.classList.toggle("active", p.dataset.panel === key); });
      tabs.forEach(function (t) { t.setAttribute("aria-selected", t.dataset.tab === String(i) ? "true" : "false"); });
    }
    function current() {
      var t = form.querySelector("[data-tab][aria-selected=true]");
      return t ? t.dataset.tab : (tabs[0] && tabs[0].dataset.tab);
    }
    function grey() {
      var used = {};
      form.querySelectorAll(".cards input:checked").forEach(function (input) {
        used[input.value] = input.name;
      });
      form.querySelectorAll(".cards input").forEach(function (input) {
        input.disabled = !input.checked && !!used[input.value] && used[input.value] !== input.name;
      });
    }
    function nextEmpty() {
      var w = winner();
      for (var k = 0; k < tabs.length; k++) {
        var i = tabs[k].dataset.tab;
        if (i === w) continue;
        var hasCards = form.querySelector("input[name='hand-" + i + "']:checked");
        var typed = form.querySelector("input[name='points-" + i + "']");
        if (!hasCards && !(typed && typed.value)) return i;
      }
      return null;
    }
    tabs.forEach(function (t) { t.addEventListener("click", function () { show(t.dataset.tab); }); });
    // a winner whose hand still has cards ticked: offer to clear them, in one tap
    function offerClear() {
      var w = winner();
      form.querySelectorAll(".clear-hand").forEach(function (p) {
        var i = p.dataset.clear;
        var typed = form.querySelector("input[name='points-" + i + "']");
        var has = form.querySelector("input[name='hand-" + i + "']:checked") || (typed && typed.value);
        p.hidden = !(i === w && has);
      });
    }
    form.querySelectorAll(".clear-hand button").forEach(function (b) {
      b.addEventListener("click", function (e) {
        e.preventDefault();
        var i = b.closest(".clear-hand").dataset.clear;
        var last = null;
        form.querySelectorAll("input[name='hand-" + i + "']:checked").forEach(function (input) { input.checked = false; last = input; });
        var typed = form.querySelector("input[name='points-" + i + "']");
        if (typed) typed.value = "";
        (last || typed).dispatchEvent(new Event("change", { bubbles: true }));
      });
    });
    form.addEventListener("change", function (e) {
      var el = e.target;
      offerClear();
      if (el.name === "winner") show(el.value);
      else if (el.name === "finishing_card") { var n = nextEmpty(); if (n !== null) show(n); }
      grey();
    });
    show(current());
    grey();
    offerClear();
  }

  // -- the dictation block: opening it puts the caret in its field, so the keyboard's microphone is one tap away --
  document.addEventListener("toggle", function (e) {
    var block = e.target;
    if (block.id !== "say-block" || !block.open) return;
    var box = block.querySelector("#say");
    if (box && document.activeElement !== box) box.focus();
  }, true);

  // -- local times in the correction history --
  function localTimes(root) {
    root.querySelectorAll("time.local").forEach(function (t) {
      var d = new Date(t.getAttribute("datetime"));
      if (!isNaN(d)) t.textContent = d.toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" });
    });
  }

  // -- start page: the starter list follows the names typed --
  function initStart(form) {
    if (!form) return;
    // the house-rules form shows the chosen preset's own values
    form.addEventListener("change", function (e) {
      if (e.target.name !== "ruleset") return;
      var id = e.target.value;
      form.querySelectorAll("[data-presets]").forEach(function (field) {
        var value = JSON.parse(field.dataset.presets)[id];
        if (value === undefined) return;
        if (field.tagName === "SELECT") field.options[0].textContent = form.dataset.asSet + ": " + value;
        else field.placeholder = value;
      });
    });
    form.addEventListener("input", function () {
      var names = form.querySelectorAll("input[name=name]");
      var options = form.querySelectorAll("#starter option");
      names.forEach(function (input, i) {
        if (options[i + 1]) options[i + 1].textContent = input.value.trim() || input.placeholder;
      });
    });
  }

  // -- a refused form: scroll to its first error and focus the field it is about --
  function firstError(root) {
    var err = root.querySelector("[data-first-error]");
    if (!err || err.dataset.shown) return;
    err.dataset.shown = "1";
    var field = document.querySelector("[autofocus]") || err;
    err.scrollIntoView({ block: "center" });
    field.focus({ preventScroll: true });
  }

  // -- a round just saved: its undo works in one tap for a few seconds, then asks first again --
  function undoBar(root) {
    root.querySelectorAll("form.undo[data-one-tap]").forEach(function (form) {
      if (form.dataset.timer) return;
      form.dataset.timer = "1";
      setTimeout(function () {
        form.setAttribute("hx-confirm", form.dataset.confirm);
        form.removeAttribute("data-one-tap");
        form.classList.remove("just-saved");
      }, 1000 * Number(form.dataset.oneTap));
      if (/[?&]saved=/.test(location.search)) {
        // the second tap of a double tap on «Save» lands here: for a moment, taps on this new page do nothing
        settle(700);
        if (history.replaceState) history.replaceState(history.state, "", location.pathname);
      }
    });
  }

  function init(root) {
    initRound(document.getElementById("round-form"));
    initStart(document.getElementById("start-form"));
    localTimes(root || document);
    firstError(document);
    undoBar(document);
  }

  // A double tap on «Save»: its second tap lands on the page that follows. From the submit until a moment
  // after the new page is on screen, taps on links and buttons do nothing (pages reached by a plain
  // navigation get the same moment from undoBar).
  var settleTimer = null;
  function settle(ms) {
    var root = document.documentElement;
    root.classList.add("settling");
    clearTimeout(settleTimer);
    settleTimer = setTimeout(function () { root.classList.remove("settling"); }, ms);
  }
  document.addEventListener("submit", function (e) {
    if (e.target && e.target.id === "round-form") settle(5000);
  }, true);
  document.addEventListener("htmx:afterSettle", function () {
    if (document.documentElement.classList.contains("settling")) settle(700);
  });

  // A new page starts at its top (boosted pages would keep the old scroll: scrollIntoViewOnBoost is off);
  // a form answered in place (not redirected) keeps its place, and firstError shows the error.
  document.addEventListener("htmx:afterSettle", function (e) {
    var d = e.detail;
    if (!d.boosted || !d.xhr) return;
    var path = function (url) { return new URL(url, location.href).pathname; };
    var rerendered = d.requestConfig && d.requestConfig.verb !== "get" && d.xhr.responseURL &&
      path(d.xhr.responseURL) === path(d.pathInfo.requestPath);  // answered in place, not redirected
    if (!rerendered && !document.querySelector("[data-first-error]")) window.scrollTo(0, 0);
  });

  document.addEventListener("DOMContentLoaded", function () { init(document); });
  document.addEventListener("htmx:load", function (e) { init(e.target); });

  // A poll whose standings have the same version (a revalidated 304 the browser hands over
  // as 200) changes nothing on screen, so open folds and the scroll position stay.
  document.addEventListener("htmx:beforeSwap", function (e) {
    var target = e.detail.target;
    if (!target || target.id !== "live" || !e.detail.xhr || e.detail.xhr.status !== 200) return;
    var match = /data-version="([\d.]+)"/.exec(e.detail.serverResponse || "");
    if (match && match[1] === target.dataset.version) e.detail.shouldSwap = false;
  });

  // The standings poll only while the page is on screen (a filter in hx-trigger would need eval,
  // which the Content-Security-Policy forbids).
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (e.detail.elt && e.detail.elt.id === "live" && document.visibilityState !== "visible") e.preventDefault();
  });

  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    window.addEventListener("load", function () { navigator.serviceWorker.register("/sw.js").catch(function () {}); });
  }
})();
