import ActionLog
import Foundation
import StateStore

/// Reads a journal's directory: the snapshot, then every entry after it, in order.
///
/// The rules, which the writer keeps:
/// - Entries are numbered from 1 without gaps, across segments.
/// - A segment whose entries the snapshot covers may still be there (a crash between the
///   snapshot and the removal); it is skipped.
/// - Only the last segment may end in a torn tail: what follows its last newline, or a last
///   line of NUL bytes with only NUL bytes after it (see `JSONLines`). A torn tail anywhere
///   else, or any line that does not decode, is damage.
struct JournalRecovery<S: State & Codable> {
  let layout: JournalLayout
  let files: FileAccess
  let registry: ActionLogRegistry<S>
  let schema: Int
  /// How files of an older schema version are read.
  var migrations = Migrations()
  /// Whether to keep every entry read, decoded and not applied, in ``Recovered/history``, for
  /// history and undo; ``Recovered/state`` is then the state before the first.
  var keepsHistory = false
  /// Whether to read from the journal's first entry, ignoring the snapshot, when the segment
  /// holding it is still there (``JournalOptions/keepsFullHistory``).
  var readsFromFirstEntry = false

  /// The last segment, as the writer continues it.
  struct Tail {
    /// The segment's first entry.
    var first: Int
    /// The length up to the end of its last complete line; 0 when even its header is torn.
    var committedLength: Int
    /// The file's length, longer than `committedLength` by a torn tail's bytes.
    var size: Int
    /// The schema version its header names.
    var schema: Int
  }

  /// What was read.
  struct Recovered: Sendable {
    /// The state after the entries read; when catching up (see
    /// ``read(initialState:after:retiring:)``) or keeping history, the state before the first of
    /// ``entries`` or ``history``.
    var state: S
    var lastSequence: Int
    var snapshotSequence: Int
    /// Every segment's first entry, in order.
    var segments: [Int]
    var tail: Tail?
    /// Entries and bytes after the snapshot, to know when the next one is due.
    var entriesSinceSnapshot = 0
    var bytesSinceSnapshot = 0
    var damage: PersistenceError?
    /// The oldest schema version of the files read: older than the current one when the
    /// directory needs an upgrade.
    var oldestSchema: Int
    /// With ``JournalRecovery/keepsHistory``: every entry after ``state``, decoded and not
    /// applied, in order.
    var history: [HistoryEntry<S>] = []
    /// When catching up: every entry after ``state``, decoded and not applied, in order.
    var entries: [HeardEntry<S>] = []
    /// When catching up: whether the snapshot covers entries after the one
    /// ``read(initialState:after:retiring:)`` was given (their segments may be gone: only the whole
    /// replay says what they did).
    var snapshotCoversUnheard = false
  }

  /// Reads everything; damage is returned in ``Recovered/damage`` with the state up to it.
  ///
  /// Given `known`, the entry this reader read last (it is catching up with other processes'
  /// appends, while its store runs), the updaters are decoded and not applied: they are kept in
  /// ``Recovered/entries``, after the snapshot's state, for the store's actor to apply and
  /// release, as a store releases the application's values. Whatever this read made and does
  /// not return (a file that vanished, a failure) is handed to `retire`, which keeps it for the
  /// store's actor, so that the reader never holds the last reference to any of it.
  ///
  /// - Complexity: O(snapshot + journal after it), plus, unless catching up or keeping history,
  ///   the updaters' own cost.
  ///
  /// A file listed in the directory that is gone when it is opened was removed by a writer
  /// compacting the journal meanwhile (it removes covered segments only once a snapshot that
  /// covers them is durable): the directory is listed and read again, so a reader without the
  /// lock never mistakes a compaction for an older or empty journal.
  func read(
    initialState: S, after known: Int? = nil,
    retiring retire: (consuming Recovered) -> Void = { _ in }
  ) throws(PersistenceError) -> Recovered {
    try registry.validateForPersistence(path: layout.directory)
    var attempts = 0
    while true {
      attempts += 1
      let names: [String]
      do {
        names = try files.names(in: layout.directory)
      } catch .systemCall(_, _, let code) where code == ENOENT {
        names = []
      }
      var attempt = Recovered(
        state: initialState, lastSequence: 0, snapshotSequence: 0,
        segments: JournalLayout.segmentStarts(names), oldestSchema: schema)
      let isComplete: Bool
      do throws(PersistenceError) {
        isComplete = try readOnce(after: known, names: names, into: &attempt)
      } catch {
        retire(consume attempt)
        throw error
      }
      if isComplete { return attempt }
      retire(consume attempt)
      guard attempts < 64 else {
        throw .damaged(
          file: layout.directory, line: nil,
          reason: "its files kept vanishing while they were read (\(attempts) tries)")
      }
    }
  }

