/* privbounds report: sort and filter the theorem table, in the browser, with no server
   and no network. Click a column header to sort (again to reverse); type in the filter
   box or pick a verdict to show only the matching rows. The state is kept in the URL's
   query (?q=...&verdict=...&sort=...&dir=...), so a filtered view can be bookmarked. */
(function () {
  "use strict";
  function natural(a, b) {
    return a.localeCompare(b, undefined, {numeric: true, sensitivity: "base"});
  }
  function cellKey(row, col) {
    var cell = row.cells[col];
    return cell ? (cell.getAttribute("data-key") || cell.textContent.trim()) : "";
  }
  function setup(table) {
    var body = table.tBodies[0];
    var heads = table.tHead.rows[0].cells;
    var q = document.getElementById("filter-text");
    var pick = document.getElementById("filter-verdict");
    var count = document.getElementById("filter-count");
    var params = new URLSearchParams(window.location.search);
    var state = {sort: params.get("sort"), dir: params.get("dir") === "desc" ? -1 : 1};
    if (q && params.get("q")) q.value = params.get("q");
    if (pick && params.get("verdict")) pick.value = params.get("verdict");

    function apply() {
      var text = q ? q.value.trim().toLowerCase() : "";
      var verdict = pick ? pick.value : "";
      var rows = Array.prototype.slice.call(body.rows);
      if (state.sort !== null) {
        var col = -1;
        for (var i = 0; i < heads.length; i++) {
          if (heads[i].getAttribute("data-col") === state.sort) col = i;
          heads[i].removeAttribute("aria-sort");
        }
        if (col >= 0) {
          heads[col].setAttribute("aria-sort", state.dir > 0 ? "ascending" : "descending");
          rows.sort(function (a, b) { return state.dir * natural(cellKey(a, col), cellKey(b, col)); });
          rows.forEach(function (r) { body.appendChild(r); });
        }
      }
      var shown = 0;
      rows.forEach(function (r) {
        var ok = (!text || r.textContent.toLowerCase().indexOf(text) >= 0) &&
                 (!verdict || (" " + r.getAttribute("data-verdicts") + " ").indexOf(" " + verdict + " ") >= 0);
        r.hidden = !ok;
        if (ok) shown++;
      });
      if (count) count.textContent = shown + " of " + rows.length + " shown";
      var p = new URLSearchParams();
      if (text) p.set("q", text);
      if (verdict) p.set("verdict", verdict);
      if (state.sort !== null) { p.set("sort", state.sort); if (state.dir < 0) p.set("dir", "desc"); }
      var s = p.toString();
      try { window.history.replaceState(null, "", s ? "?" + s : window.location.pathname); } catch (e) { /* file:// in some browsers */ }
    }
    Array.prototype.forEach.call(heads, function (h) {
      if (!h.getAttribute("data-col")) return;
      h.tabIndex = 0;
      h.title = "sort by this column";
      function go() {
        var c = h.getAttribute("data-col");
        state.dir = state.sort === c ? -state.dir : 1;
        state.sort = c;
        apply();
      }
      h.addEventListener("click", go);
      h.addEventListener("keydown", function (e) { if (e.key === "Enter") go(); });
    });
    if (q) q.addEventListener("input", apply);
    if (pick) pick.addEventListener("change", apply);
    apply();
  }
  document.addEventListener("DOMContentLoaded", function () {
    var t = document.getElementById("theorems");
    if (t) setup(t);
  });
})();
