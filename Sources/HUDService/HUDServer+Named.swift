#if canImport(Glibc)
import Glibc
#endif
import HUDCommandLine
import HUDCore
import HUDSocket
import HUDEngine
import HUDRender

/// Named HUDs (`--id NAME`, hide, list, push, pop) and notifications: answered at once, the HUD
/// lives on in the server and hides itself.
extension HUDServer {
    /// The reply to an invocation a rule skips.
    static var skipped: String { "skipped\n" }

    func respond(_ invocation: ConfiguredInvocation, request: Wire.Request) -> Wire.Reply {
        let options = invocation.options
        if let id = options.id, !Self.isReplay(request) { replayNow(id) }
        switch options.verb {
        case .list?:
            var names = huds.keys.filter { huds[$0]?.hud.isVisible == true && !$0.hasPrefix(" ") }
            // Those a dead server showed that are still to show again are shown already.
            names += (journal?.pendingKeys ?? []).filter { !$0.hasPrefix(" ") && !names.contains($0) }
            return Wire.Reply(status: 0, output: names.map { $0 + "\n" }.joined())
        case .hide?:
            guard let id = options.id else { return Wire.Reply(status: 0) }
            // Hidden as far as a server that takes over goes, not once its fade ends; and
            // hidden too if a dead server's journal, still being read, has it.
            journal?.hidden(id)
            guard let e = huds[id] else { return Wire.Reply(status: 0) }
            e.activity = 0
            e.hud.hide(animated: true, afterDelay: options.delay ?? 0)
            return Wire.Reply(status: 0)
        case .notifications?:
            return notifications?.control(options.message ?? "", options.argument)
                ?? Wire.Reply(
                    status: 1,
                    error:
                        "xhud: this display's HUD server does not serve notifications (xhud server --notifications does)\n")
        case .pop?:
            guard let id = options.id else { return Wire.Reply(status: 0) }
            // Not here (yet): a dead server's log still being read may have it, kept up by one push.
            guard let e = huds[id] else { journal?.hidden(id); return Wire.Reply(status: 0) }
            e.activity = max(0, e.activity - 1)
            if e.activity == 0 {
                e.hud.hide(animated: true, afterDelay: options.delay ?? 0)
                journal?.hidden(id)
            }
            return Wire.Reply(status: 0)
        default:
            return show(invocation, request: request)
        }
    }

    private func show(_ invocation: ConfiguredInvocation, request: Wire.Request) -> Wire.Reply {
        let options = invocation.options
        // A rule's `skip`: the notification bus keeps it in its history, unseen.
        if options.skip == true { return Wire.Reply(status: 0, output: Self.skipped) }
        let id: String
        if let name = options.id {
            id = name
        } else if options.isNotification {
            notificationCount += 1
            id = " notification \(notificationCount)"
        } else {
            return usageError("--id NAME is missing")
        }
        var existing = huds[id]
        if let e = existing, let p = options.explicitParent, p != e.parent {
            e.remembered = false
            remove(id)  // moved to another region: start over there
            existing = nil
        }
        var config: HUDConfiguration
        let recalled =
            existing == nil
            ? huds.look(of: id).flatMap { r in
                options.explicitParent == nil || options.explicitParent == r.parent ? r : nil
            } : nil
        let parent = options.explicitParent ?? recalled?.parent ?? options.parentSpec
        do {
            // A HUD that exists or is remembered changes only what the command line names; a new
            // one starts from the configuration file.
            if let base = existing?.hud.configuration ?? recalled?.configuration {
                config = try invocation.userOptions.hudConfiguration(base: base)
            } else {
                var base = HUDConfiguration()
                base.mask = HUDMask.none  // an OSD never blocks input unless --mask says so
                config = try options.hudConfiguration(base: base)
            }
        } catch {
            return usageError("\(error)")
        }
        let entry: HUDRegistry<HUDController, ParentSpec>.Entry
        if let e = existing {
            entry = e
            e.hud.update { $0 = config }
            huds.restack()
        } else {
            if huds.isFull { return noRoom() }
            let hud: HUDController
            do { hud = try display.makeHUD(configuration: config, parent: parent, scale: options.scale) } catch {
                return usageError("\(error)")
            }
            hud.smooth = options.smooth ?? false  // else a key press shows its value in the next frame
            // The HUD's closures never hold its entry (the registry does): a hidden HUD and
            // everything it drew with are freed when it leaves the registry.
            hud.onHidden = { [unowned self, unowned hud] in if !hud.isVisible { self.remove(id) } }
            hud.onParentGone = { [unowned self] in
                self.huds[id]?.remembered = false; self.remove(id)
            }
            hud.onClick =
                options.isNotification && options.clickThrough != true && config.mode != .text
                ? { [unowned hud] in hud.hide(animated: true) } : nil
            // A named HUD that blocks input (`--mask clear`) gives it back on Escape; its button
            // (no client waits to hear it) dismisses it.
            hud.onEscape = { [unowned hud] in hud.dismiss() }
            hud.onButton = { [unowned hud] in hud.dismiss() }
            hud.onExtraButton = { [unowned hud] _ in hud.dismiss() }
            notifications?.attach(id, hud)
            accessibility?.track(id, hud)
            // Added before it shows: a new HUD's window is made where it will stay.
            entry = huds.add(hud, key: id, parent: parent, remembered: !options.isNotification)
            if huds.crowded.contains(hud.stackRegion) {
                huds[id]?.remembered = false
                notifications?.refused(id)
                remove(id)
                return noRoom()
            }
        }
        if options.verb == .push { entry.activity += 1 }
        keep()
        entry.hud.show(animated: true)
        var hideAfter: Double?
        if entry.activity == 0 {
            let after = options.isNotification ? options.notificationDuration(for: config) : (options.hideAfter ?? OptionDefaults.namedHideAfter)
            entry.hud.hide(animated: true, afterDelay: options.hideDelay(showing: after, config))
            hideAfter = after
        }
        // A named HUD replayed is in the journal already; a notification has a new key.
        if !Self.isReplay(request) || options.id == nil { journal?.shown(id, request, hideAfter: hideAfter) }
        return Wire.Reply(status: 0)
    }
}
