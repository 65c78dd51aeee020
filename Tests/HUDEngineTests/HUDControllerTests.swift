import XCTest
import HUDCore
import HUDEngine
import HUDRender
import HUDSystem
import HUDTesting
#if canImport(Glibc)
import Glibc
#endif

final class HUDControllerTests: XCTestCase {
    private let region = Rect(x: 0, y: 0, width: 1280, height: 800)

    private func controller(_ change: (inout HUDConfiguration) -> Void = { _ in }) throws -> (HUDController, RecordingBackend) {
        let backend = RecordingBackend()
        var c = HUDConfiguration()
        c.label = "Working"
        c.animation = .none
        change(&c)
        let hud = try HUDController(backend: backend, configuration: c, region: region, scale: 1)
        return (hud, backend)
    }

    /// A click-through HUD (`--mask none`) given a button later takes clicks from then on, and
    /// gives them back when the button goes.
    func testAButtonAddedLaterIsClickable() throws {
        let (hud, backend) = try controller { $0.mask = HUDMask.none }
        hud.show(animated: false)
        let out = try XCTUnwrap(backend.outputs.first)
        XCTAssertTrue(out.isMapped)
        XCTAssertTrue(out.clickThrough, "no button, no mask: clicks pass through")
        hud.update { $0.button = "Cancel" }
        XCTAssertFalse(out.clickThrough, "a button is always clickable")
        hud.update { $0.button = "" }
        XCTAssertTrue(out.clickThrough)
        hud.onClick = {}
        XCTAssertFalse(out.clickThrough, "a click handler takes clicks too")
    }

    /// The window is named after what the HUD says (window lists, screen readers), once per
    /// change: the label, else the details, markup taken out, else the icon's meaning.
    func testTheWindowIsNamedAfterTheLabel() throws {
        let (hud, backend) = try controller()
        hud.show(animated: false)
        let out = try XCTUnwrap(backend.outputs.first)
        XCTAssertEqual(out.titles, ["Working"])
        hud.update { $0.progress = 0.5 }
        backend.run(hud, seconds: 0.1)
        XCTAssertEqual(out.titles, ["Working"], "a new value does not rename the window")
        hud.update {
            $0.label = "Copying <b>a &amp; b</b>"; $0.markup = true
        }
        backend.run(hud, seconds: 0.1)
        hud.update {
            $0.label = ""; $0.details = "line one\nline two"; $0.markup = false
        }
        backend.run(hud, seconds: 0.1)
        hud.update {
            $0.details = ""; $0.mode = .success
        }
        backend.run(hud, seconds: 0.1)
        XCTAssertEqual(out.titles, ["Working", "Copying a & b", "line one", "Success"])
    }

    /// A stack hears when a HUD starts to fade out (to make room then, not after) and when a
    /// show brings it back. Without a compositor it keeps its room until it is gone.
    func testLeavingIsToldAsTheFadeStarts() throws {
        let (hud, backend) = try controller { $0.animation = .fade }
        var told: [Bool] = []
        hud.onLeaving = { told.append(hud.isLeaving) }
        hud.show(animated: true)
        backend.run(hud, seconds: 0.5)
        hud.hide(animated: true)
        XCTAssertEqual(told, [false], "over a copy of the screen: its room is kept while it fades")
        backend.run(hud, seconds: 0.5)
        told = []
        (hud.output as? RecordingOutput)?.composited = true
        hud.show(animated: true)
        backend.run(hud, seconds: 0.5)
        XCTAssertEqual(told, [])
        hud.hide(animated: true)
        XCTAssertEqual(told, [true], "told as the fade starts")
        backend.run(hud, seconds: 0.05)
        hud.show(animated: true)
        XCTAssertEqual(told, [true, false], "a show while fading: back in the stack")
    }

