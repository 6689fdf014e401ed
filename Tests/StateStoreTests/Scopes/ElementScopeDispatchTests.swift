import Testing

@testable import StateStore

// A dispatch through an element scope notifies its element's members straight from the bucket
// they are filed in (`ScopeBucket`), without the group reading the array's journal. These tests
// pin what that way must keep: exactly the changed element's scopes are evaluated, all of them
// (a second scope of the same id, a scope under the element scope), and the application's code
// that runs on the way (an id's `==`, a view model's `init?(state:)`) may dispatch, subscribe
// and cancel as anywhere else.

/// Counts `CardModel` evaluations, by card id.
@MainActor private var cardEvaluations: [Int: Int] = [:]

/// Runs inside a `CardModel` evaluation, with the card evaluated.
@MainActor private var cardModelHook: (@MainActor (Card) -> Void)?

private struct Card: State, Identifiable, Equatable {
  var id = 0
  var done = false
  var detail = CardDetail()
}

private struct CardDetail: State, Equatable {
  var notes = 0
}

private struct Board: State, Equatable {
  var counter = 0
  var cards = TrackedArray<Card>()

  init() {}

  init(cardCount: Int) {
    cards = TrackedArray((0..<cardCount).map { Card(id: $0) })
  }
}

private struct CardModel: ViewModelWithState {
  let id: Int
  let done: Bool

  init?(state: Card) {
    MainActor.assumeIsolated {
      cardEvaluations[state.id, default: 0] += 1
      cardModelHook?(state)
    }
    id = state.id
    done = state.done
  }
}

private struct ToggleCard: StateUpdater {
  func updateState(_ state: inout Card) { state.done.toggle() }
}

private struct BumpNotes: StateUpdater {
  func updateState(_ state: inout Card) { state.detail.notes += 1 }
}

private struct BumpCardBoard: StateUpdater {
  func updateState(_ state: inout Board) { state.counter += 1 }
}

private struct ToggleCardAtRoot: StateUpdater {
  let id: Int
  func updateState(_ state: inout Board) { state.cards[id: id]?.done.toggle() }
}

/// Runs inside `EqualityHookedID.==`, which a change made through an element scope calls inside
/// the updater's access (to see whether the updater changed the id).
@MainActor private var equalityHook: (@MainActor () -> Void)?

/// An id whose `==` runs `equalityHook`, which dispatches and cancels.
private struct EqualityHookedID: Hashable, Sendable {
  let value: Int

  static func == (lhs: Self, rhs: Self) -> Bool {
    MainActor.assumeIsolated { equalityHook?() }
    return lhs.value == rhs.value
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(value)
  }
}

private struct HookedCard: State, Identifiable, Equatable {
  var id = EqualityHookedID(value: -1)
  var done = false
}

private struct HookedBoard: State, Equatable {
  var cards = TrackedArray<HookedCard>()
}

private struct ToggleHookedCard: StateUpdater {
  func updateState(_ state: inout HookedCard) { state.done.toggle() }
}

private struct ToggleHookedAtRoot: StateUpdater {
  let value: Int
  func updateState(_ state: inout HookedBoard) {
    state.cards[id: EqualityHookedID(value: value)]?.done.toggle()
  }
}

@MainActor
@Suite("Dispatches through element scopes notify their element's scopes alone", .serialized)
struct ElementScopeDispatchTests {
  init() {
    cardEvaluations = [:]
    cardModelHook = nil
    equalityHook = nil
  }

  @Test("a toggle through one of 1,000 element scopes evaluates that row's view model alone")
  func oneOfAThousand() {
    let app = Store<Board, Void>(initialState: Board(cardCount: 1000))
    let rows = (0..<1000).map { app.scope(state: \.cards, id: $0) }
    var delivered: [String] = []
    let tokens = rows.map { row in
      row.subscribe(CardModel.self) { delivered.append("\($0?.id ?? -1) \($0?.done ?? false)") }
    }
    #expect(delivered.count == 1000)
    delivered = []
    cardEvaluations = [:]
    // The first dispatch files the scopes in their buckets; the later ones go straight to them.
    for round in 0..<3 {
      rows[500].dispatch(ToggleCard())
      #expect(cardEvaluations == [500: round + 1])
    }
    rows[7].dispatch(ToggleCard())
    #expect(cardEvaluations == [500: 3, 7: 1])
    #expect(delivered == ["500 true", "500 false", "500 true", "7 true"])
    #expect(app.state.cards.filter(\.done).map(\.id) == [7, 500])
    _ = tokens
  }

  @Test("a second element scope of the same id, and a scope under the element scope, are told")
  func everyScopeOfTheElement() {
    let app = Store<Board, Void>(initialState: Board(cardCount: 10))
    let card = app.scope(state: \.cards, id: 4)
    let twin = app.scope(state: \.cards, id: 4, name: "twin")
    let detail = card.scope(state: \.detail)
    let other = app.scope(state: \.cards, id: 5)
    #expect(card !== twin)
    var seen: [String] = []
    let tokens = [
      card.subscribe(CardModel.self) { seen.append("card \($0?.done ?? false)") },
      twin.subscribe(CardModel.self) { seen.append("twin \($0?.done ?? false)") },
      detail.subscribe(to: \.notes) { seen.append("detail \($0)") },
      other.subscribe(CardModel.self) { seen.append("other \($0?.done ?? false)") },
    ]
    seen = []
    cardEvaluations = [:]
    app.dispatch(BumpCardBoard())
    for _ in 0..<2 {
      card.dispatch(ToggleCard())
      twin.dispatch(BumpNotes())
    }
    #expect(seen == ["card true", "twin true", "detail 1", "card false", "twin false", "detail 2"])
    // Two view models of card 4 on each of four updates; card 5's never.
    #expect(cardEvaluations == [4: 8])
    _ = tokens
  }

