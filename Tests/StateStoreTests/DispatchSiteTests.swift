import Foundation
import Testing

@testable import StateStore

/// Every dispatch names the file and line that made it, on each way an updater reaches the
/// store, and a store that records nothing builds no site.
@MainActor
@Suite("Dispatch sites")
struct DispatchSiteTests {
  @Test("an update observer sees the file and line of a root's dispatch")
  func rootDispatch() {
    let store = Store<CounterState, Void>()
    var sites: [DispatchSite?] = []
    let token = store.observeUpdates { sites.append($0.site) }
    store.dispatch(Increment())
    let line = #line - 1
    #expect(sites == [DispatchSite(fileID: #fileID, line: line)])
    #expect(sites.first??.description == "\(#fileID):\(line)")
    token.cancel()
  }

  @Test("a dispatch queued behind another (from a listener) keeps its own site")
  func queuedDispatch() {
    let store = Store<CounterState, Void>()
    var lines: [Int?] = []
    var queuedLine = 0
    let token = store.observeUpdates { lines.append($0.site?.line) }
    let listener = store.addListener { _, new in
      if new.label.isEmpty {
        store.dispatch(SetLabel(label: "queued"))
        queuedLine = #line - 1
      }
    }
    store.dispatch(Increment())
    let firstLine = #line - 1
    #expect(store.state.label == "queued")
    #expect(lines == [firstLine, queuedLine])
    token.cancel()
    listener.cancel()
  }

  @Test("dispatch(any:) and a handle's dispatch record the caller's line")
  func anyAndHandle() {
    let store = Store<CounterState, Void>()
    var lines: [Int?] = []
    let token = store.observeUpdates { lines.append($0.site?.line) }
    store.dispatch(any: Increment())
    let anyLine = #line - 1
    StoreHandle(store).dispatch(Increment())
    let handleLine = #line - 1
    #expect(lines == [anyLine, handleLine])
    token.cancel()
  }

  @Test("a scope's dispatch reaches the root's update observer with its site")
  func scopedDispatch() {
    let app = Store<ShellState, Void>()
    let profile = app.scope(state: \.profile)
    var rootSites: [DispatchSite?] = []
    var scopeSites: [DispatchSite?] = []
    let rootToken = app.observeUpdates { rootSites.append($0.site) }
    let scopeToken = profile.observeUpdates { scopeSites.append($0.site) }
    profile.dispatch(RenameProfile(name: "Ada"))
    let site = DispatchSite(fileID: #fileID, line: #line - 1)
    #expect(rootSites == [site])
    #expect(scopeSites == [site])
    rootToken.cancel()
    scopeToken.cancel()
  }

  @Test("a cause with a site and a parent survives a round trip; an old cause still decodes")
  func causeCoding() throws {
    let outer = DispatchCause(
      "Outer", site: DispatchSite(fileID: "App/A.swift", line: 3), parent: nil)
    let inner = DispatchCause(
      "Outer › Inner", site: DispatchSite(fileID: "App/B.swift", line: 9), parent: outer)
    let data = try JSONEncoder().encode(inner)
    #expect(try JSONDecoder().decode(DispatchCause.self, from: data) == inner)
    #expect(inner.chain.map(\.name) == ["Outer › Inner", "Outer"])

    let old = try JSONDecoder().decode(
      DispatchCause.self, from: Data(#"{"name":"user: add"}"#.utf8))
    #expect(old == DispatchCause("user: add"))
    #expect(old.site == nil && old.parent == nil)
    let plain = String(decoding: try JSONEncoder().encode(DispatchCause("tool")), as: UTF8.self)
    #expect(plain == #"{"name":"tool"}"#)
  }
}
