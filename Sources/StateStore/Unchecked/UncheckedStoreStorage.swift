// The store's storage: its fields, its initializers and its deinitializer. The fields that
// every notification reads skip the run-time exclusivity check in a release build; each says
// why no two accesses to it can overlap, and the checked build (`STATESTORE_CHECKED_EXCLUSIVITY`,
// which `.ci/run` runs the whole suite in) checks them all. The store's methods live in
// `Store.swift` and the files beside it.

import Foundation
import Synchronization

/// The single owner of an application's state, applying dispatched updaters strictly in order.
///
/// The store lives on the main actor. Code elsewhere reaches it with `await`, so the compiler, not
/// a run-time check, proves that the state is never touched from two threads at once.
///
/// ```swift
/// let store = Store<Counter, Void>(dependencies: ())
/// let token = store.addListener { old, new in print(old.value, "→", new.value) }
/// store.dispatch(Increment())
/// ```
///
/// Ordering contract:
/// - Updaters apply one at a time, in dispatch order.
/// - A dispatch made while the store is applying or notifying (from a listener, a subscriber or an
///   interceptor) is queued and applied after every listener and subscriber has seen the current
///   change: never nested, never lost, never reordered.
/// - While no listener asks for `(old, new)`, an updater mutates the state in place.
@MainActor
public final class Store<S: State, Dependencies: Sendable> {
  // The dispatch path is `@inlinable` so that it is specialised for the application's state
  // and updaters where it is called: generic code left unspecialised looks up type metadata on
  // every call and costs hundreds of nanoseconds per dispatch (see Docs/Performance.md). So the
  // properties that path reads are `@usableFromInline`.

  // What this store runs on (`Store/StoreRuntime.swift`): exactly one of the two constants
  // below is set, by the initializer, and neither ever changes. Two optionals of the two
  // runtimes' own types rather than one field of their base class or an enumeration: the
  // dispatch paths read the engine, or the link, as a projection of a constant optional of a
  // store the caller holds, which counts no reference, while a downcast from the base class,
  // or an enumeration's payload, is retained and released around the updater, two atomic
  // operations a dispatch (W1 was 1.37× slower so). Everything else asks the runtime
  // (`_runtime`).
  /// The root's engine; `nil` in a scope.
  @usableFromInline let _engine: _RootEngine<S, Dependencies>?
  /// The scope's link to its root, its runtime; `nil` at the root.
  @usableFromInline let _scopeLink: _ScopeLink<S>?
  /// What this store's selection groups cache their values against: at the root, the number
  /// of updates applied; in a scope, the number of refreshes of its slice.
  @inlinable
  var _subscriptionVersion: UInt64 { _runtime._subscriptionVersion }
  /// Whether this store's own lists have any observer (at the root, the engine adds its update
  /// observers and scopes to decide whether anything must run after an update).
  // A plain value, read by copy and written by assignment, on the main actor.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _hasObservers = false

