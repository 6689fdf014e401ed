/// Lets a connection end its own subscription when it finds its view released.
///
/// The store's callback holds the view weakly; the first delivery after the view is gone cancels
/// the token, so the store drops the entry even if the caller still holds the token.
@MainActor
@usableFromInline
final class _ConnectionLink {
  @usableFromInline
  init() {}

  /// The connection's token, held weakly: the caller owns it.
  @usableFromInline weak var _token: Subscription?

  /// Cancels the connection.
  @usableFromInline
  func _end() {
    _token?.cancel()
  }
}

extension _ConnectionLink {
  /// Connects `view`: `subscribe` gets the delivery, which hands each value to `apply` with the
  /// view, or ends the connection once the view is gone.
  ///
  /// The one place the lifetime rules of every `connect` live: the store holds the view weakly
  /// (it never keeps a view alive), the link holds the token weakly (the caller owns it), and
  /// the first delivery after the view is gone cancels the token.
  @inlinable
  static func connect<View: AnyObject, Delivered>(
    _ view: View, apply: @escaping @MainActor (View, Delivered) -> Void,
    subscribe: (_ deliver: @escaping @MainActor (Delivered) -> Void) -> Subscription
  ) -> Subscription {
    let link = _ConnectionLink()
    let token = subscribe { [weak view] delivered in
      guard let view else { return link._end() }
      apply(view, delivered)
    }
    link._token = token
    return token
  }
}
