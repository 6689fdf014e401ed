import Foundation

/// A dispatchable that an ``ObserverInterceptor`` builds when the store starts.
public protocol OnStartObserverDispatchable: Dispatchable {
  /// Builds the dispatchable, or returns `nil` to dispatch nothing.
  init?()
}

/// A dispatchable that an ``ObserverInterceptor`` builds when a watched state change happens.
public protocol StateObserverDispatchable<StateType>: Dispatchable {
  /// The state whose changes are watched.
  associatedtype StateType: State

  /// Builds the dispatchable from the states before and after the change, or returns `nil` to
  /// dispatch nothing.
  init?(prevState: StateType, currentState: StateType)
}

/// A dispatchable that an ``ObserverInterceptor`` builds when a watched dispatchable type is
/// dispatched.
public protocol DispatchObserverDispatchable<StateType>: Dispatchable {
  /// The state of the store the watched dispatchable went to.
  associatedtype StateType: State

  /// Builds the dispatchable from the dispatched item and the states before and after it, or
  /// returns `nil` to dispatch nothing.
  init?(dispatchedItem: any Dispatchable, prevState: StateType, currentState: StateType)
}

/// A dispatchable that an ``ObserverInterceptor`` builds when a notification is posted.
///
/// The initializer runs on the thread that posted the notification.
public protocol NotificationObserverDispatchable: Dispatchable {
  /// Builds the dispatchable from the notification, or returns `nil` to dispatch nothing.
  init?(notification: Notification)
}
