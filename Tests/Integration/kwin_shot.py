"""Writes a screenshot of KWin's output (its native pixels) to stdout as a binary PPM, through
KWin's own screenshot interface (org.kde.KWin.ScreenShot2 on the session bus; KWin started
with KWIN_SCREENSHOT_NO_PERMISSION_CHECKS=1). Run as the user KWin runs as, with its bus's
DBUS_SESSION_BUS_ADDRESS.

    kwin_shot.py [OUTPUT]      (default: Virtual-0)"""

import os
import sys
import threading

import dbus


def main():
    screen = sys.argv[1] if len(sys.argv) > 1 else "Virtual-0"
    shot = dbus.Interface(dbus.SessionBus().get_object("org.kde.KWin", "/org/kde/KWin/ScreenShot2"),
                          "org.kde.KWin.ScreenShot2")
    r, w = os.pipe()
    chunks = []

    def read():
        while True:
            b = os.read(r, 1 << 20)
            if not b:
                return
            chunks.append(b)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    # The bus's copy of the write end: taken back and closed after the call, so that the
    # reader sees the end of the image (or of nothing, when the call failed).
    fd = dbus.types.UnixFd(w)
    os.close(w)
    try:
        result = shot.CaptureScreen(screen, {"native-resolution": True}, fd)
    except dbus.exceptions.DBusException as e:
        sys.exit(f"kwin_shot.py: {e.get_dbus_message()}")
    finally:
        os.close(fd.take())
    reader.join(10)
    data = b"".join(chunks)
    width, height, stride = int(result["width"]), int(result["height"]), int(result["stride"])
    # QImage's ARGB32 (5) and its premultiplied form (6): B, G, R, A in memory.
    if int(result.get("format", 5)) not in (4, 5, 6) or len(data) < stride * height:
        sys.exit(f"kwin_shot.py: an image of format {result.get('format')} and {len(data)} bytes")
    rgb = bytearray(width * height * 3)
    for y in range(height):
        row = data[y * stride:y * stride + width * 4]
        line = memoryview(rgb)[y * width * 3:(y + 1) * width * 3]
        line[0::3] = row[2::4]
        line[1::3] = row[1::4]
        line[2::3] = row[0::4]
    sys.stdout.buffer.write(b"P6\n%d %d\n255\n" % (width, height) + bytes(rgb))


if __name__ == "__main__":
    main()
