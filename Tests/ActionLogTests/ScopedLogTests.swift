import ActionLog
import Foundation
import StateStore
import Testing

struct AccountState: State, Equatable, Codable {
  var email = ""
  var settings = SettingsState()
}

struct SettingsState: State, Equatable, Codable {
  var theme = "light"
}

struct SetEmail: StateUpdater, Codable {
  let email: String
  func updateState(_ state: inout AccountState) { state.email = email }
}

struct SetTheme: StateUpdater, Codable {
  let theme: String
  func updateState(_ state: inout SettingsState) { state.theme = theme }
}

struct Line: State, Identifiable, Equatable, Codable {
  var id = 0
  var count = 0
}

struct BumpLine: StateUpdater, Codable {
  func updateState(_ state: inout Line) { state.count += 1 }
}

struct ShopState: State, Equatable, Codable {
  var visits = 0
  var account = AccountState()
  var lines = TrackedArray<Line>([Line(id: 1), Line(id: 2)])
}

struct Visit: StateUpdater, Codable {
  func updateState(_ state: inout ShopState) { state.visits += 1 }
}

@Suite("Action logs through scopes")
@MainActor
struct ScopedLogTests {
  static func registry() -> ActionLogRegistry<ShopState> {
    let registry = ActionLogRegistry<ShopState>().register(Visit.self)
    let account = registry.scope("account", state: \.account).register(SetEmail.self)
    account.scope("settings", state: \.settings).register(SetTheme.self)
    registry.scope("lines", elements: \.lines).register(BumpLine.self)
    return registry
  }

  @Test("updaters dispatched through scopes are recorded with their scope and replay exactly")
  func replayReproducesState() throws {
    let store = Store<ShopState, Void>()
    let recorder = try ActionRecorder(
      store: store, registry: Self.registry(), destination: .memory,
      options: .init(checkpointInterval: 2))
    let account = store.scope(state: \.account)
    store.dispatch(Visit())
    account.dispatch(SetEmail(email: "ada@example.com"))
    account.scope(state: \.settings).dispatch(SetTheme(theme: "dark"))
    store.scope(state: \.lines, id: 2).dispatch(BumpLine())
    store.scope(state: \.lines, id: 2).dispatch(BumpLine())
    let text = String(decoding: recorder.recordedData, as: UTF8.self)
    let lines = text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("{\"seq\"") }
    #expect(
      lines[1]
        == #"{"seq":2,"scope":"account","type":"SetEmail","payload":{"email":"ada@example.com"}}"#)
    #expect(
      lines[2]
        == #"{"seq":3,"scope":"account/settings","type":"SetTheme","payload":{"theme":"dark"}}"#)
    #expect(lines[3] == #"{"seq":4,"scope":"lines[2]","type":"BumpLine","payload":{}}"#)
    let replayed = try ActionReplayer(registry: Self.registry())
      .replay(recorder.recordedData, initialState: ShopState())
    #expect(replayed == store.state)
    #expect(replayed.lines[id: 2]?.count == 2)
  }

  @Test("an unknown scope on replay is an error naming the line")
  func unknownScope() throws {
    let store = Store<ShopState, Void>()
    let recorder = try ActionRecorder(
      store: store, registry: Self.registry(), destination: .memory)
    store.scope(state: \.account).dispatch(SetEmail(email: "x"))
    let bare = ActionLogRegistry<ShopState>().register(Visit.self)
    #expect {
      _ = try ActionReplayer(registry: bare).replay(
        recorder.recordedData, initialState: ShopState())
    } throws: { error in
      guard case ActionLogError.unknownScope(let line, let scope) = error else { return false }
      return line == 2 && scope == "account" && "\(error)".contains("line 2")
    }
  }
}
