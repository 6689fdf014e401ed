import StateStore

/// A mounted feature's slice for S5: small, `Equatable`, and untouched by W1.
struct Feature: State, Equatable {
  var name = "feature"
  var visits = 0
}

/// What each of S5's mounted features renders.
struct FeatureTitle: ViewModelWithState {
  let text: String
  let visits: Int

  init?(state: Feature) {
    text = state.name
    visits = state.visits
  }
}

/// A hundred features, each a stored property, so that each scope has its own slice.
struct MountedFeatures: Equatable, Sendable {
  var f00 = Feature(), f01 = Feature(), f02 = Feature(), f03 = Feature(), f04 = Feature(),
    f05 = Feature(), f06 = Feature(), f07 = Feature(), f08 = Feature(), f09 = Feature()
  var f10 = Feature(), f11 = Feature(), f12 = Feature(), f13 = Feature(), f14 = Feature(),
    f15 = Feature(), f16 = Feature(), f17 = Feature(), f18 = Feature(), f19 = Feature()
  var f20 = Feature(), f21 = Feature(), f22 = Feature(), f23 = Feature(), f24 = Feature(),
    f25 = Feature(), f26 = Feature(), f27 = Feature(), f28 = Feature(), f29 = Feature()
  var f30 = Feature(), f31 = Feature(), f32 = Feature(), f33 = Feature(), f34 = Feature(),
    f35 = Feature(), f36 = Feature(), f37 = Feature(), f38 = Feature(), f39 = Feature()
  var f40 = Feature(), f41 = Feature(), f42 = Feature(), f43 = Feature(), f44 = Feature(),
    f45 = Feature(), f46 = Feature(), f47 = Feature(), f48 = Feature(), f49 = Feature()
  var f50 = Feature(), f51 = Feature(), f52 = Feature(), f53 = Feature(), f54 = Feature(),
    f55 = Feature(), f56 = Feature(), f57 = Feature(), f58 = Feature(), f59 = Feature()
  var f60 = Feature(), f61 = Feature(), f62 = Feature(), f63 = Feature(), f64 = Feature(),
    f65 = Feature(), f66 = Feature(), f67 = Feature(), f68 = Feature(), f69 = Feature()
  var f70 = Feature(), f71 = Feature(), f72 = Feature(), f73 = Feature(), f74 = Feature(),
    f75 = Feature(), f76 = Feature(), f77 = Feature(), f78 = Feature(), f79 = Feature()
  var f80 = Feature(), f81 = Feature(), f82 = Feature(), f83 = Feature(), f84 = Feature(),
    f85 = Feature(), f86 = Feature(), f87 = Feature(), f88 = Feature(), f89 = Feature()
  var f90 = Feature(), f91 = Feature(), f92 = Feature(), f93 = Feature(), f94 = Feature(),
    f95 = Feature(), f96 = Feature(), f97 = Feature(), f98 = Feature(), f99 = Feature()
}

/// The state S5 runs on: W1's todos beside a hundred mounted features.
struct MountedState: State {
  var app = AppState()
  var features = MountedFeatures()

  init() {}

  init(todoCount: Int) {
    app = AppState(todoCount: todoCount)
  }

  /// The hundred features' key paths, one per scope.
  static let featurePaths: [any WritableKeyPath<MountedState, Feature> & Sendable] = [
    \.features.f00, \.features.f01, \.features.f02, \.features.f03, \.features.f04, \.features.f05,
    \.features.f06, \.features.f07, \.features.f08, \.features.f09,
    \.features.f10, \.features.f11, \.features.f12, \.features.f13, \.features.f14, \.features.f15,
    \.features.f16, \.features.f17, \.features.f18, \.features.f19,
    \.features.f20, \.features.f21, \.features.f22, \.features.f23, \.features.f24, \.features.f25,
    \.features.f26, \.features.f27, \.features.f28, \.features.f29,
    \.features.f30, \.features.f31, \.features.f32, \.features.f33, \.features.f34, \.features.f35,
    \.features.f36, \.features.f37, \.features.f38, \.features.f39,
    \.features.f40, \.features.f41, \.features.f42, \.features.f43, \.features.f44, \.features.f45,
    \.features.f46, \.features.f47, \.features.f48, \.features.f49,
    \.features.f50, \.features.f51, \.features.f52, \.features.f53, \.features.f54, \.features.f55,
    \.features.f56, \.features.f57, \.features.f58, \.features.f59,
    \.features.f60, \.features.f61, \.features.f62, \.features.f63, \.features.f64, \.features.f65,
    \.features.f66, \.features.f67, \.features.f68, \.features.f69,
    \.features.f70, \.features.f71, \.features.f72, \.features.f73, \.features.f74, \.features.f75,
    \.features.f76, \.features.f77, \.features.f78, \.features.f79,
    \.features.f80, \.features.f81, \.features.f82, \.features.f83, \.features.f84, \.features.f85,
    \.features.f86, \.features.f87, \.features.f88, \.features.f89,
    \.features.f90, \.features.f91, \.features.f92, \.features.f93, \.features.f94, \.features.f95,
    \.features.f96, \.features.f97, \.features.f98, \.features.f99,
  ]
}

/// W1's updater on ``MountedState``, dispatched at the root.
struct ToggleMountedTodo: StateUpdater {
  let id: Int

  func updateState(_ state: inout MountedState) {
    state.app.todos[id: id]?.done.toggle()
  }
}
