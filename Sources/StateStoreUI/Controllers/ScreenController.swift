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
///   view.didTapIncrement = { [weak controller] in controller?.handle.dispatch(Increment()) }
/// }
/// controller.appear()
/// ```
///
/// The controller reaches the store through a `StoreHandle`, the type every screen holds, and
/// it can be made from a handle or from a store. Like every handle, it does not keep the store
/// alive: an application's navigator, inside the store's dependencies, often holds its screens,
/// and a strong reference would keep both alive forever. Keep the store, or a feature's scope,
/// where the app mounts it. A controller whose store is already released when it appears says
/// so once, as a runtime warning naming the line that made it (see "Building screens",
/// *Lifetimes*). For the same reason the view's interaction closures should capture the
/// controller weakly.
@MainActor
public final class ScreenController<View: ModellableView, Dependencies: Sendable> {
  /// The store the view is connected to.
  public typealias StoreType = Store<View.VM.StateType, Dependencies>

  /// The view the controller owns.
  public let view: View
  /// The handle through which the controller reaches the store; the view's interactions
  /// dispatch through it: `controller?.handle.dispatch(Increment())`.
  public let handle: StoreHandle<View.VM.StateType, Dependencies>
  /// The store, while it exists.
  public var store: StoreType? { handle.store }
  /// Whether the screen is visible, that is, between ``appear()`` and ``disappear()``.
  public private(set) var isVisible = false
  private var connection: Subscription?
  /// Where the controller was made, for the warning of a store released before it appears.
  private let fileID: String
  private let line: Int

  /// Creates a hidden screen for `view`, and wires the view's interactions.
  ///
  /// - Parameters:
  ///   - view: The view to own.
  ///   - store: The handle of the store to connect the view to while it is visible.
  ///   - fileID: Where the controller is made, named by the warning of a released store.
  ///   - line: Where the controller is made, as for `fileID`.
  ///   - wire: Sets the view's interaction closures, called once before this initializer
  ///     returns; they reach the store through a weakly captured controller.
  public init(
    view: View, store: StoreHandle<View.VM.StateType, Dependencies>,
    fileID: String = #fileID, line: Int = #line,
    wire: (_ view: View, _ controller: ScreenController) -> Void = { _, _ in }
  ) {
    self.view = view
    self.handle = store
    self.fileID = fileID
    self.line = line
    wire(view, self)
  }

  /// Creates a hidden screen for `view` on `store`, reached through its handle, and wires the
  /// view's interactions.
  ///
  /// - Parameters:
  ///   - view: The view to own.
  ///   - store: The store to connect the view to while it is visible; not kept alive.
  ///   - fileID: Where the controller is made, named by the warning of a released store.
  ///   - line: Where the controller is made, as for `fileID`.
  ///   - wire: Sets the view's interaction closures, called once before this initializer
  ///     returns.
  public convenience init(
    view: View, store: StoreType, fileID: String = #fileID, line: Int = #line,
    wire: (_ view: View, _ controller: ScreenController) -> Void = { _, _ in }
  ) {
    self.init(view: view, store: store.handle, fileID: fileID, line: line, wire: wire)
  }

  /// Connects the view, which gets the current model at once.
  ///
  /// Does nothing if the screen is already visible.
  public func appear() {
    guard !isVisible else { return }
    isVisible = true
    guard let store else {
      RuntimeWarning.storeReleased(
        "ScreenController", state: View.VM.StateType.self, fileID: fileID, line: line)
      return
    }
    connection = store.connect(view)
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
