"""Clicks on a wlroots compositor through its virtual pointer protocol
(zwlr_virtual_pointer_manager_v1), with libwayland-client through ctypes: a headless sway has no
input device, so a virtual pointer is the only one, and the seat gains its pointer with it.

    python3 wayland_pointer.py X Y [X Y ...] WIDTH HEIGHT

moves to each point of the WIDTH x HEIGHT output in turn, and clicks at the last.

Run as the compositor's user with WAYLAND_DISPLAY set; exit 3 when the compositor has no
virtual pointer manager."""

from __future__ import annotations

import ctypes
import sys
import time

lib = ctypes.CDLL("libwayland-client.so.0")


class Message(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("signature", ctypes.c_char_p), ("types", ctypes.POINTER(ctypes.c_void_p))]


class Interface(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("version", ctypes.c_int), ("method_count", ctypes.c_int),
                ("methods", ctypes.POINTER(Message)), ("event_count", ctypes.c_int), ("events", ctypes.POINTER(Message))]


class Argument(ctypes.Union):
    _fields_ = [("i", ctypes.c_int32), ("u", ctypes.c_uint32), ("s", ctypes.c_char_p), ("o", ctypes.c_void_p),
                ("n", ctypes.c_uint32), ("a", ctypes.c_void_p), ("h", ctypes.c_int32)]


def interface(name: bytes, version: int, methods: list[tuple[bytes, bytes]]) -> Interface:
    nulls = (ctypes.c_void_p * 8)()
    table = (Message * len(methods))(*(Message(n, s, nulls) for n, s in methods))
    i = Interface(name, version, len(methods), table, 0, None)
    i._keep = (nulls, table)
    return i


MANAGER = interface(b"zwlr_virtual_pointer_manager_v1", 1, [(b"create_virtual_pointer", b"?on"), (b"destroy", b"")])
POINTER = interface(b"zwlr_virtual_pointer_v1", 1, [
    (b"motion", b"uff"), (b"motion_absolute", b"uuuuu"), (b"button", b"uuu"), (b"axis", b"uuf"), (b"frame", b""),
    (b"axis_source", b"u"), (b"axis_stop", b"uu"), (b"axis_discrete", b"uufi"), (b"destroy", b"")])

lib.wl_display_connect.restype = ctypes.c_void_p
lib.wl_display_connect.argtypes = [ctypes.c_char_p]
lib.wl_display_roundtrip.argtypes = [ctypes.c_void_p]
lib.wl_proxy_marshal_array_flags.restype = ctypes.c_void_p
lib.wl_proxy_marshal_array_flags.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_uint32,
                                             ctypes.c_uint32, ctypes.POINTER(Argument)]
lib.wl_proxy_add_listener.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
GLOBAL = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_char_p, ctypes.c_uint32)
REMOVE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint32)


def request(proxy, opcode, args, creating=None, version=1):
    a = (Argument * max(1, len(args)))(*args)
    return lib.wl_proxy_marshal_array_flags(proxy, opcode, ctypes.addressof(creating) if creating else None, version, 0, a)


def main(points: list[tuple[int, int]]) -> int:
    display = lib.wl_display_connect(None)
    if not display:
        print("cannot connect to the Wayland display", file=sys.stderr)
        return 1
    registry_interface = ctypes.c_char.in_dll(lib, "wl_registry_interface")
    registry = lib.wl_proxy_marshal_array_flags(display, 1, ctypes.addressof(registry_interface), 1, 0,
                                                (Argument * 1)(Argument(n=0)))
    globals_: dict[bytes, tuple[int, int]] = {}
    on_global = GLOBAL(lambda _d, _r, name, iface, version: globals_.__setitem__(iface, (name, version)))
    on_remove = REMOVE(lambda _d, _r, _name: None)
    listener = (ctypes.c_void_p * 2)(ctypes.cast(on_global, ctypes.c_void_p), ctypes.cast(on_remove, ctypes.c_void_p))
    lib.wl_proxy_add_listener(registry, listener, None)
    lib.wl_display_roundtrip(display)
    if b"zwlr_virtual_pointer_manager_v1" not in globals_:
        print("the compositor has no zwlr_virtual_pointer_manager_v1", file=sys.stderr)
        return 3
    name, _ = globals_[b"zwlr_virtual_pointer_manager_v1"]
    manager = request(registry, 0, [Argument(u=name), Argument(s=MANAGER.name), Argument(u=1), Argument(n=0)], MANAGER)
    pointer = request(manager, 0, [Argument(o=None), Argument(n=0)], POINTER)
    lib.wl_display_roundtrip(display)
    time.sleep(0.3)   # the clients hear of the seat's new pointer and ask for theirs
    t = 0
    w, h = int(sys.argv[-2]), int(sys.argv[-1])
    for x, y in points:
        t += 10
        request(pointer, 1, [Argument(u=t), Argument(u=x), Argument(u=y), Argument(u=w), Argument(u=h)])
        request(pointer, 4, [])
        lib.wl_display_roundtrip(display)
        time.sleep(0.1)
    for state in (1, 0):   # BTN_LEFT down, up
        t += 50
        request(pointer, 2, [Argument(u=t), Argument(u=0x110), Argument(u=state)])
        request(pointer, 4, [])
        lib.wl_display_roundtrip(display)
        time.sleep(0.1)
    return 0


if __name__ == "__main__":
    # Arguments: X Y pairs, then the output's width and height.
    values = [int(v) for v in sys.argv[1:]]
    sys.exit(main(list(zip(values[:-2:2], values[1:-2:2]))))
