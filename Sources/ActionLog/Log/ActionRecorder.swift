import Foundation
import StateStore

/// Records every updater a store applies into an action log: a file, a file handle or memory.
///
/// ```swift
/// let recorder = try ActionRecorder(
///   store: store, registry: registry, destination: .file(url),
///   options: .init(checkpointInterval: 100))
/// store.dispatch(AddTodo(title: "milk"))    // written as line {"seq":1,"type":"AddTodo",…}
/// try recorder.synchronize()                // on disk before the process exits
/// ```
///
/// - Only updaters are recorded, each with its `DispatchCause`: the side effect or user action
///   that dispatched it. Replaying the log never runs side effects again.
/// - Encoding an entry costs the updater's encoding alone, never the state's size.
/// - An updater whose type is not registered is not lost silently: its line marks it
///   `unrecorded` (a replay stops there with a clear error) and ``onError`` hears about it.
/// - Appending to an existing file checks its header and continues its numbering, so several
///   runs of a program can record one session. Several recorders, in one process or several,
///   may write one file at once: each entry is appended whole under the file's `flock` and
///   numbered after the others' entries, and each effect after the others' effects.
///
/// Recording stops when ``stop()`` is called or the recorder is released.
@MainActor
public final class ActionRecorder {
  /// Where the recorder writes.
  public enum Destination {
    /// A file, created with a header if missing, appended to if it exists.
    case file(URL)
    /// An open handle, written from its current position, header first.
    ///
    /// The handle stays open when the recorder stops: its owner closes it.
    case fileHandle(FileHandle)
    /// Memory; read the log back with ``recordedData``.
    case memory
  }

  /// How often the recorder writes checkpoints and how it writes lines.
  public struct Options: Sendable {
    /// How many entries separate two checkpoints; `nil` writes none.
    ///
    /// A checkpoint is the whole state, written when recording starts and then after every this
    /// many entries; it needs an `Encodable` state. It costs O(state size), so the cost per entry
    /// is O(state size / interval).
    public var checkpointInterval: Int?
    /// Hold lines in memory until this many bytes are pending (or ``flush()``); 0 writes every
    /// line at once with its own write call.
    ///
    /// Writing a file, the recorder holds the file's lock while lines are pending, so that
    /// their numbering stays right: recorders of the file in other processes wait for the
    /// flush, and one in this process has the pending lines written first.
    public var bufferCapacity: Int
    /// Whether each entry carries the time it was applied (`"time"`, seconds since 1970).
    public var recordsTime: Bool
    /// Whether each entry carries `"diff"`, what it changed in the encoded state; needs an
    /// `Encodable` state.
    ///
    /// The diff is structural, against the state before the entry, as JSON Patch operations
    /// with the values they replace (see <doc:RecordingAndReplaying#Diff-mode>). A checkpoint of
    /// the state recording started from goes before the first entry, so that a reader can
    /// rebuild the state after every entry without the app's types. Each entry then costs an
    /// encoding of what it may have changed: the state outside `TrackedArray`s, and the
    /// elements of tracked arrays that their change journals name (O(state size) when elements
    /// were added, removed or moved).
    public var recordsDiffs: Bool
    /// Whether each entry carries where it came from: the file and line of its `dispatch`
    /// (`"site"`) and, for an effect's updater, the line that dispatched the effect
    /// (`"causeSite"`) and the effects above it (`"causeParents"`).
    ///
    /// On in diff mode unless set: the mode a session is recorded in to be inspected. Off,
    /// a log stays the same bytes when the code that dispatches moves.
    public var recordsSites: Bool
    /// Whether the log records the store's side effects: each effect's start (its type,
    /// identifier, the line that dispatched it and its cause), the values it got from its
    /// dependencies through `SideEffectContext.recorded(_:_:)`, and its end (finished,
    /// failed with its error, or cancelled and by what) with its duration.
    ///
    /// On in diff mode unless set. Effect lines need a log of version 2 (see
    /// <doc:RecordingAndReplaying#Side-effects-in-the-log>): a new log is written in it, and a recorder that
    /// appends to a version-1 log, which 0.1.0 still reads, records no effects there. Read them
    /// back with ``ActionReplayer/effects(_:)``, and feed them to a replay with
    /// ``RecordedEffects``. Recording an effect costs two lines and, per recorded value, an
    /// encoding of the value; a store whose effects nothing records pays nothing.
    public var recordsEffects: Bool
    /// The clock that times effects: each effect's end line carries how long it ran by it.
    ///
    /// A test passes a `TestClock` so that durations are exact.
    public var effectClock: any Clock<Duration>
    /// The clock for `"time"` and the header's creation time.
    public var clock: @Sendable () -> Date

