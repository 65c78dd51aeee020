import Testing
@testable import HUDTOML

private func parse(_ s: String) throws(TOMLError) -> TOMLTable { try TOML.parse(s) }

/// The error of a text that must not parse.
private func failure(_ s: String) -> TOMLError? {
    do { _ = try TOML.parse(s); return nil } catch { return error }
}

@Suite struct TOMLValueTests {
    @Test func strings() throws {
        let t = try parse(
            #"""
            a = "tab\there \"q\" \\ \u00e9 \U0001F600 \b\f\r\n"
            b = 'C:\no\escapes'
            c = """
            one
            two \
                three"""
            d = '''
            raw \n ''line'' '''
            e = """a "quoted" word"""""
            f = ''
            "quoted key" = 1
            'literal key' = 2
            """#)
        #expect(t["a"] == .string("tab\there \"q\" \\ é 😀 \u{8}\u{C}\r\n"))
        #expect(t["b"] == .string(#"C:\no\escapes"#))
        #expect(t["c"] == .string("one\ntwo three"))
        #expect(t["d"] == .string("raw \\n ''line'' "))
        #expect(t["e"] == .string("a \"quoted\" word\"\""))
        #expect(t["f"] == .string(""))
        #expect(t["quoted key"] == .integer(1) && t["literal key"] == .integer(2))
    }

    @Test func numbersAndBooleans() throws {
        let t = try parse(
            """
            a = 42
            b = -17
            c = +1_000_000
            d = 0xDEAD_beef
            e = 0o755
            f = 0b1101
            g = 3.14
            h = -2e-3
            i = 6.626E+34
            j = 1_000.000_1
            k = inf
            l = -inf
            m = nan
            n = true
            o = false
            p = 9223372036854775807
            q = -9223372036854775808
            r = 0
            s = -0.0
            """)
        #expect(t["a"] == .integer(42) && t["b"] == .integer(-17) && t["c"] == .integer(1_000_000))
        #expect(t["d"] == .integer(0xDEADBEEF) && t["e"] == .integer(0o755) && t["f"] == .integer(13))
        #expect(t["g"] == .float(3.14) && t["h"] == .float(-0.002) && t["i"] == .float(6.626e34) && t["j"] == .float(1000.0001))
        #expect(t["k"] == .float(.infinity) && t["l"] == .float(-.infinity))
        if case .float(let nan)? = t["m"] { #expect(nan.isNaN) } else { Issue.record("nan") }
        #expect(t["n"] == .bool(true) && t["o"] == .bool(false))
        #expect(t["p"] == .integer(.max) && t["q"] == .integer(.min) && t["r"] == .integer(0))
        #expect(t["s"] == .float(-0.0))
    }

    @Test func arraysAndInlineTables() throws {
        let t = try parse(
            """
            a = [1, 2, 3]
            b = [ [1, 2], ["x", 'y'], [] ]
            c = [
              0,      # a comment
              200,    # a trailing comma
            ]
            d = { x = 1, y.z = "w" }
            e = [{ name = "a" }, { name = "b" }]
            f = {}
            """)
        #expect(t["a"] == .array([.integer(1), .integer(2), .integer(3)]))
        #expect(t["b"] == .array([.array([.integer(1), .integer(2)]), .array([.string("x"), .string("y")]), .array([])]))
        #expect(t["c"] == .array([.integer(0), .integer(200)]))
        #expect(t["d"]?.table?["x"] == .integer(1))
        #expect(t["d"]?.table?["y"]?.table?["z"] == .string("w"))
        if case .array(let items)? = t["e"] { #expect(items.count == 2 && items[1].table?["name"] == .string("b")) } else { Issue.record("e") }
        #expect(t["f"]?.table?.count == 0)
    }
}

@Suite struct TOMLTableTests {
    @Test func tablesDottedKeysAndTheirLines() throws {
        let t = try parse(
            """
            # top
            mode = "bar"

            [notification]
            min-duration = 3

            [id.volume]   # a named HUD
            label = "Volume"
            [ id . "with space" ]
            label = "x"
            [id.'brightness']
            site."google.com" = true
            a.b.c = 1
            a.b.d = 2
            [[fruit]]
            name = "apple"
            [[fruit]]
            name = "banana"
            """)
        #expect(t.keys == ["mode", "notification", "id", "fruit"])
        #expect(t.line(of: "mode") == 2)
        #expect(t["notification"]?.table?["min-duration"] == .integer(3))
        #expect(t["notification"]?.table?.line(of: "min-duration") == 5)
        let id = try #require(t["id"]?.table)
        #expect(id.keys == ["volume", "with space", "brightness"])
        #expect(id.line(of: "volume") == 7)
        #expect(id["volume"]?.table?.line(of: "label") == 8)
        let b = try #require(id["brightness"]?.table)
        #expect(b["site"]?.table?["google.com"] == .bool(true))
        #expect(b["a"]?.table?["b"]?.table?["d"] == .integer(2))
        if case .array(let fruit)? = t["fruit"] {
            #expect(fruit.map { $0.table?["name"] } == [.string("apple"), .string("banana")])
        } else {
            Issue.record("fruit")
        }
    }

    @Test func aParentTableMayBeDefinedAfterItsChild() throws {
        let t = try parse("[a.b]\nx = 1\n[a]\ny = 2\n[a.c]\n")
        #expect(t["a"]?.table?.keys == ["b", "y", "c"])
    }

    @Test func crlfCommentsAndABOM() throws {
        let t = try parse("\u{FEFF}a = 1 # c\r\n\r\n[s] # c\r\nb = 'x'\r\n")
        #expect(t["a"] == .integer(1) && t["s"]?.table?["b"] == .string("x"))
        #expect(t["s"]?.table?.line(of: "b") == 4)
    }
}

@Suite struct TOMLErrorTests {
    /// Each bad text, the line and column of its error, and a word the message must hold.
    @Test(
        arguments: [
            ("a = = 3", 1, 5, "expected a value"),
            ("a = 1\nmargin = = 3\n", 2, 10, "expected a value"),
            ("a = 1\na = 2", 2, 1, "defined twice"),
            ("[t]\nx = 1\n[t]\n", 3, 1, "defined twice"),
            ("a = \"open", 1, 5, "not closed"),
            ("a = \"x\ny\"", 1, 5, "not closed on its line"),
            ("a = \"\\q\"", 1, 6, "unknown escape"),
            ("a = \"\\uD800\"", 1, 6, "not a Unicode scalar"),
            ("a = \"\\u12\"", 1, 6, "hexadecimal"),
            ("a = 1979-05-27", 1, 5, "dates and times are not supported"),
            ("a = 07:32:00", 1, 5, "dates and times"),
            ("a = 1979-05-27T07:32:00Z", 1, 5, "dates"),
            ("a = 012", 1, 5, "not a valid number"),
            ("a = 1__2", 1, 5, "not a valid number"),
            ("a = _1", 1, 5, "expected a value"),
            ("a = 1.", 1, 5, "not a valid number"),
            ("a = .5", 1, 5, "not a valid number"),
            ("a = 1e", 1, 5, "not a valid number"),
            ("a = 0x", 1, 5, "not a valid number"),
            ("a = +0x10", 1, 5, "not a valid number"),
            ("a = 9223372036854775808", 1, 5, "64-bit"),
            ("a = bar", 1, 5, "in quotes"),
            ("a = True", 1, 5, "in quotes"),
            ("a = 1 b = 2", 1, 7, "end of the line"),
            ("a = [1, 2", 1, 10, "expected ',' or ']'"),
            ("a = [1 2]", 1, 8, "expected ',' or ']'"),
            ("a = [,]", 1, 6, "expected a value"),
            ("a = { x = 1, }", 1, 14, "comma"),
            ("a = { x = 1\n}", 1, 12, "one line"),
            ("a = { x = 1 }\n[a]", 2, 2, "inline"),
            ("a = { x = 1 }\na.y = 2", 2, 1, "cannot be extended"),
            ("a.b = 1\n[a.b]", 2, 4, "already has a value"),
            ("[a]\nb.c = 1\n[a.b]", 3, 1, "defined twice"),
            ("[a.b]\n[a]\nb.c = 1", 3, 1, "cannot be extended"),
            ("a = [1]\n[[a]]", 2, 3, "already has a value"),
            ("[[a]]\n[a]", 2, 1, "array of tables"),
            ("[a]\n[[a]]", 2, 3, "not an array of tables"),
            ("[a", 1, 3, "expected ']'"),
            ("[]", 1, 2, "expected a key"),
            ("= 1", 1, 1, "expected a key"),
            ("a", 1, 2, "expected '='"),
            ("\"\"\"k\"\"\" = 1", 1, 1, "multi-line"),
            ("a = 1\r", 1, 6, "carriage return"),
            ("# \u{7} bell", 1, 3, "control character"),
            ("a = \"\u{1}\"", 1, 6, "must be escaped"),
            ("a = \"\"\"x\"\"\"\"\"\"", 1, 9, "too many quotes"),
            ("é = 1", 1, 1, "expected a key, found 'é'"),
            ("a = \"é\" é", 1, 9, "'é'"),
        ] as [(String, Int, Int, String)])
    func badTextNamesLineAndColumn(_ text: String, _ line: Int, _ column: Int, _ word: String) {
        let e = failure(text)
        #expect(e != nil, "parsed: \(text)")
        guard let e else { return }
        #expect(e.line == line && e.column == column, "\(text.debugDescription): \(e)")
        #expect(e.message.contains(word), "\(text.debugDescription): \(e)")
        #expect(e.description.hasPrefix("\(e.line):\(e.column): "))
    }

    /// Nesting past the bound is an error, not a blown stack; so is a key of a thousand parts.
    @Test func deepNestingIsRefused() {
        #expect(failure("a = " + String(repeating: "[", count: 100_000))?.message.contains("nested") == true)
        #expect(failure("a = " + String(repeating: "{b=", count: 100_000))?.message.contains("nested") == true)
        #expect(failure(Array(repeating: "a", count: 1000).joined(separator: ".") + " = 1")?.message.contains("parts") == true)
        #expect(failure("[" + Array(repeating: "a", count: 1000).joined(separator: ".") + "]")?.message.contains("parts") == true)
        #expect((try? parse("a = " + String(repeating: "[", count: TOML.maxDepth) + String(repeating: "]", count: TOML.maxDepth))) != nil)
    }
}
