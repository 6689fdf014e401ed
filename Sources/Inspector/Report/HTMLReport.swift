import ActionLog
import Foundation

/// `--html FILE`: one self-contained page with the timeline, filters, each entry's diff and the
/// state after every entry.
///
/// The page needs no network: its style and script are inline, and the log's records are
/// embedded as JSON, escaped so that no text in the log can end the script element. The script
/// writes the log's text with `textContent` only, never as markup.
///
/// The page reads its fragment on load, so a link (or a test) can open it at an entry:
/// `#click=N` clicks entry N's row, `type=`, `scope=`, `cause=` and `text=` fill the filters;
/// several are joined by `&`.
///
/// Side effects show as rows under the entry they started after: the type, how the effect
/// ended and in how long, its identifier, cause and site, and the values it recorded.
package struct HTMLReport: Sendable {
  /// The page.
  package let page: String
  /// What stopped the reading, if anything did; the page shows it too.
  package let damage: LogDamage?

  /// Builds the page for the log in `data`.
  ///
  /// - Parameter title: The page's title, the log's file name by default.
  /// - Complexity: O(size of the log).
  package init(_ data: Data, title: String = "action log") {
    self.init(title: title, reading: { LogFileReader.scan(data, $0) })
  }

  /// Builds the page for the log `input`: a log file or a journal's directory.
  ///
  /// - Throws: ``InspectorError`` when it cannot be read.
  /// - Complexity: O(size of the log).
  package init(_ input: LogInput, title: String) throws(InspectorError) {
    self = try LogFileReader.query(input) { HTMLReport(title: title, reading: $0) }
  }

  private init(title: String, reading scan: (LogFileReader.Visitor) -> LogDamage?) {
    var records: [JSONValue] = []
    var effects: [JSONValue] = []
    /// Each effect's place in `effects`, by its number; a later start of a number replaces it.
    var effectPositions: [Int: Int] = [:]
    let damage = scan { record, _ in
      switch record {
      case .effect(let effect, let line):
        Self.merge(effect, line: line, into: &effects, positions: &effectPositions)
      case .entry(let entry):
        var json = entry.json
        // The page shows the time as every other view does, not as the browser would round it.
        if let time = entry.time { json["at"] = .string(TimeText.date(time)) }
        records.append(json)
      case .checkpoint(let sequence, let line, let state):
        records.append(
          .object(
            JSONObject([
              ("checkpoint", .number(String(sequence))), ("line", .number(String(line))),
              ("state", state),
            ])))
      }
      return true
    }
    let embedded = JSONObject([
      ("title", .string(title)), ("records", .array(records)), ("effects", .array(effects)),
      ("damage", damage.map { .string($0.description) } ?? .null),
    ])
    self.damage = damage
    var page = Self.head
    page += "<script id=\"log\" type=\"application/json\">"
    page += JSONValue.object(embedded).text(forHTML: true)
    page += "</script>\n<script>\n" + Self.script + "</script>\n</body>\n</html>\n"
    self.page = page
  }

  /// Adds an effect line to the effects shown: a start makes an effect, a value goes in its
  /// `values`, an end sets `end`, `duration` and the end's `error` or `by`.
  private static func merge(
    _ effect: EffectLine, line: Int, into effects: inout [JSONValue], positions: inout [Int: Int]
  ) {
    var json = EffectText.json(effect, line: line)
    json["event"] = nil
    if case .start = effect {
      json["values"] = .array([])
      positions[effect.effect] = effects.count
      effects.append(json)
      return
    }
    // The reader has checked that the effect started: the scanner stops at a line that is not.
    guard let position = positions[effect.effect] else { return }
    json["effect"] = nil
    json["line"] = nil
    if case .value = effect {
      guard case .array(var values)? = effects[position]["values"] else { return }
      values.append(json)
      effects[position]["values"] = .array(values)
    } else if case .object(let end) = json {
      for member in end.members { effects[position][member.key] = member.value }
    }
  }

  private static let head = """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
    <title>statestore-inspect</title>
    <style>
    body { font: 14px/1.4 system-ui, sans-serif; margin: 0; display: grid; grid-template-columns: minmax(22em, 2fr) 3fr; grid-template-rows: auto auto 1fr; height: 100vh; }
    header { grid-column: 1 / 3; padding: .5em 1em; background: #223; color: #fff; }
    #damage { color: #fbb; font-weight: bold; }
    #filters { grid-column: 1 / 3; padding: .4em 1em; background: #eef; display: flex; gap: 1em; flex-wrap: wrap; }
    #timeline { overflow: auto; border-right: 1px solid #ccc; }
    table { border-collapse: collapse; width: 100%; }
    td, th { padding: 2px 6px; text-align: left; white-space: nowrap; }
    tr.entry { cursor: pointer; }
    tr.entry:hover { background: #f4f4ff; }
    tr.selected { background: #dde4ff; }
    tr.checkpoint td { color: #777; font-style: italic; }
    tr.effect td { color: #346; padding-left: 2em; white-space: normal; }
    tr.hidden { display: none; }
    #detail { overflow: auto; padding: 0 1em; }
    pre { background: #f6f6f6; padding: .5em; overflow: auto; }
    li.add { color: #060; } li.remove { color: #900; } li.replace { color: #850; } li.move { color: #036; }
    </style>
    </head>
    <body>
    <header><strong>statestore-inspect</strong> <span id="title"></span> <span id="counts"></span> <div id="damage"></div></header>
    <div id="filters">
    <label>type <select id="filter-type"><option value="">all</option></select></label>
    <label>scope <select id="filter-scope"><option value="">all</option></select></label>
    <label>cause <input id="filter-cause" type="search"></label>
    <label>text <input id="filter-text" type="search"></label>
    <span id="shown"></span>
    </div>
    <div id="timeline"><table><thead><tr><th>seq</th><th>time</th><th>scope</th><th>type</th><th>cause</th><th>changes</th></tr></thead><tbody id="rows"></tbody></table></div>
    <section id="detail"><h2 id="detail-title">Select an entry</h2>
    <div id="detail-meta"></div>
    <h3>Payload</h3><pre id="detail-payload"></pre>
    <h3>Diff</h3><ul id="detail-diff"></ul>
    <h3>State after this entry</h3><pre id="detail-state"></pre>
    </section>

    """

  private static let script = """
    "use strict";
    const log = JSON.parse(document.getElementById("log").textContent);
    const records = log.records;
    const $ = (id) => document.getElementById(id);
    const text = (tag, content, cls) => { const e = document.createElement(tag); e.textContent = content; if (cls) e.className = cls; return e; };
    const unescapeToken = (t) => t.replace(/~1/g, "/").replace(/~2/g, "[").replace(/~0/g, "~");
    // A path's steps: {token} for "/name" or "/0", {id} for "[id=3]" (the element whose id is 3).
    function steps(p) {
      const out = [];
      let i = 0;
      while (i < p.length) {
        if (p[i] === "/") {
          let j = i + 1;
          while (j < p.length && p[j] !== "/" && p[j] !== "[") j++;
          out.push({ token: unescapeToken(p.slice(i + 1, j)) });
          i = j;
        } else if (p.startsWith("[id=", i)) {
          let j = i + 4;
          if (p[j] === '"') { j++; while (j < p.length && p[j] !== '"') { if (p[j] === "\\\\") j++; j++; } j++; }
          else while (j < p.length && p[j] !== "]") j++;
          out.push({ id: JSON.parse(unescapeToken(p.slice(i + 4, j))) });
          i = j + 1;
        } else throw new Error("bad path " + p);
      }
      return out;
    }
    const clone = (v) => v === undefined ? undefined : JSON.parse(JSON.stringify(v));
    const isObject = (v) => v !== null && typeof v === "object";
    function findID(array, id, hint) {
      const has = (e) => isObject(e) && !Array.isArray(e) && e.id === id;
      if (hint !== undefined && hint < array.length && has(array[hint])) return hint;
      const i = array.findIndex(has);
      if (i < 0) throw new Error("no element with id " + JSON.stringify(id));
      return i;
    }
    function applyChange(root, change) {
      const path = steps(change.path);
      if (path.length === 0) return clone(change.value);
      let target = root;
      for (const s of path.slice(0, -1)) {
        if (!isObject(target)) throw new Error("no " + change.path);
        if ("id" in s) { if (!Array.isArray(target)) throw new Error("no " + change.path); target = target[findID(target, s.id)]; }
        else { if (!(s.token in target)) throw new Error("no " + change.path); target = target[s.token]; }
      }
      const last = path[path.length - 1];
      if ("id" in last) {
        if (!Array.isArray(target)) throw new Error("no " + change.path);
        if (change.op === "add") { target.splice(change.index, 0, clone(change.value)); return root; }
        const i = findID(target, last.id, change.op === "move" ? change.from : change.index);
        if (change.op === "remove") target.splice(i, 1);
        else if (change.op === "move") { const [moved] = target.splice(i, 1); target.splice(change.index, 0, moved); }
        else target[i] = clone(change.value);
      } else if (Array.isArray(target)) {
        const i = Number(last.token);
        if (change.op === "add") target.splice(i, 0, clone(change.value));
        else if (change.op === "remove") target.splice(i, 1);
        else target[i] = clone(change.value);
      } else if (isObject(target)) {
        if (change.op === "remove") delete target[last.token]; else target[last.token] = clone(change.value);
      } else throw new Error("no " + change.path);
      return root;
    }
    // The state after record i, or undefined when the log does not hold it.
    function stateAfter(index) {
      let state;
      for (let i = 0; i <= index; i++) {
        const r = records[i];
        if ("checkpoint" in r) state = clone(r.state);
        else if (state !== undefined && r.diff) { for (const c of r.diff) state = applyChange(state, c); }
        else state = undefined;
      }
      return state;
    }
    const show = (v) => v === undefined ? "(none)" : JSON.stringify(v);
    function changeLine(c) {
      const at = c.index === undefined ? "" : " at " + c.index;
      if (c.op === "add") return "add " + c.path + at + ": " + show(c.value);
      if (c.op === "remove") return "remove " + c.path + at + ": " + show(c.old);
      if (c.op === "move") return "move " + c.path + " from " + c.from + " to " + c.index;
      return "replace " + c.path + ": " + show(c.old) + " \\u2192 " + show(c.value);
    }
    function select(index, row) {
      for (const r of document.querySelectorAll("tr.selected")) r.classList.remove("selected");
      row.classList.add("selected");
      const r = records[index];
      document.body.dataset.selected = String(r.seq);
      $("detail-title").textContent = "Entry " + r.seq + ": " + (r.scope ? r.scope + " " : "") + r.type;
      const meta = ["line " + r.line];
      if (r.cause !== undefined) meta.push("cause: " + r.cause);
      if (r.effect !== undefined) meta.push("dispatched by effect " + r.effect);
      if (r.at !== undefined) meta.push("time: " + r.at);
      if (r.unrecorded !== undefined) meta.push("unrecorded: " + r.unrecorded);
      $("detail-meta").textContent = meta.join(" \\u00b7 ");
      $("detail-payload").textContent = r.payload === undefined ? "(none)" : JSON.stringify(r.payload, null, 2);
      const list = $("detail-diff");
      list.replaceChildren();
      if (!r.diff) list.append(text("li", "(recorded without diffs)"));
      else if (r.diff.length === 0) list.append(text("li", "(no change)"));
      else for (const c of r.diff) list.append(text("li", changeLine(c), c.op));
      let state;
      try { state = stateAfter(index); } catch (e) { state = undefined; }
      $("detail-state").textContent = state === undefined ? "(the log does not hold this state: recorded without diffs)" : JSON.stringify(state, null, 2);
    }
    function fillSelect(id, values) {
      const select = $(id);
      for (const v of [...new Set(values)].sort()) { const o = text("option", v === "" ? "(root)" : v); o.value = v === "" ? "\\u0000root" : v; select.append(o); }
    }
    function applyFilters() {
      const type = $("filter-type").value, scope = $("filter-scope").value;
      const cause = $("filter-cause").value.toLowerCase(), needle = $("filter-text").value.toLowerCase();
      let shown = 0;
      for (const row of $("rows").children) {
        if (row.classList.contains("effect")) {
          const line = row.textContent.toLowerCase();
          row.classList.toggle("hidden", !!(type || scope) || !line.includes(cause) || !line.includes(needle));
          continue;
        }
        const r = records[Number(row.dataset.index)];
        let visible = true;
        if ("checkpoint" in r) visible = !type && !scope && !cause && !needle;
        else {
          if (type && r.type !== type) visible = false;
          if (scope && (scope === "\\u0000root" ? r.scope !== "" : r.scope !== scope)) visible = false;
          if (cause && !(r.cause || "").toLowerCase().includes(cause)) visible = false;
          if (needle && !JSON.stringify(r).toLowerCase().includes(needle)) visible = false;
          if (visible) shown++;
        }
        row.classList.toggle("hidden", !visible);
      }
      $("shown").textContent = shown + " entries shown";
    }
    $("title").textContent = log.title;
    const entries = records.filter((r) => !("checkpoint" in r));
    const effects = log.effects;
    $("counts").textContent = entries.length + " entries, " + (records.length - entries.length) + " checkpoints" + (effects.length ? ", " + effects.length + " effects" : "");
    // An effect's row: under the entry it started after.
    function effectRow(e) {
      const row = document.createElement("tr");
      row.className = "effect";
      row.dataset.effect = String(e.effect);
      let line = "\\u21b3 effect " + e.effect + " " + e.type + ": " + (e.end === undefined ? "still running when the log ends" : e.end);
      if (e.end === "failed") line += " (" + e.error + ")";
      if (e.end === "cancelled") line += " by " + e.by;
      if (e.duration !== undefined) line += " in " + e.duration + " s";
      if (e.id !== undefined) line += " \\u00b7 id " + e.id;
      if (e.cause !== undefined) line += " \\u00b7 cause " + e.cause;
      if (e.site !== undefined) line += " \\u00b7 at " + e.site;
      for (const v of e.values) line += " \\u00b7 " + v.label + (v.error !== undefined ? " threw " + v.error : " = " + JSON.stringify(v.data));
      const cell = text("td", line);
      cell.colSpan = 6;
      row.append(cell);
      return row;
    }
    const seqs = new Set(entries.map((r) => r.seq));
    for (const e of effects) if (!seqs.has(e.after)) $("rows").append(effectRow(e));
    if (log.damage) $("damage").textContent = "Damaged log: " + log.damage + ". Shown up to the damage.";
    records.forEach((r, index) => {
      const row = document.createElement("tr");
      row.dataset.index = String(index);
      if ("checkpoint" in r) {
        row.className = "checkpoint";
        const cell = text("td", "checkpoint after entry " + r.checkpoint + " (line " + r.line + ")");
        cell.colSpan = 6;
        row.append(cell);
      } else {
        row.className = "entry";
        row.dataset.seq = String(r.seq);
        row.append(text("td", String(r.seq)), text("td", r.at === undefined ? "" : r.at),
          text("td", r.scope), text("td", r.type), text("td", r.cause || ""),
          text("td", r.diff ? String(r.diff.length) : "\\u2013"));
        row.addEventListener("click", () => select(index, row));
      }
      $("rows").append(row);
      if (!("checkpoint" in r)) for (const e of effects) if (e.after === r.seq) $("rows").append(effectRow(e));
    });
    fillSelect("filter-type", entries.map((r) => r.type));
    fillSelect("filter-scope", entries.map((r) => r.scope));
    for (const id of ["filter-type", "filter-scope", "filter-cause", "filter-text"]) $(id).addEventListener("input", applyFilters);
    applyFilters();
    // The fragment: #click=N&type=T&scope=S&cause=C&text=X
    const fragment = new URLSearchParams(location.hash.slice(1));
    for (const key of ["type", "scope", "cause", "text"]) if (fragment.has(key)) $("filter-" + key).value = fragment.get(key);
    applyFilters();
    if (fragment.has("click")) {
      const row = document.querySelector('tr.entry[data-seq="' + CSS.escape(fragment.get("click")) + '"]');
      if (row) row.click();
    }

    """
}
