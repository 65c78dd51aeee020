@testable import HUDCore  // Transition has only its internal memberwise initialiser
import XCTest

/// Curves, the show/hide animations of MBProgressHUD (and SVProgressHUD's pop), transitions and tweens.
final class AnimationTests: XCTestCase {

    // MARK: Curves

    func testCriticallyDampedCurveEndsAndClamps() {
        let c = AnimationCurve.criticallyDamped
        XCTAssertEqual(c.value(0), 0, accuracy: 1e-12)
        XCTAssertEqual(c.value(1), 1, accuracy: 1e-12)
        XCTAssertEqual(c.value(-1), 0, accuracy: 1e-12, "clamped below")
        XCTAssertEqual(c.value(2), 1, accuracy: 1e-12, "clamped above")
    }

    func testCriticallyDampedCurveIsMonotonicWithoutOvershoot() {
        let c = AnimationCurve.criticallyDamped
        var previous = c.value(0)
        for i in 1...2000 {
            let t = Double(i) / 2000
            let v = c.value(t)
            XCTAssertGreaterThanOrEqual(v, previous, "monotonic at t = \(t)")
            XCTAssertLessThanOrEqual(v, 1 + 1e-12, "no overshoot at t = \(t)")
            XCTAssertGreaterThanOrEqual(v, 0, "no undershoot at t = \(t)")
            previous = v
        }
    }

    func testCriticallyDampedCurveIsASpringNotLinear() {
        let c = AnimationCurve.criticallyDamped
        // A spring with damping 1 moves fast first, then settles.
        XCTAssertGreaterThan(c.value(0.25), 0.6)
        XCTAssertGreaterThan(c.value(0.5), 0.9)
        XCTAssertLessThan(c.value(0.05), 0.15, "starts with zero velocity")
        XCTAssertGreaterThan(c.value(0.9), 0.995, "settled near the end")
    }

    func testLinearAndEaseOutCurves() {
        XCTAssertEqual(AnimationCurve.linear.value(0.25), 0.25, accuracy: 1e-12)
        XCTAssertEqual(AnimationCurve.linear.value(-3), 0, accuracy: 1e-12)
        XCTAssertEqual(AnimationCurve.linear.value(3), 1, accuracy: 1e-12)
        XCTAssertEqual(AnimationCurve.easeOut.value(0), 0, accuracy: 1e-12)
        XCTAssertEqual(AnimationCurve.easeOut.value(0.5), 0.875, accuracy: 1e-12)
        XCTAssertEqual(AnimationCurve.easeOut.value(1), 1, accuracy: 1e-12)
        var previous = 0.0
        for i in 1...100 {
            let v = AnimationCurve.easeOut.value(Double(i) / 100)
            XCTAssertGreaterThanOrEqual(v, previous)
            XCTAssertLessThanOrEqual(v, 1)
            previous = v
        }
    }

    // MARK: The animation table

    func testDurations() {
        XCTAssertEqual(HUDAnimation.fade.duration, 0.3)
        XCTAssertEqual(HUDAnimation.zoom.duration, 0.3)
        XCTAssertEqual(HUDAnimation.zoomIn.duration, 0.3)
        XCTAssertEqual(HUDAnimation.zoomOut.duration, 0.3)
        XCTAssertEqual(HUDAnimation.pop.duration, 0.15)
        XCTAssertEqual(HUDAnimation.none.duration, 0)
    }

    func testCurves() {
        for a in [HUDAnimation.fade, .zoom, .zoomIn, .zoomOut] {
            XCTAssertEqual(a.curve, .criticallyDamped, "\(a) is a spring with damping 1")
        }
        XCTAssertEqual(HUDAnimation.pop.curve, .easeOut)
    }

    func testOffscreenPresentations() {
        XCTAssertEqual(HUDAnimation.fade.offscreen(showing: true), Presentation(alpha: 0, scale: 1))
        XCTAssertEqual(HUDAnimation.fade.offscreen(showing: false), Presentation(alpha: 0, scale: 1))
        XCTAssertEqual(HUDAnimation.none.offscreen(showing: true), .hidden)
        XCTAssertEqual(HUDAnimation.zoomIn.offscreen(showing: true), Presentation(alpha: 0, scale: 0.5))
        XCTAssertEqual(HUDAnimation.zoomIn.offscreen(showing: false), Presentation(alpha: 0, scale: 1.5))
        XCTAssertEqual(HUDAnimation.zoomOut.offscreen(showing: true), Presentation(alpha: 0, scale: 1.5))
        XCTAssertEqual(HUDAnimation.zoomOut.offscreen(showing: false), Presentation(alpha: 0, scale: 0.5))
        // zoom: zoom-in on show, zoom-out on hide.
        XCTAssertEqual(HUDAnimation.zoom.offscreen(showing: true), HUDAnimation.zoomIn.offscreen(showing: true))
        XCTAssertEqual(HUDAnimation.zoom.offscreen(showing: false), HUDAnimation.zoomOut.offscreen(showing: false))
        XCTAssertEqual(HUDAnimation.pop.offscreen(showing: true).scale, 1.3, accuracy: 1e-12)
        XCTAssertEqual(HUDAnimation.pop.offscreen(showing: false).scale, 1 / 1.3, accuracy: 1e-12)
        XCTAssertEqual(HUDAnimation.pop.offscreen(showing: false).alpha, 0)
    }