    /// A bezel that grows (details added) eases to its new size over several frames, as one
    /// that shrinks does, and the content fades in as it is uncovered; the window is never
    /// moved or resized without the frame for its new place right after, in the same step.
    func testGrowingEasesAndTheWindowNeverMovesWithoutAFrame() throws {
        let (hud, backend) = try controller {
            $0.animation = .fade; $0.mode = .text
        }
        hud.show(animated: true)
        backend.run(hud, seconds: 0.5)
        let out = try XCTUnwrap(backend.outputs.first)
        let small = hud.bezelSize
        let drawsBefore = out.contentDraws
        hud.update { $0.details = "A second line that makes the bezel larger\nand a third" }
        XCTAssertTrue(hud.moving, "the bezel eases to its new size")
        XCTAssertNotEqual(out.events.last, "move", "a move waits for its frame")
        backend.run(hud, seconds: 0.1)
        XCTAssertTrue(hud.moving, "still growing after 0.1 s")
        backend.run(hud, seconds: 0.3)
        XCTAssertFalse(hud.moving)
        XCTAssertGreaterThan(hud.bezelSize.height, small.height)
        XCTAssertGreaterThan(out.contentDraws - drawsBefore, 5, "drawn at each step of the growth")
        for (i, e) in out.events.enumerated() where e == "move" {
            XCTAssertTrue(out.events[(i + 1)...].prefix(2).contains("present"), "a move at \(i) without its frame: \(out.events)")
        }
        hud.update { $0.details = "" }
        backend.run(hud, seconds: 0.1)
        XCTAssertTrue(hud.moving, "shrinking eases too")
    }

    /// The button's click reaches `onButton` wherever the window is.
    func testTheButtonCallsBack() throws {
        let (hud, backend) = try controller {
            $0.mask = HUDMask.none; $0.button = "Cancel"
        }
        var pressed = 0
        hud.onButton = { pressed += 1 }
        hud.show(animated: false)
        let out = try XCTUnwrap(backend.outputs.first)
        XCTAssertFalse(out.clickThrough)
        // The button sits at the bottom centre of the bezel; the window is the bezel's extent.
        let p = Point(x: out.rect.width / 2, y: out.rect.height - 32)
        hud.pointerPressed(at: p)
        hud.pointerReleased(at: p, primary: true)
        XCTAssertEqual(pressed, 1)
        hud.pointerPressed(at: Point(x: 2, y: 2))
        hud.pointerReleased(at: Point(x: 2, y: 2), primary: true)
        XCTAssertEqual(pressed, 1, "outside the button: nothing")
    }

    /// A click a few pixels off the button's outline is the button's (a touch target), one in
    /// the bezel's far corner is not.
    func testTheButtonsTargetIsLargerThanItsOutline() throws {
        let (hud, _) = try controller {
            $0.mask = HUDMask.none; $0.button = "Cancel"; $0.label = "Copying"
        }
        var pressed = 0
        hud.onButton = { pressed += 1 }
        hud.show(animated: false)
        let button = try XCTUnwrap(hud.buttonInWindow)
        let bezel = hud.bezelInWindow
        func click(_ x: Double, _ y: Double) {
            let p = Point(x: x, y: y)
            hud.pointerPressed(at: p)
            hud.pointerReleased(at: p, primary: true)
        }
        click(button.midX, button.maxY + 5)
        XCTAssertEqual(pressed, 1, "5 px below the outline")
        click(button.x - 5, button.midY)
        XCTAssertEqual(pressed, 2, "5 px left of it")
        click(bezel.x + 2, bezel.y + 2)
        XCTAssertEqual(pressed, 2, "the bezel's corner is not the button")
    }

