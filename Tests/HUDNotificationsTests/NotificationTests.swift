import XCTest
import HUDCore
@testable import HUDNotifications

final class HintsTests: XCTestCase {
    func testValueIsClampedAndTagsAreRead() {
        XCTAssertEqual(Hints(["value": .integer(145)]).value, 100)
        XCTAssertEqual(Hints(["value": .integer(-3)]).value, 0)
        XCTAssertEqual(Hints(["value": .integer(45)]).value, 45)
        XCTAssertNil(Hints(["value": .string("x")]).value)
        XCTAssertEqual(Hints(["x-canonical-private-synchronous": .string("volume")]).tag, "volume")
        XCTAssertEqual(Hints(["x-dunst-stack-tag": .string("brightness")]).tag, "brightness")
        XCTAssertEqual(Hints(["synchronous": .string("mic")]).tag, "mic")
        XCTAssertNil(Hints(["synchronous": .integer(1)]).tag, "a tag of the wrong type is ignored")
    }

    func testUrgencyClampsAndPicksTheVerb() {
        var n = Notification()
        n.hints = Hints(["urgency": .integer(0)])
        XCTAssertEqual(n.verb, "info")
        n.hints = Hints(["urgency": .integer(2)])
        XCTAssertEqual(n.verb, "warning")
        n.hints = Hints(["urgency": .integer(200)])
        XCTAssertEqual(n.hints.urgency, 2)
        n.hints = Hints(["category": .string("transfer.complete")])
        XCTAssertEqual(n.verb, "success")
        n.hints = Hints(["category": .string("transfer.error")])
        XCTAssertEqual(n.verb, "error")
    }

    func testImageDataIsCheckedAgainstItsRows() {
        let ok = HintValue.structure([
            .integer(2), .integer(1), .integer(8), .integer(1), .integer(8), .integer(4), .bytes([UInt8](repeating: 9, count: 8)),
        ])
        XCTAssertEqual(NotificationImage(ok)?.width, 2)
        let short = HintValue.structure([.integer(2), .integer(2), .integer(8), .integer(1), .integer(8), .integer(4), .bytes([1, 2, 3])])
        XCTAssertNil(NotificationImage(short))
        let huge = HintValue.structure([.integer(100_000), .integer(1), .integer(400_000), .integer(1), .integer(8), .integer(4), .bytes([])])
        XCTAssertNil(NotificationImage(huge))
        let wrongChannels = HintValue.structure([.integer(1), .integer(1), .integer(4), .integer(0), .integer(8), .integer(4), .bytes([1, 2, 3, 4])])
        XCTAssertNil(NotificationImage(wrongChannels))
        XCTAssertNil(NotificationImage(.string("x")))
        XCTAssertNotNil(Hints(["icon_data": ok]).imageData, "the legacy name is read")
    }
}

final class MarkupTests: XCTestCase {
    func testTheSubsetIsKeptAndTheRestEscapedOrDropped() {
        XCTAssertEqual(NotificationMarkup.body("<b>bold</b> <i>it</i> <u>u</u>"), "<b>bold</b> <i>it</i> <u>u</u>")
        XCTAssertEqual(
            NotificationMarkup.body("<a href=\"http://x\">link</a>"),
            "<span underline=\"single\" foreground=\"\(NotificationMarkup.linkColor)\">\u{2060}link\u{2060}</span>",
            "drawn as a link, its text marked")
        XCTAssertEqual(NotificationMarkup.body("<img src=\"/x.png\" alt=\"pic\"/> ok"), "pic ok")
        XCTAssertEqual(NotificationMarkup.body("<span color='red'>x</span>"), "x")
        XCTAssertEqual(NotificationMarkup.body("1 < 2 & 3 > 2"), "1 &lt; 2 &amp; 3 &gt; 2")
        XCTAssertEqual(NotificationMarkup.body("&amp; &#169; &bogus; &#0;"), "&amp; &#169; &amp;bogus; &amp;#0;")
        XCTAssertEqual(NotificationMarkup.body("<3"), "&lt;3")
    }

    func testTagsAreBalanced() {
        XCTAssertEqual(NotificationMarkup.body("<b>open"), "<b>open</b>")
        XCTAssertEqual(NotificationMarkup.body("stray</i> <b><i>x</b>"), "stray <b><i>x</i></b>")
    }

    func testLinksAreBalancedAndListedInOrder() {
        let open = "<span underline=\"single\" foreground=\"\(NotificationMarkup.linkColor)\">\u{2060}"
        XCTAssertEqual(NotificationMarkup.body("see <a href='x'><b>this"), "see \(open)<b>this</b>\u{2060}</span>")
        XCTAssertEqual(NotificationMarkup.body("</a>x"), "x", "a stray closing tag is dropped")
        XCTAssertEqual(
            NotificationMarkup.links("<b>no</b> <a>bare</a> <a href=\"https://a.example/?q=1&amp;r=2\">a</a> <a href='b'>b</a>"),
            [nil, "https://a.example/?q=1&r=2", "b"], "every link in order, as the body marks them")
        XCTAssertEqual(NotificationMarkup.links("no <b>link</b> here"), [])
        // Each link's text is marked before and after; the marks are no text of their own.
        let marked = NotificationMarkup.body("read <a href=\"https://a.example\">this</a> or <a href=\"https://b.example\">that</a>")
        XCTAssertEqual(marked.unicodeScalars.filter { $0 == HUDConfiguration.linkMark }.count, 4)
        XCTAssertEqual(HUDConfiguration.plainText(ofMarkup: marked), "read this or that")
    }

