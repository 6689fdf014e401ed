/// Builds the routable that a `push` or `presentModally` instruction adds to the route.
///
/// It receives the context of the request (`Show("detail", context: todoID)`), or `nil`, and
/// may throw to refuse it, for example when the context has the wrong type.
public typealias RoutableFactory =
  @MainActor (_ context: (any Sendable)?) throws -> any Routable

/// Carries out a `.custom` instruction; it may change the route in any way through `navigation`.
public typealias CustomNavigationHandler =
  @MainActor (_ navigation: CustomNavigation) async throws -> Void

/// Carries out an `.optionalCustom` instruction, or declines it.
///
/// Return `true` when the request is handled; `false` declines, and the navigator goes on asking
/// the routables further down the route, as if this table did not hold the request.
public typealias OptionalCustomNavigationHandler =
  @MainActor (_ navigation: CustomNavigation) async throws -> Bool

/// What a routable does to answer a ``NavigationRequest`` in its routing table.
///
/// The navigator models the screens as a stack of modal levels, each level a stack of pushed
/// routables; the route is every level's routables in order. Instructions change that model:
///
/// | instruction | effect |
/// |---|---|
/// | `push` | adds a routable on top of the topmost level |
/// | `presentModally` | opens a new modal level holding a new routable |
/// | `pop` | removes the hidden routable (for a `Show`, the top of the handler's level) and everything above it |
/// | `popToRoot` | keeps only the first routable of the handler's level |
/// | `popTo(id)` | keeps the route up to the topmost element `id` |
/// | `dismissModally` | removes modal levels (see ``ModalDismissBehaviour``) |
/// | `custom` | runs a closure that may change the route in any way |
/// | `optionalCustom` | the same, but may decline so that resolution continues down the route |
///
/// No instruction can remove the root: one that would throws a ``NavigationError`` instead.
public enum NavigationInstruction {
  /// Which modal levels `dismissModally` removes.
  public enum ModalDismissBehaviour: Hashable, Sendable {
    /// Dismisses one modal, with every modal it presented in turn.
    ///
    /// For a `Hide`, the modal is the level holding the hidden routable. Otherwise it is the
    /// modal the handler presented or, when the handler presented none, the modal the handler
    /// is in (it asks its presenter to dismiss it, as UIKit's `dismiss` does).
    case soft
    /// Dismisses every modal level above the handler's level.
    ///
    /// When the handler is itself the hidden modal, or presented none, its own modal level is
    /// dismissed too. A presenter's `.hard` answer to `Hide` of a modal two levels up therefore
    /// closes both modals, where `.soft` closes only the upper one.
    case hard
  }

  /// Adds the routable that `factory` builds on top of the topmost level's stack.
  case push(RoutableFactory)
  /// Removes the hidden routable and everything above it; for a `Show`, the top of the
  /// handler's level and everything above it.
  case pop
  /// Removes everything above the first routable of the handler's level.
  case popToRoot
  /// Removes everything above the topmost route element with this identifier.
  case popTo(RouteElementIdentifier)
  /// Opens a new modal level holding the routable that `factory` builds.
  case presentModally(RoutableFactory)
  /// Removes modal levels, as `behaviour` says.
  case dismissModally(behaviour: ModalDismissBehaviour)
  /// Runs `handler`, which may change the route in any way through the ``CustomNavigation``.
  case custom(CustomNavigationHandler)
  /// Runs `handler`, which may change the route or return `false` to decline: the request then
  /// goes on to the next routable down the route (Tempura's `.optionalCustom`).
  case optionalCustom(OptionalCustomNavigationHandler)
}
