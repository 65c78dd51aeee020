import HUDCore
import XCTest

/// The show/hide state machine in virtual time: the basics, completions, deadlines and time
/// (the rules of hud-behaviour.md); MBProgressHUD's own cases are LifecyclePortTests.
final class LifecycleTests: XCTestCase {

    // MARK: Basics

    func testInitialStateIsHiddenWithNothingPending() {
        let h = LifecycleHarness()
        XCTAssertEqual(h.hud.phase, .hidden)
        XCTAssertFalse(h.hud.isVisible)
        XCTAssertFalse(h.hud.isAnimating)
        XCTAssertTrue(h.hud.finished)
        XCTAssertNil(h.hud.nextDeadline)
        XCTAssertEqual(h.hud.presentation, .hidden)
        XCTAssertEqual(h.hud.graceTime, 0)
        XCTAssertEqual(h.hud.minShowTime, 0)
        XCTAssertEqual(h.hud.animation, .fade)
    }

    func testAnimatedShowFadesInOverPointThreeSeconds() {
        let h = LifecycleHarness()
        h.hud.show(animated: true)
        XCTAssertEqual(h.hud.phase, .showing)
        XCTAssertTrue(h.hud.isVisible)
        XCTAssertTrue(h.hud.isAnimating)
        XCTAssertFalse(h.hud.finished)
        XCTAssertEqual(h.log.events, ["appear"])
        XCTAssertEqual(h.alpha, 0, accuracy: 1e-12)
        XCTAssertEqual(h.deadline, 0.3, accuracy: 1e-12)

        h.at(0.15)
        XCTAssertEqual(h.hud.phase, .showing)
        XCTAssertEqual(h.alpha, AnimationCurve.criticallyDamped.value(0.5), accuracy: 1e-9)
        XCTAssertGreaterThan(h.alpha, 0)
        XCTAssertLessThan(h.alpha, 1)

        h.at(0.3)
        XCTAssertEqual(h.hud.phase, .shown)
        XCTAssertFalse(h.hud.isAnimating)
        XCTAssertEqual(h.hud.presentation, .shown)
        XCTAssertNil(h.hud.nextDeadline)
        XCTAssertEqual(h.log.events, ["appear"], "appears once")
    }

    func testNonAnimatedShowIsShownAtOnce() {
        let h = LifecycleHarness()
        h.hud.show(animated: false)
        XCTAssertEqual(h.hud.phase, .shown)
        XCTAssertFalse(h.hud.isAnimating)
        XCTAssertEqual(h.hud.presentation, .shown)
        XCTAssertEqual(h.log.events, ["appear"])
        XCTAssertNil(h.hud.nextDeadline)
    }

    func testAnimatedHideFadesOutThenHides() {
        let h = LifecycleHarness()
        h.hud.show(animated: false)
        h.at(1)
        h.hud.hide(animated: true, completion: h.completion())
        XCTAssertEqual(h.hud.phase, .hiding)
        XCTAssertTrue(h.hud.isVisible, "still drawn while hiding")
        XCTAssertTrue(h.hud.finished)
        XCTAssertEqual(h.alpha, 1, accuracy: 1e-12)
        h.at(1.15)
        XCTAssertEqual(h.alpha, 1 - AnimationCurve.criticallyDamped.value(0.5), accuracy: 1e-9)
        XCTAssertEqual(h.hud.phase, .hiding)
        XCTAssertEqual(h.log.events, ["appear"])
        h.at(1.3)
        XCTAssertEqual(h.hud.phase, .hidden)
        XCTAssertFalse(h.hud.isVisible)
        XCTAssertEqual(h.hud.presentation, .hidden)
        XCTAssertEqual(h.log.events, ["appear", "completion", "wasHidden"])
    }

    func testNonAnimatedHideHidesAtOnce() {
        let h = LifecycleHarness()
        h.hud.show(animated: false)
        h.hud.hide(animated: false, completion: h.completion())
        XCTAssertEqual(h.hud.phase, .hidden)
        XCTAssertEqual(h.hud.presentation.alpha, 0)
        XCTAssertEqual(h.log.events, ["appear", "completion", "wasHidden"])
    }