    func testTheSummaryIsPlainText() {
        XCTAssertEqual(NotificationMarkup.escaped("<b>&"), "&lt;b&gt;&amp;")
    }

    func testAHugeBodyIsCutToTheDetailsLimit() {
        let body = String(repeating: "&", count: 100_000)
        let out = NotificationMarkup.body(body)
        XCTAssertLessThanOrEqual(out.utf8.count, Limits.detailsBytes)
        XCTAssertTrue(out.hasSuffix("&amp;"), "never cut inside an entity")
    }
}

final class ArgumentsTests: XCTestCase {
    func testANotificationIsTheVerbsInvocation() {
        var n = Notification()
        n.summary = "-Hello <x>"
        n.body = "Body"
        n.appIcon = "file:///tmp/a%20b.png"
        n.actions = Notification.actions(["default", "Open", "yes", "Yes", "no"])
        let args = n.arguments(key: "notify-3")
        XCTAssertEqual(
            args,
            [
                "info", "--id=notify-3", "--bus-notification", "--info-image=/tmp/a b.png", "--button=Yes",
                "--bus-app=", "--bus-urgency=1", "--extra-button=", "--label=-Hello &lt;x&gt;", "--details=Body", "--markup",
            ])
        n.summary = "Plain"
        XCTAssertEqual(
            n.arguments(key: "k").suffix(3), ["--label=Plain", "--details=Body", "--no-markup"],
            "text without markup is drawn as plain text")
        XCTAssertTrue(n.hasDefaultAction)
        XCTAssertEqual(n.buttonActions.map(\.key), ["yes"])
        n.actions = Notification.actions(["default", "Open", "ignore", "Ignore", "empty", "Empty Trash"])
        XCTAssertEqual(n.buttonActions.map(\.key), ["ignore", "empty"], "every action but default is a button")
        let more = n.arguments(key: "k")
        XCTAssertTrue(more.contains("--button=Ignore") && more.contains("--extra-button=Empty Trash"), "\(more)")
        XCTAssertFalse(more.contains("--extra-button="), "no clearing word beside real extra buttons")
    }

    func testTheValueHintIsABar() {
        var n = Notification()
        n.summary = "Volume"
        n.hints = Hints(["value": .integer(45), "x-canonical-private-synchronous": .string("volume")])
        XCTAssertEqual(n.arguments(key: "volume"), ["--id=volume", "--mode=bar", "--progress=0.45", "--label=Volume", "--details=", "--no-markup"])
        n.appIcon = "audio-volume-high"
        XCTAssertEqual(
            n.arguments(key: "volume").prefix(4), ["--id=volume", "--mode=bar", "--progress=0.45", "--image=audio-volume-high"],
            "an OSD's icon is drawn above its bar")
    }

    func testTimeouts() {
        var n = Notification()
        XCTAssertNil(n.hideAfter, "-1: the [notification] durations")
        n.expireTimeout = 0
        XCTAssertEqual(n.hideAfter, Limits.seconds.upperBound, "0: never expires (a day)")
        n.expireTimeout = 2500
        XCTAssertEqual(n.hideAfter, 2.5)
        n.expireTimeout = .max
        XCTAssertEqual(n.hideAfter, Limits.seconds.upperBound)
        n.expireTimeout = -1
        n.hints = Hints(["urgency": .integer(2)])
        XCTAssertEqual(n.hideAfter, Limits.seconds.upperBound, "critical notifications stay")
    }

    func testImagePrecedence() {
        var n = Notification()
        n.appIcon = "dialog-information"
        XCTAssertEqual(n.image(imageFile: nil), "dialog-information")
        n.hints = Hints(["image-path": .string("/p.png")])
        XCTAssertEqual(n.image(imageFile: nil), "/p.png")
        XCTAssertEqual(n.image(imageFile: "/pixels.png"), "/pixels.png")
    }
}

final class IDTests: XCTestCase {
    func testTagsKeepTheirIDAndReplacesIsReturned() {
        var ids = NotificationIDs()
        let a = ids.assign(replaces: 0, tag: nil)
        XCTAssertEqual(a.id, 1)
        XCTAssertEqual(a.key, "notify-1")
        let v1 = ids.assign(replaces: 0, tag: "volume")
        let v2 = ids.assign(replaces: 0, tag: "volume")
        XCTAssertEqual(v1.id, v2.id)
        XCTAssertEqual(v1.key, "volume")
        XCTAssertEqual(ids.assign(replaces: a.id, tag: nil).id, a.id)
        XCTAssertEqual(ids.assign(replaces: 77, tag: nil).key, "notify-77")
        XCTAssertEqual(ids.key(of: v1.id), "volume")
        let odd = ids.assign(replaces: 0, tag: "a tag/with spaces")
        XCTAssertTrue(odd.key.hasPrefix("tag-a_tag_with_spaces-"), odd.key)
        XCTAssertEqual(ids.assign(replaces: 0, tag: "notify-1").key, "tag-notify-1-\(odd.id + 1)", "a tag never takes another notification's key")
    }

    func testCloseReasonsAreTheSpecificationsNumbers() {
        XCTAssertEqual([CloseReason.expired, .dismissed, .closed, .undefined].map(\.rawValue), [1, 2, 3, 4])
    }
}
