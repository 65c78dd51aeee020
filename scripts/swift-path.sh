# Sourced by the scripts that build: Swift where its toolchain tarball is unpacked (/opt/swift)
# when it is not on PATH (a stock Debian 12 with Swift added, run with the system's PATH).
if ! command -v swift >/dev/null && [ -x /opt/swift/usr/bin/swift ]; then PATH=/opt/swift/usr/bin:$PATH; export PATH; fi
