import Foundation
import StateStore
import Synchronization

/// One `Codable` value kept in one file, saved whole: settings, a small document, a cache.
///
/// ```swift
/// let file = SnapshotFile<Settings>(url: settingsURL)
/// let store = Store<Settings, Void>(initialState: try file.load() ?? Settings(), dependencies: ())
/// file.keepSaving(\.self, of: store)
/// store.dispatch(SetTheme(.dark))   // saved within the coalescing interval
/// try await file.flush()            // durable now, or throws
/// ```
///
/// A save writes a temporary file, synchronizes it, renames it over the file and synchronizes
/// the directory, so after a crash or a power cut the file holds one of the values saved, whole,
/// never a mix. Saves are coalesced: a change starts a timer of
/// ``Options-swift.struct/coalescingInterval`` on the injected clock, and when it fires the
/// latest value is written once, however many changes came in between. The writing happens on
/// a queue of its own: the store's actor never waits on the disk.
///
/// A failed save is never silent: ``status`` becomes ``PersistenceStatus/failing(_:)``, the
/// error goes to ``failures``, and the value is saved again after
/// ``Options-swift.struct/retryInterval`` (or at the next ``flush()``), until a save succeeds.
/// The value in memory is not touched by a failure.
///
/// A file that could not be read is never written over. After ``load()`` throws (the file is
/// damaged, written by a newer version of the app, or unreadable), or when a save finds such a
/// file where it would write, the keeper stops saving: ``status`` is
/// ``PersistenceStatus/stopped(_:)`` with the error, and ``flush()`` throws it, until the app
/// decides. It either calls ``setAsideUnreadableFile()``, which keeps the old file beside the
/// new one and resumes saving, or leaves things as they are and runs read-only; see
/// "A file that cannot be read" in <doc:KeepingStateOnDisk>.
@MainActor
public final class SnapshotFile<Value: Codable & Equatable & Sendable> {
  /// How saves are timed and what schema version the file carries.
  public struct Options: Sendable {
    /// How long after a change the value is written; changes in between are written together.
    public var coalescingInterval: Duration
    /// How long after a failed save it is tried again.
    public var retryInterval: Duration
    /// The version of the value's shape, written in the file.
    ///
    /// A file with a newer version is
    /// refused by ``SnapshotFile/load()`` with ``PersistenceError/newerSchema(file:found:supported:)``.
    public var schemaVersion: Int
    /// The clock the intervals are measured on; tests inject one they advance by hand.
    public var clock: any Clock<Duration>
    /// How a file of an older schema version is read.
    ///
    /// Its value goes through the snapshot steps (``SchemaMigration/migrateSnapshot(_:)``); the
    /// file is rewritten in the new version at the next save.
    public var migrations: Migrations

    /// Creates options; by default a change is saved half a second later, a failed save is
    /// tried again after five seconds, on the continuous clock.
    public init(
      coalescingInterval: Duration = .milliseconds(500), retryInterval: Duration = .seconds(5),
      schemaVersion: Int = 1, clock: any Clock<Duration> = ContinuousClock(),
      migrations: Migrations = Migrations()
    ) {
      self.migrations = migrations
      self.coalescingInterval = coalescingInterval
      self.retryInterval = retryInterval
      self.schemaVersion = schemaVersion
      self.clock = clock
    }
  }

  /// The file's path.
  public nonisolated let path: String
  /// How saves are timed.
  public nonisolated let options: Options
  /// Every failed save, as it happens; one consumer should iterate it.
  public nonisolated let failures: AsyncStream<PersistenceError>

  /// Where the file stands with the disk: ``PersistenceStatus/saved`` once the latest value is
  /// durable.
  public private(set) var status = PersistenceStatus.saved