    func testPresentationConstants() {
        XCTAssertEqual(Presentation.shown, Presentation(alpha: 1, scale: 1))
        XCTAssertEqual(Presentation.hidden, Presentation(alpha: 0, scale: 1))
    }

    // MARK: Animations through the lifecycle

    /// Samples a show (from 0) and a hide (from `hideAt`) and checks both ends and the direction.
    private func checkAnimation(
        _ animation: HUDAnimation, duration: Double,
        showScale: (from: Double, to: Double), hideScale: (from: Double, to: Double),
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let h = LifecycleHarness(animation: animation)
        h.hud.show(animated: true)
        XCTAssertEqual(h.alpha, 0, accuracy: 1e-12, "show starts transparent", file: file, line: line)
        XCTAssertEqual(h.scale, showScale.from, accuracy: 1e-12, "show start scale", file: file, line: line)

        h.at(duration / 2)
        XCTAssertEqual(h.hud.phase, .showing, file: file, line: line)
        XCTAssertGreaterThan(h.alpha, 0, file: file, line: line)
        XCTAssertLessThan(h.alpha, 1, file: file, line: line)
        let k = animation.curve.value(0.5)
        XCTAssertEqual(h.alpha, k, accuracy: 1e-6, "alpha follows the curve", file: file, line: line)
        XCTAssertEqual(
            h.scale, showScale.from + (showScale.to - showScale.from) * k, accuracy: 1e-6,
            "scale follows the curve", file: file, line: line)

        // Just before the end the animation is still running; at the end it is done.
        XCTAssertEqual(h.hud.presentation(at: duration * 0.999).alpha, 1, accuracy: 0.05, file: file, line: line)
        h.at(duration)
        XCTAssertEqual(h.hud.phase, .shown, "shown after \(duration) s", file: file, line: line)
        XCTAssertEqual(h.alpha, 1, accuracy: 1e-12, file: file, line: line)
        XCTAssertEqual(h.scale, showScale.to, accuracy: 1e-12, file: file, line: line)

        let hideAt = 10.0
        h.at(hideAt)
        h.hud.hide(animated: true)
        XCTAssertEqual(h.hud.presentation(at: hideAt).scale, hideScale.from, accuracy: 1e-9, file: file, line: line)
        XCTAssertEqual(h.hud.presentation(at: hideAt).alpha, 1, accuracy: 1e-9, file: file, line: line)
        let mid = h.hud.presentation(at: hideAt + duration / 2)
        XCTAssertEqual(mid.alpha, 1 - k, accuracy: 1e-6, file: file, line: line)
        XCTAssertEqual(mid.scale, hideScale.from + (hideScale.to - hideScale.from) * k, accuracy: 1e-6, file: file, line: line)
        let end = h.hud.presentation(at: hideAt + duration)
        XCTAssertEqual(end.alpha, 0, accuracy: 1e-9, file: file, line: line)
        XCTAssertEqual(end.scale, hideScale.to, accuracy: 1e-9, "hide end scale", file: file, line: line)
        h.at(hideAt + duration * 0.99)
        XCTAssertEqual(h.hud.phase, .hiding, file: file, line: line)
        h.at(hideAt + duration)
        XCTAssertEqual(h.hud.phase, .hidden, "hidden after \(duration) s", file: file, line: line)
    }

    func testFadeAnimatesAlphaOnlyOverPointThreeSeconds() {
        checkAnimation(.fade, duration: 0.3, showScale: (1, 1), hideScale: (1, 1))
        // And the scale stays 1 all the way.
        let h = LifecycleHarness(animation: .fade)
        h.hud.show(animated: true)
        for i in 0...30 {
            XCTAssertEqual(h.hud.presentation(at: Double(i) / 100).scale, 1, accuracy: 1e-12)
        }
    }

    func testZoomInShowsFromHalfAndHidesToOneAndAHalf() {
        checkAnimation(.zoomIn, duration: 0.3, showScale: (0.5, 1), hideScale: (1, 1.5))
    }

    func testZoomOutShowsFromOneAndAHalfAndHidesToHalf() {
        checkAnimation(.zoomOut, duration: 0.3, showScale: (1.5, 1), hideScale: (1, 0.5))
    }

    func testZoomIsZoomInOnShowAndHalfOnHide() {
        checkAnimation(.zoom, duration: 0.3, showScale: (0.5, 1), hideScale: (1, 0.5))
    }

    func testPopIsAPointOneFiveSecondFadeFromOnePointThree() {
        checkAnimation(.pop, duration: 0.15, showScale: (1.3, 1), hideScale: (1, 1 / 1.3))
        let h = LifecycleHarness(animation: .pop)
        h.hud.show(animated: true)
        h.at(0.149)
        XCTAssertEqual(h.hud.phase, .showing)
        h.at(0.15)
        XCTAssertEqual(h.hud.phase, .shown, "pop is twice as fast as fade")
    }

