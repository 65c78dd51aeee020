// `xhud --help`, `--version` and `--generate-completion-script SHELL`: the command runs this
// program for them, so that the argument parser that formats them (and the Foundation it
// brings) stays out of the command and its server.
XHUDCommand.main()
