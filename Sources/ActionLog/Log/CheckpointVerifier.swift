import Foundation
import StateStore

/// Compares checkpoints with the replayed state.
///
/// A checkpoint stores the state itself, not a hash of its encoding: `Set` and `Dictionary`
/// encode in an order that changes from one process to the next, so equal states can encode to
/// different bytes. Decoding the checkpoint and comparing with `==` is immune to that.
struct CheckpointVerifier<S: State> {
  private(set) var verifiedCount = 0
  private var lastMatchingSequence: Int?
  private let decoder = JSONDecoder()

  mutating func verify(
    _ state: S, sequence: Int, line: Int, text: Data, after entry: ActionLogEntry<S>?
  ) throws(ActionLogError) {
    let expected = entry?.sequence ?? 0
    guard sequence == expected else {
      throw .malformedLine(
        line: line,
        reason: "checkpoint \(sequence) does not follow entry \(expected): "
          + "a checkpoint holds the state after the entry just before it")
    }
    guard let decodable = S.self as? any Decodable.Type else {
      throw .checkpointsNeedCodableState(line: line, stateType: String(reflecting: S.self))
    }
    let recorded: Any
    do {
      recorded = try decodeState(decodable, from: text)
    } catch {
      let (path, reason) = LineFailure.describe(error)
      throw .undecodableCheckpoint(line: line, path: path, reason: reason)
    }
    guard let equal = diffEquality(recorded, state) else {
      throw .checkpointsNeedCodableState(line: line, stateType: String(reflecting: S.self))
    }
    guard equal else {
      throw .diverged(
        ReplayDivergence(
          sequence: sequence, entryLine: entry?.line, entryType: entry?.type,
          checkpointLine: line, lastMatchingSequence: lastMatchingSequence,
          differences: StateDiff.lines(from: recorded, to: state as Any)))
    }
    verifiedCount += 1
    lastMatchingSequence = sequence
  }

  private func decodeState<T: Decodable>(_ type: T.Type, from text: Data) throws -> T {
    try decoder.decode(CheckpointLine<T>.self, from: text).state
  }
}

/// A checkpoint line: `{"checkpoint": n, "state": {…}}`.
struct CheckpointLine<T: Decodable>: Decodable {
  let state: T
}
