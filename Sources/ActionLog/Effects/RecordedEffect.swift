import StateStore

/// One side effect as an action log recorded it: its start, the values it got from its
/// dependencies, and its end.
///
/// Read a log's effects with ``ActionReplayer/effects(_:)``; feed them to a replay with
/// ``RecordedEffects``. An effect is recorded when the recorder's options ask for it
/// (``ActionRecorder/Options/recordsEffects``, on in diff mode).
public struct RecordedEffect: Sendable, Equatable {
  /// The effect's number in its log, from 1, in the order the effects started; a recorder
  /// appending to a log numbers its effects after those already there.
  public var number: Int
  /// The effect's type name, such as `Search`.
  public var type: String
  /// Its cancellation identifier, described, if it had one.
  public var cancellationID: String?
  /// The `seq` of the last entry recorded before the effect started (0 before any): the entry
  /// an inspector shows it under.
  public var afterEntry: Int
  /// Where the effect was dispatched (or launched), if the log says.
  public var site: DispatchSite?
  /// What was in effect where it was dispatched (a user action, an outer effect), if any.
  public var cause: String?
  /// The number of the effect that dispatched this one from its own task, if any.
  public var parent: Int?
  /// The effect's encoding, when its type is registered (`registerEffect(_:name:)`): what a
  /// replay starts again.
  public var payload: JSONValue?
  /// The values it got from its dependencies, in the order it asked for them.
  public var values: [Value]
  /// How it ended; `nil` when the log stops before its end (it was still running).
  public var end: End?
  /// How long it ran, by the recorder's effect clock; `nil` with ``end``.
  public var duration: Duration?
  /// The line of its start in the log, 0 for an effect made in code.
  public var line: Int

  /// One value an effect got from a dependency, recorded by `SideEffectContext.recorded(_:_:)`.
  public struct Value: Sendable, Equatable {
    /// The value's label: the type name unless the effect gave another.
    public var label: String
    /// What the dependency returned, as JSON; `nil` when it threw.
    public var json: JSONValue?
    /// What the dependency threw, described; `nil` when it returned.
    public var failure: String?

    /// A value the dependency returned, as JSON.
    public init(label: String, json: JSONValue) {
      self.label = label
      self.json = json
      self.failure = nil
    }

    /// A value the dependency returned, as JSON text: what a generated test writes.
    ///
    /// ```swift
    /// try RecordedEffect.Value(label: "Array<String>", jsonText: #"["milk"]"#)
    /// ```
    ///
    /// - Throws: ``ActionLogError/malformedLine(line:reason:)`` (line 0) when `jsonText` is not
    ///   JSON.
    public init(label: String, jsonText: String) throws(ActionLogError) {
      do {
        self.init(label: label, json: try JSONParser.parse(Array(jsonText.utf8)))
      } catch {
        throw .malformedLine(line: 0, reason: "the value \"\(label)\" is not JSON: \(error)")
      }
    }

    /// A call of the dependency that threw an error described as `failure`.
    public init(label: String, failure: String) {
      self.label = label
      self.json = nil
      self.failure = failure
    }
  }

  /// How an effect ended.
  public enum End: Sendable, Hashable, CustomStringConvertible {
    /// It returned.
    case finished
    /// It threw an error, described.
    case failed(String)
    /// It was cancelled; the text says by what: `a newer Search (cancelInFlight)`,
    /// `Search in flight (keepInFlight)` (it never ran), `cancelEffects(identifiedBy:)`,
    /// `cancelAllEffects()`, `its EffectTask's cancel()`, or `the cancellation of its awaiter`.
    case cancelled(by: String)

    /// `finished`, `failed: <error>` or `cancelled by <what>`.
    public var description: String {
      switch self {
      case .finished: "finished"
      case .failed(let error): "failed: \(error)"
      case .cancelled(let cause): "cancelled by \(cause)"
      }
    }
  }

  /// Creates a recorded effect, as a test or a tool writes one without a log: a type and the
  /// values its dependencies gave, in order.
  ///
  /// ```swift
  /// RecordedEffect(type: "Search", values: [.init(label: "Results", json: .array([]))])
  /// ```
  public init(
    number: Int = 0, type: String, cancellationID: String? = nil, afterEntry: Int = 0,
    site: DispatchSite? = nil, cause: String? = nil, parent: Int? = nil,
    payload: JSONValue? = nil, values: [Value] = [], end: End? = nil, duration: Duration? = nil,
    line: Int = 0
  ) {
    self.payload = payload
    self.number = number
    self.type = type
    self.cancellationID = cancellationID
    self.afterEntry = afterEntry
    self.site = site
    self.cause = cause
    self.parent = parent
    self.values = values
    self.end = end
    self.duration = duration
    self.line = line
  }
}
