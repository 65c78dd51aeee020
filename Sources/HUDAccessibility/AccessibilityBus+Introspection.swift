// What `Introspect` says of each object: its interfaces as D-Bus introspection XML.
extension AccessibilityBus {
    func introspection(_ o: Object) -> String {
        let head = """
            <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
            <node>
            """
        let standard = """
              <interface name="org.freedesktop.DBus.Introspectable"><method name="Introspect"><arg type="s" direction="out"/></method></interface>
              <interface name="org.freedesktop.DBus.Peer"><method name="Ping"/></interface>
            """
        switch o {
        case .tree:
            return head + standard + "</node>"
        case .cache:
            return head + standard + """
                  <interface name="org.a11y.atspi.Cache">
                    <method name="GetItems"><arg name="nodes" type="a\(Self.cacheItemSignature)" direction="out"/></method>
                    <signal name="AddAccessible"><arg name="nodeAdded" type="\(Self.cacheItemSignature)"/></signal>
                    <signal name="RemoveAccessible"><arg name="nodeRemoved" type="(so)"/></signal>
                  </interface>
                </node>
                """
        case .root, .hud:
            var s = head + standard + Self.accessibleXML
            if case .root = o { s += Self.applicationXML }
            return s + "</node>"
        }
    }

    static let accessibleXML = """
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="out"/></method>
            <method name="GetAll"><arg type="s" direction="in"/><arg type="a{sv}" direction="out"/></method>
            <method name="Set"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="in"/></method>
          </interface>
          <interface name="org.a11y.atspi.Accessible">
            <property name="Name" type="s" access="read"/>
            <property name="Description" type="s" access="read"/>
            <property name="Parent" type="(so)" access="read"/>
            <property name="ChildCount" type="i" access="read"/>
            <property name="Locale" type="s" access="read"/>
            <property name="AccessibleId" type="s" access="read"/>
            <method name="GetChildAtIndex"><arg direction="in" type="i"/><arg direction="out" type="(so)"/></method>
            <method name="GetChildren"><arg direction="out" type="a(so)"/></method>
            <method name="GetIndexInParent"><arg direction="out" type="i"/></method>
            <method name="GetRelationSet"><arg direction="out" type="a(ua(so))"/></method>
            <method name="GetRole"><arg direction="out" type="u"/></method>
            <method name="GetRoleName"><arg direction="out" type="s"/></method>
            <method name="GetLocalizedRoleName"><arg direction="out" type="s"/></method>
            <method name="GetState"><arg direction="out" type="au"/></method>
            <method name="GetAttributes"><arg direction="out" type="a{ss}"/></method>
            <method name="GetApplication"><arg direction="out" type="(so)"/></method>
            <method name="GetInterfaces"><arg direction="out" type="as"/></method>
          </interface>
          <interface name="org.a11y.atspi.Event.Object">
            <signal name="ChildrenChanged"><arg type="s"/><arg type="i"/><arg type="i"/><arg type="v"/><arg type="a{sv}"/></signal>
            <signal name="PropertyChange"><arg type="s"/><arg type="i"/><arg type="i"/><arg type="v"/><arg type="a{sv}"/></signal>
            <signal name="StateChanged"><arg type="s"/><arg type="i"/><arg type="i"/><arg type="v"/><arg type="a{sv}"/></signal>
            <signal name="Announcement"><arg type="s"/><arg type="i"/><arg type="i"/><arg type="v"/><arg type="a{sv}"/></signal>
          </interface>

        """

    static let applicationXML = """
          <interface name="org.a11y.atspi.Application">
            <property name="ToolkitName" type="s" access="read"/>
            <property name="Version" type="s" access="read"/>
            <property name="AtspiVersion" type="s" access="read"/>
            <property name="Id" type="i" access="readwrite"/>
            <method name="GetLocale"><arg direction="in" type="u"/><arg direction="out" type="s"/></method>
            <method name="GetApplicationBusAddress"><arg direction="out" type="s"/></method>
          </interface>

        """
}
