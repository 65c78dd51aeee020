import Foundation
import XCTest
@testable import XHUD
import HUDSettings

/// Icon names of the icon theme work wherever the library takes an image, as on the command line.
final class IconNameTests: XCTestCase {
    var display = ""

    override func setUpWithError() throws {
        display = try TestDisplay.start()
        HUD.callbackQueue = nil
        guard IconTheme.lookup("dialog-information", size: 74, scale: 1) != nil,
            IconTheme.lookup("emblem-ok-symbolic", size: 56, scale: 1) != nil
        else {
            throw XCTSkip("no icon theme with dialog-information and emblem-ok-symbolic (install adwaita-icon-theme)")
        }
    }

    override func tearDown() { resetSharedHUD(display: display) }

    func isImageFile(_ path: String?) -> Bool {
        guard let path else { return false }
        return path.hasPrefix("/") && (path.hasSuffix(".png") || path.hasSuffix(".svg")) && FileManager.default.fileExists(atPath: path)
    }

    func testSetCustomImageTakesAnIconName() throws {
        let hud = try HUD(display: display)
        try hud.setImage("dialog-information")
        XCTAssertEqual(hud.mode, .custom)
        XCTAssertTrue(isImageFile(hud.image), hud.image ?? "nil")
        XCTAssertTrue(hud.image!.contains("dialog-information"), hud.image!)

        // A symbolic icon is drawn in the content colour, as the command line draws it.
        let symbolic = try HUD(display: display)
        try symbolic.setImage("emblem-ok-symbolic")
        XCTAssertTrue(symbolic.tintImage)
        XCTAssertTrue(isImageFile(symbolic.image))

        XCTAssertThrowsError(try hud.setImage("no-such-icon-anywhere")) { e in
            guard case HUDError.badImage(let m) = e else { return XCTFail("\(e)") }
            XCTAssertTrue(m.contains("no icon 'no-such-icon-anywhere'"), m)
        }
        // A path is still a path.
        XCTAssertThrowsError(try hud.setImage("/nonexistent/picture.png"))
    }

    func testMBProgressHUDsCustomViewTakesAnIconName() throws {
        let mb = MBProgressHUD(view: .monitor("pointer"))
        mb.customView = "dialog-information"
        mb.mode = .customView
        XCTAssertTrue(isImageFile(mb.customView), mb.customView ?? "nil")
        XCTAssertEqual(mb.hud?.mode, .custom)
    }

    func testSVProgressHUDsResultImagesTakeIconNames() throws {
        SVProgressHUD.setSuccessImage("emblem-ok-symbolic")
        SVProgressHUD.setInfoImage("dialog-information")
        ProgressHUD.setWarningImage("dialog-information")
        var c = HUDConfiguration()
        ProgressHUD.settings { c = $0.config }
        XCTAssertTrue(isImageFile(c.successImage), c.successImage ?? "nil")
        XCTAssertTrue(isImageFile(c.infoImage), c.infoImage ?? "nil")
        XCTAssertTrue(isImageFile(c.warningImage), c.warningImage ?? "nil")
        XCTAssertNil(c.errorImage)

        // Shown: the drawn HUD has the file, not the name.
        SVProgressHUD.showSuccess(withStatus: "Saved")
        let hud = try XCTUnwrap(ProgressHUD.State.shared.current)
        let drawn = try hud.runtime.sync { hud.hostForTests?.configuration }
        XCTAssertEqual(drawn?.successImage, c.successImage)
        XCTAssertEqual(drawn?.resultImage, c.successImage)

        // A name no theme has keeps the drawn icon.
        SVProgressHUD.setErrorImage("no-such-icon-anywhere")
        ProgressHUD.settings { c = $0.config }
        XCTAssertNil(c.errorImage)
        ProgressHUD.setSuccessImage(nil)
        ProgressHUD.settings { c = $0.config }
        XCTAssertNil(c.successImage)
    }

    func testShowImageTakesAnIconName() throws {
        ProgressHUD.showImage("dialog-information", status: "Note")
        let hud = try XCTUnwrap(ProgressHUD.State.shared.current)
        XCTAssertEqual(hud.mode, .custom)
        XCTAssertTrue(isImageFile(hud.configuration.image), hud.configuration.image ?? "nil")
    }
}