  // The observer lists below are read on every dispatch that has observers. They skip the
  // run-time exclusivity check (a begin and an end access per read, five reads a dispatch, as
  // much as W0's whole floor) because no two accesses to one of them can overlap: each is read
  // by copying it (a `for` loop iterates a copy, `isEmpty` reads once) and written only by short
  // appends, removals and assignments that call no code outside the store. A removal's
  // predicate asks our own objects (`isActive`, `isEmpty`), and `sweepCancelledEntries()` keeps
  // the lists as they were until after its writes, so the entries and groups it removes (a
  // group holds the application's values: a cached view model, the elements of its rows) are
  // released, and their deinitializers run, with no access open. So no access is open while a
  // listener, a subscriber or any other user code runs, even one that subscribes or cancels
  // from inside a callback. All of it is main-actor state. The root's engine keeps its own
  // lists (update observers, scopes) by the same rule.
  //
  // Declared here, beside the flags, so that a scope's refresh (which reads the three lists
  // below, the cancellation log, the captured slice and the fields above) touches as few of
  // the store's cache lines as it can: with a thousand element scopes, each refresh finds its
  // store out of the cache.
  //
  // Swift lays a class's stored properties out in declaration order: `_engine` to
  // `_soleSelection` fill the store's first cache line, which is all a refresh of an element
  // scope with one view-model group reads of its store.
  // An observer list: unchecked, as proved at the head of these lists, in this file.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _listeners: [_ListenerEntry<S>] = []
  /// The one selection group while there is exactly one (most scopes: a screen's view model),
  /// kept by ``_selectionOrder``'s observer, so that a refresh reaches it without fetching the
  /// list's buffer.
  // Unchecked: an observer list's shadow, under the proof at the head of these lists. It is
  // written only by `selectionOrder`'s observer, after each write of the list; the group it
  // replaces is then still in the list, or in the copy the sweep keeps until after its writes
  // (`before`), so no write releases a group's last reference inside the access.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _soleSelection: _SelectionGroupBase<S>?
  // An observer list: unchecked, as proved at the head of these lists, in this file.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _selectionOrder: [_SelectionGroupBase<S>] = [] {
    didSet { _soleSelection = _selectionOrder.count == 1 ? _selectionOrder[0] : nil }
  }
  // An observer list: unchecked, as proved at the head of these lists, in this file.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _elementOrder: [_ElementGroupBase<S>] = []
  /// Tokens cancelled since the last sweep; tokens may be cancelled on any thread.
  @usableFromInline nonisolated let _cancellationLog: _CancellationLog
  /// The scopes made from this store, so that one slice and dependencies give one scope.
  ///
  /// Made with the first scope: a table and its count of writes, behind one reference, so
  /// that a store that makes no scope (a scope, mostly) carries one word for it.
  @usableFromInline var _scopeCache: _ScopeCache?
  /// What interceptors registered for this store alone; released with the store.
  var interceptorResources: [AnyObject] = []
  @usableFromInline var _selectionGroups: [AnyHashable: _SelectionGroupBase<S>] = [:]
  @usableFromInline var _elementGroups: [AnyKeyPath: _ElementGroupBase<S>] = [:]
  /// The element group a subscriber joined last, checked first by the next subscriber.
  ///
  /// Not on the dispatch path. Held strongly and forgotten by the sweep that drops the group: a
  /// weak reference would give the group a side table, and every retain and release of the
  /// group on the dispatch path would then take the runtime's slow path.
  // Checked: read on a row subscription, not on the dispatch path.
  @usableFromInline var _recentElementGroup: _ElementGroupBase<S>?

  /// The dependencies every side effect of this store receives.
  public let dependencies: Dependencies

  /// Where errors go that no caller awaits, such as a fire-and-forget side effect's.
  ///
  /// The default writes a line to standard error, so no error is ever lost silently.
  public var onUnhandledError:
    @MainActor (_ error: any Error, _ dispatchable: any Dispatchable) -> Void =
      Store.reportWithoutRoot

  /// Storage for modules that extend the store (side-effect cancellation, navigation).
  ///
  /// Keyed by the extending type; not meant for application code.
  @usableFromInline package var _extensionStorage: [ObjectIdentifier: AnyObject] = [:]

  /// Creates a store.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - dependencies: What side effects receive: clients, clocks, file systems. Tests pass fakes.
  ///   - interceptors: Steps every dispatchable passes through, in this order. Their `onStart`
  ///     hooks run before this initializer returns.
  public convenience init(
    initialState: S = S(), dependencies: Dependencies, interceptors: [StoreInterceptor<S>] = []
  ) {
    self.init(
      initialState: initialState, dependencies: dependencies, interceptors: interceptors,
      journal: nil)
  }

  /// Creates a root store that hands every updater it applies, with its cause, to `journal`,
  /// right after the state changed and before the update observers; with a `tape`, the store
  /// appends most of them to the tape itself, as the journal allows (see ``_JournalTape``).
  ///
  /// StatePersistence's plumbing: a `JournaledStore` creates its store so, and stops
  /// journaling by ignoring what `journal` is told. Unlike ``observeUpdates(_:)``, the journal
  /// costs no ``AppliedUpdate`` and no observer list, and the cause is read only for it. A
  /// scope's updaters reach it as ``ScopedUpdater``s.
  @usableFromInline package init(
    initialState: S, dependencies: Dependencies, interceptors: [StoreInterceptor<S>],
    journal: _Journal<S>?, tape: _JournalTape<S>? = nil
  ) {
    let engine = _RootEngine<S, Dependencies>(
      initialState: initialState, interceptors: interceptors, journal: journal, tape: tape)
    self._engine = engine
    self._scopeLink = nil
    self.dependencies = dependencies
    self._cancellationLog = _CancellationLog()
    let starts = interceptors.compactMap(\.onStart)
    guard !starts.isEmpty else { return }
    engine._isDispatching = true
    for start in starts { start(interceptorContext) }
    engine.endDispatch(store: self)
  }

  /// Creates a scope's store; see `init(scope:dependencies:)`.
  init(link: _ScopeLink<S>, dependencies: Dependencies) {
    self._engine = nil
    self._scopeLink = link
    self.dependencies = dependencies
    self._cancellationLog = _CancellationLog(relayingTo: link._relay)
  }

  // Isolated, so that it clears the scopes' reference to the root on the main actor, before
  // anything of the root is destroyed (see `RootHandle`); released on another thread, a store
  // is deinitialised on the main actor.
  isolated deinit {
    _runtime._storeIsGoing()
    // Their tokens hold the entries: release the listeners, and what they captured, now.
    for entry in _listeners { entry._clear() }
    _runtime._storeIsGone()
  }

}
