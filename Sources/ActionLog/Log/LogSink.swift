import Foundation

/// Where a recorder's lines go: a shared log file, a file handle or memory, optionally through
/// a buffer.
///
/// Every `write` to the file or handle carries whole lines, each ending in a newline, so a crash
/// leaves at most one torn line at the end of the file, never a line cut in the middle of the
/// log. A log file is appended to between ``beginAppend()`` and ``endAppend()``, under its
/// lock; buffered lines keep the lock until they are flushed, so that their numbering stays
/// right. A writer of this process that keeps a file's lock so is asked to write its lines
/// before another of this process takes the lock (``LogFileHolders``).
@MainActor
final class LogSink {
  enum Destination {
    case file(LogFile)
    case handle(FileHandle, closes: Bool)
    case memory
  }

  private let destination: Destination
  /// The file's path, or a description of the handle, for error messages.
  let name: String
  private let bufferCapacity: Int
  private var buffer = Data()
  /// Everything written, when the destination is memory.
  private(set) var memory = Data()
  /// Hears a failure to write the buffered lines when another writer of this process asked
  /// for the file's lock.
  var reportFailure: (ActionLogError) -> Void = { _ in }

  init(_ destination: Destination, name: String, bufferCapacity: Int) {
    self.destination = destination
    self.name = name
    self.bufferCapacity = bufferCapacity
  }

  /// Makes ready to append lines: takes a log file's lock, and returns what other writers
  /// appended since this sink last wrote, `nil` if they appended nothing.
  func beginAppend() throws(ActionLogError) -> LogFile.Appended? {
    guard case .file(let file) = destination else { return nil }
    if !file.isLocked, let key = file.key { LogFileHolders.makeWay(for: key) }
    return try file.lock()
  }

  /// Ends what ``beginAppend()`` started: releases a log file's lock unless buffered lines
  /// wait.
  func endAppend() {
    guard case .file(let file) = destination else { return }
    if buffer.isEmpty {
      if file.isLocked, let key = file.key { LogFileHolders.release(key) }
      file.unlock()
    } else if let key = file.key {
      LogFileHolders.hold(key) { [weak self] in self?.letGo() }
    }
  }

  /// Writes the buffered lines and releases the file's lock, for another writer of this
  /// process.
  private func letGo() {
    do throws(ActionLogError) {
      try flush()
    } catch {
      reportFailure(error)
    }
  }

  func write(_ line: Data) throws(ActionLogError) {
    if case .memory = destination {
      memory.append(line)
      return
    }
    guard bufferCapacity > 0 else {
      try output(line)
      return
    }
    buffer.append(line)
    if buffer.count >= bufferCapacity { try flush() }
  }

  func flush() throws(ActionLogError) {
    defer { endAppend() }
    guard !buffer.isEmpty else { return }
    let pending = buffer
    buffer.removeAll(keepingCapacity: true)
    try output(pending)
  }

  func synchronize() throws(ActionLogError) {
    try flush()
    switch destination {
    case .memory:
      return
    case .file(let file):
      try file.synchronize()
    case .handle(let handle, _):
      do {
        try handle.synchronize()
      } catch {
        throw .fileError(path: name, reason: "fsync failed: \(error.localizedDescription)")
      }
    }
  }

  func close() throws(ActionLogError) {
    defer {
      switch destination {
      case .file(let file): file.close()
      case .handle(let handle, closes: true): try? handle.close()
      case .handle, .memory: break
      }
    }
    try flush()
  }

  private func output(_ data: Data) throws(ActionLogError) {
    switch destination {
    case .memory:
      memory.append(data)
    case .file(let file):
      try file.append(data)
    case .handle(let handle, _):
      do {
        try handle.write(contentsOf: data)
      } catch {
        throw .fileError(path: name, reason: "write failed: \(error.localizedDescription)")
      }
    }
  }
}
