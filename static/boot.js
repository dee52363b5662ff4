// Runs before the page is drawn: styles for "JavaScript is on" apply from the first paint.
document.documentElement.className = "js";
// The phone's time zone goes with every request: the scoresheet prints times as the table's clock shows them.
(function () {
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;  // an IANA name: letters, digits, / _ + -
    if (/^[\w/+-]+$/.test(zone)) document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
  } catch (e) { /* an old browser: times stay in UTC, and say so */ }
})();
