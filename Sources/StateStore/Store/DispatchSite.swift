/// The place in the source that dispatched something: a file and a line.
///
/// Every `dispatch` takes the caller's `#fileID` and `#line` as defaults, so a site is known
/// for every dispatch without writing anything. The store builds one only when something
/// records it (an update observer, a journal, an action log): a store that nothing observes
/// pays nothing for it. ``AppliedUpdate/site`` carries it to update observers, and a side
/// effect's ``DispatchCause/site`` says where the effect was dispatched from.
///
/// ```swift
/// store.observeUpdates { update in
///   if let site = update.site { print(site) }  // "MyApp/TodoList.swift:42"
/// }
/// ```
public struct DispatchSite: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The file, as `#fileID` spells it: `Module/File.swift`.
  public var fileID: String
  /// The line in ``fileID``, from 1.
  public var line: Int

  /// Creates a site from a file identifier and a line.
  ///
  /// The defaults are the caller's own place, so `DispatchSite()` names the line it is on.
  public init(fileID: String = #fileID, line: Int = #line) {
    self.fileID = fileID
    self.line = line
  }

  /// The site as `fileID:line`, for example `MyApp/TodoList.swift:42`.
  public var description: String { "\(fileID):\(line)" }
}
