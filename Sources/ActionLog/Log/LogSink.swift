import Foundation

/// Where a recorder's lines go: a file handle or memory, optionally through a buffer.
///
/// Every `write` to the handle carries whole lines, each ending in a newline, so a crash leaves
/// at most one torn line at the end of the file, never a line cut in the middle of the log.
final class LogSink {
  private let handle: FileHandle?
  /// The file's path, or a description of the handle, for error messages.
  let name: String
  private let closesHandle: Bool
  private let bufferCapacity: Int
  private var buffer = Data()
  /// Everything written, when the destination is memory.
  private(set) var memory = Data()

  init(handle: FileHandle?, name: String, closesHandle: Bool, bufferCapacity: Int) {
    self.handle = handle
    self.name = name
    self.closesHandle = closesHandle
    self.bufferCapacity = bufferCapacity
  }

  func write(_ line: Data) throws(ActionLogError) {
    guard let handle else {
      memory.append(line)
      return
    }
    guard bufferCapacity > 0 else {
      try write(line, to: handle)
      return
    }
    buffer.append(line)
    if buffer.count >= bufferCapacity { try flush() }
  }

  func flush() throws(ActionLogError) {
    guard let handle, !buffer.isEmpty else { return }
    let pending = buffer
    buffer.removeAll(keepingCapacity: true)
    try write(pending, to: handle)
  }

  func synchronize() throws(ActionLogError) {
    try flush()
    guard let handle else { return }
    do {
      try handle.synchronize()
    } catch {
      throw .fileError(path: name, reason: "fsync failed: \(error.localizedDescription)")
    }
  }

  func close() throws(ActionLogError) {
    try flush()
    guard closesHandle, let handle else { return }
    try? handle.close()
  }

  private func write(_ data: Data, to handle: FileHandle) throws(ActionLogError) {
    do {
      try handle.write(contentsOf: data)
    } catch {
      throw .fileError(path: name, reason: "write failed: \(error.localizedDescription)")
    }
  }
}