  private let files: FileAccess
  private let directory: String
  private let queue: WriteQueue
  /// What this keeper last read from or wrote to the file, for the check before each save.
  private let known = KnownFile()
  private let failureSink: AsyncStream<PersistenceError>.Continuation
  /// The latest value not yet handed to the queue.
  private var pending: Value?
  /// The value last handed to the queue or loaded, to skip saving what is already saved.
  private var lastHandedOver: Value?
  private var timer: Task<Void, Never>?
  private var lastWrite: Task<Result<Void, PersistenceError>, Never>?
  private var subscription: Subscription?
  /// Reads the value of the store that ``keepSaving(_:of:)`` follows.
  private var source: (@MainActor () -> Value?)?
  /// Whether that store applied an updater since its value was last read.
  private var sourceChanged = false
  /// How many writes were handed to the queue and have not finished.
  private var writesInFlight = 0
  /// Why nothing is written: the file could not be read, by ``load()`` or before a save.
  private var refusal: PersistenceError?

  /// Creates the file's keeper for `url`; nothing is read or written until asked.
  public convenience init(url: URL, options: Options = Options()) {
    self.init(path: url.path, options: options, system: POSIXCalls())
  }

  /// Creates the keeper on `system`'s calls.
  package init(path: String, options: Options, system: any SystemCalls) {
    self.path = path
    self.options = options
    self.files = FileAccess(system: system)
    let parent = (path as NSString).deletingLastPathComponent
    self.directory = parent.isEmpty ? "." : parent
    self.queue = WriteQueue(label: "StatePersistence.SnapshotFile")
    (failures, failureSink) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(64))
  }

  isolated deinit {
    timer?.cancel()
    failureSink.finish()
  }

  /// Reads the saved value, or `nil` when the file does not exist yet.
  ///
  /// When it throws, the keeper stops saving, so that the file it could not read is never
  /// written over: ``status`` is ``PersistenceStatus/stopped(_:)`` with the error until
  /// ``setAsideUnreadableFile()`` or a later `load()` that succeeds.
  ///
  /// - Throws: ``PersistenceError/damaged(file:line:reason:)`` naming the line at fault (the
  ///   file is left as it is), ``PersistenceError/newerSchema(file:found:supported:)``, or
  ///   ``PersistenceError/systemCall(operation:path:code:)``.
  /// - Complexity: O(file size).
  public func load() throws(PersistenceError) -> Value? {
    let value: Value?
    do {
      if let bytes = try files.contents(of: path) {
        value = try SnapshotCodec.decode(
          Value.self, from: bytes, path: path, schema: options.schemaVersion,
          migrations: options.migrations
        ).value
        known.remember(bytes)
      } else {
        value = nil
      }
    } catch {
      refuse(because: error)
      throw error
    }
    if let value { lastHandedOver = value }
    if refusal != nil { resume() }
    return value
  }

  /// Moves the file that could not be read aside, beside it, and resumes saving: the next save
  /// writes the value in memory as a new file.
  ///
  /// The file is renamed to its name followed by `.unreadable` (then `.unreadable-2`,
  /// `.unreadable-3`, … when that name is taken), never removed, and the directory is
  /// synchronized, so the old data survives for a newer version of the app or for a repair.
  /// To run read-only instead, do not call it: the keeper keeps the value in memory and
  /// writes nothing, and ``flush()`` throws why.
  ///
  /// - Returns: Where the file was moved, or `nil` when saving was not stopped by an unreadable
  ///   file, or the file is no longer there.
  /// - Throws: ``PersistenceError/systemCall(operation:path:code:)`` when the rename or the
  ///   directory's synchronization fails; saving then stays stopped.
  /// - Complexity: O(entries in the directory).
  @discardableResult
  public func setAsideUnreadableFile() async throws(PersistenceError) -> URL? {
    guard refusal != nil else { return nil }
    if let lastWrite { _ = await lastWrite.value }
    let (files, path, directory) = (files, path, directory)
    let result = await queue.run { () -> Result<String?, PersistenceError> in
      Result { () throws(PersistenceError) -> String? in
        let taken = Set(try files.names(in: directory))
        let name = (path as NSString).lastPathComponent
        guard taken.contains(name) else { return nil }
        var aside = name + ".unreadable"
        var number = 1
        while taken.contains(aside) {
          number += 1
          aside = name + ".unreadable-\(number)"
        }
        let asidePath = (directory as NSString).appendingPathComponent(aside)
        try files.rename(path, to: asidePath, in: directory)
        return asidePath
      }
    }
    let moved = try result.get()
    lastHandedOver = nil
    resume()
    return moved.map { URL(fileURLWithPath: $0) }
  }

  /// Stops saving: the file at ``path`` could not be read.
  private func refuse(because error: PersistenceError) {
    refusal = error
    status = .stopped(error)
    timer?.cancel()
    timer = nil
  }

  /// Saves again after a refusal: what is pending, or the followed store's value.
  private func resume() {
    refusal = nil
    if source != nil { sourceChanged = true }
    if pending != nil || sourceChanged {
      status = .saving
      if timer == nil { startTimer(options.coalescingInterval) }
    } else {
      status = writesInFlight == 0 ? .saved : .saving
    }
  }

  /// Saves `value` after the coalescing interval, with any later value replacing it.
  ///
  /// Returns at once. A value equal to the last one saved is not written again.
  public func save(_ value: Value) {
    guard accept(value), refusal == nil else { return }
    if case .saved = status { status = .saving }
    if timer == nil { startTimer(options.coalescingInterval) }
  }

  /// Makes `value` the pending one, unless it equals the pending or the last saved value.
  ///
  /// - Returns: Whether it became pending.
  /// - Complexity: O(size of the value) for the comparison, O(1) when both share storage.
  private func accept(_ value: Value) -> Bool {
    if let pending, pending == value { return false }
    if pending == nil, let lastHandedOver, lastHandedOver == value { return false }
    pending = value
    return true
  }

  /// Saves the value at `keyPath` of `store` whenever it changes, until ``stopSaving()`` or the
  /// keeper is released; pass `\.self` for a store, or a scope, whose whole state is the value.
  ///
  /// The value is compared with the one loaded or last saved now, and saved (after the
  /// coalescing interval) if it differs. After that a dispatch costs O(1): it only notes that
  /// the store changed and starts the coalescing timer; the value is read and compared once,
  /// when the timer fires or at ``flush()``, so a thousand changes to a large value within one
  /// interval cost one read, one comparison and one write.
  ///
  /// - Complexity: O(size of the value), for the first comparison.
  public func keepSaving<S: State, Dependencies: Sendable>(
    _ keyPath: KeyPath<S, Value>, of store: Store<S, Dependencies>
  ) {
    stopSaving()
    source = { [weak store] in store?.state[keyPath: keyPath] }
    save(store.state[keyPath: keyPath])
    subscription = store.observeUpdates { [weak self] _ in self?.noteChange() }
  }

  /// Notes that the followed store applied an updater.
  private func noteChange() {
    guard !sourceChanged else { return }
    sourceChanged = true
    guard refusal == nil else { return }
    if case .saved = status { status = .saving }
    if timer == nil { startTimer(options.coalescingInterval) }
  }

  /// Reads the followed store's value, if it changed since the last read, as a value to save.
  private func readSource() {
    guard sourceChanged else { return }
    sourceChanged = false
    if let value = source?() { _ = accept(value) }
    if pending == nil, writesInFlight == 0, case .saving = status { status = .saved }
  }

  /// Stops following the store given to ``keepSaving(_:of:)``; values already saved or
  /// pending are still written.
  public func stopSaving() {
    readSource()
    subscription?.cancel()
    subscription = nil
    source = nil
  }

  /// Writes the latest value now, without waiting for the coalescing interval, and returns
  /// once it is durable.
  ///
  /// - Throws: The ``PersistenceError`` of the failed save; the value stays pending and is tried
  ///   again after the retry interval. While saving is stopped because the file could not be
  ///   read, the error that stopped it, and nothing is written.
  public func flush() async throws(PersistenceError) {
    timer?.cancel()
    timer = nil
    readSource()
    if let lastWrite { _ = await lastWrite.value }
    if let refusal { throw refusal }
    guard let value = pending else { return }
    if case .failure(let error) = await write(value).value { throw error }
  }

  private func startTimer(_ interval: Duration) {
    let clock = options.clock
    timer = Task { [weak self] in
      do { try await sleep(on: clock, for: interval) } catch { return }
      guard let self else { return }
      self.timer = nil
      self.readSource()
      guard self.refusal == nil, let value = self.pending else { return }
      _ = await self.write(value).value
    }
  }

  /// Hands `value` to the queue after any earlier write and records the outcome.
  private func write(_ value: Value) -> Task<Result<Void, PersistenceError>, Never> {
    pending = nil
    lastHandedOver = value
    writesInFlight += 1
    let previous = lastWrite
    let (files, path, directory, schema) = (files, path, directory, options.schemaVersion)
    let (queue, known) = (queue, known)
    let task = Task { [weak self] in
      _ = await previous?.value
      let result = await queue.run { () -> Result<Void, PersistenceError> in
        Result { () throws(PersistenceError) in
          try Self.checkReadable(path, files: files, schema: schema, known: known)
          let bytes = try SnapshotCodec.encode(value, schema: schema, seq: 0)
          try files.replaceAtomically(path, with: bytes, in: directory)
          known.remember(bytes)
        }
      }
      self?.finish(value, result)
      return result
    }
    lastWrite = task
    return task
  }

  /// Throws unless the file at `path` is absent or one this app can read (whole, its checksum
  /// right, of a schema version no newer than `schema`): a save never writes over a file that
  /// could not be read, whoever put it there since the last load.
  ///
  /// A file whose size and first bytes are those this keeper last read or wrote is its own,
  /// holding a value the app has in memory, and is not read further: replacing it loses
  /// nothing, whatever happened to it since.
  ///
  /// - Complexity: O(1) for the keeper's own file; else O(file size).
  private nonisolated static func checkReadable(
    _ path: String, files: FileAccess, schema: Int, known: KnownFile
  ) throws(PersistenceError) {
    guard let file = try OpenFile.openIfPresent(path, system: files.system) else { return }
    let size = try file.size()
    let head = try file.read(from: 0, count: min(size, KnownFile.headLength))
    if known.matches(size: size, head: head) { return }
    let bytes = size > head.count ? try file.read(from: 0, count: size) : head
    let header = try SnapshotCodec.validated(bytes, path: path).header
    guard header.schema <= schema else {
      throw .newerSchema(file: path, found: header.schema, supported: schema)
    }
  }

  private func finish(_ value: Value, _ result: Result<Void, PersistenceError>) {
    writesInFlight -= 1
    switch result {
    case .success:
      if pending == nil { status = .saved }
    case .failure(let error) where Self.meansUnreadable(error):
      if pending == nil { pending = value }
      refuse(because: error)
      failureSink.yield(error)
    case .failure(let error):
      status = .failing(error)
      failureSink.yield(error)
      if pending == nil { pending = value }
      if timer == nil { startTimer(options.retryInterval) }
    }
  }

  /// Whether a save's `error` says the file there cannot be read, rather than that the disk
  /// failed: only the check before writing throws these.
  private static func meansUnreadable(_ error: PersistenceError) -> Bool {
    switch error {
    case .damaged, .newerSchema: return true
    default: return false
    }
  }
}

/// The size and first bytes of the file a ``SnapshotFile`` last read or wrote, shared by the
/// keeper and its write queue.
private final class KnownFile: Sendable {
  /// How many first bytes are compared: the header line, which names the schema, and more.
  static let headLength = 512
  private let signature = Mutex<(size: Int, head: [UInt8])?>(nil)

  /// Remembers `bytes` as the file's contents.
  func remember(_ bytes: [UInt8]) {
    let head = Array(bytes.prefix(Self.headLength))
    signature.withLock { $0 = (bytes.count, head) }
  }

  /// Whether a file of `size` bytes starting with `head` is the one remembered.
  func matches(size: Int, head: [UInt8]) -> Bool {
    signature.withLock { $0.map { $0.size == size && $0.head == head } ?? false }
  }
}
