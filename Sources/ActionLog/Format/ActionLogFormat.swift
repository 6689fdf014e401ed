/// The constants of the action-log file format, documented in <doc:RecordingAndReplaying#The-file-format>.
///
/// A log is UTF-8 JSON Lines. The first line is the header; every other line is an entry
/// (`{"seq":1,"type":"AddTodo","payload":{…}}`), a checkpoint (`{"checkpoint":1,"state":{…}}`) or
/// a marker for an updater that could not be recorded (`{"seq":2,"unrecorded":"Name"}`), or,
/// in a log of version 2, an effect line (`{"effect":1,"start":"Search",…}`: a side effect's
/// start, a value it got from a dependency, or its end).
public enum ActionLogFormat {
  /// The value of the header's `format` key.
  public static let name = "statestore-action-log"
  /// The newest format version this library reads, and the one it writes a log with diffs in.
  ///
  /// Version 2 names the elements of identified arrays by their identifier in diffs
  /// (`/todos[id=3]/done`, see <doc:RecordingAndReplaying#Diff-mode>); a log without diffs is
  /// the same in both versions, and is written as version 1, so that older readers still read
  /// it. Every reader reads both.
  public static let version = 2

  /// The version of a log without diffs: versions 1 and 2 write it alike.
  package static let versionWithoutDiffs = 1
}

/// The keys of every kind of log line.
enum LogKey: String, CodingKey {
  case format, version, state, created
  case seq, type, payload, cause, time, scope
  case site, causeSite, causeParents
  case checkpoint
  case unrecorded, reason
  case effect
}
