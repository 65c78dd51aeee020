"""A TCP proxy for an X display on asyncio (one event loop thread): 127.0.0.1:listen to
127.0.0.1:target, every byte held half the round trip in each direction, order kept (a FIFO per
direction, each chunk sent at its arrival time + RTT/2), each connection followed as X11 (x11)."""

from __future__ import annotations

import asyncio
import collections
import sys
import threading
import time

from remotebench.x11 import Conn


class Proxy:
    """127.0.0.1:listen -> 127.0.0.1:target, each direction held `delay` seconds, order kept."""

    def __init__(self, listen: int, target: int, delay: float):
        self.listen, self.target, self.delay = listen, target, delay
        self.conns: list[Conn] = []
        self.lock = threading.Lock()
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        if not self.ready.wait(10):
            raise RuntimeError("the proxy did not start")

    def _run(self):
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(
            self.loop.create_server(lambda: _Side(self, None), "127.0.0.1", self.listen, reuse_address=True))
        self.ready.set()
        self.loop.run_forever()

    def close(self):
        def stop():
            self.server.close()
            for c in list(_Side.live):
                c.transport.close()
            self.loop.stop()
        self.loop.call_soon_threadsafe(stop)
        self.thread.join(5)

    def new_conn(self) -> Conn:
        with self.lock:
            c = Conn(len(self.conns))
            self.conns.append(c)
            return c


class _Delayed:
    """A FIFO of (due, bytes) written to a transport when due."""

    def __init__(self, loop, transport, delay, on_sent=None):
        self.loop, self.transport, self.delay, self.on_sent = loop, transport, delay, on_sent
        self.q: collections.deque = collections.deque()
        self.timer = None
        self.closing = False

    def push(self, data: bytes, meta=None):
        self.q.append((self.loop.time() + self.delay, data, meta))
        if self.timer is None:
            self.timer = self.loop.call_at(self.q[0][0], self.flush)

    def close_after(self):
        self.closing = True
        if self.timer is None:
            self.flush()

    def flush(self):
        self.timer = None
        now = self.loop.time()
        while self.q and self.q[0][0] <= now:
            _, data, meta = self.q.popleft()
            if self.transport is not None and not self.transport.is_closing():
                self.transport.write(data)
            if self.on_sent and meta:
                self.on_sent(meta)
        if self.q:
            self.timer = self.loop.call_at(self.q[0][0], self.flush)
        elif self.closing and self.transport is not None:
            self.transport.close()


class _Side(asyncio.Protocol):
    live: set = set()

    def __init__(self, proxy: Proxy, peer):
        self.proxy, self.peer = proxy, peer
        self.is_server = peer is not None  # the side toward the X server
        self.transport = None
        self.out: _Delayed | None = None  # toward this side's peer
        self.conn: Conn | None = None
        self.early: list[bytes] = []

    def connection_made(self, transport):
        self.transport = transport
        _Side.live.add(self)
        if self.peer is None:  # a client: connect to the X server
            self.conn = self.proxy.new_conn()
            transport.pause_reading()
            asyncio.ensure_future(self._upstream())

    async def _upstream(self):
        loop = self.proxy.loop
        try:
            _, up = await loop.create_connection(lambda: _Side(self.proxy, self), "127.0.0.1", self.proxy.target)
        except OSError:
            self.transport.close()
            return
        self.peer = up
        up.conn = self.conn
        conn = self.conn
        self.out = _Delayed(loop, up.transport, self.proxy.delay)
        up.out = _Delayed(loop, self.transport, self.proxy.delay,
                          on_sent=lambda items: conn.log.append((time.monotonic(), "s", items)))
        early, self.early = self.early, []
        for data in early:
            self.data_received(data)
        self.transport.resume_reading()

    def data_received(self, data):
        if self.out is None:
            # Before the X server's side is connected (Python 3.11.2's pause_reading in
            # connection_made does not hold): kept, sent once it is.
            self.early.append(data)
            return
        # The bytes are forwarded whatever the parser makes of them: a stream it cannot follow
        # costs the round-trip names, never the client's connection.
        items = None
        try:
            if self.is_server:
                items = self.conn.server_data(data)
            else:
                self.conn.client_data(data, time.monotonic())
        except Exception as e:  # noqa: BLE001
            if not self.conn.broken:
                self.conn.broken = f"{type(e).__name__}: {e}"
                print(f"remote.py: connection {self.conn.id}: the X11 stream could not be followed "
                            f"({self.conn.broken}); its round trips are not counted", file=sys.stderr)
        self.out.push(data, items)

    def connection_lost(self, exc):
        _Side.live.discard(self)
        if self.out is not None:
            self.out.close_after()
        elif self.peer is not None and self.peer.transport is not None:
            self.peer.transport.close()