    /// Creates options; the defaults write every line at once, without checkpoints or times.
    ///
    /// `recordsSites` and `recordsEffects` left `nil` follow `recordsDiffs`.
    public init(
      checkpointInterval: Int? = nil, bufferCapacity: Int = 0, recordsTime: Bool = false,
      recordsDiffs: Bool = false, recordsSites: Bool? = nil, recordsEffects: Bool? = nil,
      effectClock: any Clock<Duration> = ContinuousClock(),
      clock: @escaping @Sendable () -> Date = { Date() }
    ) {
      self.recordsSites = recordsSites ?? recordsDiffs
      self.recordsEffects = recordsEffects ?? recordsDiffs
      self.effectClock = effectClock
      self.checkpointInterval = checkpointInterval.map { max(1, $0) }
      self.bufferCapacity = max(0, bufferCapacity)
      self.recordsTime = recordsTime
      self.recordsDiffs = recordsDiffs
      self.clock = clock
    }

    /// Buffers up to 64 KiB of lines between writes: for throughput, with ``flush()`` at the end.
    public static var buffered: Options { Options(bufferCapacity: 64 * 1024) }
  }

  private let sink: LogSink
  private var subscription: Subscription?
  private var entriesSinceCheckpoint = 0
  private let reportError: @MainActor (ActionLogError, (any Dispatchable)?) -> Void
  /// What writes the store's effects, when the options ask for them.
  private var effectRecording: EffectRecording?
  /// Takes `effectRecording` off the store.
  private var detachEffects: (@MainActor () -> Void)?
  /// The last `seq` other writers appended, seen by an effect line and not yet by an entry.
  private var othersAppended: Int?

  /// The sequence number of the last entry written, 0 if none.
  public private(set) var lastSequence: Int
  /// How many entries this recorder has written.
  public private(set) var entriesRecorded = 0
  /// Hears every recording error; by default they go to the store's `onUnhandledError`.
  public var onError: (@MainActor (ActionLogError) -> Void)?

  /// Starts recording `store` into `destination`.
  ///
  /// - Throws: ``ActionLogError`` if the file cannot be opened, an existing log has a bad header
  ///   or another state type, the registry has conflicting names, or checkpoints or diffs are
  ///   asked for a state that is not `Encodable`.
  public init<S, D>(
    store: Store<S, D>, registry: ActionLogRegistry<S>, destination: Destination,
    options: Options = Options()
  ) throws(ActionLogError) {
    try registry.validate()
    if options.checkpointInterval != nil || options.recordsDiffs, !(store.state is any Encodable) {
      throw .stateNotEncodable(stateType: String(reflecting: S.self))
    }
    var startSequence = 0
    var needsHeader = true
    // A log with diffs is of the newest version, unless it goes on an older log: its diffs are
    // then written for that version's readers.
    var lastEffect = 0
    var version =
      options.recordsDiffs || options.recordsEffects
      ? ActionLogFormat.version : ActionLogFormat.versionWithoutDiffs
    switch destination {
    case .memory:
      sink = LogSink(.memory, name: "memory", bufferCapacity: 0)
    case .fileHandle(let handle):
      sink = LogSink(
        .handle(handle, closes: false), name: "file handle",
        bufferCapacity: options.bufferCapacity)
    case .file(let url):
      // Opened with the file's lock held: the header and the first checkpoint go in before
      // any other writer's line.
      let opened = try LogFile.openForAppending(url, stateType: S.self)
      sink = LogSink(
        .file(opened.file), name: url.path, bufferCapacity: options.bufferCapacity)
      startSequence = opened.lastSequence
      needsHeader = opened.needsHeader
      if let existing = opened.version { version = min(version, existing) }
      lastEffect = opened.lastEffect
    }
    defer { sink.endAppend() }
    lastSequence = startSequence
    reportError = { [weak store] error, dispatchable in
      store?.onUnhandledError(error, dispatchable ?? RecordingFailure())
    }
    var encoder = LineEncoder(registry: registry)
    if needsHeader {
      try sink.write(
        ActionLogHeader.recorderLine(stateType: S.self, created: options.clock(), version: version))
    }
    var diffs = options.recordsDiffs ? DiffRecording<S>(version: version) : nil
    // The base of the first diff: written at once with periodic checkpoints, otherwise with the
    // first entry, so that a run that changes nothing adds nothing to the log.
    var pendingCheckpoint: Data?
    if options.checkpointInterval != nil || options.recordsDiffs {
      let checkpoint = try encoder.checkpoint(store.state, sequence: startSequence)
      diffs?.reset(toCheckpoint: checkpoint)
      if options.checkpointInterval != nil {
        try sink.write(checkpoint)
      } else {
        pendingCheckpoint = checkpoint
      }
    }
    sink.reportFailure = { [weak self] error in self?.report(error, nil) }
    subscription = store.observeUpdates { [weak self, weak store] update in
      guard let self else { return }
      let appendedByOthers: Int?
      do throws(ActionLogError) {
        appendedByOthers = try self.beginAppend() ?? self.othersAppended
        self.othersAppended = nil
      } catch {
        self.report(error, update.updater)
        return
      }
      defer { self.sink.endAppend() }
      var base: Data?
      if let others = appendedByOthers {
        // Other writers' entries came in between: this entry follows theirs, and in diff mode
        // its diff needs this store's state before it, as a checkpoint.
        self.lastSequence = others
        pendingCheckpoint = nil
        base = diffs?.checkpoint(sequence: others)
      }
      guard LogSequence.entries.contains(self.lastSequence + 1) else {
        self.report(
          .fileError(
            path: self.sink.name,
            reason: "the log's numbering is used up at seq \(self.lastSequence); start a new log"),
          update.updater)
        return
      }
      self.lastSequence += 1
      let time = options.recordsTime ? options.clock() : nil
      var (line, failure) = encoder.entry(
        update.updater, sequence: self.lastSequence, cause: update.cause, time: time,
        site: options.recordsSites ? update.site : nil, writesCauseChain: options.recordsSites,
        spareCapacity: diffs == nil ? 0 : DiffRecording<S>.usualDiffLength,
        effect: self.effectRecording?.effect(dispatching: update.cause))
      let diffed = store.flatMap { diffs?.appendDiff(to: &line, after: $0.state) }
      if let checkpoint = pendingCheckpoint ?? base {
        pendingCheckpoint = nil
        line = checkpoint + line
      }
      if let failure { self.report(failure, update.updater) } else { self.entriesRecorded += 1 }
      if let diffFailure = diffed?.failure { self.report(diffFailure, update.updater) }
      self.entriesSinceCheckpoint += 1
      let isDue = options.checkpointInterval.map { self.entriesSinceCheckpoint >= $0 } ?? false
      if let store, isDue || diffed?.needsCheckpoint == true {
        self.entriesSinceCheckpoint = 0
        do throws(ActionLogError) {
          let checkpoint = try encoder.checkpoint(store.state, sequence: self.lastSequence)
          // One write with the entry: no other writer's line can come between them.
          line.append(checkpoint)
          diffs?.reset(toCheckpoint: checkpoint)
        } catch {
          self.report(error, update.updater)
        }
      }
      self.write(line, for: update.updater)
    }
    // A version-1 log stays readable by 0.1.0, which knows no effect lines.
    if options.recordsEffects, version >= ActionLogFormat.version {
      let recording = EffectRecording(
        clock: options.effectClock, numberingAfter: lastEffect,
        effectCodec: { registry.effectCodec(for: type(of: $0)) },
        write: { [weak self] line in self?.writeEffectLine(line) },
        report: { [weak self] error in self?.report(error, nil) })
      effectRecording = recording
      store.attachEffectLog(recording)
      detachEffects = { [weak store] in
        if let store, store.effectLog === recording { store.attachEffectLog(nil) }
      }
    }
  }