    func testAnimationNoneIsInstantEvenWhenAnimated() {
        let h = LifecycleHarness(animation: .none)
        h.hud.show(animated: true)
        XCTAssertEqual(h.hud.phase, .shown)
        XCTAssertEqual(h.alpha, 1)
        h.hud.hide(animated: true)
        XCTAssertEqual(h.hud.phase, .hidden)
        XCTAssertEqual(h.log.events, ["appear", "wasHidden"])
    }

    // MARK: Completions

    /// MBProgressHUD's done: the completion block first, then hudWasHidden, once per hide.
    func testCompletionRunsBeforeWasHiddenExactlyOncePerHide() {
        let h = LifecycleHarness()
        for round in 0..<3 {
            let t = Double(round)
            h.at(t)
            h.hud.show(animated: true)
            h.at(t + 0.3)
            h.hud.hide(animated: true, completion: h.completion("c\(round)"))
            h.at(t + 0.6)
        }
        XCTAssertEqual(
            h.log.events,
            [
                "appear", "c0", "wasHidden",
                "appear", "c1", "wasHidden",
                "appear", "c2", "wasHidden",
            ])
    }

    func testSeveralCompletionsRunInOrderBeforeWasHidden() {
        let h = LifecycleHarness()
        h.hud.show(animated: false)
        h.hud.hide(animated: true, completion: h.completion("a"))
        h.at(0.1)
        h.hud.hide(animated: true, completion: h.completion("b"))
        XCTAssertEqual(h.hud.phase, .hiding, "a second hide does not restart the animation")
        h.at(0.3)
        XCTAssertEqual(h.hud.phase, .hidden)
        XCTAssertEqual(h.log.events, ["appear", "a", "b", "wasHidden"])
    }

    func testCompletionRunsBeforeWasHiddenWhenNotAnimated() {
        let h = LifecycleHarness()
        h.hud.show(animated: true)
        var phaseInCompletion: HUDLifecycle.Phase?
        h.hud.hide(
            animated: false,
            completion: { [unowned h] in
                phaseInCompletion = h.hud.phase; h.log.events.append("c")
            })
        XCTAssertEqual(h.log.events, ["appear", "c", "wasHidden"])
        XCTAssertEqual(phaseInCompletion, .hidden, "the HUD is hidden when its completion runs")
    }

    func testHideWhenNeverShownStillCompletes() {
        // MBProgressHUD's hideUsingAnimation: without showStarted it calls done at once.
        let h = LifecycleHarness()
        h.hud.hide(animated: true, completion: h.completion())
        XCTAssertEqual(h.hud.phase, .hidden)
        XCTAssertEqual(h.log.events, ["completion", "wasHidden"])
    }

    func testShowFromWasHiddenCallbackWorks() {
        let h = LifecycleHarness()
        var reshown = false
        h.hud.onWasHidden = { [unowned h] in
            if !reshown { reshown = true; h.hud.show(animated: false) }
        }
        h.hud.show(animated: false)
        h.hud.hide(animated: true)
        h.at(0.3)
        XCTAssertTrue(reshown)
        XCTAssertEqual(h.hud.phase, .shown)
        XCTAssertEqual(h.hud.presentation, .shown)
    }

    // MARK: Deadlines and time

    func testNextDeadlineIsTheEarliestPendingTimer() {
        let h = LifecycleHarness(graceTime: 0.5)
        h.hud.show(animated: true)
        XCTAssertEqual(h.deadline, 0.5, accuracy: 1e-12, "the grace timer")
        h.at(0.5)
        XCTAssertEqual(h.deadline, 0.8, accuracy: 1e-12, "the show animation's end")
        h.hud.hide(animated: true, afterDelay: 1.5)
        XCTAssertEqual(h.deadline, 0.8, accuracy: 1e-12, "still the earlier animation end")
        h.at(0.8)
        XCTAssertEqual(h.deadline, 2, accuracy: 1e-12, "the delayed hide")
        h.at(2)
        XCTAssertEqual(h.deadline, 2.3, accuracy: 1e-12, "the hide animation's end")
        h.at(2.3)
        XCTAssertNil(h.hud.nextDeadline)
    }

    func testNextDeadlineIncludesAPostponedMinShowHide() {
        let h = LifecycleHarness(minShowTime: 2)
        h.hud.show(animated: false)
        h.at(0.5)
        h.hud.hide(animated: true)
        XCTAssertEqual(h.deadline, 2, accuracy: 1e-12)
    }

