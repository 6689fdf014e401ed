import Foundation
import StatePersistence
import StateStore
import Testing

/// Symbolic links, on the real file system: a directory the app names is reached through a
/// link (a store kept under one, or under `/var` on Apple platforms, which links to
/// `/private/var`), while a link planted in place of a file inside it is never followed.
///
/// What these tests catch:
/// - the directory's `fsync` opened without following a link → `linkedStoreDirectory`,
///   `linkedSnapshotFileDirectory`;
/// - `O_NOFOLLOW` dropped from the files' opens → `plantedSegment`, `plantedLock`,
///   `plantedSnapshot`;
/// - the temporary file written through instead of removed and created with `O_EXCL` →
///   `plantedTemporaryFiles`.
@MainActor
@Suite("Symbolic links")
struct SymbolicLinkTests {
  /// A fresh directory with `real/` in it and `link` pointing to it.
  final class Place {
    let root: URL
    var real: URL { root.appendingPathComponent("real") }
    var link: URL { root.appendingPathComponent("link") }
    var victim: URL { root.appendingPathComponent("victim") }
    static let precious = Data("precious".utf8)

    init() throws {
      root = FileManager.default.temporaryDirectory
        .appendingPathComponent("links-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
      try Self.precious.write(to: victim)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Replaces `name` in `real/` with a link to the victim.
    func plant(_ name: String) throws {
      let path = real.appendingPathComponent(name)
      try? FileManager.default.removeItem(at: path)
      try FileManager.default.createSymbolicLink(at: path, withDestinationURL: victim)
    }

    var victimIsIntact: Bool { (try? Data(contentsOf: victim)) == Self.precious }
  }

  /// Opens the store at `directory`, appends `values` with a flush after each, and closes.
  static func append(_ values: [Int], at directory: URL, snapshotInterval: Int = 1_000)
    async throws
  {
    let journaled = try await JournaledStore.open(
      directory: directory, registry: numbersRegistry(),
      options: .readingByHand(snapshotInterval: snapshotInterval))
    journaled.store.onUnhandledError = { _, _ in }
    for value in values {
      journaled.store.dispatch(Append(value: value))
      try await journaled.flush()
    }
    try await journaled.close()
  }

  @Test("a store directory reached through a link opens, saves, snapshots and reopens")
  func linkedStoreDirectory() async throws {
    let place = try Place()
    try await Self.append([1, 2, 3], at: place.link, snapshotInterval: 2)
    try await Self.append([4], at: place.link, snapshotInterval: 2)
    let read = try await JournaledStore.read(directory: place.link, registry: numbersRegistry())
    #expect(read.state.items == [1, 2, 3, 4])
    #expect(read.damage == nil)
    let names = try FileManager.default.contentsOfDirectory(atPath: place.real.path)
    #expect(names.contains("snapshot.json"))
  }

  @Test("a snapshot file whose directory is reached through a link saves and says so")
  func linkedSnapshotFileDirectory() async throws {
    let place = try Place()
    let file = SnapshotFile<Settings>(url: place.link.appendingPathComponent("settings.json"))
    file.save(Settings(theme: "dark"))
    try await file.flush()
    #expect(file.status == .saved)
    let reread = SnapshotFile<Settings>(url: place.real.appendingPathComponent("settings.json"))
    #expect(try reread.load() == Settings(theme: "dark"))
  }

  /// Whether `error`'s message says a link is in the way and how to recover.
  static func saysHowToRecover(_ error: any Error, _ name: String) -> Bool {
    let text = "\(error)"
    return text.contains(name) && text.contains("symbolic link")
      && text.contains("replace the link")
  }

  @Test("a segment replaced by a link: open and read refuse it, saying how to recover")
  func plantedSegment() async throws {
    let place = try Place()
    try await Self.append([1], at: place.real)
    try place.plant("journal-1.jsonl")
    await #expect {
      try await Self.append([2], at: place.real)
    } throws: { Self.saysHowToRecover($0, "journal-1.jsonl") }
    await #expect {
      _ = try await JournaledStore.read(directory: place.real, registry: numbersRegistry())
    } throws: { Self.saysHowToRecover($0, "journal-1.jsonl") }
    #expect(place.victimIsIntact)
  }

  @Test("a lock replaced by a link: open refuses it, saying how to recover")
  func plantedLock() async throws {
    let place = try Place()
    try await Self.append([1], at: place.real)
    try place.plant("lock")
    await #expect {
      try await Self.append([2], at: place.real)
    } throws: { Self.saysHowToRecover($0, "lock") }
    #expect(place.victimIsIntact)
  }

  @Test("a snapshot replaced by a link: open and read refuse it, saying how to recover")
  func plantedSnapshot() async throws {
    let place = try Place()
    try await Self.append([1, 2, 3], at: place.real, snapshotInterval: 2)
    try place.plant("snapshot.json")
    await #expect {
      try await Self.append([4], at: place.real)
    } throws: { Self.saysHowToRecover($0, "snapshot.json") }
    await #expect {
      _ = try await JournaledStore.read(directory: place.real, registry: numbersRegistry())
    } throws: { Self.saysHowToRecover($0, "snapshot.json") }
    #expect(place.victimIsIntact)
  }

  @Test("temporary files replaced by links are removed, never written through")
  func plantedTemporaryFiles() async throws {
    let place = try Place()
    try await Self.append([1], at: place.real)
    try place.plant("snapshot.json.tmp")
    // Two entries make a snapshot due, which the third carries: it is written through
    // `snapshot.json.tmp`.
    try await Self.append([2, 3], at: place.real, snapshotInterval: 2)
    #expect(place.victimIsIntact)
    let snapshot = try FileManager.default.attributesOfItem(
      atPath: place.real.appendingPathComponent("snapshot.json").path)
    #expect(snapshot[.type] as? FileAttributeType == .typeRegular)
    let read = try await JournaledStore.read(directory: place.real, registry: numbersRegistry())
    #expect(read.state.items == [1, 2, 3])

    try place.plant("settings.json.tmp")
    let file = SnapshotFile<Settings>(url: place.real.appendingPathComponent("settings.json"))
    file.save(Settings(theme: "dark"))
    try await file.flush()
    #expect(place.victimIsIntact)
    #expect(try file.load() == Settings(theme: "dark"))
  }
}
