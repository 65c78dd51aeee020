package enum TOMLValue: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case bool(Bool)
    case array([TOMLValue])
    case table(TOMLTable)

    /// The type as TOML names it, for messages.
    package var typeName: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .float: return "float"
        case .bool: return "boolean"
        case .array: return "array"
        case .table: return "table"
        }
    }

    package var table: TOMLTable? { if case .table(let t) = self { return t } else { return nil } }
}
