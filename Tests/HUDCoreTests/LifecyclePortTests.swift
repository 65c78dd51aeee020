import HUDCore
import XCTest

/// The show/hide state machine in virtual time: MBProgressHUD's own test cases
/// (MBProgressHUDTests.m), ported.
final class LifecyclePortTests: XCTestCase {
    /// MBProgressHUDTests testGraceTime... : not visible before the grace time, visible after.
    func testGraceTime() {
        let h = LifecycleHarness(graceTime: 0.5)
        h.hud.show(animated: true)
        XCTAssertFalse(h.hud.isVisible, "not visible before the grace time")
        XCTAssertEqual(h.hud.phase, .hidden)
        XCTAssertEqual(h.alpha, 0)
        XCTAssertFalse(h.hud.finished)
        XCTAssertEqual(h.deadline, 0.5, accuracy: 1e-12)
        XCTAssertEqual(h.log.events, [])

        h.at(0.49)
        XCTAssertFalse(h.hud.isVisible)
        XCTAssertEqual(h.log.events, [])

        h.at(0.5)
        XCTAssertTrue(h.hud.isVisible, "visible once the grace time has passed")
        XCTAssertEqual(h.hud.phase, .showing)
        XCTAssertEqual(h.log.events, ["appear"])

        h.at(0.8)
        XCTAssertEqual(h.hud.phase, .shown)
        XCTAssertEqual(h.alpha, 1, accuracy: 1e-12)
    }

    func testGraceTimeWithNonAnimatedShowAppearsFullyAtTheDeadline() {
        let h = LifecycleHarness(graceTime: 0.2)
        h.hud.show(animated: false)
        h.at(0.1)
        XCTAssertFalse(h.hud.isVisible)
        h.at(0.2)
        XCTAssertEqual(h.hud.phase, .shown)
        XCTAssertEqual(h.alpha, 1)
    }

    /// Grace time, late update: the show still starts at the grace deadline, not at the update.
    func testGraceShowStartsAtTheDeadlineEvenWhenUpdatedLate() {
        let h = LifecycleHarness(graceTime: 0.5)
        h.hud.show(animated: true)
        h.at(0.65)  // half-way through a show that began at 0.5
        XCTAssertEqual(h.hud.phase, .showing)
        XCTAssertEqual(h.alpha, AnimationCurve.criticallyDamped.value(0.5), accuracy: 1e-9)
        h.at(0.8)
        XCTAssertEqual(h.hud.phase, .shown)
    }

    /// MBProgressHUDTests testHideBeforeGraceTimeElapsed.
    func testHideBeforeGraceTimeElapsed() {
        let h = LifecycleHarness(graceTime: 0.5)
        h.hud.show(animated: true)
        h.at(0.2)
        h.hud.hide(animated: true, completion: h.completion())
        XCTAssertFalse(h.hud.isVisible)
        XCTAssertTrue(h.hud.finished)
        XCTAssertEqual(h.log.events, ["completion", "wasHidden"], "completion runs once, then wasHidden")
        XCTAssertNil(h.hud.nextDeadline, "the grace timer is gone")

        for t in stride(from: 0.3, through: 2.0, by: 0.1) {
            h.at(t)
            XCTAssertFalse(h.hud.isVisible, "never appears (t = \(t))")
            XCTAssertEqual(h.alpha, 0)
        }
        XCTAssertEqual(h.log.events, ["completion", "wasHidden"], "nothing more happens")
    }

    func testDelayedHideBeforeGraceTimeElapsedNeverAppears() {
        let h = LifecycleHarness(graceTime: 0.5)
        h.hud.show(animated: true)
        h.hud.hide(animated: true, afterDelay: 0.2, completion: h.completion())
        h.at(0.2)
        XCTAssertEqual(h.log.events, ["completion", "wasHidden"])
        h.at(1)
        XCTAssertFalse(h.hud.isVisible)
        XCTAssertEqual(h.log.count("appear"), 0)
    }

