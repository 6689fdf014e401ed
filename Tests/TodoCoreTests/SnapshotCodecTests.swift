import TerminalKit
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

  @Test(
    "Tags and titles outside ASCII round-trip, and broken UTF-8 is reported even with a good checksum"
  )
  func utf8() throws {
    var state = AppState()
    AddTodo(id: 1, title: "Café crème", tags: ["ménage", "été"]).updateState(&state)
    AddTodo(id: 2, title: "plain", tags: ["ascii"]).updateState(&state)
    let snapshot = Snapshot(state: state, seq: 7, offset: 0)
    let bytes = SnapshotCodec.encode(snapshot)
    #expect(try SnapshotCodec.decode(bytes, path: "s") == snapshot)

    // "plain" becomes "pl\u{FF}in": one byte that is never valid UTF-8, under a checksum that
    // matches, so only the text's own validation can catch it.
    guard let checksumLine = bytes.ranges(of: Array("\nchecksum ".utf8)).last?.lowerBound,
      let at = bytes.firstRange(of: Array("plain".utf8))?.lowerBound
    else {
      Issue.record("no title in \(String(decoding: bytes, as: UTF8.self))")
      return
    }
    var damaged = Array(bytes[...checksumLine])
    damaged[at + 2] = 0xFF
    let sum = String(SnapshotCodec.fnv1a(damaged[...]), radix: 16)
    damaged += Array("checksum \(String(repeating: "0", count: 16 - sum.count))\(sum)\n".utf8)
    #expect {
      try SnapshotCodec.decode(damaged, path: "/x/snapshot")
    } throws: { error in
      (error as? StorageError)?.description.contains("unreadable todo") == true
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
