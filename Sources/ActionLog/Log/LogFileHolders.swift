import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The writers of this process that keep a log file's lock while their buffered lines wait, by
/// file.
///
/// `flock` locks an open file, not a process: a second recorder of the same file in this
/// process waits for the lock as a recorder in another process does. But it waits on the main
/// actor, where the recorder that holds the lock would have to run to write its lines and let
/// go, so it would wait forever. Before taking a file's lock, a writer therefore asks the
/// holder in this process, if there is one, to write what it buffered and release the lock
/// (``makeWay(for:)``); the lines keep their order and numbering, as they do between processes.
///
/// At most one writer of this process holds a file's lock at a time, so the entry for a file
/// is always the holder's.
@MainActor
enum LogFileHolders {
  /// A file, whatever path reaches it (a link, another spelling).
  struct Key: Hashable {
    let device: UInt64
    let inode: UInt64

    /// The key of the file `descriptor` is open on, or `nil` if `fstat` fails (the lock is
    /// then taken without asking anyone, as before).
    nonisolated init?(descriptor: Int32) {
      var info = stat()
      guard fstat(descriptor, &info) == 0 else { return nil }
      device = UInt64(info.st_dev)
      inode = UInt64(info.st_ino)
    }
  }

  /// How to make each holder write its lines and release its file's lock.
  private static var holders: [Key: () -> Void] = [:]

  /// Records that the writer `letGo` belongs to keeps `key`'s lock past its append.
  static func hold(_ key: Key, letGo: @escaping () -> Void) {
    holders[key] = letGo
  }

  /// Records that the holder of `key`'s lock released it.
  static func release(_ key: Key) {
    holders[key] = nil
  }

  /// Asks the writer of this process that keeps `key`'s lock, if any, to write its lines and
  /// release it, so that the lock can be taken without waiting for this process itself.
  static func makeWay(for key: Key) {
    guard let letGo = holders.removeValue(forKey: key) else { return }
    letGo()
  }
}