  /// Reads everything once into `recovered`, as ``read(initialState:after:retiring:)`` does,
  /// the directory listing `names`.
  ///
  /// - Returns: `false` when a listed file vanished before it was opened.
  private func readOnce(
    after known: Int?, names: [String], into recovered: inout Recovered
  ) throws(PersistenceError) -> Bool {
    let fromFirstEntry = readsFromFirstEntry && recovered.segments.first == 1
    if names.contains("snapshot.json") && !fromFirstEntry {
      do throws(PersistenceError) {
        guard let bytes = try files.contents(of: layout.snapshotPath) else { return false }
        let (state, header) = try SnapshotCodec.decode(
          S.self, from: bytes, path: layout.snapshotPath, schema: schema,
          migrations: migrations)
        guard header.seq < Int.max else {
          throw PersistenceError.damaged(
            file: layout.snapshotPath, line: 1,
            reason: "the snapshot claims entry \(header.seq), past the last number an entry "
              + "can have (\(Int.max - 1))")
        }
        recovered.state = state
        recovered.oldestSchema = min(recovered.oldestSchema, header.schema)
        recovered.lastSequence = header.seq
        recovered.snapshotSequence = header.seq
        if let known, header.seq > known { recovered.snapshotCoversUnheard = true }
      } catch .damaged(let file, let line, let reason) {
        recovered.damage = .damaged(file: file, line: line, reason: reason)
        return true
      }
    }
    let needed = JournalLayout.neededSegments(
      recovered.segments, snapshotSequence: recovered.snapshotSequence)
    for first in needed {
      let isLast = first == recovered.segments.last
      do throws(PersistenceError) {
        guard
          try readSegment(first: first, isLast: isLast, catchingUp: known != nil, into: &recovered)
        else { return false }
      } catch .damaged(let file, let line, let reason) {
        recovered.damage = .damaged(file: file, line: line, reason: reason)
        return true
      }
    }
    return true
  }

  /// Reads the segment starting at entry `first` into `recovered`.
  ///
  /// - Returns: `false` when the segment is gone.
  private func readSegment(
    first: Int, isLast: Bool, catchingUp: Bool, into recovered: inout Recovered
  ) throws(PersistenceError) -> Bool {
    let path = layout.segmentPath(first: first)
    func damaged(_ line: Int?, _ reason: String) -> PersistenceError {
      .damaged(file: path, line: line, reason: reason)
    }
    guard first <= recovered.lastSequence + 1 else {
      throw damaged(
        nil,
        "it starts at entry \(first), but the entries before it end at "
          + "\(recovered.lastSequence): entries are missing")
    }
    guard let bytes = try files.contents(of: path) else { return false }
    let (lines, tornStart) = JSONLines.readable(bytes)
    guard let headerLine = lines.first else {
      // The process creating the segment died before its header was complete.
      guard isLast else { throw damaged(1, "the segment has no complete header line") }
      recovered.tail = Tail(first: first, committedLength: 0, size: bytes.count, schema: schema)
      return true
    }
    let segmentSchema = try validateHeader(bytes[headerLine], path: path)
    recovered.oldestSchema = min(recovered.oldestSchema, segmentSchema)
    let applying = migrations.operations(from: segmentSchema, to: schema)
    if tornStart != nil && !isLast {
      throw damaged(lines.count + 1, "the last line is incomplete, and later segments follow")
    }
    let decoder = JSONDecoder()
    for (offset, range) in lines.dropFirst().enumerated() {
      let number = offset + 2
      if !keepsHistory, let sequence = Self.leadingSequence(bytes[range]),
        sequence <= recovered.snapshotSequence, sequence <= recovered.lastSequence
      {
        // An entry the snapshot covers, in the segment the snapshot was taken in: skipped
        // without decoding, as the slow path below would skip it once decoded.
        continue
      }
      let line: LogLine<S>
      let text =
        applying.isEmpty
        ? bytes[range]
        : try migrations.migrateLine(bytes[range], through: applying, file: path, line: number)[...]
      do {
        line = try decoder.decode(LogLine<S>.self, from: Data(text), configuration: registry)
      } catch {
        throw damaged(number, LineFailure.error(for: error, line: number).reason)
      }
      switch line {
      case .checkpoint, .effect:
        continue
      case .unrecorded(let sequence, let type, let reason):
        throw damaged(number, "entry \(sequence) (\(type)) was not recorded: \(reason)")
      case .entry(let sequence, let type, let updater, let fullCause, let time, _, _):
        let cause = fullCause?.name
        if sequence <= recovered.lastSequence {
          guard sequence <= recovered.snapshotSequence else {
            throw damaged(
              number, "entry \(sequence) comes after entry \(recovered.lastSequence)")
          }
          continue
        }
        guard sequence < Int.max else {
          throw damaged(
            number, "entry \(sequence) is past the last number an entry can have (\(Int.max - 1))")
        }
        guard sequence == recovered.lastSequence + 1 else {
          throw damaged(
            number,
            "expected entry \(recovered.lastSequence + 1) but found entry \(sequence)")
        }
        // Applied here only for an open or a `read()`, before any store holds the state: an
        // updater releases what it replaces as it goes, so a running store's reads hand their
        // updaters to its actor, which applies them.
        if catchingUp {
          recovered.entries.append(HeardEntry(sequence: sequence, updater: updater, cause: cause))
        } else if keepsHistory {
          let fields = try? decoder.decode(HistoryFields.self, from: Data(text))
          recovered.history.append(
            HistoryEntry(
              sequence: sequence, type: type, scope: fields?.scope, cause: cause, time: time,
              undoes: fields?.undoes, updater: updater))
        } else {
          updater.updateState(&recovered.state)
        }
        recovered.lastSequence = sequence
        recovered.entriesSinceSnapshot += 1
        recovered.bytesSinceSnapshot += range.count + 1
      }
    }
    let committed = lines.last.map { $0.upperBound + 1 } ?? 0
    recovered.tail = Tail(
      first: first, committedLength: committed, size: bytes.count, schema: segmentSchema)
    return true
  }

