/// What dispatched an updater: a side effect, a user action, a tool.
///
/// Side effects set the cause for everything they dispatch; an action log records it next to each
/// updater, so a replayed session tells which effect or action produced each change. A side
/// effect's cause also says where the effect was dispatched from (``site``) and what caused
/// that dispatch (``parent``), so a change made by a nested effect chains back, step by step, to
/// the action that started it all.
public struct DispatchCause: Sendable, Hashable, Codable, CustomStringConvertible {
  /// A readable name, such as the side effect's type or `"user: add"`.
  public var name: String

  /// The file and line of the `dispatch` (or `launch`) that started the effect this cause
  /// names; `nil` when unknown, as for a cause made with ``init(_:)``.
  public var site: DispatchSite?

  /// The cause in effect where the effect was dispatched: the outer effect for a nested one,
  /// `nil` for one dispatched outside any effect or labelled action.
  public var parent: DispatchCause? {
    get { _parent.first }
    set { _parent = newValue.map { [$0] } ?? [] }
  }

  /// ``parent``'s storage: an array, because a structure cannot hold a value of its own type.
  private var _parent: [DispatchCause]

  /// Creates a cause with a readable name.
  public init(_ name: String) {
    self.name = name
    self.site = nil
    self._parent = []
  }

  /// Creates a cause with a readable name, the site it was dispatched from and the cause
  /// that was in effect there.
  public init(_ name: String, site: DispatchSite?, parent: DispatchCause?) {
    self.name = name
    self.site = site
    self._parent = parent.map { [$0] } ?? []
  }

  /// The cause in effect for the current task; `nil` outside any side effect or labelled action.
  @TaskLocal public static var current: DispatchCause?

  /// The cause's name.
  public var description: String { name }

  /// The chain from this cause back to the first one: this cause, its parent, its parent's
  /// parent, and so on.
  ///
  /// - Complexity: O(depth).
  public var chain: [DispatchCause] {
    var causes = [self]
    while let next = causes[causes.count - 1].parent { causes.append(next) }
    return causes
  }

  private enum CodingKeys: String, CodingKey {
    case name, site, parent
  }

  /// Decodes a cause; one written without a site or a parent (by an older version) decodes
  /// with neither.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.name = try container.decode(String.self, forKey: .name)
    self.site = try container.decodeIfPresent(DispatchSite.self, forKey: .site)
    self._parent =
      try container.decodeIfPresent(DispatchCause.self, forKey: .parent).map { [$0] } ?? []
  }

  /// Encodes the cause; a missing site or parent is left out, so a plain cause encodes as it
  /// always has.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encodeIfPresent(site, forKey: .site)
    try container.encodeIfPresent(parent, forKey: .parent)
  }
}
