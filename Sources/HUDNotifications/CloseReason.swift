/// Why a notification closed, as `NotificationClosed` says it.
package enum CloseReason: UInt32, Sendable {
    case expired = 1
    case dismissed = 2
    case closed = 3
    case undefined = 4
}