  /// The entry number of a line that begins as the journal writes entries, `{"seq":N,`; `nil`
  /// for any other line, which is decoded in full.
  static func leadingSequence(_ line: ArraySlice<UInt8>) -> Int? {
    let prefix = Array(#"{"seq":"#.utf8)
    guard line.count > prefix.count + 1, line.starts(with: prefix) else { return nil }
    var value = 0
    var index = line.startIndex + prefix.count
    while index < line.endIndex, let digit = line[index].wholeNumberDigit {
      let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowSum) = times.addingReportingOverflow(digit)
      guard !overflowTimes, !overflowSum else { return nil }
      value = sum
      index += 1
    }
    guard index > line.startIndex + prefix.count, index < line.endIndex,
      line[index] == UInt8(ascii: ",")
    else { return nil }
    return value
  }

  /// Checks a segment's header line and returns its schema version.
  private func validateHeader(_ line: ArraySlice<UInt8>, path: String) throws(PersistenceError)
    -> Int
  {
    do {
      _ = try ActionLogHeader.validated(Data(line), line: 1)
    } catch {
      throw .damaged(file: path, line: 1, reason: error.reason)
    }
    let found: Int
    do {
      found = try JSONDecoder().decode(JournalLayout.SchemaField.self, from: Data(line)).schema ?? 1
    } catch {
      throw .damaged(file: path, line: 1, reason: "the schema version is not a whole number")
    }
    guard found <= schema else {
      throw .newerSchema(file: path, found: found, supported: schema)
    }
    return found
  }
}

/// The keys of an entry that history shows besides the action log's own.
private struct HistoryFields: Decodable {
  var scope: String?
  var undoes: Int?
}

extension ActionLogRegistry {
  /// Throws the registry's first conflict as a persistence error.
  func validateForPersistence(path: String) throws(PersistenceError) {
    do {
      try validate()
    } catch {
      throw .closed(reason: "the registry for \(path) is invalid: \(error)")
    }
  }
}

extension ActionLogError {
  /// The description without the "action log line N:" prefix, which a persistence error
  /// replaces with the file and the line.
  var reason: String {
    let text = description
    guard text.hasPrefix("action log line "), let colon = text.firstIndex(of: ":") else {
      return text
    }
    return String(text[text.index(after: colon)...].drop { $0 == " " })
  }
}

extension UInt8 {
  /// The value of an ASCII decimal digit; `nil` for any other byte.
  fileprivate var wholeNumberDigit: Int? {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) ? Int(self - UInt8(ascii: "0")) : nil
  }
}
