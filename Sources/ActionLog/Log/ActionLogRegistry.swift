import Foundation
import StateStore
import Synchronization

/// The updater types an action log may contain, each under a stable name.
///
/// The recorder looks an applied updater's type up here to name and encode it; the replayer
/// looks a line's name up here to decode it. Register every updater your app dispatches:
///
/// ```swift
/// let registry = ActionLogRegistry<TodoState>()
/// registry.register(AddTodo.self)                  // written as "AddTodo"
/// registry.register(ToggleTodo.self, name: "toggle")
/// ```
///
/// The name is what the file stores, so keep it stable when you rename a type: pass the old name.
/// Registering one type under several names makes every name readable and writes the last one,
/// which is how a log survives a rename. Registering one name for two types is a conflict that
/// the recorder and the replayer report as ``ActionLogError/conflictingRegistration(name:types:)``.
public final class ActionLogRegistry<S: State>: Sendable {
  let tables = Mutex(Tables())

  struct Tables {
    var byName: [String: UpdaterCodec<S>] = [:]
    var byType: [ObjectIdentifier: UpdaterCodec<S>] = [:]
    var conflicts: [ActionLogError] = []
    var scopes: [String: ScopeCodec<S>] = [:]
    var effectsByName: [String: EffectCodec] = [:]
    var effectsByType: [ObjectIdentifier: EffectCodec] = [:]
  }

  /// Creates an empty registry.
  public init() {}

  /// Registers an updater type under `name`, by default the type's name.
  ///
  /// - Returns: The registry, so registrations can be chained.
  @discardableResult
  public func register<U: StateUpdater & Codable>(_ type: U.Type, name: String? = nil) -> Self
  where U.StateType == S {
    let codec = UpdaterCodec<S>(type, name: name ?? String(describing: type))
    tables.withLock { tables in
      if let existing = tables.byName[codec.name], existing.typeID != codec.typeID {
        tables.conflicts.append(
          .conflictingRegistration(name: codec.name, types: [existing.typeName, codec.typeName]))
        return
      }
      tables.byName[codec.name] = codec
      tables.byType[codec.typeID] = codec
    }
    return self
  }

  /// Registers a side effect type under `name`, by default the type's name, so that a log that
  /// records effects holds each one's encoding (`payload` on its start line), and
  /// ``ActionReplayer/replayRunningEffects(_:on:)`` can start it again.
  ///
  /// ```swift
  /// registry.registerEffect(SearchTodos.self)
  /// ```
  ///
  /// - Returns: The registry, so registrations can be chained.
  @discardableResult
  public func registerEffect<E: ExecutableDispatchable & Codable>(
    _ type: E.Type, name: String? = nil
  ) -> Self {
    let codec = EffectCodec(type, name: name ?? String(describing: type))
    tables.withLock { tables in
      tables.effectsByName[codec.name] = codec
      tables.effectsByType[codec.typeID] = codec
    }
    return self
  }

  func effectCodec(named name: String) -> EffectCodec? {
    tables.withLock { $0.effectsByName[name] }
  }

  func effectCodec(for type: Any.Type) -> EffectCodec? {
    tables.withLock { $0.effectsByType[ObjectIdentifier(type)] }
  }

  /// The registered names, sorted.
  ///
  /// - Complexity: O(n log n) in the number of names.
  public var names: [String] {
    tables.withLock { $0.byName.keys.sorted() }
  }

  /// Throws the first conflict among the registrations, if any.
  public func validate() throws(ActionLogError) {
    if let conflict = tables.withLock({ $0.conflicts.first }) { throw conflict }
  }

  func codec(named name: String) -> UpdaterCodec<S>? {
    tables.withLock { $0.byName[name] }
  }

  func codec(for type: Any.Type) -> UpdaterCodec<S>? {
    tables.withLock { $0.byType[ObjectIdentifier(type)] }
  }

  /// A copy of the tables, for hot paths that should not take the lock on every entry.
  func snapshot() -> [ObjectIdentifier: UpdaterCodec<S>] {
    tables.withLock { $0.byType }
  }
}

/// How one registered updater type is named, encoded and decoded.
struct UpdaterCodec<S: State>: Sendable {
  let name: String
  /// The name as a JSON string literal, ready to paste into a line.
  let quotedName: String
  /// The updater type's full name, for messages: made when asked, since `String(reflecting:)`
  /// of every registered type would cost a short-lived process (a command line) more than its
  /// work.
  var typeName: String { describeType() }
  private let describeType: @Sendable () -> String
  let typeID: ObjectIdentifier
  let encode: @Sendable (_ updater: any StateUpdater<S>, _ encoder: JSONEncoder) throws -> Data
  let decode: @Sendable (_ line: KeyedDecodingContainer<LogKey>) throws -> any StateUpdater<S>

  init<U: StateUpdater & Codable>(_ type: U.Type, name: String) where U.StateType == S {
    self.name = name
    self.quotedName = JSONText.quoted(name)
    self.describeType = { String(reflecting: U.self) }
    self.typeID = ObjectIdentifier(type)
    self.encode = { updater, encoder in
      guard let typed = updater as? U else {
        throw ActionLogError.encodingFailed(
          type: String(reflecting: Swift.type(of: updater)),
          reason: "not a \(String(reflecting: U.self))")
      }
      return try encoder.encode(typed)
    }
    self.decode = { line in try line.decode(U.self, forKey: .payload) }
  }
}
