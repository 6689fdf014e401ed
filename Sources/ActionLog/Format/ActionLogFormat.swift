/// The constants of the action-log file format, documented in <doc:RecordingAndReplaying#The-file-format>.
///
/// A log is UTF-8 JSON Lines. The first line is the header; every other line is an entry
/// (`{"seq":1,"type":"AddTodo","payload":{…}}`), a checkpoint (`{"checkpoint":1,"state":{…}}`) or
/// a marker for an updater that could not be recorded (`{"seq":2,"unrecorded":"Name"}`).
public enum ActionLogFormat {
  /// The value of the header's `format` key.
  public static let name = "statestore-action-log"
  /// The format version this library writes, and the newest it reads.
  public static let version = 1
}

/// The keys of every kind of log line.
enum LogKey: String, CodingKey {
  case format, version, state, created
  case seq, type, payload, cause, time, scope
  case checkpoint
  case unrecorded, reason
}
