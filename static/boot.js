// Runs before the page is drawn: styles for "JavaScript is on" apply from the first paint.
document.documentElement.className = "js";
