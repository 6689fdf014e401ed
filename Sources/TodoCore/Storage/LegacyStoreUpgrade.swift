import StatePersistence
import StateStore

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Moves a store that todo-cli wrote before it kept its todos with the StatePersistence module
/// (0.1.0 and later, until the module) to the module's layout, once, safely under a crash.
///
/// Such a store is `journal.jsonl`, an action log of every change from the first (its entries
/// carry an `inverse`, which the module computes instead and ignores), and `snapshot`, the
/// state at some entry in the app's own text format. The journal becomes the module's first
/// segment by one `rename` to `journal-1.jsonl`, and the directory is synchronized: after a
/// crash or a power cut the store is in one layout or the other, whole. The old `snapshot` is
/// then removed; it is only a cache of the journal, and the module's own is written in its
/// place. A `snapshot` left by a crash between the steps is removed by the next upgrade.
///
/// It runs under the directory's exclusive `lock`, the same file both layouts lock, so a
/// process of either kind waits for it.
struct LegacyStoreUpgrade {
  let directory: String
  let system: any SystemCalls
  let announceLockWait: (@Sendable (String) -> Void)?

  var legacyJournal: String { directory + "/journal.jsonl" }
  var legacySnapshot: String { directory + "/snapshot" }
  var firstSegment: String { directory + "/journal-1.jsonl" }

  /// Upgrades the store if it is in the old layout; does nothing, with one `access` call
  /// each, otherwise.
  ///
  /// Once the journal is renamed, the module's snapshot of its state is written too, still
  /// under the lock, so that the next command reads it instead of replaying every entry (a
  /// command that only reads never writes one). It is only a cache: if it cannot be written,
  /// the upgrade is done all the same, and the module writes one with a later change.
  func upgradeIfNeeded() async throws(StorageError) {
    guard isPresent(legacyJournal) || isPresent(legacySnapshot) else { return }
    let directory = directory
    let lock = try StorageError.translating { () throws(PersistenceError) in
      let lock = try OpenFile(directory + "/lock", flags: O_RDWR | O_CREAT, system: system)
      try lock.lock(
        exclusive: true,
        announceWait: announceLockWait.map { announce in { announce(directory) } })
      return lock
    }
    defer { try? lock.close() }
    let renamed = try StorageError.translating { () throws(PersistenceError) in
      try moveToTheModulesLayout()
    }
    guard renamed,
      let recovered = try? await JournaledStore<AppState, Void>.read(
        directory: directory, registry: TodoActionLog.makeRegistry(), system: system),
      recovered.damage == nil, recovered.lastSequence > 0
    else { return }
    try? JournaledStore<AppState, Void>.writeSnapshot(
      recovered.state, at: recovered.lastSequence, directory: directory, system: system)
  }

  /// Renames the journal and removes the old snapshot; returns whether the journal was renamed.
  private func moveToTheModulesLayout() throws(PersistenceError) -> Bool {
    let files = FileAccess(system: system)
    var renamed = false
    if isPresent(legacyJournal) {
      // Another process may have upgraded while this one waited for the lock: then there is
      // no `journal.jsonl` any more.
      guard !isPresent(firstSegment) else {
        throw .damaged(
          file: legacyJournal, line: nil,
          reason: "the store holds both journal.jsonl (from an earlier todo-cli) and "
            + "journal-1.jsonl; move one of them aside")
      }
      try files.rename(legacyJournal, to: firstSegment, in: directory)
      renamed = true
    }
    try files.remove(legacySnapshot)
    return renamed
  }

  /// Whether something exists at `path`, asked of the operating system directly.
  private func isPresent(_ path: String) -> Bool {
    access(path, F_OK) == 0
  }
}
