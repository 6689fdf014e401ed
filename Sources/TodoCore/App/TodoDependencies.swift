import Navigation
import StatusLineFeature
import TerminalKit
import TitleEditorFeature
import TodoDetailFeature

/// What the todo app's side effects are given, in the command line and in the terminal UI
/// alike: the storage, which tests replace with fakes, and the navigator.
///
/// One type for both, so that each change has one effect (``PerformChange``) wherever it is
/// made. Conforming to `NavigationProvider` is what lets the UI's screens write
/// `try await store.dispatch(Show("detail", context: id))`; a command shows no screen, so its
/// navigator holds only the root.
struct TodoDependencies: NavigationProvider, Sendable {
  /// Where the todos are read from and journaled to.
  var storage: any TodoStorage
  /// The navigator that resolves the UI's `Show` and `Hide` requests.
  let navigator: Navigator
  /// What time it is: the time journal entries are stamped with, and the day `today` names.
  var clock: TodoClock

  /// Creates the dependencies; without a navigator, one whose route is only the list's root.
  @MainActor
  init(storage: any TodoStorage, navigator: Navigator? = nil, clock: TodoClock = .system) {
    self.storage = storage
    self.navigator = navigator ?? Navigator(root: HeadlessRoot())
    self.clock = clock
  }

  /// The title editor's dependencies: the app's rule for a title.
  var titleEditor: TitleEditorDependencies {
    TitleEditorDependencies { title in
      Title.isValid(title) ? nil : TodoError.emptyTitle.description
    }
  }

  /// The detail's dependencies: the app's date forms, resolved against its clock.
  var detail: TodoDetailDependencies {
    let clock = clock
    return TodoDetailDependencies { text in
      guard let date = DateArgument(text)?.resolved(today: clock.today) else {
        return .refused(
          "'\(TerminalSafeText.escaped(text))' is not a date: use \(DateArgument.forms) or none")
      }
      return .date(date.description)
    }
  }

  /// The status line's dependencies: errors in the words the app prints them, with what the
  /// command line's exit status would say (``ExitCode/statusLine(for:)``).
  var statusLine: StatusLineDependencies {
    StatusLineDependencies { error in ExitCode.statusLine(for: error) }
  }
}

/// The store the todo app runs on, for commands and the terminal UI.
typealias TodoStore = Store<AppState, TodoDependencies>

/// The root of a navigator that shows no screen: a command line run's.
@MainActor
private final class HeadlessRoot: Routable {
  let routeIdentifier: RouteElementIdentifier = "list"
}
