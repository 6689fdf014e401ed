import Foundation

/// Why a line failed to decode, before the line number is known, and how decoding errors read.
package enum LineFailure: Error {
  case malformed(String)
  case unknownType(String)
  case unknownScope(String)
  case payload(type: String, error: any Error)

  /// The error for this failure on line `line`, reading any `DecodingError` for its path.
  package static func error(for error: any Error, line: Int) -> ActionLogError {
    switch error {
    case LineFailure.malformed(let reason):
      return .malformedLine(line: line, reason: reason)
    case LineFailure.unknownType(let name):
      return .unknownType(line: line, name: name)
    case LineFailure.unknownScope(let scope):
      return .unknownScope(line: line, scope: scope)
    case LineFailure.payload(let type, let underlying):
      let (path, reason) = describe(underlying)
      return .undecodablePayload(line: line, type: type, path: path, reason: reason)
    default:
      return .malformedLine(line: line, reason: summary(of: error))
    }
  }

  /// The coding path (`payload.items[2].title`) and the reason of a decoding error.
  package static func describe(_ error: any Error) -> (path: String, reason: String) {
    guard let decodingError = error as? DecodingError else {
      return ("payload", String(describing: error))
    }
    switch decodingError {
    case .keyNotFound(let key, let context):
      return (path(context.codingPath), "missing key \"\(key.stringValue)\"")
    case .typeMismatch(let type, let context):
      return (path(context.codingPath), "expected \(type): \(context.debugDescription)")
    case .valueNotFound(let type, let context):
      return (path(context.codingPath), "expected \(type), found null")
    case .dataCorrupted(let context):
      let underlying = (context.underlyingError as? NSError)?.localizedDescription
      return (
        path(context.codingPath),
        underlying.map { "invalid JSON: \($0)" } ?? context.debugDescription
      )
    @unknown default:
      return ("line", String(describing: decodingError))
    }
  }

  /// A decoding error in one phrase: `path: reason`, or the reason alone when it is about the
  /// whole line.
  package static func summary(of error: any Error) -> String {
    let (path, reason) = describe(error)
    return path == "line" ? reason : "\(path): \(reason)"
  }

  private static func path(_ keys: [any CodingKey]) -> String {
    guard !keys.isEmpty else { return "line" }
    var text = ""
    for key in keys {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : "." + key.stringValue
      }
    }
    return text
  }
}