    /// A row of buttons: each click goes to its own button (the first `onButton`, the others
    /// `onExtraButton` with their index), the gap between two to the nearer one, and a press
    /// released on another button clicks nothing.
    func testEachButtonOfARowAnswersItsOwnClicks() throws {
        let (hud, backend) = try controller {
            $0.mask = HUDMask.none; $0.label = "Trash"; $0.button = "Ignore"; $0.extraButtons = ["Empty Trash", "Later"]
        }
        var clicks: [String] = []
        hud.onButton = { clicks.append("Ignore") }
        hud.onExtraButton = { clicks.append(["Empty Trash", "Later"][$0]) }
        hud.show(animated: false)
        let row = hud.buttonsInWindow
        XCTAssertEqual(row.count, 3)
        func click(_ a: Point, _ b: Point? = nil) {
            hud.pointerPressed(at: a)
            hud.pointerReleased(at: b ?? a, primary: true)
        }
        click(Point(x: row[1].midX, y: row[1].midY))
        click(Point(x: row[0].midX, y: row[0].maxY + 4))
        click(Point(x: row[2].midX, y: row[2].midY))
        XCTAssertEqual(clicks, ["Empty Trash", "Ignore", "Later"])
        click(Point(x: row[1].maxX + 2, y: row[1].midY))
        XCTAssertEqual(clicks.last, "Empty Trash", "2 px right of a button, 6 px from the next: the nearer")
        click(Point(x: row[0].midX, y: row[0].midY), Point(x: row[2].midX, y: row[2].midY))
        XCTAssertEqual(clicks.count, 4, "pressed on one, released on another: no click")
        withExtendedLifetime(backend) {}
    }

    /// A HUD entering a stack (`enterStack`) shows first where it comes in, then slides to its
    /// place in steps; one fading in slides too when the stack moves, it does not jump.
    func testANewcomerSlidesInAndOneFadingInSlidesToo() throws {
        let (hud, backend) = try controller {
            $0.animation = .fade; $0.mask = HUDMask.none
        }
        hud.stackOffset = Point(x: 0, y: 54)
        hud.enterStack(from: Point(x: 0, y: 88))
        hud.show(animated: true)
        let out = try XCTUnwrap(backend.outputs.first)
        let first = out.rect.y
        backend.run(hud, seconds: 0.05)
        hud.stackOffset = Point(x: 0, y: 20)  // the stack moves again while it fades in
        backend.run(hud, seconds: 0.6)
        let ys = [first] + out.moves.map(\.y)
        XCTAssertEqual(ys.last! - first, -68, accuracy: 1, "from 88 to 20")
        let steps = zip(ys, ys.dropFirst()).map { abs($1 - $0) }.filter { $0 > 0 }
        XCTAssertGreaterThanOrEqual(steps.count, 6, "in steps: \(ys)")
        XCTAssertLessThanOrEqual(steps.max()!, 68 * 0.3, "never a jump: \(ys)")
    }

    /// Over a copy of the screen gone out of date (no compositor), a hide is not faded: the
    /// fade would dissolve into what is gone. Over a compositor it fades as ever.
    func testAHideOverAStaleCopyIsNotFaded() throws {
        let (hud, backend) = try controller { $0.animation = .fade }
        hud.show(animated: true)
        backend.run(hud, seconds: 0.5)
        hud.beneathChanged()
        hud.hide(animated: true)
        XCTAssertEqual(hud.lifecycle.phase, .hidden, "gone at once")
        let (faded, fading) = try controller { $0.animation = .fade }
        faded.show(animated: true)
        fading.run(faded, seconds: 0.5)
        (faded.output as? RecordingOutput)?.composited = true
        faded.beneathChanged()
        faded.hide(animated: true)
        XCTAssertEqual(faded.lifecycle.phase, .hiding, "a compositor blends what is there now")
    }

    /// The show and hide lengths of the configuration are the lifecycle's.
    func testShowAndHideDurationsComeFromTheConfiguration() throws {
        let (hud, backend) = try controller {
            $0.animation = .fade; $0.showDuration = 1.0; $0.hideDuration = 0.1
        }
        hud.show(animated: true)
        backend.run(hud, seconds: 0.5)
        XCTAssertEqual(hud.lifecycle.phase, .showing, "half way through a one-second fade-in")
        backend.run(hud, seconds: 0.6)
        XCTAssertEqual(hud.lifecycle.phase, .shown)
        hud.hide(animated: true)
        backend.run(hud, seconds: 0.15)
        XCTAssertEqual(hud.lifecycle.phase, .hidden, "a 0.1 s fade-out is over")
        hud.update { $0.showDuration = nil }
        hud.show(animated: true)
        backend.run(hud, seconds: 0.35)
        XCTAssertEqual(hud.lifecycle.phase, .shown, "back to the animation's own 0.3 s")
    }

