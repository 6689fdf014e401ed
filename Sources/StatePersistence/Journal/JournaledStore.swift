import ActionLog
import Dispatch
import Foundation
import StateStore
import Synchronization

/// A store whose every applied updater is journaled to a directory, and which reopens from it
/// after a quit, a crash or a power cut.
///
/// ```swift
/// let persisted = try await JournaledStore.open(
///   directory: storeURL, dependencies: AppDependencies(), registry: registry)
/// persisted.store.dispatch(AddTodo(title: "milk"))   // applied now; written off the actor
/// try await persisted.flush()                          // durable now, or throws
/// ```
///
/// The state is the last snapshot plus the journal after it, replayed through `registry`. Every
/// updater the store applies from then on, through a scope too, is appended to the journal in
/// dispatch order, as an action-log entry (`{"seq":…,"type":…,"payload":…}`), so a journal
/// segment replays in `ActionReplayer` like any log. Appends are group-committed on a queue of
/// the journal's own: dispatch never waits on the disk.
///
/// The contract, detailed in <doc:KeepingStateOnDisk>:
/// - After a crash at any instant, reopening gives the state after a prefix of the applied
///   updaters: no gap, no reorder, no half entry.
/// - ``flush()`` returns once every updater applied before the call is durable, or throws, and
///   then what is durable is exactly what it was.
/// - A failure is never silent: ``status``, ``failures`` and the store's `onUnhandledError`
///   hear it. The state in memory keeps every updater; the ones not yet durable stay queued
///   and are written again at the next dispatch or flush.
///
/// Several processes may open one directory: each appends its updaters after what the others
/// appended, and applies theirs through its ``store`` (see ``origin`` and <doc:KeepingStateOnDisk>).
///
/// Keep the journaled store as long as you use its ``store``: once it is released, updaters are
/// no longer journaled.
@MainActor
public final class JournaledStore<S: State & Codable, Dependencies: Sendable> {
  /// The store: dispatch to it, subscribe to it, scope it, as to any store.
  public let store: Store<S, Dependencies>
  /// The directory the journal lives in.
  public nonisolated let directory: String
  /// Every write failure, as it happens: appends, snapshots, removals.
  ///
  /// One consumer should iterate it; it keeps the latest 64 failures nobody has read.
  public nonisolated let failures: AsyncStream<PersistenceError>
  /// How many updaters the state holds, counted from the journal's first entry: the journal's
  /// entries up to the last one this process read or wrote, then its own updaters not yet
  /// written.
  public internal(set) var lastSequence: Int {
    get { _outbox._ledger._lastSequence }
    set { _outbox._ledger._lastSequence = newValue }
  }

  @usableFromInline let _writer: _JournalWriter<S>
  /// This store's side of the journal: its numbering, and its updaters on their way to the
  /// writer.
  @usableFromInline let _outbox: _JournalOutbox<S, Dependencies>
  let inbox: _HeardInbox<S, Dependencies>
  private let failureSink: AsyncStream<PersistenceError>.Continuation
  var pollTask: Task<Void, Never>?

  /// The entry that the next journaled updater reverts, while ``undo()`` dispatches its inverse.
  var undoing: Int? {
    get { _outbox._ledger._undoing }
    set { _outbox._ledger._undoing = newValue }
  }
  /// How many updaters this store journaled: the last one's `_PendingEntry._number`.
  var journaledCount: Int { _outbox._ledger._journaledCount }
  /// The number of this store's last journaled updater that was not taken back (see
  /// ``withExclusiveAccess(_:)``): what a flush waits for.
  var flushTarget: Int {
    get { _outbox._ledger._flushTarget }
    set { _outbox._ledger._flushTarget = newValue }
  }

  private init(
    store: Store<S, Dependencies>, directory: String, writer: _JournalWriter<S>,
    inbox: _HeardInbox<S, Dependencies>, outbox: _JournalOutbox<S, Dependencies>,
    failures: (AsyncStream<PersistenceError>, AsyncStream<PersistenceError>.Continuation)
  ) {
    self.store = store
    self.directory = directory
    self._writer = writer
    self.inbox = inbox
    self._outbox = outbox
    _outbox._store = store
    (self.failures, self.failureSink) = failures
  }

  isolated deinit {
    _outbox._ledger._isJournaling = false
    pollTask?.cancel()
    _outbox.handOff()
    _writer.close()
  }

