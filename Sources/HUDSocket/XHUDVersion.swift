/// xhud's version, one place for `--version` and the notification server's information.
package enum XHUDVersion {
    package static let string = "0.1.0"
}
