import Foundation
import StatePersistence
import StateStore

/// Real or simulated calls with one fault injected: the `occurrence`-th call of `kind` fails
/// with `code` (and, when `persistent`, every later call of that kind too).
///
/// Counts every call by kind, so a dry run tells a sweep how many points it has, and records
/// whether its fault landed, so a sweep proves each run tested something.
final class FaultyCalls: SystemCalls {
  struct Fault: Sendable, CustomStringConvertible {
    var kind: SystemCallKind
    var occurrence: Int
    var code: Int32
    var persistent = false

    var description: String {
      "\(kind) #\(occurrence) fails with \(String(cString: strerror(code)))"
        + (persistent ? " and keeps failing" : "")
    }
  }

  private struct Counters {
    var calls: [SystemCallKind: Int] = [:]
    var injected = 0
    var fault: Fault?
  }

  let base: any SystemCalls
  private let counters: SpinLocked<Counters>

  init(_ base: any SystemCalls, fault: Fault? = nil) {
    self.base = base
    counters = SpinLocked(Counters(fault: fault))
  }

  /// How many calls of each kind were made.
  var calls: [SystemCallKind: Int] { counters.withLock { $0.calls } }
  /// How many calls the fault failed.
  var injected: Int { counters.withLock { $0.injected } }

  /// Replaces the fault; counting goes on.
  func inject(_ fault: Fault?) {
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

  func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemCallFailure) -> Int32 {
    try check(.open)
    return try base.open(path, flags: flags, mode: mode)
  }

  func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int)
    throws(SystemCallFailure) -> Int
  {
    try check(.read)
    return try base.read(descriptor, into: buffer, at: offset)
  }

  func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int)
    throws(SystemCallFailure) -> Int
  {
    try check(.write)
    return try base.write(descriptor, bytes, at: offset)
  }

  func synchronize(_ descriptor: Int32) throws(SystemCallFailure) {
    try check(.synchronize)
    try base.synchronize(descriptor)
  }

  func truncate(_ descriptor: Int32, to length: Int) throws(SystemCallFailure) {
    try check(.truncate)
    try base.truncate(descriptor, to: length)
  }

  func size(_ descriptor: Int32) throws(SystemCallFailure) -> Int {
    try check(.size)
    return try base.size(descriptor)
  }

  func lock(_ descriptor: Int32, operation: Int32) throws(SystemCallFailure) {
    try check(.lock)
    try base.lock(descriptor, operation: operation)
  }

  func close(_ descriptor: Int32) throws(SystemCallFailure) {
    try check(.close)
    try base.close(descriptor)
  }

  func rename(_ from: String, to: String) throws(SystemCallFailure) {
    try check(.rename)
    try base.rename(from, to: to)
  }

  func unlink(_ path: String) throws(SystemCallFailure) {
    try check(.unlink)
    try base.unlink(path)
  }

  func makeDirectory(_ path: String, mode: mode_t) throws(SystemCallFailure) {
    try check(.makeDirectory)
    try base.makeDirectory(path, mode: mode)
  }

  func contentsOfDirectory(_ path: String) throws(SystemCallFailure) -> [String] {
    try check(.contentsOfDirectory)
    return try base.contentsOfDirectory(path)
  }
}
