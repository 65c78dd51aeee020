import Foundation
import XCTest
@testable import XHUD
import HUDCore

/// MBProgressHUD's and SVProgressHUD's Swift spellings say what the library's own API says.
final class MigrationSpellingTests: XCTestCase {
    var display = ""

    override func setUpWithError() throws {
        display = try TestDisplay.start()
        HUD.callbackQueue = nil
        resetSharedHUD(display: display)
    }

    override func tearDown() { resetSharedHUD(display: display) }

    func drawn(_ hud: HUD) throws -> HUDConfiguration? {
        try hud.runtime.sync { hud.hostForTests?.configuration }
    }

    func testMBProgressHUDIsTheHUDUnderMBsNames() throws {
        let view: ParentSpec = .geometry("600x400+100+100")
        let mb = MBProgressHUD.showAdded(to: view, animated: false)
        let hud = try XCTUnwrap(mb.hud)
        XCTAssertTrue(MBProgressHUD.forView(view) === mb)
        XCTAssertTrue(HUD.hud(over: view) === hud)
        XCTAssertEqual(mb.bezelView.style, .blur, "MBProgressHUD's bezel is blurred by default")
        XCTAssertEqual(hud.blur, MBProgressHUD.bezelBlurRadius)

        let modes: [(MBProgressHUDMode, HUDMode)] = [
            (.indeterminate, .indeterminate), (.determinate, .determinate),
            (.determinateHorizontalBar, .bar), (.annularDeterminate, .annular), (.customView, .custom), (.text, .text),
        ]
        for (m, h) in modes {
            mb.mode = m
            XCTAssertEqual(hud.mode, h)
            XCTAssertEqual(mb.mode, m)
        }
        let animations: [(MBProgressHUDAnimation, HUDAnimation)] = [(.fade, .fade), (.zoom, .zoom), (.zoomIn, .zoomIn), (.zoomOut, .zoomOut)]
        for (a, h) in animations {
            mb.animationType = a
            XCTAssertEqual(hud.animation, h)
            XCTAssertEqual(mb.animationType, a)
        }

        mb.label.text = "Downloading"
        mb.detailsLabel.text = "file 1 of 3"
        mb.label.font = "Sans 20px"
        mb.progress = 0.25
        mb.offset = CGPoint(x: 0, y: 120)
        mb.minSize = CGSize(width: 150, height: 100)
        mb.margin = 12
        mb.isSquare = true
        mb.graceTime = 0.1
        mb.minShowTime = 0.2
        mb.contentColor = HUDColor(red: 1, green: 0.6, blue: 0, alpha: 1)
        mb.bezelView.color = HUDColor(white: 0.1, alpha: 0.8)
        XCTAssertEqual(hud.label, "Downloading")
        XCTAssertEqual(mb.label.text, "Downloading")
        XCTAssertEqual(hud.details, "file 1 of 3")
        XCTAssertEqual(hud.labelFont, "Sans 20px")
        XCTAssertEqual(hud.progress, 0.25)
        XCTAssertEqual(hud.offset.y, 120)
        XCTAssertEqual(hud.minSize.width, 150)
        XCTAssertEqual(hud.margin, 12)
        XCTAssertTrue(hud.isSquare)
        XCTAssertEqual(hud.graceTime, 0.1)
        XCTAssertEqual(hud.minShowTime, 0.2)
        XCTAssertEqual(hud.contentColor, HUDColor(1, 0.6, 0, 1))
        XCTAssertEqual(hud.bezelColor, HUDColor(0.1, 0.1, 0.1, 0.8))
        XCTAssertEqual(mb.bezelView.color, HUDColor(0.1, 0.1, 0.1, 0.8))
        mb.bezelView.style = .solidColor
        XCTAssertEqual(hud.blur, 0)
        mb.bezelView.style = .blur
        XCTAssertEqual(hud.blur, 20)

        // The background view: a blur tinted with its colour, a solid dimming colour, or clear.
        XCTAssertNil(hud.mask)
        XCTAssertEqual(mb.backgroundView.style, .solidColor)
        mb.backgroundView.color = HUDColor(white: 0, alpha: 0.1)
        XCTAssertEqual(hud.mask, .color(HUDColor(0, 0, 0, 0.1)))
        mb.backgroundView.style = .blur
        XCTAssertEqual(hud.mask, .blur(HUDColor(0, 0, 0, 0.1)))
        mb.backgroundView.color = HUDColor(white: 1, alpha: 0.3)
        XCTAssertEqual(hud.mask, .blur(HUDColor(1, 1, 1, 0.3)))
        XCTAssertEqual(mb.backgroundView.style, .blur)
        mb.backgroundView.style = .solidColor
        XCTAssertEqual(hud.mask, .color(HUDColor(1, 1, 1, 0.3)))
        mb.backgroundView.color = .clear
        XCTAssertNil(hud.mask, "a clear background leaves the HUD's default mask")
        mb.isUserInteractionEnabled = false
        XCTAssertEqual(hud.mask, HUDMask.none)
        mb.isUserInteractionEnabled = true
        XCTAssertNil(hud.mask)

        // The button: a title and an action.
        let pressed = expectation(description: "button")
        mb.button.setTitle("Cancel", for: .normal)
        mb.button.addTarget(for: .touchUpInside) { pressed.fulfill() }
        XCTAssertEqual(hud.button, "Cancel")
        XCTAssertEqual(mb.button.title(for: .normal), "Cancel")
        hud.onButton?()
        wait(for: [pressed], timeout: 2)

        let done = expectation(description: "completionBlock")
        mb.completionBlock = { done.fulfill() }
        XCTAssertTrue(MBProgressHUD.hide(for: view, animated: true))
        XCTAssertNil(MBProgressHUD.forView(view))
        XCTAssertFalse(MBProgressHUD.hide(for: view, animated: true))
        wait(for: [done], timeout: 5)
        XCTAssertFalse(hud.isVisible)
    }