  isolated deinit {
    detachEffects?()
    subscription?.cancel()
    do { try sink.close() } catch { report(error, nil) }
  }

  /// The log written so far, when the destination is ``Destination/memory``; empty otherwise.
  public var recordedData: Data { sink.memory }

  /// Writes any buffered lines.
  public func flush() throws(ActionLogError) {
    try sink.flush()
  }

  /// Writes any buffered lines and waits until the file is on disk (`fsync`).
  ///
  /// Call it before a command-line program exits, so a recorded session survives a power cut.
  public func synchronize() throws(ActionLogError) {
    try sink.synchronize()
  }

  /// Stops recording, writes any buffered lines and closes a file the recorder opened.
  ///
  /// Calling it again does nothing.
  public func stop() throws(ActionLogError) {
    guard let subscription else { return }
    subscription.cancel()
    self.subscription = nil
    detachEffects?()
    detachEffects = nil
    try sink.close()
  }

  /// Takes the log's lock, and returns the last `seq` other writers appended since this
  /// recorder last wrote, `nil` if none; the effects they numbered meanwhile are noted, so
  /// that this recorder numbers its next effect after theirs.
  private func beginAppend() throws(ActionLogError) -> Int? {
    guard let appended = try sink.beginAppend() else { return nil }
    effectRecording?.numberAfter(appended.lastEffect)
    return appended.lastSequence
  }

  /// Writes an effect line, which `make` makes from the `seq` of the last entry in the log,
  /// under the log's lock.
  private func writeEffectLine(_ make: (Int) -> Data) {
    // Stopped: the effects it followed end, or record values, with nowhere to write.
    guard subscription != nil else { return }
    do throws(ActionLogError) {
      if let others = try beginAppend() {
        othersAppended = others
        lastSequence = others
      }
    } catch {
      report(error, nil)
      return
    }
    defer { sink.endAppend() }
    write(make(lastSequence), for: nil)
  }

  private func write(_ line: Data, for updater: (any Dispatchable)?) {
    do { try sink.write(line) } catch { report(error, updater) }
  }

  private func report(_ error: ActionLogError, _ updater: (any Dispatchable)?) {
    if let onError { onError(error) } else { reportError(error, updater) }
  }
}

/// Stands for "the action recorder" in `onUnhandledError` when no updater is involved.
private struct RecordingFailure: Dispatchable {}
