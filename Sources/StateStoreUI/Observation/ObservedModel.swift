import Observation

/// A view model kept current by the store, for SwiftUI and anything else that uses Observation.
///
/// Get one with `store.observe(_:)`. `model` changes only when the view model
/// changes (`!=`), so a SwiftUI view that reads it re-renders only then: a dispatch that leaves
/// the view model equal does not touch it.
///
/// Releasing the object ends its subscription. Keep it where the view keeps its state (SwiftUI's
/// `@State`).
@MainActor
public final class ObservedModel<VM: ViewModelWithState>: Observable {
  /// The current view model; `nil` when `VM.init?(state:)` found nothing to show.
  public private(set) var model: VM? {
    get {
      registrar.access(self, keyPath: modelKeyPath)
      return storedModel
    }
    set {
      registrar.withMutation(of: self, keyPath: modelKeyPath) { storedModel = newValue }
    }
  }

  private var storedModel: VM?
  private let registrar = ObservationRegistrar()
  // `@Observable` would spell `\.model` at every read and write; in a generic class that
  // literal is built anew each time (the runtime resolves `VM` from mangled names), which was
  // most of this object's cost per dispatch. One instance per object reads and hashes the same.
  private let modelKeyPath: KeyPath<ObservedModel, VM?> = \.model
  @usableFromInline var _subscription: Subscription?

  /// An object whose model stays `nil`: the store it was asked of is gone.
  init() {}

  /// Subscribes to `store`'s `VM`; inlinable, so that the subscription, which runs on every
  /// dispatch, is made in the application's code and specialised for its types.
  @inlinable
  init<D: Sendable>(store: Store<VM.StateType, D>) {
    _subscription = store.subscribe(VM.self) { [weak self] model in
      self?._receive(model)
    }
  }

  /// Takes a view model the store delivered.
  @usableFromInline
  func _receive(_ newModel: VM?) {
    // The store delivers only changed values after the first, so every set is a change.
    model = newModel
  }
}