    /// `forView` finds any HUD over the view, and keeps answering with the same object.
    func testForViewWrapsAHUDShownByTheLibrary() throws {
        let view: ParentSpec = .geometry("300x200+0+0")
        let hud = try HUD.show(over: view, animated: false, display: display)
        let mb = try XCTUnwrap(MBProgressHUD.forView(view))
        XCTAssertTrue(mb.hud === hud)
        XCTAssertTrue(MBProgressHUD.forView(view) === mb)
        final class Delegate: MBProgressHUDDelegate, @unchecked Sendable {
            let hidden: XCTestExpectation
            var got: MBProgressHUD?
            init(_ e: XCTestExpectation) { hidden = e }
            func hudWasHidden(_ hud: MBProgressHUD) { got = hud; hidden.fulfill() }
        }
        let delegate = Delegate(expectation(description: "hudWasHidden"))
        mb.delegate = delegate
        mb.hide(animated: true, afterDelay: 0.1)
        wait(for: [delegate.hidden], timeout: 5)
        XCTAssertTrue(delegate.got === mb)
    }

    func testSVProgressHUDSettersAreProgressHUDs() throws {
        SVProgressHUD.setDefaultStyle(.light)
        SVProgressHUD.setMinimumSize(CGSize(width: 120, height: 110))
        SVProgressHUD.setRingThickness(3)
        SVProgressHUD.setRingRadius(20)
        SVProgressHUD.setRingNoTextRadius(30)
        SVProgressHUD.setCornerRadius(9)
        SVProgressHUD.setFont("Sans Bold 15")
        SVProgressHUD.setImageViewSize(CGSize(width: 40, height: 32))
        SVProgressHUD.setShouldTintImages(false)
        SVProgressHUD.setForegroundColor(HUDColor(red: 1, green: 0, blue: 0, alpha: 1))
        SVProgressHUD.setBackgroundColor(HUDColor(white: 0.9))
        SVProgressHUD.setDefaultAnimationType(.native)
        SVProgressHUD.setOffsetFromCenter(UIOffset(horizontal: 10, vertical: -20))
        SVProgressHUD.setGraceTimeInterval(0.05)
        SVProgressHUD.setFadeInAnimationDuration(0.2)
        SVProgressHUD.setFadeOutAnimationDuration(0.25)
        SVProgressHUD.setMinimumDismissTimeInterval(2)
        SVProgressHUD.setMaximumDismissTimeInterval(4)
        var s = ProgressHUD.State.Settings()
        ProgressHUD.settings { s = $0 }
        let c = s.config
        XCTAssertEqual(c.style, .light)
        XCTAssertEqual(c.minSize, Size(width: 120, height: 110))
        XCTAssertEqual(c.ringThickness, 3)
        XCTAssertEqual(s.ringRadius, 20)
        XCTAssertEqual(s.ringNoTextRadius, 30)
        XCTAssertEqual(c.cornerRadius, 9)
        XCTAssertEqual(c.labelFont, "Sans Bold 15")
        XCTAssertEqual(c.imageSize, 32)
        XCTAssertFalse(c.tintImage)
        XCTAssertEqual(c.contentColor, HUDColor(1, 0, 0, 1))
        XCTAssertEqual(c.bezelColor, HUDColor(0.9, 0.9, 0.9, 1))
        XCTAssertEqual(c.spinner, .spokes)
        XCTAssertEqual(c.offset, Point(x: 10, y: -20))
        XCTAssertEqual(c.graceTime, 0.05)
        XCTAssertEqual(c.showDuration, 0.2)
        XCTAssertEqual(c.hideDuration, 0.25)
        XCTAssertEqual(SVProgressHUD.displayDuration(for: "Done"), 2)
        XCTAssertEqual(SVProgressHUD.displayDuration(for: String(repeating: "x", count: 100)), 4)

        // Mask types; `.custom` is the background layer colour, then and later.
        let masks: [(SVProgressHUDMaskType, HUDMask)] = [(.none, .none), (.clear, .clear), (.black, .black), (.gradient, .gradient)]
        for (m, h) in masks {
            SVProgressHUD.setDefaultMaskType(m)
            ProgressHUD.settings { s = $0 }
            XCTAssertEqual(s.config.mask, h)
        }
        SVProgressHUD.setDefaultMaskType(.custom)
        ProgressHUD.settings { s = $0 }
        XCTAssertEqual(s.config.mask, .color(HUDColor(0, 0, 0, 0.4)))
        SVProgressHUD.setBackgroundLayerColor(HUDColor(red: 0, green: 0, blue: 1, alpha: 0.2))
        ProgressHUD.settings { s = $0 }
        XCTAssertEqual(s.config.mask, .color(HUDColor(0, 0, 1, 0.2)))

        // What is drawn: the ring's radius follows the status (SVProgressHUD's two radii).
        SVProgressHUD.setDefaultMaskType(.none)
        SVProgressHUD.setGraceTimeInterval(0)
        SVProgressHUD.show()
        let hud = try XCTUnwrap(ProgressHUD.State.shared.current)
        XCTAssertEqual(hud.configuration.ringRadius, 30)
        SVProgressHUD.setStatus("Now with text")
        XCTAssertEqual(hud.configuration.ringRadius, 20)
        XCTAssertEqual(hud.label, "Now with text")
        SVProgressHUD.showProgress(0.4, status: "Downloading")
        XCTAssertEqual(hud.mode, .annular)
        XCTAssertEqual(hud.progress, 0.4, accuracy: 1e-6)
        XCTAssertTrue(SVProgressHUD.isVisible())
        let dismissed = expectation(description: "dismissed")
        SVProgressHUD.dismiss(withDelay: 0.1) { dismissed.fulfill() }
        wait(for: [dismissed], timeout: 5)
        XCTAssertFalse(SVProgressHUD.isVisible())
        XCTAssertEqual(SVProgressHUD.statusUserInfoKey, SVProgressHUDStatusUserInfoKey)
        XCTAssertEqual(SVProgressHUD.didDisappearNotification, Notification.Name(SVProgressHUDDidDisappearNotification))
    }

    func testEachDismissRunsItsOwnCompletion() throws {
        SVProgressHUD.show(withStatus: "Two completions")
        let first = expectation(description: "first")
        let second = expectation(description: "second")
        SVProgressHUD.dismiss(withDelay: 0.5) { first.fulfill() }
        SVProgressHUD.dismiss { second.fulfill() }
        wait(for: [first, second], timeout: 5)
    }
}
