// swift-tools-version: 6.2
import PackageDescription

// The checked build: with `STATESTORE_CHECKED_EXCLUSIVITY=1` in the environment (`.ci/run` runs
// the whole suite so, as well as normally), every field that is `@exclusivity(unchecked)` in
// other builds is checked by the Swift runtime like any other, so a proof of non-overlapping
// access that does not hold traps in CI ("Simultaneous accesses") instead of corrupting memory
// in an app.
let checkedExclusivity: [SwiftSetting] =
  Context.environment["STATESTORE_CHECKED_EXCLUSIVITY"] == "1"
  ? [.define("STATESTORE_CHECKED_EXCLUSIVITY")] : []

let strict: [SwiftSetting] =
  [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    // Zero warnings: every build, local or CI, fails on one. SwiftPM ignores this for packages
    // that depend on us, so a newer compiler's warnings never break their builds.
    .treatAllWarnings(as: .error),
  ] + checkedExclusivity

// `TrackedArray`'s O(n) invariant checks after every mutation, as swift-collections gates its
// own behind `COLLECTIONS_INTERNAL_CHECKS`: on when the environment sets
// `STATESTORE_INVARIANT_CHECKS=1` (as `.ci/run` does), so never in the debug builds of the
// packages that depend on this one, where they would void the documented O(1).
let invariantChecks: [SwiftSetting] =
  Context.environment["STATESTORE_INVARIANT_CHECKS"] == "1"
  ? [.define("STATESTORE_INVARIANT_CHECKS")] : []

