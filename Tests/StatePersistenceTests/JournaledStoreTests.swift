import ActionLog
import Foundation
import PersistenceTestSupport
import StateStore
import Testing

@testable import StatePersistence

@MainActor
@Suite("Journaled store")
struct JournaledStoreTests {
  @Test("reopening gives the state every flushed updater made, scopes included")
  func roundTrip() async throws {
    let disk = SimulatedDisk()
    let journaled = try await JournaledStore.openNumbers(on: disk)
    for value in 1...5 { journaled.store.dispatch(Append(value: value)) }
    journaled.store.scope(state: \.settings).dispatch(SetTheme(theme: "dark"))
    try await journaled.flush()
    #expect(journaled.status == .saved)
    #expect(journaled.durableSequence == 6)
    try await journaled.close()

    let reopened = try await JournaledStore.openNumbers(on: disk)
    var expected = numbers(upTo: 5)
    expected.settings.theme = "dark"
    #expect(reopened.store.state == expected)
    #expect(reopened.lastSequence == 6)
    let segment = String(decoding: disk.data(at: "/store/journal-1.jsonl") ?? [], as: UTF8.self)
    #expect(segment.contains(#"{"seq":6,"scope":"settings","type":"SetTheme""#))
  }

  @Test(
    "an append cut back to nothing removes the segment it created, so the directory is as it was; the retry creates it"
  )
  func failedFirstAppendLeavesNoSegment() async throws {
    let disk = SimulatedDisk()
    let calls = FaultyCalls(disk)
    // A snapshot at entry 2 removes the first segment; entry 3 starts a new one.
    let journaled = try await JournaledStore.openNumbers(
      on: calls, options: .readingByHand(snapshotInterval: 1))
    let files = FileAccess(system: disk)
    for (values, before) in [(1...1, ["lock"]), (3...3, ["lock", "snapshot.json"])] {
      if values.lowerBound == 3 {
        journaled.store.dispatch(Append(value: 2))
        try await journaled.flush()
        #expect(try files.names(in: "/store").sorted() == before)
      }
      calls.inject(.init(kind: .write, occurrence: 1, code: ENOSPC, persistent: true))
      for value in values { journaled.store.dispatch(Append(value: value)) }
      await #expect(throws: PersistenceError.self) { try await journaled.flush() }
      #expect(calls.injected >= 1)
      #expect(try files.names(in: "/store").sorted() == before)
      calls.inject(nil)
      try await journaled.flush()
      let segment = "journal-\(values.lowerBound).jsonl"
      #expect(try files.names(in: "/store").contains(segment))
    }
    try await journaled.close()
    let reopened = try await JournaledStore.readNumbers(on: disk)
    #expect(reopened.damage == nil)
    #expect(reopened.state == numbers(upTo: 3))
  }

  @Test("snapshots compact the journal: covered segments go, the state stays")
  func compaction() async throws {
    let disk = SimulatedDisk()
    let journaled = try await JournaledStore.openNumbers(
      on: disk, options: JournalOptions(snapshotInterval: 3))
    for value in 1...10 {
      journaled.store.dispatch(Append(value: value))
      try await journaled.flush()
    }
    try await journaled.close()
    let names: [String] = try disk.contentsOfDirectory("/store").sorted()
    #expect(names.contains("snapshot.json"))
    // A snapshot is asked for after the third entry since the last one, and taken with the
    // next: after entries 4 and 8.
    let segments: [String] = names.filter { $0.hasPrefix("journal-") }
    #expect(segments == ["journal-9.jsonl"])
    let reopened = try await JournaledStore.openNumbers(on: disk)
    #expect(reopened.store.state == numbers(upTo: 10))
    #expect(reopened.lastSequence == 10)
  }

