/// xhud's version, one place for `--version` and the notification server's information.
public enum XHUDVersion {
    public static let string = "0.1.0"
}
