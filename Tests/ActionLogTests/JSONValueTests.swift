import ActionLog
import Testing

/// `JSONValue`'s subscript, as a schema migration uses it to rewrite old JSON.
@Suite("JSON values as migrations change them")
struct JSONValueTests {
  @Test("setting a member adds, replaces or removes it in place, keeping the members' order")
  func settingMembers() {
    var payload = JSONValue.object(JSONObject([("text", .string("milk")), ("id", .number("1"))]))
    payload["title"] = payload["text"]
    payload["text"] = nil
    payload["id"] = .number("2")
    #expect(payload.text() == #"{"id":2,"title":"milk"}"#)
    payload["settings"] = .object(JSONObject())
    payload["settings"]?["fontSize"] = .number("13")
    #expect(payload["settings"]?["fontSize"]?.intValue == 13)
  }

  @Test("setting a member of a value that is no object makes it an object of that member")
  func settingOnNonObject() {
    var value = JSONValue.array([.null])
    value["key"] = .bool(true)
    #expect(value == .object(JSONObject([("key", .bool(true))])))
    var untouched = JSONValue.string("x")
    untouched["key"] = nil
    #expect(untouched == .string("x"))
  }
}