    /// MBProgressHUDTests testMinShowTime: hide at 0.1 with minShowTime 1.
    func testMinShowTime() {
        let h = LifecycleHarness(minShowTime: 1)
        h.hud.show(animated: true)
        h.at(0.1)
        h.hud.hide(animated: true, completion: h.completion())
        XCTAssertTrue(h.hud.isVisible, "the hide is postponed")
        XCTAssertEqual(h.deadline, 0.3, accuracy: 1e-12)

        h.at(0.9)
        XCTAssertTrue(h.hud.isVisible, "still visible at 0.9")
        XCTAssertEqual(h.hud.phase, .shown)
        XCTAssertEqual(h.alpha, 1, accuracy: 1e-12)
        XCTAssertEqual(h.log.events, ["appear"])
        XCTAssertEqual(h.deadline, 1, accuracy: 1e-12)

        h.at(1.0)
        XCTAssertEqual(h.hud.phase, .hiding, "hides once it has been visible for minShowTime")
        h.at(1.29)
        XCTAssertTrue(h.hud.isVisible)
        h.at(1.3)
        XCTAssertEqual(h.hud.phase, .hidden)
        XCTAssertEqual(h.log.events, ["appear", "completion", "wasHidden"])
    }

    func testMinShowTimeAlreadyElapsedHidesAtOnce() {
        let h = LifecycleHarness(minShowTime: 1)
        h.hud.show(animated: true)
        h.at(1.5)
        h.hud.hide(animated: true)
        XCTAssertEqual(h.hud.phase, .hiding)
        h.at(1.8)
        XCTAssertEqual(h.hud.phase, .hidden)
    }

    func testMinShowTimeCountsFromTheEndOfTheGraceTime() {
        let h = LifecycleHarness(graceTime: 0.5, minShowTime: 1)
        h.hud.show(animated: true)
        h.at(0.6)
        h.hud.hide(animated: true)
        h.at(1.49)
        XCTAssertEqual(h.hud.phase, .shown, "shown at 0.5, so held until 1.5")
        h.at(1.5)
        XCTAssertEqual(h.hud.phase, .hiding)
        h.at(1.8)
        XCTAssertEqual(h.hud.phase, .hidden)
    }

    func testShowCancelsAPostponedMinShowHide() {
        let h = LifecycleHarness(minShowTime: 1)
        h.hud.show(animated: true)
        h.at(0.1)
        h.hud.hide(animated: true)
        h.at(0.5)
        h.hud.show(animated: true)
        h.at(3)
        XCTAssertEqual(h.hud.phase, .shown, "the postponed hide was cancelled by the show")
        XCTAssertEqual(h.log.events, ["appear"])
        XCTAssertNil(h.hud.nextDeadline)
    }

    /// MBProgressHUDTests testDelayedHide: hide(afterDelay: 0.3).
    func testDelayedHide() {
        let h = LifecycleHarness()
        h.hud.show(animated: true)
        h.hud.hide(animated: true, afterDelay: 0.3, completion: h.completion())
        XCTAssertEqual(h.deadline, 0.3, accuracy: 1e-12)

        h.at(0.29)
        XCTAssertTrue(h.hud.isVisible, "visible at 0.29")
        XCTAssertEqual(h.hud.phase, .showing)
        XCTAssertEqual(h.log.events, ["appear"])

        h.at(0.3)
        XCTAssertEqual(h.hud.phase, .hiding)
        h.at(0.59)
        XCTAssertTrue(h.hud.isVisible)
        h.at(0.6)
        XCTAssertFalse(h.hud.isVisible, "hidden after delay + animation")
        XCTAssertEqual(h.hud.phase, .hidden)
        XCTAssertEqual(h.log.events, ["appear", "completion", "wasHidden"])
    }

    func testDelayedHideWithZeroDelayHidesNow() {
        let h = LifecycleHarness()
        h.hud.show(animated: false)
        h.hud.hide(animated: false, afterDelay: 0, completion: h.completion())
        XCTAssertEqual(h.hud.phase, .hidden)
        XCTAssertEqual(h.log.events, ["appear", "completion", "wasHidden"])
    }

    func testDelayedHideWithNegativeDelayHidesNow() {
        let h = LifecycleHarness()
        h.hud.show(animated: false)
        h.at(2)
        h.hud.hide(animated: true, afterDelay: -5)
        XCTAssertEqual(h.hud.phase, .hiding, "a negative delay is no delay (never in the past)")
        XCTAssertEqual(h.alpha, 1, accuracy: 1e-12)
        h.at(2.3)
        XCTAssertEqual(h.hud.phase, .hidden)
    }