    func testZoomScaleMovesMonotonicallyDuringShow() {
        let h = LifecycleHarness(animation: .zoomOut)
        h.hud.show(animated: true)
        var previous = h.hud.presentation(at: 0).scale
        for i in 1...300 {
            let s = h.hud.presentation(at: Double(i) / 1000).scale
            XCTAssertLessThanOrEqual(s, previous + 1e-12, "zoom-out shrinks towards 1 without bouncing")
            XCTAssertGreaterThanOrEqual(s, 1 - 1e-12, "no overshoot below 1")
            previous = s
        }
    }

    // MARK: Transition

    func testTransitionValues() {
        let t = Transition(
            from: Presentation(alpha: 0, scale: 2), to: Presentation(alpha: 1, scale: 1),
            start: 10, duration: 2, curve: .linear)
        XCTAssertEqual(t.end, 12)
        XCTAssertEqual(t.value(at: 10), Presentation(alpha: 0, scale: 2))
        XCTAssertEqual(t.value(at: 11).alpha, 0.5, accuracy: 1e-12)
        XCTAssertEqual(t.value(at: 11).scale, 1.5, accuracy: 1e-12)
        XCTAssertEqual(t.value(at: 12), Presentation(alpha: 1, scale: 1))
        XCTAssertEqual(t.value(at: 5), Presentation(alpha: 0, scale: 2), "before the start: the start")
        XCTAssertEqual(t.value(at: 50), Presentation(alpha: 1, scale: 1), "after the end: the end")
    }

    func testTransitionWithZeroDurationIsItsTarget() {
        let t = Transition(from: .hidden, to: .shown, start: 0, duration: 0, curve: .criticallyDamped)
        XCTAssertEqual(t.value(at: -1), .shown)
        XCTAssertEqual(t.value(at: 0), .shown)
    }

    // MARK: Tween

    func testTweenStartsAtRest() {
        let tw = Tween(0.25, duration: 0.5)
        XCTAssertEqual(tw.value(at: 0), 0.25)
        XCTAssertEqual(tw.value(at: 1e9), 0.25)
        XCTAssertEqual(tw.target, 0.25)
        XCTAssertFalse(tw.isMoving(at: 0))
    }

    func testTweenAnimatesWithEaseOut() {
        var tw = Tween(0, duration: 1)
        tw.set(1, at: 10)
        XCTAssertEqual(tw.target, 1)
        XCTAssertEqual(tw.value(at: 10), 0, accuracy: 1e-12)
        XCTAssertEqual(tw.value(at: 10.5), 0.875, accuracy: 1e-12)
        XCTAssertEqual(tw.value(at: 11), 1, accuracy: 1e-12)
        XCTAssertEqual(tw.value(at: 20), 1)
        XCTAssertTrue(tw.isMoving(at: 10.5))
        XCTAssertFalse(tw.isMoving(at: 11))
    }

    func testTweenRetargetsFromTheCurrentValue() {
        var tw = Tween(0, duration: 1)
        tw.set(1, at: 0)
        let current = tw.value(at: 0.5)
        XCTAssertEqual(current, 0.875, accuracy: 1e-12)
        tw.set(0, at: 0.5)
        XCTAssertEqual(tw.from, current, accuracy: 1e-12, "retargets from wherever the value is")
        XCTAssertEqual(tw.value(at: 0.5), current, accuracy: 1e-12, "no jump")
        XCTAssertLessThan(tw.value(at: 1.0), current, "now heading to the new target")
        XCTAssertGreaterThan(tw.value(at: 1.0), 0)
        XCTAssertEqual(tw.value(at: 1.5), 0, accuracy: 1e-12, "a full duration from the retarget")
        XCTAssertTrue(tw.isMoving(at: 1.4))
    }

    func testTweenNonAnimatedSetJumps() {
        var tw = Tween(0, duration: 1)
        tw.set(1, at: 0)
        tw.set(0.3, at: 0.2, animated: false)
        XCTAssertEqual(tw.value(at: 0.2), 0.3)
        XCTAssertEqual(tw.value(at: 0.21), 0.3)
        XCTAssertFalse(tw.isMoving(at: 0.2))
    }

    func testTweenSettingTheSameTargetDoesNotRestart() {
        var tw = Tween(0, duration: 1)
        tw.set(1, at: 0)
        tw.set(1, at: 0.5)
        XCTAssertEqual(tw.start, 0, "same target: the running animation carries on")
        XCTAssertEqual(tw.value(at: 1), 1, accuracy: 1e-12)
    }

    func testTweenWithZeroDurationSnaps() {
        var tw = Tween(0, duration: 0)
        tw.set(0.7, at: 3)
        XCTAssertEqual(tw.value(at: 3), 0.7)
        XCTAssertFalse(tw.isMoving(at: 3))
    }
}
