"""One proxied X11 connection followed in both directions, enough to name its round trips: the
connection set-up, each request's opcode and length (with BIG-REQUESTS), the extensions' major
opcodes from QueryExtension replies, atoms from InternAtom replies, each reply's, error's and
event's sequence number; and which request batches paint (draw onto a mapped window, or map one
with a background pixel)."""

from __future__ import annotations

import struct
import time


CORE = {1: "CreateWindow", 2: "ChangeWindowAttributes", 3: "GetWindowAttributes", 4: "DestroyWindow",
        5: "DestroySubwindows", 6: "ChangeSaveSet", 7: "ReparentWindow", 8: "MapWindow", 9: "MapSubwindows",
        10: "UnmapWindow", 11: "UnmapSubwindows", 12: "ConfigureWindow", 13: "CirculateWindow", 14: "GetGeometry",
        15: "QueryTree", 16: "InternAtom", 17: "GetAtomName", 18: "ChangeProperty", 19: "DeleteProperty",
        20: "GetProperty", 21: "ListProperties", 22: "SetSelectionOwner", 23: "GetSelectionOwner",
        24: "ConvertSelection", 25: "SendEvent", 26: "GrabPointer", 27: "UngrabPointer", 28: "GrabButton",
        29: "UngrabButton", 30: "ChangeActivePointerGrab", 31: "GrabKeyboard", 32: "UngrabKeyboard", 33: "GrabKey",
        34: "UngrabKey", 35: "AllowEvents", 36: "GrabServer", 37: "UngrabServer", 38: "QueryPointer",
        39: "GetMotionEvents", 40: "TranslateCoordinates", 41: "WarpPointer", 42: "SetInputFocus",
        43: "GetInputFocus", 44: "QueryKeymap", 45: "OpenFont", 46: "CloseFont", 47: "QueryFont",
        48: "QueryTextExtents", 49: "ListFonts", 50: "ListFontsWithInfo", 51: "SetFontPath", 52: "GetFontPath",
        53: "CreatePixmap", 54: "FreePixmap", 55: "CreateGC", 56: "ChangeGC", 57: "CopyGC", 58: "SetDashes",
        59: "SetClipRectangles", 60: "FreeGC", 61: "ClearArea", 62: "CopyArea", 63: "CopyPlane", 64: "PolyPoint",
        65: "PolyLine", 66: "PolySegment", 67: "PolyRectangle", 68: "PolyArc", 69: "FillPoly",
        70: "PolyFillRectangle", 71: "PolyFillArc", 72: "PutImage", 73: "GetImage", 74: "PolyText8",
        75: "PolyText16", 76: "ImageText8", 77: "ImageText16", 78: "CreateColormap", 79: "FreeColormap",
        80: "CopyColormapAndFree", 81: "InstallColormap", 82: "UninstallColormap", 83: "ListInstalledColormaps",
        84: "AllocColor", 85: "AllocNamedColor", 86: "AllocColorCells", 87: "AllocColorPlanes", 88: "FreeColors",
        89: "StoreColors", 90: "StoreNamedColor", 91: "QueryColors", 92: "LookupColor", 93: "CreateCursor",
        94: "CreateGlyphCursor", 95: "FreeCursor", 96: "RecolorCursor", 97: "QueryBestSize", 98: "QueryExtension",
        99: "ListExtensions", 100: "ChangeKeyboardMapping", 101: "GetKeyboardMapping", 102: "ChangeKeyboardControl",
        103: "GetKeyboardControl", 104: "Bell", 105: "ChangePointerControl", 106: "GetPointerControl",
        107: "SetScreenSaver", 108: "GetScreenSaver", 109: "ChangeHosts", 110: "ListHosts", 111: "SetAccessControl",
        112: "SetCloseDownMode", 113: "KillClient", 114: "RotateProperties", 115: "ForceScreenSaver",
        116: "SetPointerMapping", 117: "GetPointerMapping", 118: "SetModifierMapping", 119: "GetModifierMapping",
        127: "NoOperation"}