  /// Where the journal stands with the disk: ``PersistenceStatus/saved`` when every applied
  /// updater is durable.
  public nonisolated var status: PersistenceStatus { _writer.status }

  /// The number of the last journal entry known to be durable, this process's or another's.
  public nonisolated var durableSequence: Int { _writer.durableSequence }

  /// Opens the journal in `directory`, creating the directory (mode 0700) if needed, and
  /// returns a store holding its state.
  ///
  /// - Parameters:
  ///   - directory: The journal's directory; several stores, in this process or others, may
  ///     open it at once.
  ///   - initialState: The state before the first entry, for a new journal.
  ///   - dependencies: What the store's side effects receive.
  ///   - registry: Every updater type the store applies, under stable names, with its scopes.
  ///   - options: When to take snapshots, and the schema version.
  ///   - interceptors: The store's interceptors.
  /// - Throws: ``PersistenceError/damaged(file:line:reason:)`` naming the file and line (the
  ///   file is left as it is; ``read(directory:initialState:registry:schemaVersion:)`` recovers
  ///   the state before it), ``PersistenceError/newerSchema(file:found:supported:)``, or
  ///   ``PersistenceError/systemCall(operation:path:code:)``.
  /// - Complexity: O(snapshot + journal after it).
  @inlinable
  public static func open(
    directory: URL, initialState: S = S(), dependencies: Dependencies,
    registry: ActionLogRegistry<S>, options: JournalOptions = JournalOptions(),
    interceptors: [StoreInterceptor<S>] = []
  ) async throws(PersistenceError) -> JournaledStore {
    // Journaling starts here, in code inlined into the application's, so that the path every
    // dispatch takes is specialised for its state type (P1 in store-bench).
    let journaled = try await _openWithoutJournaling(
      directory: directory.path, initialState: initialState, dependencies: dependencies,
      registry: registry, options: options, interceptors: interceptors,
      journal: { Self._journal(to: $0) })
    journaled.startJournaling(options: options)
    return journaled
  }

  /// Opens the journal on `system`'s calls; see
  /// ``open(directory:initialState:dependencies:registry:options:interceptors:)``.
  package static func open(
    directory: String, initialState: S = S(), dependencies: Dependencies,
    registry: ActionLogRegistry<S>, options: JournalOptions = JournalOptions(),
    interceptors: [StoreInterceptor<S>] = [], system: any SystemCalls
  ) async throws(PersistenceError) -> JournaledStore {
    let journaled = try await openWithoutJournaling(
      directory: directory, initialState: initialState, dependencies: dependencies,
      registry: registry, options: options, interceptors: interceptors,
      journal: { Self._journal(to: $0) }, system: system)
    journaled.startJournaling(options: options)
    return journaled
  }

  /// Opens the store in `directory` on the real disk, without journaling its updaters yet:
  /// ``startJournaling(options:)`` starts.
  @usableFromInline
  static func _openWithoutJournaling(
    directory: String, initialState: S, dependencies: Dependencies,
    registry: ActionLogRegistry<S>, options: JournalOptions,
    interceptors: [StoreInterceptor<S>],
    journal: (_JournalOutbox<S, Dependencies>) -> _Journal<S>
  ) async throws(PersistenceError) -> JournaledStore {
    try await openWithoutJournaling(
      directory: directory, initialState: initialState, dependencies: dependencies,
      registry: registry, options: options, interceptors: interceptors, journal: journal,
      system: POSIXCalls())
  }

