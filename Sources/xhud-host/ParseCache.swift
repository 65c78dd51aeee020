import ArgumentParser

/// The server parses what its clients send, and clients send the same command lines again and
/// again (a script's HUD, a key's OSD): the argument parser costs 1 to 2 ms a parse (a quarter
/// of a HUD's time on the server), a look-up next to nothing. Parses that fail are not kept.
/// Owned by the thread that parses (the server's loop; a command parses once).
enum ParseCache {
    nonisolated(unsafe) private static var parsed: [[String]: XHUDCommand] = [:]
    nonisolated(unsafe) private static var order: [[String]] = []
    static let capacity = 64

    static func parse(_ arguments: [String]) throws -> XHUDCommand {
        if let hit = parsed[arguments] { return hit }
        let command = try XHUDCommand.parse(arguments)
        parsed[arguments] = command
        order.append(arguments)
        if order.count > capacity { parsed[order.removeFirst()] = nil }
        return command
    }
}
