import ActionLog

/// Where a value came from: the entry that last changed a path, and the chain of causes
/// behind it, each with the line that dispatched it (`--why PATH --at N`).
package enum ChangeOrigin {
  /// Writes the chain behind the last change of `path` at or before entry `at` (the whole log
  /// when `nil`), as text or JSON, and returns the damage met.
  ///
  /// The text names the change, then one line per step, nearest first: the updater and its
  /// site, then each effect and the site it was dispatched from, back to the first.
  ///
  /// - Throws: ``InspectorError`` when `input` cannot be read.
  /// - Complexity: O(size of the log); one state is held at a time.
  package static func write(
    of path: [PathStep], at: Int?, in input: LogInput, json: Bool, to write: (String) -> Void
  ) throws(InspectorError) -> LogDamage? {
    var last: PathHistory.Change?
    let (damage, _) = try LogFileReader.query(input) { scan in
      PathHistory.visit(path, reading: scan) { change in
        if at.map({ change.entry.sequence <= $0 }) ?? true { last = change }
      }
    }
    let pathText = JSONPath.text(path)
    guard let last else {
      let bound = at.map { " up to entry \($0)" } ?? ""
      write(
        json
          ? JSONValue.object(JSONObject([("path", .string(pathText)), ("steps", .array([]))]))
            .text() + "\n"
          : "no entry changed \(TextOutput.safe(pathText))\(bound)\n")
      return damage
    }
    let steps = Self.steps(of: last.entry)
    if json {
      let object = JSONObject([
        ("path", .string(pathText)), ("seq", .number(String(last.entry.sequence))),
        ("old", last.old ?? .null), ("new", last.new ?? .null),
        (
          "steps",
          .array(
            steps.map { step in
              var object = JSONObject([("kind", .string(step.kind)), ("name", .string(step.name))])
              if let site = step.site { object["site"] = .string(site) }
              return .object(object)
            })
        ),
      ])
      write(JSONValue.object(object).text() + "\n")
    } else {
      write(
        "\(TextOutput.safe(pathText)) was set to \(TextOutput.value(last.new)) by entry "
          + "\(last.entry.sequence) (line \(last.entry.line))\n")
      for step in steps {
        let site = step.site.map { "  at " + TextOutput.safe($0) } ?? "  (no site recorded)"
        write("  \(step.kind) \(TextOutput.safe(step.name))\(site)\n")
      }
    }
    return damage
  }

  /// The steps from `entry` back to the first cause: the updater, its cause, the cause's
  /// parents.
  static func steps(of entry: InspectedEntry) -> [(kind: String, name: String, site: String?)] {
    var steps: [(kind: String, name: String, site: String?)] = [
      ("updater", entry.type, entry.site)
    ]
    if let cause = entry.cause {
      steps.append(("dispatched by", cause, entry.causeSite))
      for parent in entry.causeParents {
        steps.append(("dispatched by", parent.name, parent.site))
      }
    }
    return steps
  }
}
