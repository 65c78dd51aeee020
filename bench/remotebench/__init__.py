"""The remote-display benchmark behind bench/remote.py, by part: the X11 protocol followed on a
proxied connection (x11), the proxy that holds each byte half a round trip each way (proxy), the
round trips a client waited on before its first paint (round_trips) and the markdown report
(report)."""
