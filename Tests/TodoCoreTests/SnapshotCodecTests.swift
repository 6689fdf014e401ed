import Testing

@testable import TodoCore

@Suite("Snapshot encoding")
struct SnapshotCodecTests {
  static func snapshot() -> Snapshot {
    var state = AppState()
    for (index, title) in ["Buy milk", "a\\b\nc\rd\te", "📞 ☎️ 👩‍👩‍👧", "שלום", " padded "]
      .enumerated()
    {
      AddTodo(id: index * 3 + 1, title: title).updateState(&state)
    }
    SetDone(id: 4, done: true).updateState(&state)
    state.nextID = 99
    return Snapshot(state: state, seq: 1234, offset: 56789)
  }

  @Test("A snapshot decodes to exactly what was encoded, escapes included")
  func roundTrip() throws {
    let snapshot = Self.snapshot()
    #expect(try SnapshotCodec.decode(SnapshotCodec.encode(snapshot), path: "s") == snapshot)
  }

  @Test("Any changed byte is caught by the checksum or the parser, naming the file")
  func damageIsDetected() {
    let bytes = SnapshotCodec.encode(Self.snapshot())
    for position in stride(from: 0, to: bytes.count, by: 7) {
      var damaged = bytes
      damaged[position] ^= 0x01
      #expect(throws: StorageError.self) { try SnapshotCodec.decode(damaged, path: "s") }
    }
  }

  @Test("A cut-short snapshot is reported")
  func truncated() {
    let bytes = SnapshotCodec.encode(Self.snapshot())
    #expect {
      try SnapshotCodec.decode(Array(bytes.dropLast(5)), path: "/x/snapshot")
    } throws: { error in
      (error as? StorageError)?.description.contains("/x/snapshot") == true
    }
  }
}
