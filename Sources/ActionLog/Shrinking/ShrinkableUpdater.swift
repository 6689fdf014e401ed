import StateStore

/// An updater that can offer smaller versions of itself, so that a shrunk session's test reads
/// short: a title of one letter instead of a paragraph, a list of one tag instead of ten.
///
/// ``SessionShrinker`` replaces each updater it keeps by the first of its
/// ``smallerCandidates`` with which the session still fails, then asks the new one, and so on.
///
/// ```swift
/// extension AddTodo: ShrinkableUpdater {
///   var smallerCandidates: [AddTodo] {
///     title.count > 1 ? [AddTodo(id: id, title: String(title.prefix(1)))] : []
///   }
/// }
/// ```
///
/// Conforming is optional: an updater that does not keeps its payload as recorded.
public protocol ShrinkableUpdater: StateUpdater {
  /// Versions of this updater with smaller payloads, the most preferred first; empty when
  /// there is none.
  ///
  /// Each candidate must be strictly smaller than `self` by some measure, so that shrinking
  /// ends (the shrinker also stops after ``SessionShrinker/maximumPayloadShrinks`` steps).
  var smallerCandidates: [Self] { get }
}
