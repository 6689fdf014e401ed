import Foundation
import StatePersistence
import StateStore

/// An in-memory file system that remembers what was made durable, for power-cut tests, in the
/// way LazyFS does for databases.
///
/// A file's data is durable once `fsync`ed; a directory's entries (created, renamed, removed
/// files) once the directory is `fsync`ed. ``cutPower(afterCalls:)`` makes every call after
/// the given count fail with `EIO`, as if the machine had stopped there, and
/// ``afterPowerCut(seed:)`` gives the disk as a reboot finds it: each directory's durable
/// entries, with a random subset of the operations on it not yet synchronized (each creation,
/// removal and rename kept or lost on its own, a rename whole), and for each file, its durable
/// data, its latest data, or, for data that grew, the durable data followed by part of the new
/// bytes or by as many NUL bytes (the file's size reached the disk but its blocks did not).
final class SimulatedDisk: SystemCalls {
  struct Node {
    var isDirectory: Bool
    var data: [UInt8] = []
    var durableData: [UInt8] = []
    var mode: mode_t
  }

  /// A change to a directory's entries, durable once the directory is synchronized.
  enum DirectoryOperation {
    case create(path: String, node: Int)
    case remove(path: String)
    case rename(from: String, to: String, node: Int)

    /// The directory it changes.
    var directory: String {
      switch self {
      case .create(let path, _), .remove(let path): return SimulatedDisk.parent(path)
      case .rename(_, let to, _): return SimulatedDisk.parent(to)
      }
    }
  }

  struct Contents {
    var nodes: [Int: Node] = [0: Node(isDirectory: true, mode: 0o755)]
    /// Every path's node, as the running system sees it.
    var entries: [String: Int] = ["/": 0]
    /// Every path's node as the disk holds it.
    var durableEntries: [String: Int] = ["/": 0]
    /// The directory operations not yet synchronized, in order.
    var pendingOperations: [DirectoryOperation] = []
    var descriptors: [Int32: (node: Int, path: String)] = [:]
    var nextNode = 1
    var nextDescriptor: Int32 = 3
    var calls = 0
    var powerCutAfter: Int?
    /// Each file's `flock` holders, by node: as on a real disk, a lock belongs to the
    /// descriptor that took it and conflicts with any other descriptor's, in this process or not.
    var locks: [Int: LockHolders] = [:]
  }

  /// Who holds a file's advisory lock.
  struct LockHolders {
    var exclusive: Int32?
    var shared: Set<Int32> = []

    var isEmpty: Bool { exclusive == nil && shared.isEmpty }

    /// Whether `descriptor` may take the lock `exclusive`ly (or shared) now.
    func allows(_ descriptor: Int32, exclusive wantsExclusive: Bool) -> Bool {
      if let holder = exclusive { return holder == descriptor }
      return !wantsExclusive || shared.subtracting([descriptor]).isEmpty
    }

    mutating func release(_ descriptor: Int32) {
      if exclusive == descriptor { exclusive = nil }
      shared.remove(descriptor)
    }
  }

  // Not a `Mutex`: the writer's queue and the test contend for it, and ThreadSanitizer cannot
  // see a contended `Mutex` hand over on Linux.
  private let contents: _SpinLocked<Contents>

  init() {
    contents = _SpinLocked(Contents())
  }

  private init(_ contents: Contents) {
    self.contents = _SpinLocked(contents)
  }

  /// Makes every call after the first `count` from now fail with `EIO`.
  func cutPower(afterCalls count: Int) {
    contents.withLock { $0.powerCutAfter = $0.calls + count }
  }

  /// Whether the power was cut, by a call past the limit.
  var isPowerCut: Bool {
    contents.withLock { contents in
      contents.powerCutAfter.map { contents.calls > $0 } ?? false
    }
  }