  /// Opens the store as ``open(directory:initialState:dependencies:registry:options:interceptors:)``
  /// does, without journaling its updaters yet: ``startJournaling(options:)`` starts.
  ///
  /// The store's journal is `journal` of the outbox.
  static func openWithoutJournaling(
    directory: String, initialState: S, dependencies: Dependencies,
    registry: ActionLogRegistry<S>, options: JournalOptions,
    interceptors: [StoreInterceptor<S>],
    journal: (_JournalOutbox<S, Dependencies>) -> _Journal<S>, system: any SystemCalls
  ) async throws(PersistenceError) -> JournaledStore {
    let layout = JournalLayout(directory: Self.trimmed(directory))
    let files = FileAccess(system: system)
    let queue = DispatchQueue(label: "StatePersistence.JournaledStore")
    let failures = AsyncStream.makeStream(
      of: PersistenceError.self, bufferingPolicy: .bufferingNewest(64))
    let reporter = Reporter<S, Dependencies>(sink: failures.1)
    let inbox = _HeardInbox<S, Dependencies>()
    let opened = await WriteQueue(queue).run {
      () -> Result<(_JournalWriter<S>, S, Int), PersistenceError> in
      Result { () throws(PersistenceError) in
        try files.createDirectory(layout.directory)
        let lock = try OpenFile(layout.lockPath, flags: O_RDWR | O_CREAT, system: system)
        // Held while recovering, and released once the writer is made: another process
        // appending meanwhile waits. Closing `lock` on a failure releases it.
        try _JournalWriter<S>.take(
          lock, exclusively: true, options: options, directory: layout.directory)
        // A `snapshot.json.tmp` a crash left is not removed here: the next snapshot removes it
        // before writing its own, and an open that changed nothing must leave the directory
        // as it was, even when the change that follows fails.
        let recovered = try JournalRecovery(
          layout: layout, files: files, registry: registry, schema: options.schemaVersion,
          migrations: options.migrations
        ).read(initialState: initialState)
        if let damage = recovered.damage { throw damage }
        let writer = try _JournalWriter(
          layout: layout, files: files, options: options, registry: registry,
          initialState: initialState, lock: lock, recovered: recovered, queue: queue,
          report: reporter.report, hear: inbox.post)
        return (writer, recovered.state, recovered.lastSequence)
      }
    }
    let (writer, state, lastSequence) = try opened.get()
    let outbox = _JournalOutbox(writer: writer, inbox: inbox, lastSequence: lastSequence)
    // The journal ignores what it is told until `startJournaling(options:)`: what the
    // interceptors' `onStart` dispatch, as the store is made, is not journaled.
    let store = Store(
      initialState: state, dependencies: dependencies, interceptors: interceptors,
      journal: journal(outbox), tape: outbox._ledger._tape)
    let journaled = JournaledStore(
      store: store, directory: layout.directory, writer: writer, inbox: inbox, outbox: outbox,
      failures: failures)
    reporter.store = store
    inbox.target = journaled
    return journaled
  }

  /// The store's journal: hands every updater the store applies to `outbox`.
  ///
  /// Inlinable, and called from the inlinable `open`, so that the journal, which runs on every
  /// dispatch, is code specialised for the application's state. It holds the outbox, not
  /// this store: no weak reference to load on every dispatch, and no cycle through the store.
  @inlinable
  static func _journal(to outbox: _JournalOutbox<S, Dependencies>) -> _Journal<S> {
    { (updater: consuming any StateUpdater<S>, cause: consuming DispatchCause?) in
      outbox.record(updater, cause: cause)
    }
  }

  /// Journals every updater the store applies from now on, and starts hearing other
  /// processes' appends.
  @usableFromInline
  func startJournaling(options: JournalOptions) {
    _outbox._ledger._isJournaling = true
    _startPolling(every: options.pollInterval, on: options.clock)
  }

  /// Reads the journal on `system`'s calls; see
  /// ``read(directory:initialState:registry:schemaVersion:migrations:)``.
  package nonisolated static func read(
    directory: String, initialState: S = S(), registry: ActionLogRegistry<S>,
    schemaVersion: Int = 1, migrations: Migrations = Migrations(), system: any SystemCalls
  ) async throws(PersistenceError) -> RecoveredState<S> {
    let recovery = JournalRecovery(
      layout: JournalLayout(directory: trimmed(directory)), files: FileAccess(system: system),
      registry: registry, schema: schemaVersion, migrations: migrations)
    let result = await WriteQueue(DispatchQueue(label: "StatePersistence.read")).run {
      Result { () throws(PersistenceError) in
        let recovered = try recovery.read(initialState: initialState)
        return RecoveredState(
          state: recovered.state, lastSequence: recovered.lastSequence, damage: recovered.damage)
      }
    }
    return try result.get()
  }

  /// Returns once every updater applied before the call is durable.
  ///
  /// - Throws: The ``PersistenceError`` that kept an updater from being written. What is durable
  ///   is then exactly what it was before the failed write, and the next open sees no part of
  ///   it; the updaters stay queued and are written again at the next dispatch or flush.
  public func flush() async throws(PersistenceError) {
    _outbox.handOff()
    try await _writer.flush(upTo: flushTarget).get()
    _outbox.forgetWritten()
  }