    /// A HUD the stack moves while it shows slides there over a quarter of a second, every frame
    /// a step on the way, never a jump; one not yet shown is put there at once.
    func testAStackMoveSlides() throws {
        let (hud, backend) = try controller { $0.animation = .fade }
        hud.stackOffset = Point(x: 0, y: -50)  // before it shows: no slide
        hud.show(animated: false)
        backend.run(hud, seconds: 0.05)
        let out = try XCTUnwrap(backend.outputs.first)
        let start = out.rect.y
        hud.stackOffset = Point(x: 0, y: 50)
        var ys: [Double] = []
        for _ in 0..<20 { backend.run(hud, seconds: backend.framePeriod); ys.append(out.rect.y) }
        XCTAssertEqual(ys.last!, start + 100, accuracy: 1, "at its new place")
        let steps = zip([start] + ys, ys).map { $1 - $0 }
        XCTAssertGreaterThan(steps.filter { $0 > 0 }.count, 5, "it moved in steps: \(ys)")
        XCTAssertLessThan(steps.max()!, 40, "no step is a jump: \(steps)")
        XCTAssertTrue(steps.allSatisfy { $0 >= 0 }, "always towards its place: \(steps)")
        // The output was told the whole path first (what lies beneath it is taken once), every
        // step fell in it, and it was told when the window arrived.
        let path = try XCTUnwrap(out.paths.first ?? nil)
        XCTAssertEqual(path.minY, start)
        XCTAssertEqual(path.maxY, start + 100 + out.rect.height, accuracy: 1)
        XCTAssertEqual(out.movesOutsidePath, 0)
        XCTAssertEqual(out.paths.count, 2)
        XCTAssertNil(out.path, "arrived")
    }

    /// A slide whose first frame comes late (a loaded machine) starts from where the HUD is, at
    /// most a frame along, rather than jump most of the way in one step.
    func testASlideWhoseFirstFrameIsLateDoesNotJump() throws {
        let (hud, backend) = try controller { $0.animation = .fade }
        hud.show(animated: false)
        backend.run(hud, seconds: 0.05)
        let out = try XCTUnwrap(backend.outputs.first)
        let start = out.rect.y
        hud.stackOffset = Point(x: 0, y: 100)
        backend.manualClock.advance(by: 0.15)  // 60 % of the slide's 0.25 s, with no frame
        var ys: [Double] = []
        for _ in 0..<30 { backend.run(hud, seconds: backend.framePeriod); ys.append(out.rect.y) }
        XCTAssertEqual(ys.last!, start + 100, accuracy: 1, "at its new place")
        let steps = zip([start] + ys, ys).map { $1 - $0 }
        XCTAssertLessThan(steps.max()!, 40, "no step is a jump: \(steps)")
    }

    /// Without a compositor a spinner's frame composes only the spinner's square, but a frame
    /// after the window moved composes all of it: every pixel blends over a new background (the
    /// rest of the bezel showed the stripes of where it had been, carried along).
    func testAFrameAfterAMoveComposesTheWholeWindow() throws {
        let (hud, backend) = try controller {
            $0.animation = .fade; $0.mode = .indeterminate
        }
        hud.show(animated: false)
        backend.run(hud, seconds: 0.1)
        let out = try XCTUnwrap(backend.outputs.first)
        XCTAssertTrue(out.presented.contains { $0.area != nil }, "a spinner at rest composes its square alone")
        let before = out.events.count
        hud.stackOffset = Point(x: 0, y: 60)
        backend.run(hud, seconds: 0.4)
        let events = Array(out.events[before...])
        var presents = out.presented.suffix(events.filter { $0 == "present" }.count).makeIterator()
        var moved = false, afterMoves = 0
        for e in events {
            if e == "move" { moved = true }
            if e == "present" {
                let c = presents.next()!
                if moved { XCTAssertNil(c.area, "a frame after a move composed only \(String(describing: c.area))"); afterMoves += 1 }
                moved = false
            }
        }
        XCTAssertGreaterThan(afterMoves, 5, "it slid: \(events)")
    }
}
