/// The name of one element of a route, such as `"list"` or `"detail"`.
public typealias RouteElementIdentifier = String

/// The visible path of screens, from the root to the topmost, as their identifiers.
///
/// Pushed screens and modal screens are flattened into one path: `["list", "detail", "edit"]`
/// reads the same whether `"edit"` was pushed onto `"detail"` or presented over it.
public typealias Route = [RouteElementIdentifier]

/// Describes `route` as `[list, detail]` in error messages.
func describe(_ route: Route) -> String {
  "[" + route.joined(separator: ", ") + "]"
}