    /// MBProgressHUDTests testDelayedHideDoesNotRace: show; hide after 0.3; at 0.3 show again and
    /// hide after 0.3 again -> hidden at the end.
    func testDelayedHideDoesNotRace() {
        let h = LifecycleHarness()
        h.hud.show(animated: true)
        h.hud.hide(animated: true, afterDelay: 0.3, completion: h.completion("first"))

        h.clock.now = 0.3
        h.hud.show(animated: true)
        h.hud.hide(animated: true, afterDelay: 0.3, completion: h.completion("second"))
        XCTAssertTrue(h.hud.isVisible)

        h.at(0.45)
        XCTAssertTrue(h.hud.isVisible, "the first delayed hide does not hide the second show")
        XCTAssertEqual(h.alpha, 1, accuracy: 1e-9)
        h.at(0.59)
        XCTAssertTrue(h.hud.isVisible)
        h.at(0.6)
        XCTAssertEqual(h.hud.phase, .hiding)
        h.at(0.9)
        XCTAssertFalse(h.hud.isVisible, "hidden at the end")
        XCTAssertEqual(h.log.count("first"), 1)
        XCTAssertEqual(h.log.count("second"), 1)
        XCTAssertEqual(h.log.count("wasHidden"), 1)
        XCTAssertEqual(h.log.events.last, "wasHidden")
        XCTAssertNil(h.hud.nextDeadline)
    }

    /// The same race with the second show just before the first timer fires: the show cancels it.
    func testShowBeforeDelayedHideFiresCancelsIt() {
        let h = LifecycleHarness()
        h.hud.show(animated: true)
        h.hud.hide(animated: true, afterDelay: 0.3)
        h.at(0.29)
        h.hud.show(animated: true)
        h.hud.hide(animated: true, afterDelay: 0.3)
        h.at(0.3)
        XCTAssertNotEqual(h.hud.phase, .hiding, "the first delayed hide was cancelled")
        h.at(0.58)
        XCTAssertTrue(h.hud.isVisible)
        XCTAssertGreaterThan(h.alpha, 0.999)
        h.at(0.59)
        XCTAssertEqual(h.hud.phase, .hiding)
        h.at(0.89)
        XCTAssertEqual(h.hud.phase, .hidden)
        XCTAssertEqual(h.log.events, ["appear", "wasHidden"])
    }

    func testShowCancelsPendingDelayedHide() {
        let h = LifecycleHarness()
        h.hud.show(animated: false)
        h.hud.hide(animated: true, afterDelay: 1)
        h.at(0.5)
        h.hud.show(animated: true)
        XCTAssertNil(h.hud.nextDeadline, "no delayed hide left")
        h.at(5)
        XCTAssertEqual(h.hud.phase, .shown)
    }

    /// MBProgressHUDTests testNonAnimatedHudReuse.
    func testNonAnimatedImmediateReuse() {
        let h = LifecycleHarness()
        h.hud.show(animated: false)
        h.hud.hide(animated: false)
        XCTAssertFalse(h.hud.isVisible)
        h.hud.show(animated: false)
        XCTAssertTrue(h.hud.isVisible)
        XCTAssertEqual(h.hud.phase, .shown)
        XCTAssertEqual(h.hud.presentation.alpha, 1)
        XCTAssertEqual(h.hud.presentation.scale, 1)
        XCTAssertFalse(h.hud.isAnimating)
        XCTAssertEqual(h.log.events, ["appear", "wasHidden", "appear"])
    }

    /// MBProgressHUDTests testAnimatedImmediateHudReuse: hide animated, then show animated at once.
    func testAnimatedImmediateReuse() {
        let h = LifecycleHarness()
        h.hud.show(animated: true)
        h.at(0.3)
        h.hud.hide(animated: true, completion: h.completion())
        h.hud.show(animated: true)
        XCTAssertTrue(h.hud.isVisible)
        XCTAssertNotEqual(h.hud.phase, .hiding)
        XCTAssertEqual(h.alpha, 1, accuracy: 1e-9, "nothing jumps: the hide had not moved yet")
        h.at(0.6)
        XCTAssertTrue(h.hud.isVisible)
        XCTAssertEqual(h.hud.phase, .shown)
        XCTAssertEqual(h.alpha, 1, accuracy: 1e-12)
        XCTAssertEqual(h.log.count("completion"), 1, "the interrupted hide still runs its completion")
        XCTAssertEqual(h.log.count("wasHidden"), 0, "the HUD never disappeared")
        h.at(5)
        XCTAssertEqual(h.hud.phase, .shown)
        XCTAssertEqual(h.log.count("completion"), 1)
    }