  /// The disk after a reboot, with the unsynchronized parts chosen by `seed`.
  func afterPowerCut(seed: UInt64) -> SimulatedDisk {
    var random = SplitMix(seed: seed)
    let old = contents.withLock { $0 }
    var fresh = Contents()
    fresh.nodes = [:]
    fresh.entries = [:]
    // The durable entries, and each operation not yet synchronized kept or lost on its own.
    var kept = old.durableEntries
    for operation in old.pendingOperations where random.next() % 2 == 0 {
      switch operation {
      case .create(let path, let node): kept[path] = node
      case .remove(let path): kept[path] = nil
      case .rename(let from, let to, let node):
        if kept[from] == node { kept[from] = nil }
        kept[to] = node
      }
    }
    kept["/"] = 0
    // A path whose parent did not survive is gone with it.
    var reachable: [String: Int] = [:]
    for (path, node) in kept where path == "/" || Self.ancestorsExist(path, in: kept) {
      reachable[path] = node
    }
    for (path, id) in reachable {
      guard var node = old.nodes[id] else { continue }
      if !node.isDirectory { node.data = Self.survivingData(of: node, random: &random) }
      node.durableData = node.data
      fresh.nodes[id] = node
      fresh.entries[path] = id
    }
    fresh.durableEntries = fresh.entries
    fresh.nextNode = old.nextNode
    return SimulatedDisk(fresh)
  }

  /// The data of the file at `path`, as the running system sees it.
  func data(at path: String) -> [UInt8]? {
    contents.withLock { contents in contents.entries[path].flatMap { contents.nodes[$0]?.data } }
  }

  /// Replaces the data of the file at `path`, durably: damage done by hand.
  func setData(_ data: [UInt8], at path: String) {
    contents.withLock { contents in
      guard let id = contents.entries[path] else { return }
      contents.nodes[id]?.data = data
      contents.nodes[id]?.durableData = data
    }
  }

  /// The mode of the node at `path`.
  func mode(at path: String) -> mode_t? {
    contents.withLock { contents in contents.entries[path].flatMap { contents.nodes[$0]?.mode } }
  }

  private static func survivingData(of node: Node, random: inout SplitMix) -> [UInt8] {
    let durable = node.durableData
    let latest = node.data
    guard latest != durable else { return latest }
    switch random.next() % 4 {
    case 0: return durable
    case 1: return latest
    default:
      guard latest.count > durable.count, latest.starts(with: durable) else {
        return random.next() % 2 == 0 ? durable : latest
      }
      let grown = latest.count - durable.count
      let kept = Int(random.next() % UInt64(grown + 1))
      if random.next() % 2 == 0 {
        return Array(latest.prefix(durable.count + kept))
      }
      return durable + [UInt8](repeating: 0, count: kept)
    }
  }

  static func parent(_ path: String) -> String {
    guard path != "/", let slash = path.lastIndex(of: "/") else { return "/" }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  private static func ancestorsExist(_ path: String, in entries: [String: Int]) -> Bool {
    var current = parent(path)
    while current != "/" {
      if entries[current] == nil { return false }
      current = parent(current)
    }
    return true
  }

  private static func normalized(_ path: String) -> String {
    path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
  }

  // MARK: - The calls

  /// Runs one call under the disk's lock; `counted` says a blocking call's retry, which is not
  /// counted again.
  private func call<Result>(
    _ kind: SystemCallKind, counted: Bool = false,
    _ body: (inout Contents) throws(SystemCallFailure) -> Result
  ) throws(SystemCallFailure) -> Result {
    let outcome = contents.withLock { contents -> Swift.Result<Result, SystemCallFailure> in
      if !counted { contents.calls += 1 }
      if let limit = contents.powerCutAfter, contents.calls > limit {
        return .failure(SystemCallFailure(kind, code: EIO))
      }
      return Swift.Result { () throws(SystemCallFailure) in try body(&contents) }
    }
    return try outcome.get()
  }

  func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemCallFailure) -> Int32 {
    let path = Self.normalized(path)
    return try call(.open) { contents throws(SystemCallFailure) in
      var id = contents.entries[path]
      if let existing = id {
        if flags & O_CREAT != 0 && flags & O_EXCL != 0 {
          throw SystemCallFailure(.open, code: EEXIST)
        }
        let isDirectory = contents.nodes[existing]?.isDirectory ?? false
        if flags & O_DIRECTORY != 0 && !isDirectory {
          throw SystemCallFailure(.open, code: ENOTDIR)
        }
        if isDirectory && flags & (O_WRONLY | O_RDWR) != 0 {
          throw SystemCallFailure(.open, code: EISDIR)
        }
        if flags & O_TRUNC != 0 { contents.nodes[existing]?.data = [] }
      } else {
        guard flags & O_CREAT != 0 else { throw SystemCallFailure(.open, code: ENOENT) }
        guard let parent = contents.entries[Self.parent(path)],
          contents.nodes[parent]?.isDirectory == true
        else { throw SystemCallFailure(.open, code: ENOENT) }
        let new = contents.nextNode
        contents.nextNode += 1
        contents.nodes[new] = Node(isDirectory: false, mode: mode)
        contents.entries[path] = new
        contents.pendingOperations.append(.create(path: path, node: new))
        id = new
      }
      guard let id else { throw SystemCallFailure(.open, code: ENOENT) }
      let descriptor = contents.nextDescriptor
      contents.nextDescriptor += 1
      contents.descriptors[descriptor] = (id, path)
      return descriptor
    }
  }