    func testUpdateWithoutTimeMovingDoesNothing() {
        let h = LifecycleHarness()
        h.hud.show(animated: true)
        for _ in 0..<5 { h.hud.update() }
        XCTAssertEqual(h.hud.phase, .showing)
        XCTAssertEqual(h.log.events, ["appear"])
    }

    /// One late update processes every deadline at its own time, in order.
    func testLateUpdateProcessesEveryDeadlineInOrder() {
        let h = LifecycleHarness(minShowTime: 1)
        h.hud.show(animated: true)
        h.hud.hide(animated: true, afterDelay: 0.6, completion: h.completion())
        h.at(10)
        XCTAssertEqual(h.hud.phase, .hidden)
        XCTAssertEqual(h.log.events, ["appear", "completion", "wasHidden"])
        XCTAssertNil(h.hud.nextDeadline)
    }

    func testDelayedHideThenMinShowComposeStepByStep() {
        let h = LifecycleHarness(minShowTime: 1)
        h.hud.show(animated: true)
        h.hud.hide(animated: true, afterDelay: 0.6)
        h.at(0.6); XCTAssertTrue(h.hud.isVisible, "the delayed hide is held by minShowTime")
        XCTAssertEqual(h.deadline, 1, accuracy: 1e-12)
        h.at(0.99); XCTAssertEqual(h.hud.phase, .shown)
        h.at(1.0); XCTAssertEqual(h.hud.phase, .hiding)
        h.at(1.3); XCTAssertEqual(h.hud.phase, .hidden)
    }

    // A delayed hide asked for during the grace time still hides the HUD once it has appeared.
    func testGraceTimeDoesNotCancelALaterDelayedHide() {
        let h = LifecycleHarness(graceTime: 0.5)
        h.hud.show(animated: true)
        h.hud.hide(animated: true, afterDelay: 0.6, completion: h.completion())
        h.at(0.5); XCTAssertEqual(h.hud.phase, .showing)
        h.at(0.6); XCTAssertEqual(h.hud.phase, .hiding)
        h.at(0.9); XCTAssertEqual(h.hud.phase, .hidden)
        XCTAssertEqual(h.log.events, ["appear", "completion", "wasHidden"])
    }

    func testGraceThenDelayedHideThenMinShowCompose() {
        let h = LifecycleHarness(graceTime: 0.5, minShowTime: 1)
        h.hud.show(animated: true)
        h.hud.hide(animated: true, afterDelay: 0.6)
        h.at(0.49); XCTAssertFalse(h.hud.isVisible)
        h.at(0.5); XCTAssertEqual(h.hud.phase, .showing)
        h.at(0.6); XCTAssertTrue(h.hud.isVisible, "the delayed hide is held by minShowTime")
        h.at(1.49); XCTAssertEqual(h.hud.phase, .shown)
        h.at(1.5); XCTAssertEqual(h.hud.phase, .hiding)
        h.at(1.8); XCTAssertEqual(h.hud.phase, .hidden)
    }

    func testPresentationAtTimeDoesNotAdvanceTheStateMachine() {
        let h = LifecycleHarness()
        h.hud.show(animated: true)
        XCTAssertEqual(h.hud.presentation(at: 0.3).alpha, 1, accuracy: 1e-12)
        XCTAssertEqual(h.hud.presentation(at: 0.15).alpha, AnimationCurve.criticallyDamped.value(0.5), accuracy: 1e-9)
        XCTAssertEqual(h.hud.phase, .showing, "asking is not updating")
        XCTAssertEqual(h.hud.presentation.alpha, 0, accuracy: 1e-12)
    }

    func testShowAgainWhileShownDoesNotAppearTwice() {
        let h = LifecycleHarness()
        h.hud.show(animated: true)
        h.at(0.1)
        h.hud.show(animated: true)
        h.at(1)
        h.hud.show(animated: true)
        XCTAssertEqual(h.hud.phase, .shown, "already at the target: nothing to animate")
        XCTAssertEqual(h.log.count("appear"), 1)
    }

    func testHiddenAfterZoomHideRestsAtScaleOne() {
        let h = LifecycleHarness(animation: .zoomIn)
        h.hud.show(animated: true)
        h.at(0.3)
        h.hud.hide(animated: true)
        h.at(0.6)
        XCTAssertEqual(h.hud.presentation, .hidden)
    }
}