  @Test("a damaged line is reported by file and line, left as it is, and read around")
  func damage() async throws {
    let disk = SimulatedDisk()
    let journaled = try await JournaledStore.openNumbers(on: disk)
    for value in 1...3 { journaled.store.dispatch(Append(value: value)) }
    try await journaled.close()
    let path = "/store/journal-1.jsonl"
    var text = String(decoding: disk.data(at: path) ?? [], as: UTF8.self)
    text = text.replacingOccurrences(of: #""value":2"#, with: #""value":"two""#)
    let damaged: [UInt8] = Array(text.utf8)
    disk.setData(damaged, at: path)

    await #expect {
      _ = try await JournaledStore.openNumbers(on: disk)
    } throws: { error in
      guard case .damaged(let file, let line, let reason) = error as? PersistenceError else {
        return false
      }
      return file == path && line == 3 && reason.contains("payload")
    }
    #expect(disk.data(at: path) == damaged)
    let recovered = try await JournaledStore.readNumbers(on: disk)
    #expect(recovered.state == numbers(upTo: 1))
    #expect(recovered.lastSequence == 1)
    let report = recovered.damage.map { String(describing: $0) } ?? ""
    #expect(report.contains("journal-1.jsonl:3"))
  }

  @Test("a NUL tail and a last line without its newline are torn tails, cut off by the next write")
  func tornTails() async throws {
    let complete: [UInt8] = Array(#"{"seq":3,"type":"Append","payload":{"value":3}}"#.utf8)
    let nul: [UInt8] = [0, 0, 0, 0x0A, 0, 0]
    for tail in [complete, nul] {
      let disk = SimulatedDisk()
      let journaled = try await JournaledStore.openNumbers(on: disk)
      for value in 1...2 { journaled.store.dispatch(Append(value: value)) }
      try await journaled.close()
      let path = "/store/journal-1.jsonl"
      disk.setData((disk.data(at: path) ?? []) + tail, at: path)

      let reopened = try await JournaledStore.openNumbers(on: disk)
      #expect(reopened.store.state == numbers(upTo: 2))
      reopened.store.dispatch(Append(value: 3))
      try await reopened.close()
      let again = try await JournaledStore.openNumbers(on: disk)
      #expect(again.store.state == numbers(upTo: 3))
    }
  }

  @Test("a journal written with a newer schema is refused, never misread")
  func newerSchema() async throws {
    let disk = SimulatedDisk()
    let newer = try await JournaledStore.openNumbers(
      on: disk, options: JournalOptions(schemaVersion: 2))
    newer.store.dispatch(Append(value: 1))
    try await newer.close()
    let refusal = PersistenceError.newerSchema(
      file: "/store/journal-1.jsonl", found: 2, supported: 1)
    await #expect(throws: refusal) {
      _ = try await JournaledStore.openNumbers(on: disk)
    }
    // An older schema is read as it is; the next entry starts a segment of the new one, and
    // the old segment's torn tail is cut so that it never reads as damage.
    let path = "/store/journal-1.jsonl"
    disk.setData((disk.data(at: path) ?? []) + Array(#"{"seq":2,"ty"#.utf8), at: path)
    let later = try await JournaledStore.openNumbers(
      on: disk, options: JournalOptions(schemaVersion: 3))
    #expect(later.store.state == numbers(upTo: 1))
    later.store.dispatch(Append(value: 2))
    try await later.close()
    let segment = String(decoding: disk.data(at: "/store/journal-2.jsonl") ?? [], as: UTF8.self)
    #expect(segment.hasPrefix(#"{"format":"statestore-action-log","version":1,"#))
    #expect(segment.contains(#""schema":3}"#))
    let again = try await JournaledStore.openNumbers(
      on: disk, options: JournalOptions(schemaVersion: 3))
    #expect(again.store.state == numbers(upTo: 2))
  }

  @Test("an updater the registry cannot encode ends the journal before it, and says so")
  func unencodableUpdater() async throws {
    let disk = SimulatedDisk()
    let journaled = try await JournaledStore.openNumbers(on: disk)
    journaled.store.dispatch(Append(value: 1))
    journaled.store.dispatch(Unregistered())
    journaled.store.dispatch(Append(value: 2))
    await #expect {
      try await journaled.flush()
    } throws: { error in
      guard case .encodingFailed(let type, _) = error as? PersistenceError else { return false }
      return type.contains("Unregistered")
    }
    guard case .stopped = journaled.status else {
      Issue.record("expected a stopped status, got \(journaled.status)")
      return
    }
    let items: [Int] = journaled.store.state.items
    #expect(items == [1, -1, 2])
    try? await journaled.close()
    let reopened = try await JournaledStore.openNumbers(on: disk)
    #expect(reopened.store.state == numbers(upTo: 1))
  }

  @Test(
    "on a real disk: files 0600, a new directory 0700, a mode the user set kept; the journal replays as any action log"
  )
  func realDisk() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("persist-real-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let journaled = try await JournaledStore.open(
      directory: directory, registry: numbersRegistry(),
      options: JournalOptions(snapshotInterval: 4))
    for value in 1...6 {
      journaled.store.dispatch(Append(value: value))
      try await journaled.flush()
    }
    journaled.store.scope(state: \.settings).dispatch(SetTheme(theme: "dark"))
    try await journaled.flush()
    let expected = journaled.store.state
    try await journaled.close()

    func mode(_ name: String) throws -> Int {
      let path = name.isEmpty ? directory.path : directory.appendingPathComponent(name).path
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      let permissions = attributes[.posixPermissions] as? Int ?? 0
      return permissions & 0o777
    }
    #expect(try mode("") == 0o700)
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    for name in names { #expect(try mode(name) == 0o600, "\(name)") }
    try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: directory.path)

    // The snapshot holds entries 1-5 (asked for after the fourth, taken with the fifth); the
    // segment after it replays from the snapshot's state as any log does.
    let snapshotBytes = try Data(contentsOf: directory.appendingPathComponent("snapshot.json"))
    let snapshot = try SnapshotCodec.decode(
      Numbers.self, from: Array(snapshotBytes), path: "snapshot.json", schema: 1)
    #expect(snapshot.header.seq == 5)
    let segment = directory.appendingPathComponent("journal-6.jsonl")
    let replayer = ActionReplayer(registry: numbersRegistry())
    let replayed = try replayer.replay(contentsOf: segment, initialState: snapshot.value)
    #expect(replayed == expected)

    let reopened = try await JournaledStore.open(directory: directory, registry: numbersRegistry())
    #expect(reopened.store.state == expected)
    reopened.store.dispatch(Append(value: 7))
    try await reopened.close()
    #expect(try mode("") == 0o750)
  }