    /// Reuse in the middle of the hide animation: the show goes on from the current alpha.
    func testAnimatedReuseMidHideAnimation() {
        let h = LifecycleHarness()
        h.hud.show(animated: true)
        h.at(0.3)
        h.hud.hide(animated: true, completion: h.completion())
        h.at(0.45)
        let midway = h.alpha
        XCTAssertGreaterThan(midway, 0)
        XCTAssertLessThan(midway, 1)
        h.hud.show(animated: true)
        XCTAssertEqual(h.hud.phase, .showing)
        XCTAssertEqual(h.alpha, midway, accuracy: 1e-9, "no jump when the show takes over")
        XCTAssertEqual(h.log.count("completion"), 1)
        h.at(0.6)
        XCTAssertTrue(h.hud.isVisible, "the original hide's end time passes without hiding")
        XCTAssertGreaterThan(h.alpha, midway)
        h.at(0.75)
        XCTAssertEqual(h.hud.phase, .shown)
        XCTAssertEqual(h.alpha, 1, accuracy: 1e-12)
        XCTAssertEqual(h.log.count("wasHidden"), 0)
        XCTAssertEqual(h.log.count("appear"), 1)
    }

    func testZoomReuseMidHideAnimationContinuesFromCurrentScale() {
        let h = LifecycleHarness(animation: .zoomIn)
        h.hud.show(animated: true)
        h.at(0.3)
        h.hud.hide(animated: true)
        h.at(0.4)
        let p = h.hud.presentation
        XCTAssertGreaterThan(p.scale, 1)
        XCTAssertLessThan(p.scale, 1.5)
        h.hud.show(animated: true)
        XCTAssertEqual(h.hud.presentation.scale, p.scale, accuracy: 1e-9)
        XCTAssertEqual(h.hud.presentation.alpha, p.alpha, accuracy: 1e-9)
        h.at(0.7)
        XCTAssertEqual(h.hud.presentation, .shown)
    }

    func testNonAnimatedShowDuringHideAnimationIsShownAtOnce() {
        let h = LifecycleHarness()
        h.hud.show(animated: false)
        h.hud.hide(animated: true, completion: h.completion())
        h.at(0.1)
        h.hud.show(animated: false)
        XCTAssertEqual(h.hud.phase, .shown)
        XCTAssertEqual(h.hud.presentation, .shown)
        XCTAssertEqual(h.log.count("completion"), 1)
        h.at(1)
        XCTAssertEqual(h.hud.phase, .shown)
    }

    /// MBProgressHUDTests testUnfinishedHidingAnimation: the animations are removed mid-hide.
    func testUnfinishedHidingAnimation() {
        let h = LifecycleHarness()
        h.hud.show(animated: false)
        h.hud.hide(animated: true, completion: h.completion())
        h.at(0.1)
        XCTAssertEqual(h.hud.phase, .hiding)
        h.hud.finishAnimations()
        XCTAssertEqual(h.hud.phase, .hidden, "still ends hidden")
        XCTAssertFalse(h.hud.isVisible)
        XCTAssertFalse(h.hud.isAnimating)
        XCTAssertEqual(h.hud.presentation, .hidden)
        XCTAssertEqual(h.log.events, ["appear", "completion", "wasHidden"])
        h.at(1)
        h.hud.finishAnimations()
        XCTAssertEqual(h.log.count("completion"), 1, "the completion ran exactly once")
        XCTAssertEqual(h.log.count("wasHidden"), 1)
    }

    func testFinishAnimationsDuringShowEndsShown() {
        let h = LifecycleHarness(animation: .zoom)
        h.hud.show(animated: true)
        h.at(0.1)
        h.hud.finishAnimations()
        XCTAssertEqual(h.hud.phase, .shown)
        XCTAssertEqual(h.hud.presentation, .shown)
        XCTAssertNil(h.hud.nextDeadline)
    }

    func testFinishAnimationsWithNothingRunningChangesNothing() {
        let h = LifecycleHarness()
        h.hud.finishAnimations()
        XCTAssertEqual(h.hud.phase, .hidden)
        XCTAssertEqual(h.log.events, [])
        h.hud.show(animated: false)
        h.hud.finishAnimations()
        XCTAssertEqual(h.hud.phase, .shown)
        XCTAssertEqual(h.log.events, ["appear"])
    }
}
