import Foundation

/// One line of the journal: a change the app applied, with what undoes it.
///
/// The journal is an action log in the documented format
/// (`{"format":"statestore-action-log","version":1}` then one entry per line), so any action-log
/// reader can replay it. The app adds two keys that readers which do not know them ignore:
/// `inverse`, the change that reverts this one, and `undoes`, the entry an `undo` reverted.
struct JournalEntry: Sendable, Hashable, Codable {
  /// The position in the journal, from 1, without gaps.
  var seq: Int
  /// The change that was applied.
  var change: AnyTodoChange
  /// The change that reverts it, if it can be undone.
  var inverse: AnyTodoChange?
  /// The `seq` of the entry this one undid, if it was written by `undo`.
  var undoes: Int?
  /// When the change was made, in whole seconds; entries written by todo-cli 0.1.0 have none.
  var time: Date?

  init(
    seq: Int, change: AnyTodoChange, inverse: AnyTodoChange?, undoes: Int? = nil,
    time: Date? = nil
  ) {
    self.seq = seq
    self.change = change
    self.inverse = inverse
    self.undoes = undoes
    self.time = time
  }

  /// The entry `draft` becomes as entry `seq`; its time is kept to the whole second, as the
  /// journal writes it.
  init(seq: Int, draft: JournalDraft) {
    self.init(
      seq: seq, change: draft.change, inverse: draft.inverse, undoes: draft.undoes,
      time: draft.time.map { Date(timeIntervalSince1970: Double(JournalCodec.seconds($0))) })
  }

  private enum CodingKeys: String, CodingKey {
    case seq, type, payload, time, inverse, undoes
  }

  /// Decodes an entry from its journal line.
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    seq = try container.decode(Int.self, forKey: .seq)
    guard seq >= 1, seq < Int.max else {
      throw DecodingError.dataCorruptedError(
        forKey: .seq, in: container,
        debugDescription: "entry number \(seq) is outside 1...\(Int.max - 1)")
    }
    let name = try container.decode(String.self, forKey: .type)
    guard let change = try AnyTodoChange.decode(typeName: name, from: container, forKey: .payload)
    else {
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: container, debugDescription: "unknown change type \"\(name)\"")
    }
    self.change = change
    inverse = try container.decodeIfPresent(AnyTodoChange.self, forKey: .inverse)
    undoes = try container.decodeIfPresent(Int.self, forKey: .undoes)
    time = try container.decodeIfPresent(Double.self, forKey: .time).flatMap { seconds in
      // A time that no clock could have given is dropped, not trusted.
      seconds.isFinite && abs(seconds) < 1e12 ? Date(timeIntervalSince1970: seconds) : nil
    }
    if let undoes, !(1..<seq).contains(undoes) {
      throw DecodingError.dataCorruptedError(
        forKey: .undoes, in: container,
        debugDescription: "entry \(seq) says it undoes entry \(undoes), which is not before it")
    }
  }

  /// Encodes the entry as its journal line's object.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(seq, forKey: .seq)
    try container.encode(change.typeName, forKey: .type)
    try change.encode(into: &container, forKey: .payload)
    try container.encodeIfPresent(time.map(JournalCodec.seconds), forKey: .time)
    try container.encodeIfPresent(inverse, forKey: .inverse)
    try container.encodeIfPresent(undoes, forKey: .undoes)
  }
}

/// A change about to be journaled; the storage gives it its `seq`.
struct JournalDraft: Sendable, Hashable {
  /// The change that was applied.
  var change: AnyTodoChange
  /// The change that reverts it, if it can be undone.
  var inverse: AnyTodoChange?
  /// The `seq` of the entry this one undoes, when written by `undo`.
  var undoes: Int?
  /// When the change was made.
  var time: Date?

  init(change: AnyTodoChange, inverse: AnyTodoChange?, undoes: Int? = nil, time: Date? = nil) {
    self.change = change
    self.inverse = inverse
    self.undoes = undoes
    self.time = time
  }
}