  @Test(
    "after a failed write the state in memory keeps the updater, flush throws, and the next flush writes it"
  )
  func failedWriteIsRetried() async throws {
    let disk = SimulatedDisk()
    let calls = FaultyCalls(disk)
    let journaled = try await JournaledStore.openNumbers(on: calls)
    let (reports, reportSink) = AsyncStream.makeStream(of: String.self)
    journaled.store.onUnhandledError = { error, _ in reportSink.yield("\(error)") }
    let full = PersistenceError.systemCall(
      operation: "write", path: "/store/journal-1.jsonl", code: ENOSPC)
    calls.inject(.init(kind: .write, occurrence: 1, code: ENOSPC, persistent: true))
    journaled.store.dispatch(Append(value: 1))
    await #expect(throws: full) {
      try await journaled.flush()
    }
    #expect(calls.injected >= 1)
    #expect(journaled.store.state == numbers(upTo: 1))
    #expect(journaled.status == .failing(full))
    var failures = journaled.failures.makeAsyncIterator()
    let first = await failures.next()
    #expect(first == full)
    // Nobody needs to read the stream: the store's onUnhandledError hears it too.
    var reported = reports.makeAsyncIterator()
    let report = await reported.next() ?? ""
    #expect(report == full.description)
    let durable = try await JournaledStore.readNumbers(on: disk)
    #expect(durable.lastSequence == 0)

    calls.inject(nil)
    try await journaled.flush()
    #expect(journaled.status == .saved)
    try await journaled.close()
    let after = try await JournaledStore.readNumbers(on: disk)
    #expect(after.state == numbers(upTo: 1))
  }

  @Test(
    "what an interceptor's onStart dispatches as the store is made is applied, not journaled; what follows is"
  )
  func dispatchedAtCreation() async throws {
    let disk = SimulatedDisk()
    let starting = StoreInterceptor<Numbers>(onStart: { $0.dispatch(Append(value: 1)) }) {
      dispatchable, _, next in next(dispatchable)
    }
    let journaled = try await JournaledStore.open(
      directory: "/store", dependencies: (), registry: numbersRegistry(),
      options: .readingByHand(), interceptors: [starting], system: disk)
    #expect(journaled.store.state.items == [1])
    journaled.store.dispatch(Append(value: 2))
    #expect(journaled.lastSequence == 1)
    try await journaled.close()
    #expect(try await JournaledStore.readNumbers(on: disk).state.items == [2])
  }
}
