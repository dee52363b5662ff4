// «Поделиться итогом»: one tap shares the text and the chart (Web Share API, HTTPS), or copies the text.
(function () {
  "use strict";

  function init(root) {
    if (!root || root.dataset.ready) return;
    root.dataset.ready = "1";
    var area = root.querySelector("[data-share-text]");
    var image = root.querySelector("[data-share-image]");
    var shareButton = root.querySelector("[data-share]");
    var copyButton = root.querySelector("[data-copy]");
    var copied = root.querySelector("[data-copied]");
    var text = area.value;

    function copy() {
      function done() { copied.hidden = false; }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, fallback);
      } else {
        fallback();
      }
      function fallback() {  // plain HTTP on a LAN has no clipboard API: select and copy
        area.focus();
        area.select();
        try { if (document.execCommand("copy")) done(); } catch (e) { /* the text stays selected */ }
      }
    }

    if (navigator.share && window.isSecureContext) {
      shareButton.hidden = false;
      shareButton.addEventListener("click", function () {
        fetch(image.src).then(function (r) { return r.blob(); }).then(function (blob) {
          var file = new File([blob], image.dataset.shareImage, { type: "image/png" });
          var data = { text: text, files: [file] };
          if (!(navigator.canShare && navigator.canShare(data))) data = { text: text };
          return navigator.share(data);
        }).catch(function () { /* the user closed the share sheet */ });
      });
    }
    copyButton.hidden = false;
    copyButton.addEventListener("click", copy);
  }

  init(document.querySelector("[data-share-result]"));
})();
