-- xhud OSD for volume and brightness keys in awesome: add to ~/.config/awesome/rc.lua after
-- globalkeys is defined and before root.keys(globalkeys) is called (awesome 4.x; in 4.4 and
-- later awful.keyboard.append_global_keybindings{...} does the same).
--
-- xhud-volume and xhud-brightness are in /usr/share/doc/xhud/examples/; copy them somewhere
-- on your PATH first:
--   install -m 755 /usr/share/doc/xhud/examples/xhud-volume /usr/share/doc/xhud/examples/xhud-brightness ~/.local/bin/

local awful = require("awful")
local gears = require("gears")

-- false: no startup notification (no busy cursor) for a command that returns at once.
local function run(cmd) return function() awful.spawn(cmd, false) end end

globalkeys = gears.table.join(globalkeys,
    awful.key({}, "XF86AudioRaiseVolume",  run("xhud-volume up"),
              { description = "volume up", group = "media" }),
    awful.key({}, "XF86AudioLowerVolume",  run("xhud-volume down"),
              { description = "volume down", group = "media" }),
    awful.key({}, "XF86AudioMute",         run("xhud-volume mute"),
              { description = "toggle mute", group = "media" }),
    awful.key({}, "XF86MonBrightnessUp",   run("xhud-brightness up"),
              { description = "brightness up", group = "media" }),
    awful.key({}, "XF86MonBrightnessDown", run("xhud-brightness down"),
              { description = "brightness down", group = "media" })
)

-- Without PulseAudio/PipeWire, xhud-volume falls back to amixer by itself. By hand, with ALSA:
--   run("sh -c 'amixer -q -M set Master 5%+ && xhud-volume show'")
--   run("sh -c 'amixer -q -M set Master 5%- && xhud-volume show'")
--   run("sh -c 'amixer -q set Master toggle && xhud-volume show'")