let package = Package(
  name: "StateStore",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
  products: [
    .library(name: "StateStore", targets: ["StateStore"]),
    .library(name: "SideEffects", targets: ["SideEffects"]),
    .library(name: "Navigation", targets: ["Navigation"]),
    .library(name: "ActionLog", targets: ["ActionLog"]),
    .library(name: "StatePersistence", targets: ["StatePersistence"]),
    .library(name: "StateStoreTesting", targets: ["StateStoreTesting"]),
    .library(name: "StateStoreUI", targets: ["StateStoreUI"]),
    .executable(name: "todo-cli", targets: ["todo-cli"]),
    .executable(name: "store-bench", targets: ["store-bench"]),
    .executable(name: "statestore-inspect", targets: ["statestore-inspect"]),
  ],
  targets: [
    .target(name: "StateStore", swiftSettings: strict + invariantChecks),
    .target(name: "SideEffects", dependencies: ["StateStore"], swiftSettings: strict),
    .target(
      name: "Navigation", dependencies: ["StateStore", "SideEffects"], swiftSettings: strict),
    .target(name: "ActionLog", dependencies: ["StateStore"], swiftSettings: strict),
    .target(
      name: "StatePersistence", dependencies: ["StateStore", "ActionLog"], swiftSettings: strict),
    .target(name: "StateStoreUI", dependencies: ["StateStore"], swiftSettings: strict),
    // The terminal toolkit that `todo-cli ui` and `statestore-inspect` share: raw mode, keys,
    // display width, frames, widgets. It knows nothing of stores or todos.
    .target(name: "TerminalKit", swiftSettings: strict),
    .target(
      name: "StateStoreTesting",
      dependencies: ["StateStore", "SideEffects", "Navigation", "ActionLog"],
      swiftSettings: strict
    ),
    // The todo app's feature modules: each knows only the library, never the app, and
    // TodoCore mounts it by scope.
    .target(
      name: "TitleEditorFeature", dependencies: ["StateStore", "SideEffects", "ActionLog"],
      swiftSettings: strict),
    .target(
      name: "StatusLineFeature", dependencies: ["StateStore", "SideEffects", "ActionLog"],
      swiftSettings: strict),
    .target(
      name: "TodoListFeature", dependencies: ["StateStore", "ActionLog"], swiftSettings: strict),
    .target(
      name: "TodoDetailFeature", dependencies: ["StateStore", "SideEffects", "ActionLog"],
      swiftSettings: strict),
    .target(
      name: "TodoCore",
      dependencies: [
        "StateStore", "SideEffects", "Navigation", "ActionLog", "StateStoreUI", "StatePersistence",
        "TitleEditorFeature", "StatusLineFeature", "TodoListFeature", "TodoDetailFeature",
        "TerminalKit",
      ],
      swiftSettings: strict
    ),
    .executableTarget(name: "todo-cli", dependencies: ["TodoCore"], swiftSettings: strict),
    // The session inspector: the logic in a library, so that tests reach it, and the command.
    .target(
      name: "Inspector", dependencies: ["ActionLog", "StatePersistence", "TerminalKit"],
      swiftSettings: strict),
    .executableTarget(
      name: "statestore-inspect", dependencies: ["Inspector"], swiftSettings: strict),
    .executableTarget(
      name: "store-bench",
      dependencies: [
        "StateStore", "SideEffects", "ActionLog", "StateStoreUI", "StatePersistence", "Inspector",
      ],
      swiftSettings: strict
    ),
    // Appends to a journaled store until the kill -9 test of StatePersistence kills it.
    .executableTarget(
      name: "persistence-crash-child",
      dependencies: ["StatePersistence", "StateStore", "ActionLog"],
      swiftSettings: strict),
    .testTarget(
      name: "StateStoreTests",
      dependencies: ["StateStore", "StateStoreTesting"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "SideEffectsTests",
      dependencies: ["StateStore", "SideEffects", "StateStoreTesting"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "NavigationTests",
      dependencies: ["StateStore", "SideEffects", "Navigation", "ActionLog", "StateStoreTesting"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "ActionLogTests",
      dependencies: ["StateStore", "SideEffects", "ActionLog", "StateStoreTesting"],
      resources: [.copy("Fixtures")],
      swiftSettings: strict
    ),
    // The fault-injecting system calls that the tests of StatePersistence and of the todo app
    // share: both reach the disk through the module's seam.
    .target(
      name: "PersistenceTestSupport", dependencies: ["StatePersistence", "StateStore"],
      path: "Tests/PersistenceTestSupport", swiftSettings: strict),
    .testTarget(
      name: "StatePersistenceTests",
      // The crash child, so that the kill -9 test finds it built.
      dependencies: [
        "StatePersistence", "StateStore", "ActionLog", "StateStoreTesting",
        "PersistenceTestSupport", "persistence-crash-child",
      ],
      exclude: ["Fixtures"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "StateStoreUITests",
      dependencies: ["StateStoreUI", "StateStore"],
      swiftSettings: strict
    ),
    .testTarget(name: "TerminalKitTests", dependencies: ["TerminalKit"], swiftSettings: strict),
    .testTarget(
      name: "TodoCoreTests",
      dependencies: [
        "TodoCore", "StateStore", "SideEffects", "Navigation", "ActionLog", "StateStoreTesting",
        "TerminalKit", "StatePersistence", "PersistenceTestSupport",
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "TitleEditorFeatureTests",
      dependencies: [
        "TitleEditorFeature", "StateStore", "SideEffects", "ActionLog", "StateStoreTesting",
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "StatusLineFeatureTests",
      dependencies: [
        "StatusLineFeature", "StateStore", "SideEffects", "ActionLog", "StateStoreTesting",
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "TodoListFeatureTests",
      dependencies: ["TodoListFeature", "StateStore", "ActionLog", "StateStoreTesting"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "TodoDetailFeatureTests",
      dependencies: [
        "TodoDetailFeature", "StateStore", "SideEffects", "ActionLog", "StateStoreTesting",
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "TodoCLITests",
      dependencies: ["todo-cli"],
      // Stores written by older releases, which the upgrade tests copy by path.
      exclude: ["Fixtures"],
      swiftSettings: strict
    ),
    .testTarget(
      // Compiles the code blocks of the README and the DocC articles against the library
      // modules, which it depends on only so that they are built first; and the test that
      // `todo-cli shrink` writes, against TodoCore, built with the executable.
      name: "DocumentationTests",
      dependencies: [
        "StateStore", "SideEffects", "Navigation", "ActionLog", "StateStoreTesting", "StateStoreUI",
        "StatePersistence", "todo-cli",
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "InspectorTests",
      // The executables, so that the end-to-end tests find them built.
      dependencies: [
        "Inspector", "ActionLog", "StateStore", "StatePersistence", "TerminalKit",
        "statestore-inspect", "todo-cli",
      ],
      swiftSettings: strict
    ),
    .testTarget(
      // Sessions recorded with a planted bug, one with a side effect, shrunk, and the tests the
      // shrinker wrote from them (Generated/), run against the fixed and the buggy updater.
      name: "SessionShrinkingTests",
      dependencies: ["StateStore", "SideEffects", "ActionLog", "StateStoreTesting"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "BenchmarkTests",
      dependencies: ["store-bench"],
      swiftSettings: strict
    ),
  ]
)
