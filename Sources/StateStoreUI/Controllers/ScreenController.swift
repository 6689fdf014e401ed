/// Owns a screen's view and keeps it connected to the store while the screen is visible:
/// Tempura's `ViewController`, without a UI framework.
///
/// A UIKit, AppKit or terminal layer creates the controller with its view and calls
/// ``appear()`` and ``disappear()`` as the screen is shown and hidden (from `viewWillAppear` and
/// `viewDidDisappear`, or when the route changes). While visible, the view is connected with
/// `store.connect(_:)`: it gets the current model at once and every change after.
/// While hidden, it gets nothing; appearing again delivers the current model, with the last
/// one as `oldModel`.
///
/// ```swift
/// let controller = ScreenController(view: CounterLabel(), store: store) { view, controller in
///   view.didTapIncrement = { [weak controller] in controller?.store?.dispatch(Increment()) }
/// }
/// controller.appear()
/// ```
///
/// The controller holds the store weakly: an application's navigator, inside the store's
/// dependencies, often holds its screens, and a strong reference would keep both alive forever.
/// For the same reason the view's interaction closures should capture the controller weakly.
@MainActor
public final class ScreenController<View: ModellableView, Dependencies: Sendable> {
  /// The store the view is connected to.
  public typealias StoreType = Store<View.VM.StateType, Dependencies>

  /// The view the controller owns.
  public let view: View
  /// The store, while it exists.
  public private(set) weak var store: StoreType?
  /// Whether the screen is visible, that is, between ``appear()`` and ``disappear()``.
  public private(set) var isVisible = false
  private var connection: Subscription?

  /// Creates a hidden screen for `view`, and wires the view's interactions.
  ///
  /// - Parameters:
  ///   - view: The view to own.
  ///   - store: The store to connect the view to while it is visible.
  ///   - wire: Sets the view's interaction closures, called once before this initializer
  ///     returns; they reach the store through a weakly captured controller.
  public init(
    view: View, store: StoreType,
    wire: (_ view: View, _ controller: ScreenController) -> Void = { _, _ in }
  ) {
    self.view = view
    self.store = store
    wire(view, self)
  }

  /// Connects the view, which gets the current model at once.
  ///
  /// Does nothing if the screen is already visible.
  public func appear() {
    guard !isVisible else { return }
    isVisible = true
    connection = store?.connect(view)
  }

  /// Disconnects the view at once.
  ///
  /// Does nothing if the screen is already hidden.
  public func disappear() {
    guard isVisible else { return }
    isVisible = false
    connection?.cancel()
    connection = nil
  }
}