MINOR = {
    "RENDER": {0: "QueryVersion", 1: "QueryPictFormats", 2: "QueryPictIndexValues", 4: "CreatePicture",
               5: "ChangePicture", 6: "SetPictureClipRectangles", 7: "FreePicture", 8: "Composite", 10: "Trapezoids",
               11: "Triangles", 17: "CreateGlyphSet", 19: "FreeGlyphSet", 20: "AddGlyphs", 22: "FreeGlyphs",
               23: "CompositeGlyphs8", 24: "CompositeGlyphs16", 25: "CompositeGlyphs32", 26: "FillRectangles",
               28: "SetPictureTransform", 29: "QueryFilters", 30: "SetPictureFilter", 33: "CreateSolidFill",
               34: "CreateLinearGradient", 35: "CreateRadialGradient"},
    "RANDR": {0: "QueryVersion", 4: "SelectInput", 5: "GetScreenInfo", 8: "GetScreenResources", 9: "GetOutputInfo",
              20: "GetCrtcInfo", 25: "GetScreenResourcesCurrent", 31: "GetOutputPrimary", 42: "GetMonitors"},
    "XFIXES": {0: "QueryVersion", 2: "SelectSelectionInput", 5: "CreateRegion", 10: "DestroyRegion",
               11: "SetRegion", 21: "SetWindowShapeRegion"},
    "MIT-SHM": {0: "QueryVersion", 1: "Attach", 2: "Detach", 3: "PutImage", 4: "GetImage", 5: "CreatePixmap"},
    "SHAPE": {0: "QueryVersion", 1: "Rectangles", 2: "Mask", 3: "Combine", 4: "Offset", 5: "QueryExtents"},
    "BIG-REQUESTS": {0: "Enable"}, "XKEYBOARD": {0: "UseExtension"}, "DAMAGE": {0: "QueryVersion", 1: "Create"},
    "Generic Event Extension": {0: "QueryVersion"}, "SYNC": {0: "Initialize"},
    "XInputExtension": {47: "XIQueryVersion"}, "Composite": {0: "QueryVersion"},
}
DRAWING_CORE = {61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 74, 75, 76, 77}
EVENTS = {2: "KeyPress", 3: "KeyRelease", 4: "ButtonPress", 5: "ButtonRelease", 6: "MotionNotify", 7: "EnterNotify",
          8: "LeaveNotify", 9: "FocusIn", 10: "FocusOut", 11: "KeymapNotify", 12: "Expose", 13: "GraphicsExpose",
          14: "NoExpose", 15: "VisibilityNotify", 16: "CreateNotify", 17: "DestroyNotify", 18: "UnmapNotify",
          19: "MapNotify", 20: "MapRequest", 21: "ReparentNotify", 22: "ConfigureNotify", 23: "ConfigureRequest",
          24: "GravityNotify", 25: "ResizeRequest", 26: "CirculateNotify", 27: "CirculateRequest",
          28: "PropertyNotify", 29: "SelectionClear", 30: "SelectionRequest", 31: "SelectionNotify",
          32: "ColormapNotify", 33: "ClientMessage", 34: "MappingNotify", 35: "GenericEvent"}
PREDEFINED_ATOMS = {1: "PRIMARY", 23: "RESOURCE_MANAGER", 31: "STRING", 39: "WM_NAME", 40: "WM_NORMAL_HINTS",
                    35: "WM_HINTS", 67: "WM_CLASS", 68: "WM_TRANSIENT_FOR"}


