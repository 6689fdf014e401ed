import Foundation
import Synchronization
import TerminalKit

@testable import TodoCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The kinds of call the storage makes through ``SystemCalls``.
enum CallKind: String, CaseIterable, Sendable, CustomStringConvertible {
  case open, write, read, sync, truncate, rename, close, makeDirectory, unlink, size, lock

  var description: String { rawValue }
}

/// A planned failure: the `number`th call of `kind` fails with `code`, and with `persistent`
/// every later call of that kind too (a disk that stays broken).
final class Fault: Sendable, CustomStringConvertible {
  let kind: CallKind
  let number: Int
  let code: Int32
  let persistent: Bool
  /// Whether writes take at most half of what they are given, so a line is written in pieces.
  let shortWrites: Bool
  private let counts = Mutex<[CallKind: Int]>([:])
  private let hits = Mutex(0)

  init(
    _ kind: CallKind, number: Int, code: Int32 = EIO, persistent: Bool = false,
    shortWrites: Bool = false
  ) {
    self.kind = kind
    self.number = number
    self.code = code
    self.persistent = persistent
    self.shortWrites = shortWrites
  }

  /// Whether the fault failed at least one call.
  var hit: Bool { hits.withLock { $0 > 0 } }

  /// A fault that fails nothing: it only counts the calls of each kind.
  static func none() -> Fault { Fault(.open, number: .max) }

  /// The kinds of call made so far: all of them counted, failed or not.
  var kindsCalled: Set<CallKind> {
    counts.withLock { counts in Set(counts.filter { $0.value > 0 }.keys) }
  }

  /// How many calls of `kind` were made so far.
  func calls(of kind: CallKind) -> Int {
    counts.withLock { $0[kind, default: 0] }
  }

  var description: String {
    "\(kind) #\(number)\(persistent ? " and after" : "") with errno \(code)"
      + (shortWrites ? ", short writes" : "")
  }

  /// Counts a call of `kind`; sets `errno` and returns `true` if it is to fail.
  func fails(_ kind: CallKind) -> Bool {
    let count = counts.withLock { counts in
      counts[kind, default: 0] += 1
      return counts[kind, default: 0]
    }
    guard kind == self.kind, persistent ? count >= number : count == number else {
      return false
    }
    hits.withLock { $0 += 1 }
    errno = code
    return true
  }
}

extension SystemCalls {
  /// These calls, with `fault` injected.
  func injecting(_ fault: Fault) -> SystemCalls {
    let base = self
    var calls = self
    calls.open = { path, flags, mode in fault.fails(.open) ? -1 : base.open(path, flags, mode) }
    calls.write = { descriptor, buffer, count, offset in
      if fault.fails(.write) { return -1 }
      let allowed = fault.shortWrites ? max(1, count / 2) : count
      return base.write(descriptor, buffer, allowed, offset)
    }
    calls.read = { descriptor, buffer, count, offset in
      fault.fails(.read) ? -1 : base.read(descriptor, buffer, count, offset)
    }
    calls.sync = { descriptor in fault.fails(.sync) ? -1 : base.sync(descriptor) }
    calls.truncate = { descriptor, length in
      fault.fails(.truncate) ? -1 : base.truncate(descriptor, length)
    }
    calls.rename = { from, to in fault.fails(.rename) ? -1 : base.rename(from, to) }
    calls.close = { descriptor in
      // The descriptor is released even when close fails, as on Linux.
      let result = base.close(descriptor)
      return fault.fails(.close) ? -1 : result
    }
    calls.makeDirectory = { path, mode in
      fault.fails(.makeDirectory) ? -1 : base.makeDirectory(path, mode)
    }
    calls.unlink = { path in fault.fails(.unlink) ? -1 : base.unlink(path) }
    calls.size = { descriptor in fault.fails(.size) ? -1 : base.size(descriptor) }
    calls.lock = { descriptor, operation in
      fault.fails(.lock) ? -1 : base.lock(descriptor, operation)
    }
    return calls
  }
}

/// A console that keeps what a command writes; its output, and its messages, can be made to
/// fail.
final class RecordingConsole: Sendable {
  private let text = Mutex((output: "", error: ""))
  let failsOutput: Bool
  /// Whether messages are lost, as on a standard error that is a full disk.
  let failsMessages: Bool

  init(failsOutput: Bool = false, failsMessages: Bool = false) {
    self.failsOutput = failsOutput
    self.failsMessages = failsMessages
  }

  var output: String { text.withLock { $0.output } }
  var error: String { text.withLock { $0.error } }

  var console: Console {
    Console(
      checkedOutput: { [self] written in
        if failsOutput { throw OutputError(reason: "No space left on device") }
        text.withLock { $0.output += written }
      },
      error: { [self] written in
        if !failsMessages { text.withLock { $0.error += written } }
      })
  }
}
