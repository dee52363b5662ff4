// Nothing lost to the network (issue 21), on plain HTTP and without a service worker:
// - a round whose save failed for the network waits in localStorage with its idempotency key and is sent by itself
//   (on load, on `online`, and again with back-off), so the server records it once however often it is sent;
// - what is refused on the fresh state (409, 422) waits for the table to enter it again or drop it;
// - the taps of the round page survive a reload or an accidental back until the round is saved or cleared;
// - the standings say when they were last updated, and that the connection is gone.
(function () {
  "use strict";
  var QUEUE = "companion.rounds-to-send";
  var DRAFT = "companion.round-draft:";  // + the form's action
  var KEPT = /^(winner|finishing_card|hand-\d+|points-\d+)$/;  // the taps; the dictation keeps its own field
  var RETRY_MS = [1000, 2000, 4000, 8000, 15000, 30000];
  var sending = false, failures = 0, retryTimer = null;

  function read(key, fallback) {
    try { return JSON.parse(localStorage.getItem(key)) || fallback; } catch (e) { return fallback; }
  }
  function write(key, value) {
    try {
      if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(value));
    } catch (e) { /* storage full or off: the page still works, it only forgets */ }
  }
  function queue() { return read(QUEUE, []); }
  function region() { return document.getElementById("offline"); }
  function text(name, values) {
    var box = region(), s = (box && box.dataset[name]) || "";
    Object.keys(values || {}).forEach(function (k) { s = s.split("{" + k + "}").join(values[k]); });
    return s;
  }
  function seriesOfPage() {
    var m = /^\/series\/([^/]+)/.exec(location.pathname);
    return m ? m[1] : null;
  }

  // -- the round form: what it holds, as a draft and as a round to send --
  function roundForm() { return document.getElementById("round-form"); }
  function taps(form) {
    var kept = [];
    new FormData(form).forEach(function (value, name) { if (KEPT.test(name) && value !== "") kept.push([name, value]); });
    return kept;
  }
  function summary(form, entries) {
    // the round in one line, as the page shows it: «Аня: Д♥ · Борис: Т♠ К♠ · Вера: 17»
    var names = {};
    form.querySelectorAll("[data-tab]").forEach(function (t) { names[t.dataset.tab] = t.querySelector(".tab-name").textContent; });
    var cardText = function (name, code) {
      var input = form.querySelector("input[name='" + name + "'][value='" + code + "']");
      return input ? input.nextElementSibling.textContent : code;
    };
    var parts = {}, order = [];
    function add(i, t) { if (!parts[i]) { parts[i] = []; order.push(i); } parts[i].push(t); }
    entries.forEach(function (e) {
      var m;
      if (e[0] === "finishing_card") {
        var w = entries.filter(function (x) { return x[0] === "winner"; })[0];
        if (w) add(w[1], cardText("finishing_card", e[1]));
      } else if ((m = /^hand-(\d+)$/.exec(e[0]))) add(m[1], cardText(e[0], e[1]));
      else if ((m = /^points-(\d+)$/.exec(e[0]))) add(m[1], e[1]);
    });
    return order.map(function (i) { return (names[i] || "?") + ": " + parts[i].join(" "); }).join(" · ");
  }

  function saveDraft(form) {
    var kept = taps(form);
    write(DRAFT + form.getAttribute("action"), kept.length ? { version: form.elements.version.value, entries: kept } : null);
  }
  function fill(form, entries) {
    form.querySelectorAll("input[name=winner], input[name=finishing_card], .cards input").forEach(function (input) {
      input.checked = entries.some(function (e) { return e[0] === input.name && e[1] === input.value; });
    });
    form.querySelectorAll("input[name^='points-']").forEach(function (input) {
      var e = entries.filter(function (x) { return x[0] === input.name; })[0];
      input.value = e ? e[1] : "";
    });
    // the tabs, the greyed cards and the live points follow, as after a tap
    var moved = form.querySelector("input[name=finishing_card]:checked") || form.querySelector("input[name=winner]:checked") ||
      form.querySelector(".cards input:checked") || form.querySelector("input[name^='points-']");
    if (moved) moved.dispatchEvent(new Event("change", { bubbles: true }));
  }
  function restoreDraft(form) {
    // only a page opened afresh (a reload, a back, «enter it again»): a page answering a submit shows that submit
    if (!form.hasAttribute("data-draft") || form.dataset.restored) return;
    form.dataset.restored = "1";
    var draft = read(DRAFT + form.getAttribute("action"), null);
    if (!draft || !draft.entries || !draft.entries.length) return;
    if (draft.version && form.elements.n && draft.version !== form.elements.version.value) return;  // the round changed since
    fill(form, draft.entries);
  }

  // -- the rounds waiting on this phone --
  function enqueue(form, entries) {
    var key = form.elements.idempotency_key.value;
    var item = {
      key: key, action: form.getAttribute("action"), series: seriesOfPage(), round: form.dataset.round,
      edit: !!form.elements.n, version: form.elements.version.value, entries: entries, summary: summary(form, entries),
      state: "waiting"
    };
    write(QUEUE, queue().filter(function (q) { return q.key !== key; }).concat([item]));
    write(DRAFT + item.action, null);  // the taps now wait as the round itself
    document.documentElement.classList.remove("settling");
    show();
    schedule(0);
  }
  function update(key, change) {
    write(QUEUE, queue().map(function (q) { return q.key === key ? Object.assign(q, change) : q; }).filter(Boolean));
  }
  function drop(key) { write(QUEUE, queue().filter(function (q) { return q.key !== key; })); }

  function reason(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var said = [];
    doc.querySelectorAll("main [role=alert]").forEach(function (e) {
      var t = e.textContent.replace(/\s+/g, " ").trim();
      if (t && said.indexOf(t) < 0) said.push(t);
    });
    return said.join(" ");
  }
  function send(item) {
    var body = new URLSearchParams();
    item.entries.forEach(function (e) { body.append(e[0], e[1]); });
    body.append("idempotency_key", item.key);
    // an added round goes onto the series as it is now (as the API's adds do); an edit keeps the version it was made
    // against, so a round changed meanwhile is a conflict for the table to settle
    if (item.edit) { body.append("n", item.round); body.append("version", item.version || ""); }
    return fetch(item.action, { method: "POST", body: body, redirect: "manual", credentials: "same-origin" });
  }
  function flush() {
    if (sending) return;
    var waiting = queue().filter(function (q) { return q.state === "waiting"; });
    if (!waiting.length) return;
    sending = true;
    var item = waiting[0];
    send(item).then(function (r) {
      if (r.type === "opaqueredirect" || (r.status >= 300 && r.status < 400)) {  // saved: the standings follow
        drop(item.key);
        failures = 0;
        arrived(item);
        return true;
      }
      if (r.status === 429 || r.status >= 500) throw new Error("later");
      return r.text().then(function (html) {  // refused on the fresh state: the table decides
        update(item.key, { state: "refused", reason: reason(html) });
        refused(item);
        return true;
      });
    }).catch(function () {
      failures += 1;
      schedule(RETRY_MS[Math.min(failures - 1, RETRY_MS.length - 1)]);
      return false;
    }).then(function (more) {
      sending = false;
      show();
      if (more) schedule(0);
    });
  }
  function schedule(ms) {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(flush, ms);
  }
  // the round page on screen is the queued round's: the same form, an empty one, or (an add) the same round number,
  // whose ticks are the queued round's again (the server's draft, which the seats share, shows them after a reload)
  function onTheQueuedForm(item) {
    var form = roundForm();
    return form && form.getAttribute("action") === item.action &&
      (form.elements.idempotency_key.value === item.key || !taps(form).length ||
       (!item.edit && form.dataset.round === item.round));
  }
  function arrived(item) {
    announce(text("sent", { n: item.round }));
    if (onTheQueuedForm(item)) location.assign("/series/" + item.series);  // the totals are what the table wants now
  }
  function refused(item) {
    if (onTheQueuedForm(item) || (seriesOfPage() === item.series && !document.getElementById("live"))) {
      location.assign("/series/" + item.series);  // the fresh standings, with the round to enter again or drop
    }
  }

  // -- what the page says about them --
  var lastSaid = "";
  function announce(message) {
    var live = document.getElementById("offline-said");
    if (live && message) { live.textContent = message; lastSaid = message; }
  }
  function show() {
    var box = region();
    if (!box) return;
    var list = box.querySelector(".queued");
    list.textContent = "";
    var here = seriesOfPage();
    queue().forEach(function (item) {
      var li = document.createElement("li");
      var p = document.createElement("p");
      if (item.state === "waiting") {
        p.textContent = text("waiting", { n: item.round });
        li.appendChild(p);
      } else if (item.series === here) {
        li.className = "refused";
        p.textContent = text("refused", { n: item.round }) + (item.reason ? " " + item.reason : "");
        var what = document.createElement("p");
        what.className = "small";
        what.textContent = item.summary;
        var again = document.createElement("button");
        again.type = "button";
        again.className = "primary";
        again.textContent = text("again");
        again.addEventListener("click", function () {
          write(DRAFT + item.action, { version: null, entries: item.entries });
          drop(item.key);
          location.assign(item.action);
        });
        var away = document.createElement("button");
        away.type = "button";
        away.className = "secondary";
        away.textContent = text("drop");
        away.addEventListener("click", function () { drop(item.key); show(); });
        var buttons = document.createElement("div");
        buttons.className = "say-actions";
        buttons.appendChild(again);
        buttons.appendChild(away);
        li.appendChild(p);
        li.appendChild(what);
        li.appendChild(buttons);
      } else {
        return;
      }
      list.appendChild(li);
    });
  }

  // -- the standings: when they were last updated, and the connection gone --
  var updatedAt = null;
  function clock(d) {
    return d.toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" });
  }
  function freshness(online, fetched) {
    var p = document.getElementById("freshness");
    if (!p) return;
    if (fetched || !updatedAt) updatedAt = new Date();
    var at = clock(updatedAt || new Date());
    p.hidden = false;
    p.classList.toggle("gone", !online);
    p.textContent = online ? text("updated", { time: at }) : text("gone", { time: at });
  }

  // -- wiring --
  function isSave(params) {
    var op = params.get("op") || "";
    return op === "" || op === "say-save";
  }
  var lastParams = null;
  document.addEventListener("htmx:configRequest", function (e) {
    if (e.detail.elt && e.detail.elt.id === "round-form") {
      lastParams = new URLSearchParams();
      e.detail.formData.forEach(function (v, k) { if (typeof v === "string") lastParams.append(k, v); });
    }
  });
  document.addEventListener("htmx:sendError", function (e) {
    var elt = e.detail.elt;
    if (elt && elt.id === "round-form" && lastParams && isSave(lastParams)) {
      var entries = [];
      var said = lastParams.get("op") === "say-save";  // «Save as said» sends what was said with the grid
      lastParams.forEach(function (v, k) {
        if (v !== "" && (KEPT.test(k) || k === "redeal" || k === "op" || (said && (k === "say" || k === "said")))) {
          entries.push([k, v]);
        }
      });
      enqueue(elt, entries);
      announce(text("queued", { n: elt.dataset.round }));
    } else if (elt && elt.id === "live") {
      freshness(false);
    }
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    var elt = e.detail.elt, xhr = e.detail.xhr;
    // the standings polled (a 304 too: nothing new), or a whole page just loaded: they are as of now
    if (xhr && (e.detail.successful || xhr.status === 304) && ((elt && elt.id === "live") || e.detail.boosted)) {
      freshness(true, true);
    }
    // a round form posted and answered elsewhere (the standings): saved, the draft has done its work
    // (the form may be gone from the page by now, so it is known by the address it posted to)
    var posted = e.detail.pathInfo && e.detail.pathInfo.requestPath;
    if (posted && e.detail.successful && xhr && xhr.responseURL && e.detail.requestConfig &&
        e.detail.requestConfig.verb === "post" && localStorage.getItem(DRAFT + posted) !== null &&
        new URL(xhr.responseURL, location.href).pathname !== posted) {
      write(DRAFT + posted, null);
    }
  });
  document.addEventListener("change", function (e) {
    var form = e.target && e.target.form;
    if (form && form.id === "round-form") saveDraft(form);
  });
  document.addEventListener("input", function (e) {
    var form = e.target && e.target.form;
    if (form && form.id === "round-form" && /^points-/.test(e.target.name)) saveDraft(form);
  });
  // back online: the standings are as of their last update until the next poll (within seconds) brings them
  window.addEventListener("online", function () { failures = 0; schedule(0); freshness(true, false); });
  window.addEventListener("offline", function () { freshness(false); });
  window.addEventListener("storage", function (e) { if (e.key === QUEUE) show(); });

  function init() {
    var form = roundForm();
    if (form && form.hasAttribute("data-draft")) restoreDraft(form);
    else if (form) saveDraft(form);  // a form the server answered (refused, or filled from what was said): keep that
    if (document.getElementById("freshness")) freshness(navigator.onLine !== false, !updatedAt);
    show();
    schedule(0);
  }
  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:load", init);
  // htmx keeps a page's HTML for «back»: without the marks of scripts that ran, so they run again on it
  document.addEventListener("htmx:beforeHistorySave", function (e) {
    e.detail.historyElt.querySelectorAll("[data-ready], [data-restored]").forEach(function (el) {
      delete el.dataset.ready;
      delete el.dataset.restored;
    });
  });
})();