  @Test("a change at the root and a change through the element scope each reach their rows")
  func interleavedWithRootChanges() {
    let app = Store<Board, Void>(initialState: Board(cardCount: 10))
    let rows = (0..<10).map { app.scope(state: \.cards, id: $0) }
    var seen: [String] = []
    let tokens = rows.map { row in
      row.subscribe(CardModel.self) { seen.append("\($0?.id ?? -1) \($0?.done ?? false)") }
    }
    seen = []
    rows[1].dispatch(ToggleCard())
    app.dispatch(ToggleCardAtRoot(id: 2))
    rows[1].dispatch(ToggleCard())
    rows[3].dispatch(ToggleCard())
    app.dispatch(ToggleCardAtRoot(id: 1))
    rows[3].dispatch(ToggleCard())
    #expect(seen == ["1 true", "2 true", "1 false", "3 true", "1 true", "3 false"])
    _ = tokens
  }

  @Test("a view model whose init dispatches through element scopes has those dispatches queued")
  func viewModelDispatchesThroughElementScopes() {
    let app = Store<Board, Void>(initialState: Board(cardCount: 10))
    let rows = (0..<10).map { app.scope(state: \.cards, id: $0) }
    var seen: [String] = []
    let tokens = rows.map { row in
      row.subscribe(CardModel.self) { seen.append("\($0?.id ?? -1) \($0?.done ?? false)") }
    }
    app.dispatch(BumpCardBoard())
    seen = []
    var fired = 0
    cardModelHook = { card in
      // Once from card 5's evaluation: through another row's scope and through its own.
      guard card.id == 5, fired == 0 else { return }
      fired += 1
      rows[6].dispatch(ToggleCard())
      rows[5].dispatch(ToggleCard())
    }
    rows[5].dispatch(ToggleCard())
    cardModelHook = nil
    #expect(fired == 1)
    // Applied after the round that evaluated card 5, in order.
    #expect(seen == ["5 true", "6 true", "5 false"])
    #expect(app.state.cards.filter(\.done).map(\.id) == [6])
    rows[6].dispatch(ToggleCard())
    #expect(seen == ["5 true", "6 true", "5 false", "6 false"])
    _ = tokens
  }

  @Test("an id whose == dispatches and cancels a token inside a change through an element scope")
  func hostileEqualityDuringTheChange() {
    var initial = HookedBoard()
    for value in 0..<10 { initial.cards.append(HookedCard(id: EqualityHookedID(value: value))) }
    let app = Store<HookedBoard, Void>(initialState: initial)
    let rows = (0..<10).map { app.scope(state: \.cards, id: EqualityHookedID(value: $0)) }
    var seen: [String] = []
    let tokens = rows.enumerated().map { index, row in
      row.subscribe(to: \.done) { seen.append("\(index) \($0)") }
    }
    // Files the scopes, so that the next dispatch through one takes the bucket's way.
    app.dispatch(ToggleHookedAtRoot(value: 9))
    seen = []
    var armed = true
    equalityHook = {
      guard armed else { return }
      armed = false
      tokens[3].cancel()
      rows[4].dispatch(ToggleHookedCard())
    }
    defer { equalityHook = nil }
    rows[2].dispatch(ToggleHookedCard())
    #expect(!armed)
    equalityHook = nil
    // Row 4's toggle was queued behind row 2's and applied after its round.
    #expect(seen == ["2 true", "4 true"])
    rows[3].dispatch(ToggleHookedCard())
    rows[2].dispatch(ToggleHookedCard())
    #expect(seen == ["2 true", "4 true", "2 false"])
    #expect(app.state.cards.filter(\.done).map(\.id.value) == [3, 4, 9])
    _ = tokens
  }

  @Test("a cancelled token stops its row at once, and its element scope goes")
  func cancelledRowsStopAndGo() {
    let app = Store<Board, Void>(initialState: Board(cardCount: 10))
    weak var weakRow: Store<Card, Void>?
    var seen: [String] = []
    var tokens: [Subscription] = []
    do {
      let row = app.scope(state: \.cards, id: 2)
      weakRow = row
      tokens.append(row.subscribe(CardModel.self) { seen.append("2 \($0?.done ?? false)") })
      row.dispatch(ToggleCard())
      row.dispatch(ToggleCard())
      tokens.removeAll()
      row.dispatch(ToggleCard())
    }
    #expect(seen == ["2 false", "2 true", "2 false"])
    app.dispatch(BumpCardBoard())
    #expect(weakRow == nil)
    let again = app.scope(state: \.cards, id: 2)
    tokens.append(again.subscribe(CardModel.self) { seen.append("again \($0?.done ?? false)") })
    again.dispatch(ToggleCard())
    again.dispatch(ToggleCard())
    #expect(seen == ["2 false", "2 true", "2 false", "again true", "again false", "again true"])
    _ = tokens
  }
}
