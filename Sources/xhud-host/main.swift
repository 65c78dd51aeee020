import HUDHost

// The program is HostCommand (Swift 6). This file is compiled in Swift 5 mode: Swift 6 runs
// top-level code on the main actor, which links the concurrency runtime and libdispatch (700 KB
// of code, and their start-up) into a program that uses neither.
HostCommand.main()
