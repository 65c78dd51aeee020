import Foundation
import XHUD

// MBProgressHUD's and SVProgressHUD's Swift spellings, unchanged: what a program ported from iOS
// looks like. The main thread sleeps and never runs the main queue; the completion still runs
// (on the library's callback thread), so this prints "true" then "dismissed".

let view: ParentSpec = .monitor("primary")
let hud = MBProgressHUD.showAdded(to: view, animated: true)
hud.mode = .annularDeterminate
hud.label.text = "Downloading"
hud.detailsLabel.text = "file 1 of 3"
hud.progress = 0.25
hud.bezelView.style = .blur
hud.bezelView.color = HUDColor(red: 0.1, green: 0.1, blue: 0.1, alpha: 0.8)
hud.contentColor = HUDColor(red: 1, green: 0.6, blue: 0, alpha: 1)
hud.offset = CGPoint(x: 0, y: 120)
hud.minSize = CGSize(width: 150, height: 100)
hud.isSquare = true
hud.removeFromSuperViewOnHide = true
print(MBProgressHUD.forView(view) === hud)
sleep(1)
hud.mode = .determinateHorizontalBar
hud.progress = 0.75
sleep(1)
MBProgressHUD.hide(for: view, animated: true)

SVProgressHUD.setDefaultStyle(.dark)
SVProgressHUD.setDefaultMaskType(.black)
SVProgressHUD.setMinimumSize(CGSize(width: 120, height: 120))
SVProgressHUD.setRingThickness(3)
SVProgressHUD.setCornerRadius(14)
SVProgressHUD.setFont("Sans Bold 15")
SVProgressHUD.setImageViewSize(CGSize(width: 28, height: 28))
SVProgressHUD.setSuccessImage("emblem-ok-symbolic")
SVProgressHUD.show(withStatus: "Loading")
sleep(1)
SVProgressHUD.showProgress(0.4, status: "Downloading")
sleep(1)
SVProgressHUD.showSuccess(withStatus: "Saved")
SVProgressHUD.dismiss(withDelay: 1.0) { print("dismissed") }
sleep(3)