  /// Flushes, then stops journaling and releases the directory for another open.
  ///
  /// - Throws: The flush's error; the directory is released all the same.
  public func close() async throws(PersistenceError) {
    _outbox._ledger._isJournaling = false
    pollTask?.cancel()
    pollTask = nil
    _outbox.handOff()
    let result = await _writer.flush(upTo: flushTarget)
    _writer.stop(.closed(reason: "the journaled store was closed"), at: journaledCount + 1)
    await _writer.closeAndWait()
    _outbox.forgetWritten()
    try result.get()
  }

  private nonisolated static func trimmed(_ directory: String) -> String {
    directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
  }
}

extension JournaledStore {
  /// Writes `state`, the state after entry `sequence` of the journal in `directory`, as its
  /// snapshot, atomically (a temporary file, `fsync`, `rename`, `fsync` of the directory): for a
  /// tool that brings a journal into the directory by other means, such as an upgrade from
  /// another layout, so that the next open need not replay it.
  ///
  /// - Complexity: O(state).
  package nonisolated static func writeSnapshot(
    _ state: S, at sequence: Int, directory: String, schemaVersion: Int = 1,
    system: any SystemCalls
  ) throws(PersistenceError) {
    let layout = JournalLayout(directory: trimmed(directory))
    let bytes = try SnapshotCodec.encode(state, schema: schemaVersion, seq: sequence)
    try FileAccess(system: system).replaceAtomically(
      layout.snapshotPath, with: bytes, in: layout.directory)
  }
}

extension JournaledStore where Dependencies == Void {
  /// Reads the journal in `directory` without writing anything, and returns the state up to
  /// the first damage, with the damage: for recovering what a damaged journal still holds.
  ///
  /// It is declared where `Dependencies` is `Void`, since reading runs no side effect:
  /// `JournaledStore.read(directory: url, registry: registry)`.
  ///
  /// - Throws: ``PersistenceError/newerSchema(file:found:supported:)`` or
  ///   ``PersistenceError/systemCall(operation:path:code:)``; damage is not thrown but returned.
  /// - Complexity: O(snapshot + journal after it).
  public nonisolated static func read(
    directory: URL, initialState: S = S(), registry: ActionLogRegistry<S>,
    schemaVersion: Int = 1
  ) async throws(PersistenceError) -> RecoveredState<S> {
    try await read(
      directory: directory.path, initialState: initialState, registry: registry,
      schemaVersion: schemaVersion, system: POSIXCalls())
  }

  /// Reads the journal in `directory` as
  /// ``read(directory:initialState:registry:schemaVersion:)`` does, reading files of an older
  /// schema version through `migrations`; nothing is written, so nothing is upgraded.
  ///
  /// - Throws: ``PersistenceError/newerSchema(file:found:supported:)`` or
  ///   ``PersistenceError/systemCall(operation:path:code:)``; damage, and a migration step that
  ///   throws, are not thrown but returned.
  /// - Complexity: O(snapshot + journal after it), plus the migrations' own cost.
  public nonisolated static func read(
    directory: URL, initialState: S = S(), registry: ActionLogRegistry<S>,
    schemaVersion: Int, migrations: Migrations
  ) async throws(PersistenceError) -> RecoveredState<S> {
    try await read(
      directory: directory.path, initialState: initialState, registry: registry,
      schemaVersion: schemaVersion, migrations: migrations, system: POSIXCalls())
  }

  /// Opens the journal in `directory` for a store whose side effects need no dependencies; see
  /// ``open(directory:initialState:dependencies:registry:options:interceptors:)``.
  @inlinable
  public static func open(
    directory: URL, initialState: S = S(), registry: ActionLogRegistry<S>,
    options: JournalOptions = JournalOptions(), interceptors: [StoreInterceptor<S>] = []
  ) async throws(PersistenceError) -> JournaledStore {
    try await open(
      directory: directory, initialState: initialState, dependencies: (), registry: registry,
      options: options, interceptors: interceptors)
  }
}

/// Sends the writer's failures to the stream and to the store's `onUnhandledError`.
private final class Reporter<S: State, Dependencies: Sendable>: Sendable {
  let sink: AsyncStream<PersistenceError>.Continuation
  @MainActor weak var store: Store<S, Dependencies>?

  init(sink: AsyncStream<PersistenceError>.Continuation) {
    self.sink = sink
  }

  @Sendable func report(_ error: PersistenceError) {
    sink.yield(error)
    Task { @MainActor in self.store?.onUnhandledError(error, JournalWrite()) }
  }
}

/// Stands for "the journal's writer" in `onUnhandledError`.
struct JournalWrite: Dispatchable {}
