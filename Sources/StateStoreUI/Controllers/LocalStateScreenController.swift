/// A ``ScreenController`` for a screen with local state: Tempura's
/// `ViewControllerWithLocalState`.
///
/// The controller holds ``localState``, state that belongs to the screen alone (a text being
/// typed, a selection). The view's model is `VM(state:localState:)`; changing the store's state
/// or the local state updates the view once, only if the model changed, with the model it held
/// before as `oldModel`. The local state is never dispatched: it does not enter the app state
/// or an action log.
///
/// ```swift
/// let controller = LocalStateScreenController(
///   view: SearchView(), store: store, localState: ""
/// ) { view, controller in
///   view.didType = { [weak controller] text in controller?.localState = text }
/// }
/// controller.appear()
/// ```
///
/// As with ``ScreenController``, the controller reaches the store through a `StoreHandle`,
/// which does not keep it alive, and the view's closures should capture the controller weakly.
@MainActor
public final class LocalStateScreenController<
  View: ModellableViewWithLocalState, Dependencies: Sendable
> {
  /// The store the view is connected to.
  public typealias StoreType = Store<View.VM.StateType, Dependencies>

  /// The view the controller owns.
  public let view: View
  /// The handle through which the controller reaches the store.
  public let handle: StoreHandle<View.VM.StateType, Dependencies>
  /// The store, while it exists.
  public var store: StoreType? { handle.store }
  /// Whether the screen is visible, that is, between ``appear()`` and ``disappear()``.
  public private(set) var isVisible = false
  /// The screen's own state; setting it updates a visible view if its model changes.
  public var localState: View.VM.LocalState {
    didSet {
      if isVisible, localState != oldValue { render(always: false) }
    }
  }
  private var observation: Subscription?
  /// The model last given to the view, to compare the next one with.
  private var lastModel: View.VM?
  /// Where the controller was made, for the warning of a store released before it appears.
  private let fileID: String
  private let line: Int

  /// Creates a hidden screen for `view` with `localState`, and wires the view's interactions.
  ///
  /// - Parameters:
  ///   - view: The view to own.
  ///   - store: The handle of the store whose state the view model is projected from while
  ///     visible.
  ///   - localState: The screen's initial local state.
  ///   - fileID: Where the controller is made, named by the warning of a released store.
  ///   - line: Where the controller is made, as for `fileID`.
  ///   - wire: Sets the view's interaction closures, called once before this initializer
  ///     returns; they reach the store and the local state through a weakly captured controller.
  public init(
    view: View, store: StoreHandle<View.VM.StateType, Dependencies>,
    localState: View.VM.LocalState, fileID: String = #fileID, line: Int = #line,
    wire: (_ view: View, _ controller: LocalStateScreenController) -> Void = { _, _ in }
  ) {
    self.view = view
    self.handle = store
    self.localState = localState
    self.fileID = fileID
    self.line = line
    wire(view, self)
  }

  /// Creates a hidden screen for `view` on `store`, reached through its handle, with
  /// `localState`, and wires the view's interactions.
  ///
  /// - Parameters:
  ///   - view: The view to own.
  ///   - store: The store whose state the view model is projected from; not kept alive.
  ///   - localState: The screen's initial local state.
  ///   - fileID: Where the controller is made, named by the warning of a released store.
  ///   - line: Where the controller is made, as for `fileID`.
  ///   - wire: Sets the view's interaction closures, called once before this initializer
  ///     returns.
  public convenience init(
    view: View, store: StoreType, localState: View.VM.LocalState,
    fileID: String = #fileID, line: Int = #line,
    wire: (_ view: View, _ controller: LocalStateScreenController) -> Void = { _, _ in }
  ) {
    self.init(
      view: view, store: store.handle, localState: localState, fileID: fileID, line: line,
      wire: wire)
  }

  /// Connects the view, which gets the current model at once.
  ///
  /// Does nothing if the screen is already visible.
  ///
  /// - Complexity: While visible, one `init?(state:localState:)` and one comparison per
  ///   dispatch: a local-state model cannot be shared with other screens.
  public func appear() {
    guard !isVisible else { return }
    guard let store else {
      RuntimeWarning.storeReleased(
        "LocalStateScreenController", state: View.VM.StateType.self, fileID: fileID, line: line)
      return
    }
    isVisible = true
    // Every change of the state, including a root's change of a scope's slice (which a scope's
    // `observeUpdates` does not report), without making the store keep the old state as a
    // listener would. Its first call, at once, is the appearance's render.
    var isFirstCall = true
    observation = store.observeStateChanges { [weak self] _ in
      self?.render(always: isFirstCall)
      isFirstCall = false
    }
  }

  /// Disconnects the view at once.
  ///
  /// Does nothing if the screen is already hidden.
  public func disappear() {
    guard isVisible else { return }
    isVisible = false
    observation?.cancel()
    observation = nil
  }

  private func render(always: Bool) {
    // A scope whose slice is gone (its element removed) keeps showing its last model.
    guard let state = store?.stateIfAvailable else { return }
    let model = View.VM(state: state, localState: localState)
    guard always || model != lastModel else { return }
    lastModel = model
    let oldModel = view.model
    view.model = model
    view.update(oldModel: oldModel)
  }
}
