/// What dispatched an updater: a side effect, a user action, a tool.
///
/// Side effects set the cause for everything they dispatch; an action log records it next to each
/// updater, so a replayed session tells which effect or action produced each change.
public struct DispatchCause: Sendable, Hashable, Codable, CustomStringConvertible {
  /// A readable name, such as the side effect's type or `"user: add"`.
  public var name: String

  /// Creates a cause with a readable name.
  public init(_ name: String) {
    self.name = name
  }

  /// The cause in effect for the current task; `nil` outside any side effect or labelled action.
  @TaskLocal public static var current: DispatchCause?

  /// The cause's name.
  public var description: String { name }
}

// MARK: - The store's read of the cause

/// The concurrency runtime's look-up of a task-local value.
///
/// Returns the pointer to the value bound to `key` in the current task (or, outside any task,
/// the current thread), or `nil` when none is bound. `TaskLocal.get()` calls this function; its
/// declaration in the standard library is `_taskLocalValueGet(key:)`, `@usableFromInline` and so
/// part of the runtime's ABI.
@usableFromInline
@_silgen_name("swift_task_localValueGet")
func _taskLocalValue(forKey key: UnsafeRawPointer) -> UnsafeMutableRawPointer?

extension DispatchCause {
  /// The key under which the runtime stores ``current``'s bindings: the address of its
  /// `TaskLocal`, which lives as long as the process (a static constant).
  ///
  /// A store reads it once, when it is made, and keeps it (``_current(key:)``).
  @usableFromInline
  package static var _currentKey: UnsafeRawPointer {
    UnsafeRawPointer(Unmanaged.passUnretained($current).toOpaque())
  }

  /// ``current``, read as `TaskLocal.get()` reads it but in code specialised for this type: about
  /// 7 ns instead of 17–19 on an AMD EPYC (P1 in store-bench; the store reads it on every
  /// dispatch that a journal or an update observer records).
  ///
  /// What `TaskLocal.get()` does, and all that it does: ask the runtime for the value bound to
  /// the key in the current task and copy it out, or give the default, `nil`, when none is
  /// bound. So it is safe where `current` is:
  /// - the key is the `TaskLocal`'s address, as the standard library's `key` is (a bit cast of
  ///   `self`), and `$current` is a constant that is never released;
  /// - the runtime stores a binding's value as the `TaskLocal`'s `Value`, `DispatchCause?`,
  ///   which is the type read here;
  /// - the pointer is valid for the whole of this synchronous read: a binding is removed only
  ///   when the `withValue` that made it returns, in the task that made it, which is this one
  ///   or, for a child task (`async let`, a task group), a parent that outlives it; a
  ///   `Task {}` reads copies of its own; other tasks' bindings are in their own storage;
  /// - the value is copied out (its name retained) before the function returns, and no user
  ///   code runs here.
  /// Tests: `DispatchCauseReadTests`, which bind causes every way the API allows (nested,
  /// `nil` inside a cause, async, child tasks, `Task {}`, `Task.detached`) and check that what
  /// a store records is `current` each time.
  @inlinable
  package static func _current(key: UnsafeRawPointer) -> DispatchCause? {
    guard let value = _taskLocalValue(forKey: key) else { return nil }
    return value.assumingMemoryBound(to: DispatchCause?.self).pointee
  }
}
