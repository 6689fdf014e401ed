/// Any of the app's ``TodoChange``s, as one value the journal can store and decode by name.
enum AnyTodoChange: Sendable, Hashable {
  /// An ``AddTodo``.
  case addTodo(AddTodo)
  /// A ``SetDone``.
  case setDone(SetDone)
  /// An ``EditTitle``.
  case editTitle(EditTitle)
  /// A ``RemoveTodo``.
  case removeTodo(RemoveTodo)
  /// A ``ClearDone``.
  case clearDone(ClearDone)
  /// A ``RestoreTodos``.
  case restoreTodos(RestoreTodos)
  /// A ``TagTodo``.
  case tagTodo(TagTodo)
  /// An ``UntagTodo``.
  case untagTodo(UntagTodo)
  /// A ``SetDue``.
  case setDue(SetDue)
  /// A ``SetPriority``.
  case setPriority(SetPriority)

  /// Every change type, for registering with an action log.
  static let allTypes: [any TodoChange.Type] = [
    AddTodo.self, SetDone.self, EditTitle.self, RemoveTodo.self, ClearDone.self,
    RestoreTodos.self, TagTodo.self, UntagTodo.self, SetDue.self, SetPriority.self,
  ]

  /// The wrapped change.
  var change: any TodoChange {
    switch self {
    case .addTodo(let change): change
    case .setDone(let change): change
    case .editTitle(let change): change
    case .removeTodo(let change): change
    case .clearDone(let change): change
    case .restoreTodos(let change): change
    case .tagTodo(let change): change
    case .untagTodo(let change): change
    case .setDue(let change): change
    case .setPriority(let change): change
    }
  }

  /// The name the wrapped change is recorded under.
  var typeName: String { type(of: change).typeName }

  /// Applies the wrapped change to `state`.
  func apply(to state: inout AppState) {
    change.updateState(&state)
  }

  /// Dispatches the wrapped change to `store` with its static type.
  @MainActor
  func dispatch<D>(to store: Store<AppState, D>) {
    switch self {
    case .addTodo(let change): store.dispatch(change)
    case .setDone(let change): store.dispatch(change)
    case .editTitle(let change): store.dispatch(change)
    case .removeTodo(let change): store.dispatch(change)
    case .clearDone(let change): store.dispatch(change)
    case .restoreTodos(let change): store.dispatch(change)
    case .tagTodo(let change): store.dispatch(change)
    case .untagTodo(let change): store.dispatch(change)
    case .setDue(let change): store.dispatch(change)
    case .setPriority(let change): store.dispatch(change)
    }
  }

  /// Decodes the change recorded as `typeName` from `container`'s `key`.
  ///
  /// - Returns: `nil` when `typeName` is not one of the app's changes.
  static func decode<K: CodingKey>(
    typeName: String, from container: KeyedDecodingContainer<K>, forKey key: K
  ) throws -> AnyTodoChange? {
    switch typeName {
    case AddTodo.typeName: .addTodo(try container.decode(AddTodo.self, forKey: key))
    case SetDone.typeName: .setDone(try container.decode(SetDone.self, forKey: key))
    case EditTitle.typeName: .editTitle(try container.decode(EditTitle.self, forKey: key))
    case RemoveTodo.typeName: .removeTodo(try container.decode(RemoveTodo.self, forKey: key))
    case ClearDone.typeName: .clearDone(try container.decode(ClearDone.self, forKey: key))
    case RestoreTodos.typeName:
      .restoreTodos(try container.decode(RestoreTodos.self, forKey: key))
    case TagTodo.typeName: .tagTodo(try container.decode(TagTodo.self, forKey: key))
    case UntagTodo.typeName: .untagTodo(try container.decode(UntagTodo.self, forKey: key))
    case SetDue.typeName: .setDue(try container.decode(SetDue.self, forKey: key))
    case SetPriority.typeName:
      .setPriority(try container.decode(SetPriority.self, forKey: key))
    default: nil
    }
  }

  /// Encodes the wrapped change into `container` under `key`.
  func encode<K: CodingKey>(into container: inout KeyedEncodingContainer<K>, forKey key: K)
    throws
  {
    switch self {
    case .addTodo(let change): try container.encode(change, forKey: key)
    case .setDone(let change): try container.encode(change, forKey: key)
    case .editTitle(let change): try container.encode(change, forKey: key)
    case .removeTodo(let change): try container.encode(change, forKey: key)
    case .clearDone(let change): try container.encode(change, forKey: key)
    case .restoreTodos(let change): try container.encode(change, forKey: key)
    case .tagTodo(let change): try container.encode(change, forKey: key)
    case .untagTodo(let change): try container.encode(change, forKey: key)
    case .setDue(let change): try container.encode(change, forKey: key)
    case .setPriority(let change): try container.encode(change, forKey: key)
    }
  }
}

/// `{"type": "<name>", "payload": {...}}`: how an inverse is stored next to a journal entry.
extension AnyTodoChange: Codable {
  private enum CodingKeys: String, CodingKey {
    case type, payload
  }

  /// Decodes a change from its type name and payload.
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let name = try container.decode(String.self, forKey: .type)
    guard let change = try Self.decode(typeName: name, from: container, forKey: .payload) else {
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: container, debugDescription: "unknown change type \"\(name)\"")
    }
    self = change
  }

  /// Encodes the change's type name and payload.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(typeName, forKey: .type)
    try encode(into: &container, forKey: .payload)
  }
}
