/// Lets a connection end its own subscription when it finds its view released.
///
/// The store's callback holds the view weakly; the first delivery after the view is gone cancels
/// the token, so the store drops the entry even if the caller still holds the token.
@MainActor
final class ConnectionLink {
  /// The connection's token, held weakly: the caller owns it.
  weak var token: Subscription?

  /// Cancels the connection.
  func end() {
    token?.cancel()
  }
}