  private static func node(_ descriptor: Int32, _ contents: Contents, _ kind: SystemCallKind)
    throws(SystemCallFailure) -> (id: Int, path: String)
  {
    guard let open = contents.descriptors[descriptor], contents.nodes[open.node] != nil else {
      throw SystemCallFailure(kind, code: EBADF)
    }
    return (open.node, open.path)
  }

  func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int)
    throws(SystemCallFailure) -> Int
  {
    try call(.read) { contents throws(SystemCallFailure) in
      let id = try Self.node(descriptor, contents, .read).id
      let data = contents.nodes[id]?.data ?? []
      guard offset < data.count else { return 0 }
      let count = min(buffer.count, data.count - offset)
      for index in 0..<count { buffer[index] = data[offset + index] }
      return count
    }
  }

  func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int)
    throws(SystemCallFailure) -> Int
  {
    try call(.write) { contents throws(SystemCallFailure) in
      let id = try Self.node(descriptor, contents, .write).id
      var data = contents.nodes[id]?.data ?? []
      if data.count < offset { data += [UInt8](repeating: 0, count: offset - data.count) }
      for (index, byte) in bytes.enumerated() {
        if offset + index < data.count { data[offset + index] = byte } else { data.append(byte) }
      }
      contents.nodes[id]?.data = data
      return bytes.count
    }
  }

  func synchronize(_ descriptor: Int32) throws(SystemCallFailure) {
    try call(.synchronize) { contents throws(SystemCallFailure) in
      let (id, path) = try Self.node(descriptor, contents, .synchronize)
      guard contents.nodes[id]?.isDirectory == true else {
        let data = contents.nodes[id]?.data ?? []
        contents.nodes[id]?.durableData = data
        return
      }
      for (entry, _) in contents.durableEntries where Self.parent(entry) == path && entry != "/" {
        contents.durableEntries[entry] = nil
      }
      for (entry, node) in contents.entries where Self.parent(entry) == path && entry != "/" {
        contents.durableEntries[entry] = node
      }
      contents.pendingOperations.removeAll { $0.directory == path }
    }
  }

  func truncate(_ descriptor: Int32, to length: Int) throws(SystemCallFailure) {
    try call(.truncate) { contents throws(SystemCallFailure) in
      let id = try Self.node(descriptor, contents, .truncate).id
      var data = contents.nodes[id]?.data ?? []
      if data.count > length {
        data.removeSubrange(length...)
      } else {
        data += [UInt8](repeating: 0, count: length - data.count)
      }
      contents.nodes[id]?.data = data
    }
  }

  func size(_ descriptor: Int32) throws(SystemCallFailure) -> Int {
    try call(.size) { contents throws(SystemCallFailure) in
      let id = try Self.node(descriptor, contents, .size).id
      return contents.nodes[id]?.data.count ?? 0
    }
  }

  /// `flock`, with its real semantics.
  ///
  /// `LOCK_EX` conflicts with any other descriptor's lock,
  /// `LOCK_SH` with another's exclusive one; a conflicting `LOCK_NB` request fails with
  /// `EWOULDBLOCK`, and a blocking one waits (counted as one call) until the holder releases
  /// it, by `LOCK_UN` or `close`. A held lock is converted in place.
  func lock(_ descriptor: Int32, operation: Int32) throws(SystemCallFailure) {
    var counted = false
    while true {
      let taken = try call(.lock, counted: counted) { contents throws(SystemCallFailure) -> Bool in
        let id = try Self.node(descriptor, contents, .lock).id
        var holders = contents.locks[id] ?? LockHolders()
        if operation & LOCK_UN != 0 {
          holders.release(descriptor)
        } else {
          let exclusive = operation & LOCK_EX != 0
          guard holders.allows(descriptor, exclusive: exclusive) else {
            if operation & LOCK_NB != 0 { throw SystemCallFailure(.lock, code: EWOULDBLOCK) }
            return false
          }
          holders.release(descriptor)
          if exclusive { holders.exclusive = descriptor } else { holders.shared.insert(descriptor) }
        }
        contents.locks[id] = holders.isEmpty ? nil : holders
        return true
      }
      if taken { return }
      counted = true
      _ = sched_yield()
    }
  }

  func close(_ descriptor: Int32) throws(SystemCallFailure) {
    try call(.close) { contents throws(SystemCallFailure) in
      guard let open = contents.descriptors.removeValue(forKey: descriptor) else {
        throw SystemCallFailure(.close, code: EBADF)
      }
      contents.locks[open.node]?.release(descriptor)
      if contents.locks[open.node]?.isEmpty == true { contents.locks[open.node] = nil }
    }
  }

  func rename(_ from: String, to: String) throws(SystemCallFailure) {
    let (from, to) = (Self.normalized(from), Self.normalized(to))
    try call(.rename) { contents throws(SystemCallFailure) in
      guard let id = contents.entries[from] else { throw SystemCallFailure(.rename, code: ENOENT) }
      contents.entries[from] = nil
      contents.entries[to] = id
      contents.pendingOperations.append(.rename(from: from, to: to, node: id))
    }
  }

  func unlink(_ path: String) throws(SystemCallFailure) {
    let path = Self.normalized(path)
    try call(.unlink) { contents throws(SystemCallFailure) in
      guard let id = contents.entries[path] else { throw SystemCallFailure(.unlink, code: ENOENT) }
      if contents.nodes[id]?.isDirectory == true { throw SystemCallFailure(.unlink, code: EISDIR) }
      contents.entries[path] = nil
      contents.pendingOperations.append(.remove(path: path))
    }
  }

  func makeDirectory(_ path: String, mode: mode_t) throws(SystemCallFailure) {
    let path = Self.normalized(path)
    try call(.makeDirectory) { contents throws(SystemCallFailure) in
      if contents.entries[path] != nil { throw SystemCallFailure(.makeDirectory, code: EEXIST) }
      guard let parent = contents.entries[Self.parent(path)],
        contents.nodes[parent]?.isDirectory == true
      else { throw SystemCallFailure(.makeDirectory, code: ENOENT) }
      let id = contents.nextNode
      contents.nextNode += 1
      contents.nodes[id] = Node(isDirectory: true, mode: mode)
      contents.entries[path] = id
      contents.pendingOperations.append(.create(path: path, node: id))
    }
  }

  func contentsOfDirectory(_ path: String) throws(SystemCallFailure) -> [String] {
    let path = Self.normalized(path)
    return try call(.contentsOfDirectory) { contents throws(SystemCallFailure) in
      guard let id = contents.entries[path], contents.nodes[id]?.isDirectory == true else {
        throw SystemCallFailure(.contentsOfDirectory, code: ENOENT)
      }
      return contents.entries.keys.filter { $0 != "/" && Self.parent($0) == path }.map {
        String($0.dropFirst(path == "/" ? 1 : path.count + 1))
      }
    }
  }
}

/// A small seeded generator, so that a failing power-cut run can be repeated.
struct SplitMix: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E476
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