class Conn:
    """One proxied X connection: what each side sent, parsed enough to name the round trips."""

    def __init__(self, cid: int):
        self.id = cid
        self.broken = ""   # why the stream could not be followed, once it could not
        self.cbuf = b""
        self.sbuf = b""
        self.csetup = False
        self.ssetup = False
        self.order = "<"
        self.seq = 0  # the last request's sequence number (the set-up is 0)
        self.requests: dict[int, str] = {}  # seq -> label
        self.pending_ext: dict[int, str] = {}  # seq of QueryExtension -> name
        self.pending_atom: dict[int, str] = {}  # seq of InternAtom -> name
        self.ext: dict[int, str] = {}  # major opcode -> extension name
        self.atoms: dict[int, str] = dict(PREDEFINED_ATOMS)
        self.last_sseq = 0
        self.painted_on_map: set[int] = set()  # windows with a background pixel: the map paints
        self.mapped: set[int] = set()
        self.pictures: dict[int, int] = {}  # RENDER picture -> drawable
        # (time, "c", [(seq, label, kind)]) with kind "map", "draw" or ""; (time, "s", [label])
        self.log: list[tuple[float, str, list]] = []
        self.opened = time.monotonic()

    def u16(self, b, o):
        return struct.unpack_from(self.order + "H", b, o)[0]

    def u32(self, b, o):
        return struct.unpack_from(self.order + "I", b, o)[0]

    def atom(self, a: int) -> str:
        return self.atoms.get(a, f"atom {a}")

    def client_data(self, data: bytes, t: float) -> None:
        self.cbuf += data
        items = []
        b = self.cbuf
        o = 0
        if not self.csetup:
            if len(b) < 12:
                return
            self.order = "<" if b[0:1] == b"l" else ">"
            n, d = self.u16(b, 6), self.u16(b, 8)
            size = 12 + (n + 3) // 4 * 4 + (d + 3) // 4 * 4
            if len(b) < size:
                return
            o = size
            self.csetup = True
            items.append((0, "connection set-up", ""))
        while len(b) - o >= 4:
            op = b[o]
            length = self.u16(b, o + 2) * 4
            hdr = 4
            if length == 0:
                if len(b) - o < 8:
                    break
                length = self.u32(b, o + 4) * 4
                hdr = 8
            if len(b) - o < length:
                break
            self.seq += 1
            label, kind = self.name_request(b, o, op, hdr, length)
            self.requests[self.seq] = label
            items.append((self.seq, label, kind))
            o += length
        self.cbuf = b[o:]
        if items:
            self.log.append((t, "c", items))

    def target(self, b, body: int, length_end: int, off: int) -> int | None:
        return self.u32(b, body + off) if body + off + 4 <= length_end else None

    def kind_of(self, b, o, op, hdr, length, ext: str | None, minor: int) -> str:
        """"draw" for drawing onto a mapped window (or a picture of one), "map" for a map that
        paints by itself (a window with a background pixel), else ""."""
        body, end = o + hdr, o + length
        if ext is None:
            if op == 1 and end - body >= 28:  # CreateWindow: wid, ..., value-mask at +24
                if self.u32(b, body + 24) & 0x2:  # CWBackPixel
                    self.painted_on_map.add(self.u32(b, body))
                return ""
            if op in (8, 9):
                w = self.target(b, body, end, 0)
                self.mapped.add(w)
                return "map" if w in self.painted_on_map else ""
            if op in DRAWING_CORE:
                d = self.target(b, body, end, 4 if op in (62, 63) else 0)
                return "draw" if d in self.mapped else ""
            return ""
        if ext == "RENDER":
            if minor == 4:  # CreatePicture: pid, drawable
                pid, d = self.target(b, body, end, 0), self.target(b, body, end, 4)
                if pid is not None:
                    self.pictures[pid] = d
                return ""
            off = {8: 12, 26: 4, 10: 8, 11: 8, 12: 8, 13: 8, 23: 8, 24: 8, 25: 8}.get(minor)
            if off is None:
                return ""
            pic = self.target(b, body, end, off)
            return "draw" if self.pictures.get(pic) in self.mapped else ""
        if ext == "MIT-SHM" and minor == 3:
            return "draw" if self.target(b, body, end, 0) in self.mapped else ""
        return ""

    def name_request(self, b, o, op, hdr, length):
        minor = b[o + 1]
        ext = self.ext.get(op, f"ext {op}") if op >= 128 else None
        kind = self.kind_of(b, o, op, hdr, length, ext, minor)
        label = self.label_request(b, o, op, hdr, length, ext, minor)
        return label, kind

    def label_request(self, b, o, op, hdr, length, ext, minor):
        if op == 98:  # QueryExtension
            n = self.u16(b, o + hdr)
            name = b[o + hdr + 4:o + hdr + 4 + n].decode(errors="replace")
            self.pending_ext[self.seq] = name
            return f"QueryExtension {name}"
        if op == 16:
            n = self.u16(b, o + hdr)
            name = b[o + hdr + 4:o + hdr + 4 + n].decode(errors="replace")
            self.pending_atom[self.seq] = name
            return f"InternAtom {name}"
        if op == 20 and length >= 24:
            return f"GetProperty {self.atom(self.u32(b, o + hdr + 4))}"
        if op == 23 and length >= 8:
            return f"GetSelectionOwner {self.atom(self.u32(b, o + hdr))}"
        if op == 43:
            return "GetInputFocus (XSync)"
        if ext is None:
            return CORE.get(op, f"core {op}")
        return f"{ext} {MINOR.get(ext, {}).get(minor, str(minor))}"

    def server_data(self, data: bytes) -> list[tuple[str, int, str]]:
        """Parses what the server sent; returns (kind, seq, label) for each message."""
        self.sbuf += data
        b = self.sbuf
        o = 0
        out = []
        if not self.ssetup:
            if len(b) < 8:
                return out
            size = 8 + self.u16(b, 6) * 4
            if len(b) < size:
                return out
            o = size
            self.ssetup = True
            out.append(("reply", 0, "connection set-up"))
        while len(b) - o >= 32:
            kind = b[o] & 0x7F
            size = 32
            if kind == 1 or kind == 35:
                size += self.u32(b, o + 4) * 4
            if len(b) - o < size:
                break
            s16 = self.u16(b, o + 2)
            seq = self.full_seq(s16)
            if kind == 1:
                label = self.requests.get(seq, f"request #{seq}")
                if seq in self.pending_ext:
                    name = self.pending_ext.pop(seq)
                    if b[o + 8]:
                        self.ext[b[o + 9]] = name
                if seq in self.pending_atom:
                    self.atoms[self.u32(b, o + 8)] = self.pending_atom.pop(seq)
                out.append(("reply", seq, label))
            elif kind == 0:
                out.append(("error", seq, f"error {b[o + 1]} on " + self.requests.get(seq, f"#{seq}")))
            else:
                out.append(("event", seq, EVENTS.get(kind, f"event {kind}")))
            o += size
        self.sbuf = b[o:]
        return out

    def full_seq(self, s16: int) -> int:
        # The newest request whose low 16 bits match, at most our own last sequence number.
        base = self.seq & ~0xFFFF
        s = base | s16
        if s > self.seq:
            s -= 0x10000
        return max(s, 0)
