import HUDClient

// The program is XHUDCommand (Swift 6). This file is compiled in Swift 5 mode: Swift 6 runs
// top-level code on the main actor, which links the concurrency runtime and libdispatch (700 KB
// of code, and their start-up) into a client that uses neither.
XHUDCommand.main()
