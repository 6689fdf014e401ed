import Foundation
import StatePersistence
import StateStore

/// Real or simulated calls with one fault injected: the `occurrence`-th call of `kind` fails
/// with `code` (and, when `persistent`, every later call of that kind too).
///
/// Counts every call by kind, so a dry run tells a sweep how many points it has, and records
/// whether its fault landed, so a sweep proves each run tested something. Shared by the tests of
/// StatePersistence and of the todo app, which reaches the disk through the same seam.
package final class FaultyCalls: SystemCalls, CustomStringConvertible {
  /// The call that fails, how, and from when.
  package struct Fault: Sendable, CustomStringConvertible {
    package var kind: SystemCallKind
    package var occurrence: Int
    package var code: Int32
    package var persistent = false
    /// Whether every write takes at most half of what it is given (at least a byte), so that
    /// a line is written in pieces.
    package var shortWrites = false

    package init(
      kind: SystemCallKind, occurrence: Int, code: Int32, persistent: Bool = false,
      shortWrites: Bool = false
    ) {
      self.kind = kind
      self.occurrence = occurrence
      self.code = code
      self.persistent = persistent
      self.shortWrites = shortWrites
    }

    package var description: String {
      "\(kind) #\(occurrence) fails with \(String(cString: strerror(code)))"
        + (persistent ? " and keeps failing" : "") + (shortWrites ? ", short writes" : "")
    }
  }

  private struct Counters {
    var calls: [SystemCallKind: Int] = [:]
    var injected = 0
    var fault: Fault?
  }

  package let base: any SystemCalls
  private let counters: _SpinLocked<Counters>

  package init(_ base: any SystemCalls, fault: Fault? = nil) {
    self.base = base
    counters = _SpinLocked(Counters(fault: fault))
  }

  /// How many calls of each kind were made.
  package var calls: [SystemCallKind: Int] { counters.withLock { $0.calls } }
  /// How many calls the fault failed.
  package var injected: Int { counters.withLock { $0.injected } }

  /// The fault, or that there is none.
  package var description: String {
    counters.withLock { $0.fault.map { "\($0)" } ?? "no fault" }
  }

  /// Replaces the fault; counting goes on.
  package func inject(_ fault: Fault?) {
    counters.withLock { $0.fault = fault }
  }

  private func check(_ kind: SystemCallKind) throws(SystemCallFailure) {
    let code = counters.withLock { counters -> Int32? in
      let count = (counters.calls[kind] ?? 0) + 1
      counters.calls[kind] = count
      guard let fault = counters.fault, fault.kind == kind,
        count == fault.occurrence || (fault.persistent && count > fault.occurrence)
      else { return nil }
      counters.injected += 1
      return fault.code
    }
    if let code { throw SystemCallFailure(kind, code: code) }
  }

  package func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemCallFailure) -> Int32 {
    try check(.open)
    return try base.open(path, flags: flags, mode: mode)
  }

  package func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int)
    throws(SystemCallFailure) -> Int
  {
    try check(.read)
    return try base.read(descriptor, into: buffer, at: offset)
  }

  package func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int)
    throws(SystemCallFailure) -> Int
  {
    try check(.write)
    let shortWrites = counters.withLock { $0.fault?.shortWrites ?? false }
    let allowed = shortWrites ? max(1, bytes.count / 2) : bytes.count
    return try base.write(
      descriptor, UnsafeRawBufferPointer(rebasing: bytes.prefix(allowed)), at: offset)
  }

  package func synchronize(_ descriptor: Int32) throws(SystemCallFailure) {
    try check(.synchronize)
    try base.synchronize(descriptor)
  }

  package func truncate(_ descriptor: Int32, to length: Int) throws(SystemCallFailure) {
    try check(.truncate)
    try base.truncate(descriptor, to: length)
  }

  package func size(_ descriptor: Int32) throws(SystemCallFailure) -> Int {
    try check(.size)
    return try base.size(descriptor)
  }

  package func lock(_ descriptor: Int32, operation: Int32) throws(SystemCallFailure) {
    try check(.lock)
    try base.lock(descriptor, operation: operation)
  }

  /// Closes the descriptor even when the fault fails the call, as Linux does.
  package func close(_ descriptor: Int32) throws(SystemCallFailure) {
    let injected = Result { () throws(SystemCallFailure) in try check(.close) }
    try base.close(descriptor)
    try injected.get()
  }

  package func rename(_ from: String, to: String) throws(SystemCallFailure) {
    try check(.rename)
    try base.rename(from, to: to)
  }

  package func unlink(_ path: String) throws(SystemCallFailure) {
    try check(.unlink)
    try base.unlink(path)
  }

  package func makeDirectory(_ path: String, mode: mode_t) throws(SystemCallFailure) {
    try check(.makeDirectory)
    try base.makeDirectory(path, mode: mode)
  }

  package func contentsOfDirectory(_ path: String) throws(SystemCallFailure) -> [String] {
    try check(.contentsOfDirectory)
    return try base.contentsOfDirectory(path)
  }
}

/// Calls that pass everything to `base`: a test double implements only the calls it changes.
package protocol ForwardingCalls: SystemCalls {
  /// The calls this one passes on to.
  var base: any SystemCalls { get }
}

extension ForwardingCalls {
  package func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemCallFailure) -> Int32 {
    try base.open(path, flags: flags, mode: mode)
  }

  package func read(
    _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int
  ) throws(SystemCallFailure) -> Int {
    try base.read(descriptor, into: buffer, at: offset)
  }

  package func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int)
    throws(SystemCallFailure) -> Int
  {
    try base.write(descriptor, bytes, at: offset)
  }

  package func synchronize(_ descriptor: Int32) throws(SystemCallFailure) {
    try base.synchronize(descriptor)
  }

  package func truncate(_ descriptor: Int32, to length: Int) throws(SystemCallFailure) {
    try base.truncate(descriptor, to: length)
  }

  package func size(_ descriptor: Int32) throws(SystemCallFailure) -> Int {
    try base.size(descriptor)
  }

  package func lock(_ descriptor: Int32, operation: Int32) throws(SystemCallFailure) {
    try base.lock(descriptor, operation: operation)
  }

  package func close(_ descriptor: Int32) throws(SystemCallFailure) { try base.close(descriptor) }

  package func rename(_ from: String, to: String) throws(SystemCallFailure) {
    try base.rename(from, to: to)
  }

  package func unlink(_ path: String) throws(SystemCallFailure) { try base.unlink(path) }

  package func makeDirectory(_ path: String, mode: mode_t) throws(SystemCallFailure) {
    try base.makeDirectory(path, mode: mode)
  }

  package func contentsOfDirectory(_ path: String) throws(SystemCallFailure) -> [String] {
    try base.contentsOfDirectory(path)
  }
}
