/// Lets a connection end its own subscription when it finds its view released.
///
/// The store's callback holds the view weakly; the first delivery after the view is gone cancels
/// the token, so the store drops the entry even if the caller still holds the token.
@MainActor
@usableFromInline
final class ConnectionLink {
  @usableFromInline
  init() {}

  /// The connection's token, held weakly: the caller owns it.
  @usableFromInline weak var token: Subscription?

  /// Cancels the connection.
  @usableFromInline
  func end() {
    token?.cancel()
  }
}
